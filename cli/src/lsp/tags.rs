//! Hover and completion of `+k8s:` tags in a buffer: read from the line under the cursor and the tag catalog, no
//! analysis (a comment being typed need not parse).

use super::position::{offset, position};
use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, Hover, HoverContents, MarkupContent,
    MarkupKind, Position, Range,
};
use vgc_ir::TagPrefix;
use vgc_ir::profile::Upstream;

/// The line of `text` holding byte `at`: (its start offset, its text without the line break).
fn line_at(text: &str, at: usize) -> (usize, &str) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    (start, text[start..end].trim_end_matches('\r'))
}

/// The byte where the line's `//` comment starts, if the line has one (a `//` in a string literal before a real
/// comment is taken for the comment: tags are written on comment-only lines).
fn comment_start(line: &str) -> Option<usize> {
    // A `//` inside a string or rune literal of the line does not start a comment (`var s = "// +k8s:x"`); a raw
    // string is taken to end on its line (struct tags, the raw strings of API types, do).
    let mut quote: Option<u8> = None;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == b'\\' && q != b'`' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' || b == b'`' => quote = Some(b),
            None if b == b'/' && bytes.get(i + 1) == Some(&b'/') => return Some(i),
            None => {}
        }
        i += 1;
    }
    None
}

/// Whether byte `line_start` of Go source `text` is in code — not inside a raw string literal or a block comment
/// opened on an earlier line, where a `// +k8s:` is text, not a tag. A lexer's scan from the file's start (strings,
/// runes, raw strings, both kinds of comment).
fn starts_in_code(text: &str, line_start: usize) -> bool {
    #[derive(PartialEq)]
    enum In {
        Code,
        Line,
        Block,
        Quoted(u8),
        Raw,
    }
    let b = text.as_bytes();
    let mut state = In::Code;
    let mut i = 0;
    while i < line_start.min(b.len()) {
        let c = b[i];
        let next = b.get(i + 1).copied();
        match state {
            In::Code => match (c, next) {
                (b'/', Some(b'/')) => state = In::Line,
                (b'/', Some(b'*')) => {
                    state = In::Block;
                    i += 1;
                }
                (b'"' | b'\'', _) => state = In::Quoted(c),
                (b'`', _) => state = In::Raw,
                _ => {}
            },
            In::Line if c == b'\n' => state = In::Code,
            In::Block if c == b'*' && next == Some(b'/') => {
                state = In::Code;
                i += 1;
            }
            In::Quoted(_) if c == b'\\' => i += 1,
            In::Quoted(q) if c == q || c == b'\n' => state = In::Code,
            In::Raw if c == b'`' => state = In::Code,
            _ => {}
        }
        i += 1;
    }
    matches!(state, In::Code | In::Line)
}

/// Whether `c` may be part of a tag name or a value being typed (`validation-gen`, `eachVal`, `k8s-short-name`
/// formats alike; JSON names may hold any letter: `ünï`).
fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The hover of the tag whose `+prefix:name` spans `pos`, under `release` and `prefix`.
#[must_use]
pub(crate) fn hover(
    text: &str,
    pos: Position,
    release: Upstream,
    prefix: &TagPrefix,
) -> Option<Hover> {
    let at = offset(text, pos);
    let (start, line) = line_at(text, at);
    let col = at - start;
    let comment = comment_start(line)?;
    let marker = format!("+{}", prefix.as_str());
    let mut from = comment;
    while let Some(i) = line[from..].find(&marker) {
        let tag_start = from + i;
        let name_start = tag_start + marker.len();
        let name_len = line[name_start..]
            .find(|c: char| !name_char(c))
            .unwrap_or(line.len() - name_start);
        let end = name_start + name_len;
        if (tag_start..=end).contains(&col) && name_len > 0 {
            let name = format!("k8s:{}", &line[name_start..end]);
            let entry = crate::explain::tag_entry(&name, release, prefix)?;
            let mut value = entry.markdown();
            if let Some(line) = release_line(&name, release) {
                value.push_str(&format!("\n{line}\n"));
            }
            return Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                }),
                range: Some(Range::new(
                    position(text, start + tag_start),
                    position(text, start + end),
                )),
            });
        }
        from = end.max(tag_start + 1);
    }
    None
}

/// The release the catalog tag `name` (canonical) appeared in, against `release`, the profile in force
/// (`Upstream::tag_since`): `None` for vgc's extension tags and names the catalog does not know.
fn release_line(name: &str, release: Upstream) -> Option<String> {
    // This release's own spelling of a later tag (`k8s:discriminator` under 1.36): its entry says so already.
    if release.tag_renames().iter().any(|r| r.from == name) {
        return Some(format!(
            "Accepted by upstream {release}, the profile in force."
        ));
    }
    let spec = vgc_ir::catalog::lookup(name)?;
    if spec.id.is_extension() {
        return None;
    }
    let first = Upstream::ALL[0];
    // The release spells it otherwise (`+k8s:member` for `+k8s:ifMode` under 1.36).
    let spelt = release
        .tag_renames()
        .iter()
        .find(|r| r.to == spec.id)
        .map(|r| format!(" Upstream {release} spells it `+{}`.", r.from))
        .unwrap_or_default();
    Some(match Upstream::tag_since(spec.id) {
        Some(since) if since > release => format!(
            "Not in upstream {release}, the profile in force: validation-gen has it from {since} on.{spelt}"
        ),
        Some(since) => format!("Upstream {since} and later (profile in force: {release})."),
        None => format!(
            "Every upstream release vgc knows ({first} and later; profile in force: {release})."
        ),
    })
}

/// What is being typed at a completion position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Completing {
    /// A tag name right after `+prefix:`.
    TagName,
    /// A `format=` value.
    Format,
    /// A `listType=` value.
    ListType,
    /// An `update=` value.
    Update,
    /// A JSON field name: `listMapKey=`, `subfield(`, an argument name of `item(`/`listMapItem(` — of the tag
    /// `tag` (canonical), written first on the line above the declaration whose first line reads `anchor`
    /// (trimmed), at line `line` of the buffer.
    Json {
        /// The tag (`k8s:listMapKey`, `k8s:subfield`, `k8s:item`, `k8s:listMapItem`).
        tag: &'static str,
        /// The declaration's line, trimmed.
        anchor: String,
        /// Its line number in the buffer.
        line: usize,
    },
    /// An option name: `ifEnabled(`, `ifDisabled(`.
    Option,
    /// A segment of a field-path constraint's path (`constraint:`/`target:` of `minimum(`, `maximum(`,
    /// `exclusiveMinimum(`, `exclusiveMaximum(`; vgc's extension): `parents` are the segments typed before the last
    /// `.`, the tag is written above the declaration whose first line reads `anchor`, at line `line` of the buffer.
    Path {
        /// The segments before the one being typed.
        parents: Vec<String>,
        /// The declaration's line, trimmed.
        anchor: String,
        /// Its line number in the buffer.
        line: usize,
    },
    /// A union or group name: `union:` of `unionMember(`/`unionDiscriminator(` (`kind` `"union"`) or of
    /// `zeroOrOneOfMember(` (`"zeroOrOneOf"`), `group:` of `memberOf(` (`"virtual"`), written first on the line
    /// above the declaration whose first line reads `anchor`, at line `line` of the buffer.
    Group {
        /// `"union"`, `"zeroOrOneOf"` or `"virtual"`.
        kind: &'static str,
        /// The declaration's line, trimmed.
        anchor: String,
        /// Its line number in the buffer.
        line: usize,
    },
}

/// What is being typed at `pos` of `text` in a `+prefix:` tag: a tag name, the value of `format=` or `listType=`
/// (also as a chained tag's), or a JSON field name (`listMapKey=`, `subfield(`, `item(`'s keys — only in the
/// line's first tag, whose subject is the declaration below the comment); `None` elsewhere.
#[must_use]
pub(crate) fn completing(text: &str, pos: Position, prefix: &TagPrefix) -> Option<Completing> {
    let at = offset(text, pos);
    let (start, line) = line_at(text, at);
    if !starts_in_code(text, start) {
        return None;
    }
    let before = &line[..(at - start).min(line.len())];
    let comment = comment_start(before)?;
    let marker = format!("+{}", prefix.as_str());
    let i = before[comment..].rfind(&marker)?;
    // The tag's subject is the declaration's when every tag it is chained to keeps the subject: the stability
    // and option wrappers (`+k8s:beta(since: "1.37")=+k8s:listMapKey=`).
    let first = before[comment..comment + i]
        .split(&marker)
        .skip(1)
        .all(|outer| {
            let name = &outer[..outer.find(|c: char| !name_char(c)).unwrap_or(outer.len())];
            matches!(name, "alpha" | "beta" | "ifEnabled" | "ifDisabled")
        });
    let typed = &before[comment + i + marker.len()..];
    if typed.chars().all(name_char) {
        return Some(Completing::TagName);
    }
    let value = |key: &str| {
        typed
            .strip_prefix(key)
            .is_some_and(|v| v.chars().all(name_char))
    };
    if value("format=") {
        return Some(Completing::Format);
    }
    if value("listType=") {
        return Some(Completing::ListType);
    }
    if value("update=") {
        return Some(Completing::Update);
    }
    // The value of argument `arg` (or the positional one, `""`) of tag `name(`, being typed: quotes allowed.
    let arg_value = |name: &str, arg: &str| {
        let Some(args) = typed.strip_prefix(name).and_then(|t| t.strip_prefix('(')) else {
            return false;
        };
        if args.contains(')') {
            return false;
        }
        let last = args.rsplit(',').next().unwrap_or("").trim_start();
        let v = if arg.is_empty() {
            Some(last)
        } else {
            last.strip_prefix(arg)
                .and_then(|r| r.trim_start().strip_prefix(':'))
                .map(str::trim_start)
        };
        v.is_some_and(|v| v.trim_start_matches('"').chars().all(name_char))
    };
    if arg_value("ifEnabled", "") || arg_value("ifDisabled", "") {
        return Some(Completing::Option);
    }
    // A constraint path: its base is the declaration's whatever wrappers or `eachVal` it is chained behind.
    let constraint = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
        .iter()
        .find_map(|name| {
            let args = typed.strip_prefix(name)?.strip_prefix('(')?;
            if args.contains(')') {
                return None;
            }
            let last = args.rsplit(',').next().unwrap_or("").trim_start();
            let (arg, value) = last.split_once(':')?;
            if !matches!(arg.trim(), "constraint" | "target") {
                return None;
            }
            let value = value.trim_start().trim_start_matches('"');
            value
                .chars()
                .all(|c| name_char(c) || c == '.')
                .then(|| value.to_string())
        });
    if let Some(value) = constraint {
        let chained_ok = before[comment..comment + i]
            .split(&marker)
            .skip(1)
            .all(|outer| {
                let name = &outer[..outer.find(|c: char| !name_char(c)).unwrap_or(outer.len())];
                matches!(
                    name,
                    "alpha" | "beta" | "ifEnabled" | "ifDisabled" | "eachVal"
                )
            });
        let (anchor, line) = chained_ok
            .then(|| below(text, start, line, pos))
            .flatten()?;
        let parents = match value.rsplit_once('.') {
            Some((p, _)) => p.split('.').map(str::to_string).collect(),
            None => Vec::new(),
        };
        return Some(Completing::Path {
            parents,
            anchor,
            line,
        });
    }
    let group = if arg_value("unionMember", "union") || arg_value("unionDiscriminator", "union") {
        Some("union")
    } else if arg_value("zeroOrOneOfMember", "union") {
        Some("zeroOrOneOf")
    } else if arg_value("memberOf", "group") {
        Some("virtual")
    } else {
        None
    };
    if let Some(kind) = group {
        let (anchor, line) = first.then(|| below(text, start, line, pos)).flatten()?;
        return Some(Completing::Group { kind, anchor, line });
    }
    let tag = if value("listMapKey=") {
        "k8s:listMapKey"
    } else if typed
        .strip_prefix("subfield(")
        .is_some_and(|v| v.trim_start_matches('"').chars().all(name_char))
    {
        "k8s:subfield"
    } else if let Some((name, args)) = typed.split_once('(')
        && matches!(name, "item" | "listMapItem")
        && !args.contains(')')
    {
        // An argument name: after `(` or a `, `, no `:` yet.
        let last = args.rsplit(',').next().unwrap_or("").trim_start();
        if !last.chars().all(name_char)
            || (args.contains(',') && args.matches('"').count() % 2 == 1)
        {
            return None;
        }
        if name == "item" {
            "k8s:item"
        } else {
            "k8s:listMapItem"
        }
    } else {
        return None;
    };
    if !first {
        return None;
    }
    let (anchor, line) = below(text, start, line, pos)?;
    Some(Completing::Json { tag, anchor, line })
}

/// The declaration a comment line (`line`, starting at byte `start` of `text`, at `pos`) is written above: the next
/// line that is not a comment or blank, trimmed, and its line number.
fn below(text: &str, start: usize, line: &str, pos: Position) -> Option<(String, usize)> {
    let rest = text.get(start + line.len()..)?;
    let (n, decl) = rest.lines().enumerate().skip(1).find(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with("//")
    })?;
    Some((
        decl.trim().to_string(),
        usize::try_from(pos.line).unwrap_or(usize::MAX) + n,
    ))
}

/// Names as items of `kind` with `detail` (option names, union and group names).
#[must_use]
pub(crate) fn name_items(names: Vec<String>, detail: &str) -> Vec<CompletionItem> {
    value_items(
        names
            .into_iter()
            .map(|n| (n, detail.to_string(), String::new())),
        CompletionItemKind::VALUE,
    )
}

/// The items of a value list: `(label, one-line detail, documentation)`.
fn value_items<'a>(
    values: impl IntoIterator<Item = (String, String, String)> + 'a,
    kind: CompletionItemKind,
) -> Vec<CompletionItem> {
    values
        .into_iter()
        .map(|(label, detail, doc)| CompletionItem {
            label,
            kind: Some(kind),
            detail: Some(detail),
            documentation: (!doc.is_empty()).then_some(Documentation::MarkupContent(
                MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: doc,
                },
            )),
            ..CompletionItem::default()
        })
        .collect()
}

/// The format names `+k8s:format=` takes under `release` — the built-in formats the profile knows
/// (`k8s-condition-reason` from 1.38 on, as lowering refuses it before) and then `project`'s
/// (`--validation-extensions-file`, with their docs).
#[must_use]
pub(crate) fn format_items(
    release: Upstream,
    project: &[vgc_ir::extensions::ProjectFormat],
) -> Vec<CompletionItem> {
    use vgc_runtime::formats::Format;
    let builtin = Format::ALL
        .iter()
        .filter(|f| **f != Format::K8sConditionReason || release.condition_reason_format())
        .map(|f| {
            let doc = vgc_ir::catalog::FORMAT_DOCS
                .iter()
                .find(|(n, _)| *n == f.name())
                .map_or("", |(_, d)| *d);
            (
                f.name().to_string(),
                crate::explain::first_sentence(doc),
                doc.to_string(),
            )
        });
    let project = project.iter().map(|p| {
        (
            p.name.clone(),
            format!("project format: {}", p.docs),
            format!("{}\n\nPattern: `{}`", p.docs, p.pattern),
        )
    });
    value_items(builtin.chain(project), CompletionItemKind::ENUM_MEMBER)
}

/// `listType`'s values (upstream `listType`: atomic, set, map).
#[must_use]
pub(crate) fn list_type_items() -> Vec<CompletionItem> {
    let values = [
        (
            "atomic",
            "The list is replaced as a whole; items need not be unique.",
        ),
        (
            "set",
            "Items are unique; an update compares them as a set (ratcheting, uniqueness).",
        ),
        (
            "map",
            "Items are unique by their `+k8s:listMapKey` fields and matched by them across updates.",
        ),
    ];
    value_items(
        values
            .into_iter()
            .map(|(v, d)| (v.to_string(), d.to_string(), String::new())),
        CompletionItemKind::ENUM_MEMBER,
    )
}

/// `update`'s values (upstream `validators/update.go`; the messages are upstream's, `vgc explain update`).
#[must_use]
pub(crate) fn update_items() -> Vec<CompletionItem> {
    let values = [
        (
            "NoSet",
            "An update may not set the field when it was unset: \"field cannot be set once created\".",
        ),
        (
            "NoUnset",
            "An update may not clear the field once set: \"field cannot be cleared once set\".",
        ),
        (
            "NoModify",
            "An update may not change the field's value once set: \"field cannot be modified once set\" (not on lists or maps: `eachVal=+k8s:update=NoModify`).",
        ),
        (
            "NoAddItem",
            "Lists and maps: an update may not add an item: \"item may not be added\".",
        ),
        (
            "NoRemoveItem",
            "Lists and maps: an update may not remove an item: \"item may not be removed\".",
        ),
    ];
    value_items(
        values
            .into_iter()
            .map(|(v, d)| (v.to_string(), d.to_string(), String::new())),
        CompletionItemKind::ENUM_MEMBER,
    )
}

/// JSON field names as items: `(name, Go type as written)`.
#[must_use]
pub(crate) fn json_items(names: Vec<(String, String)>) -> Vec<CompletionItem> {
    value_items(
        names
            .into_iter()
            .map(|(n, ty)| (n, format!("field of type {ty}"), String::new())),
        CompletionItemKind::FIELD,
    )
}

/// Completion items at `pos` that need no analysis: every catalog tag name (with its one-line doc) right after
/// `+prefix:` in a comment, the format names of the profile after `format=` (`project`: the project formats),
/// `listType`'s values; nothing elsewhere (JSON names: [`completing`] and the module's database).
#[cfg(test)]
fn completion(
    text: &str,
    pos: Position,
    release: Upstream,
    prefix: &TagPrefix,
    project: &[vgc_ir::extensions::ProjectFormat],
) -> Vec<CompletionItem> {
    match completing(text, pos, prefix) {
        Some(Completing::TagName) => tag_items(release, prefix),
        Some(Completing::Format) => format_items(release, project),
        Some(Completing::ListType) => list_type_items(),
        Some(Completing::Update) => update_items(),
        Some(
            Completing::Json { .. }
            | Completing::Option
            | Completing::Group { .. }
            | Completing::Path { .. },
        )
        | None => Vec::new(),
    }
}

/// One item per tag name the profile `release` accepts ([`Upstream::tag_named`]: a tag validation-gen gained later is
/// left out, as upstream of that release would refuse it, and the release's own spellings are in; vgc's extension
/// tags are offered, their entry says they are off unless enabled):
/// the name without the prefix as label and text, the docs' first sentence as detail, the whole entry as
/// documentation.
#[must_use]
pub(crate) fn tag_items(release: Upstream, prefix: &TagPrefix) -> Vec<CompletionItem> {
    // The names `vgc check` accepts under the profile (`Upstream::tag_named`): the catalog's, less the tags newer
    // than the release, plus the release's own spellings (`discriminator`/`member` under 1.36).
    vgc_ir::catalog::TAGS
        .iter()
        .filter(|t| t.id.is_extension() || release.tag_named(t.name()) == Some(t.id))
        .map(|t| t.name())
        .chain(release.tag_renames().iter().map(|r| r.from))
        .filter_map(|name| {
            let entry = crate::explain::tag_entry(name, release, prefix)?;
            let label = name.strip_prefix("k8s:").unwrap_or(name).to_string();
            Some(CompletionItem {
                label,
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(entry.summary()),
                documentation: Some(Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: entry.markdown(),
                })),
                ..CompletionItem::default()
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Completing, completing, completion, hover, list_type_items};
    use lsp_types::{HoverContents, Position};
    use vgc_ir::TagPrefix;
    use vgc_ir::profile::Upstream;

    const TEXT: &str =
        "package v1\n\ntype T struct {\n\t// é +k8s:required\n\t// +k8s:format=\n\tX string\n}\n";

    #[test]
    fn hover_on_a_tag_shows_its_entry() {
        let p = TagPrefix::default();
        let h = hover(TEXT, Position::new(3, 9), Upstream::NEWEST, &p).expect("hover");
        let HoverContents::Markup(m) = h.contents else {
            panic!("markup")
        };
        assert!(m.value.starts_with("**+k8s:required**"), "{}", m.value);
        assert!(
            m.value.ends_with(&format!(
                "\nEvery upstream release vgc knows (1.35 and later; profile in force: {}).\n",
                Upstream::NEWEST
            )),
            "{}",
            m.value
        );
        let v1_36 = Upstream::parse("1.36").expect("1.36");
        let eq = "\t// +k8s:eq=1\n";
        let eq_hover = hover(eq, Position::new(0, 9), v1_36, &p).expect("hover");
        let HoverContents::Markup(m) = eq_hover.contents else {
            panic!("markup")
        };
        assert!(
            m.value.ends_with("\nNot in upstream 1.36, the profile in force: validation-gen has it from 1.38 on.\n"),
            "{}",
            m.value
        );
        assert_eq!(
            h.range.map(|r| (r.start, r.end)),
            Some((Position::new(3, 6), Position::new(3, 19)))
        );
        assert!(hover(TEXT, Position::new(5, 2), Upstream::NEWEST, &p).is_none());
    }

    #[test]
    fn completion_of_names_and_formats() {
        let p = TagPrefix::default();
        let names = completion(TEXT, Position::new(3, 11), Upstream::NEWEST, &p, &[]);
        assert!(names.iter().any(|i| i.label == "required"));
        let formats = completion(TEXT, Position::new(4, 16), Upstream::NEWEST, &p, &[]);
        assert!(
            formats.iter().any(|i| i.label == "k8s-short-name"),
            "{formats:?}"
        );
        assert!(completion(TEXT, Position::new(5, 3), Upstream::NEWEST, &p, &[]).is_empty());
        let v1_37 = Upstream::parse("1.37").expect("1.37");
        let old = completion(TEXT, Position::new(4, 16), v1_37, &p, &[]);
        assert!(!old.iter().any(|i| i.label == "k8s-condition-reason"));
        assert!(formats.iter().any(|i| i.label == "k8s-condition-reason"));
    }

    #[test]
    fn comments_after_strings_and_names_in_any_letters() {
        use super::comment_start;
        assert_eq!(comment_start("var s = \"// +k8s:required\""), None);
        assert_eq!(comment_start("var s = `//` // +k8s:x"), Some(13));
        assert_eq!(comment_start("var r = '\\'' // c"), Some(13));
        assert_eq!(comment_start("\t// +k8s:listMapKey=ün"), Some(1));
        let p = TagPrefix::default();
        let text = "type T struct {\n\t// +k8s:listMapKey=ün\n\tItems []Item `json:\"items\"`\n}\n";
        let at = Position::new(
            1,
            u32::try_from("\t// +k8s:listMapKey=ün".chars().count()).unwrap_or(0),
        );
        assert!(
            matches!(
                completing(text, at, &p),
                Some(Completing::Json {
                    tag: "k8s:listMapKey",
                    ..
                })
            ),
            "{:?}",
            completing(text, at, &p)
        );
        let text = "var s = \"// +k8s:\"\n";
        assert_eq!(completing(text, Position::new(0, 17), &p), None);
        // Inside a raw string or a block comment opened on an earlier line: text, not a tag.
        let text = "var s = `\n// +k8s:\n`\n/*\n// +k8s:\n*/\n// +k8s:\n";
        assert_eq!(completing(text, Position::new(1, 8), &p), None);
        assert_eq!(completing(text, Position::new(4, 8), &p), None);
        assert_eq!(
            completing(text, Position::new(6, 8), &p),
            Some(Completing::TagName)
        );
    }

    #[test]
    fn tags_of_the_profile_and_update_values() {
        let p = TagPrefix::default();
        let v1_37 = Upstream::parse("1.37").expect("1.37");
        // Tags validation-gen gained in 1.38: offered under 1.38, not under 1.37.
        let newer: Vec<&str> = vgc_ir::catalog::TAGS
            .iter()
            .filter(|t| {
                !t.id.is_extension() && Upstream::tag_since(t.id).is_some_and(|s| s > v1_37)
            })
            .map(|t| t.name().trim_start_matches("k8s:"))
            .collect();
        assert!(!newer.is_empty());
        let labels = |release| -> Vec<String> {
            completion(TEXT, Position::new(3, 11), release, &p, &[])
                .into_iter()
                .map(|i| i.label)
                .collect()
        };
        let (old, new) = (labels(v1_37), labels(Upstream::NEWEST));
        for n in &newer {
            assert!(
                new.iter().any(|l| l == n) && !old.iter().any(|l| l == n),
                "{n}"
            );
        }
        assert!(old.iter().any(|l| l == "required"));
        // 1.36 spells the mode tags `discriminator`/`member`: those, not 1.37's.
        let v1_36 = Upstream::parse("1.36").expect("1.36");
        let l36 = labels(v1_36);
        for (there, gone) in [("discriminator", "modeDiscriminator"), ("member", "ifMode")] {
            assert!(
                l36.iter().any(|l| l == there) && !l36.iter().any(|l| l == gone),
                "{there} {gone}"
            );
        }
        let shown = |text: &str| {
            hover(text, Position::new(0, 6), v1_36, &p)
                .map(|h| match h.contents {
                    HoverContents::Markup(m) => m.value,
                    _ => String::new(),
                })
                .unwrap_or_default()
        };
        let h = shown("// +k8s:member(discriminator: d)=x\n");
        assert!(
            h.contains("Accepted by upstream 1.36, the profile in force."),
            "{h}"
        );
        let h = shown("// +k8s:ifMode(x)=y\n");
        assert!(
            h.contains("from 1.37 on. Upstream 1.36 spells it `+k8s:member`."),
            "{h}"
        );
        let text = "type T struct {\n\t// +k8s:update=No\n\tX *string\n}\n";
        let values: Vec<String> = completion(text, Position::new(1, 19), Upstream::NEWEST, &p, &[])
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert_eq!(
            values,
            ["NoSet", "NoUnset", "NoModify", "NoAddItem", "NoRemoveItem"]
        );
    }

    #[test]
    fn what_is_being_completed() {
        let p = TagPrefix::default();
        let text = "type T struct {\n\t// +k8s:listType=\n\t// +k8s:listMapKey=na\n\t// +k8s:item(type: \"A\", st\n\t// +k8s:subfield(\n\t// +k8s:eachVal=+k8s:subfield(\n\n\tItems []Item `json:\"items\"`\n}\n";
        let at = |line: u32| {
            let l = text.lines().nth(line as usize).unwrap_or("");
            Position::new(line, u32::try_from(l.len()).unwrap_or(0))
        };
        assert_eq!(completing(text, at(1), &p), Some(Completing::ListType));
        let json = |tag| {
            Some(Completing::Json {
                tag,
                anchor: "Items []Item `json:\"items\"`".into(),
                line: 7,
            })
        };
        // Line 2 is `listMapKey=na`; the declaration is five lines below.
        assert_eq!(
            completing(text, at(2), &p),
            json("k8s:listMapKey").map(|c| match c {
                Completing::Json { tag, anchor, .. } => Completing::Json {
                    tag,
                    anchor,
                    line: 7
                },
                c => c,
            })
        );
        assert_eq!(completing(text, at(3), &p), json("k8s:item"));
        assert_eq!(completing(text, at(4), &p), json("k8s:subfield"));
        assert_eq!(
            completing(text, at(5), &p),
            None,
            "a chained subfield's subject is not the field"
        );
        let opt = "\t// +k8s:ifEnabled(\"Wid\n\tX string\n";
        assert_eq!(
            completing(opt, Position::new(0, 23), &p),
            Some(Completing::Option)
        );
        let union = "\t// +k8s:unionMember(union: \"\n\tX string\n";
        assert_eq!(
            completing(union, Position::new(0, 29), &p),
            Some(Completing::Group {
                kind: "union",
                anchor: "X string".into(),
                line: 1
            })
        );
        let group = "\t// +k8s:memberOf(group: \n\tX string\n";
        assert!(matches!(
            completing(group, Position::new(0, 25), &p),
            Some(Completing::Group {
                kind: "virtual",
                ..
            })
        ));
        let member_name = "\t// +k8s:unionMember(memberName: \n\tX string\n";
        assert_eq!(completing(member_name, Position::new(0, 33), &p), None);
        let path = "\t// +k8s:maximum(constraint: limits.ma\n\tX int32\n";
        assert_eq!(
            completing(path, Position::new(0, 37), &p),
            Some(Completing::Path {
                parents: vec!["limits".into()],
                anchor: "X int32".into(),
                line: 1
            })
        );
        let items = list_type_items();
        assert_eq!(
            items.iter().map(|i| i.label.as_str()).collect::<Vec<_>>(),
            ["atomic", "set", "map"]
        );
    }
}
