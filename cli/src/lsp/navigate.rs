//! Go to definition, references and the JSON names a tag argument may take — read from the module's live database
//! (the per-file IR, its span table and the loaded program's type resolution: `vgc_analysis::types`), never from a
//! second parse of the buffer.
//!
//! What a position can name:
//! - a **field path in a tag** — `+k8s:listMapKey=name` and the keys of `+k8s:item(type: "Approved")` /
//!   `+k8s:listMapItem(…)` (JSON names of the list's element struct), `+k8s:subfield(name)` (a JSON name of the
//!   tagged value's struct), followed through `eachVal`/`eachKey`/`subfield`/`item` payloads and the option and
//!   stability wrappers, through pointers and typedefs (not into inline-embedded structs): the Go field; each segment of a
//!   field-path constraint's path (`+k8s:maximum(constraint: limits.maxValue)`, `target:`; vgc's extension): its
//!   field;
//! - a **union or group name** — `+k8s:unionMember`/`unionDiscriminator` (field unions, by their `union:`
//!   argument, `""` when absent), `+k8s:zeroOrOneOfMember`, `+k8s:memberOf(group: …)` and the virtual group
//!   declarations `+k8s:union(union: …)`/`+k8s:zeroOrOneOf(union: …)` (by name in the package): its members;
//! - a **type name** — a type declaration's name, or a named type in a field's type or a typedef's right-hand side:
//!   the declaration; its references are the fields (and typedefs) whose type names it.

use std::ops::Range;
use std::path::Path;
use vgc_analysis::types::{self, Native, Ty};
use vgc_analysis::{Program, TypeKey};
use vgc_ir::model::{FieldIr, TagUse};
use vgc_ir::{Db, SourceFile};
use vgc_parser::go::TypeExpr;
use vgc_parser::tags::{Scalar, Tag, TagValue};

/// A byte range of a file's text as the database holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spot {
    /// The file.
    pub(crate) file: SourceFile,
    /// Bytes of its text.
    pub(crate) span: Range<usize>,
}

/// A group of members named by a tag argument.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Group {
    /// A field union (`unionMember`/`unionDiscriminator`) of one struct.
    Union(TypeKey, String),
    /// A `zeroOrOneOf` field group of one struct.
    ZeroOrOneOf(TypeKey, String),
    /// A virtual group (`memberOf(group: …)`, declared by `union`/`zeroOrOneOf`), in one package.
    Virtual(String, String),
}

/// What a position names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Subject {
    /// Field `index` of struct type `owner` (the declaring struct, after inline embedding).
    Field(TypeKey, usize),
    /// A union or group.
    Group(Group),
    /// A type declaration.
    Type(TypeKey),
}

/// The package import path and the file input of `path` in the database's program.
fn file_of(db: &dyn Db, prog: &Program, path: &str) -> Option<(String, SourceFile)> {
    prog.packages.values().find_map(|p| {
        p.files
            .iter()
            .find(|f| f.path(db) == path)
            .map(|f| (p.path.clone(), *f))
    })
}

/// The text of `path` as the database holds it (what its last check read), if the file is part of its program.
#[must_use]
pub(crate) fn text_of(db: &dyn Db, path: &str) -> Option<std::sync::Arc<String>> {
    let prog = vgc_analysis::loaded_program(db);
    file_of(db, prog, path).map(|(_, f)| f.text(db).clone())
}

/// The declaration whose name is at `offset` (a byte of the database's text of `path`): a type's, or a field's —
/// `(the type, None)` or `(the struct, Some(its Go field name))`.
#[must_use]
pub(crate) fn declaration_at(
    db: &dyn Db,
    path: &str,
    offset: usize,
) -> Option<(TypeKey, Option<String>)> {
    let prog = vgc_analysis::loaded_program(db);
    let (pkg, file) = file_of(db, prog, path)?;
    let ir = vgc_ir::db::file_ir(db, file);
    for t in &ir.types {
        let key = TypeKey {
            pkg: pkg.clone(),
            name: t.name.clone(),
        };
        if vgc_ir::db::span_of(db, file, t.at).contains(&offset) {
            return Some((key, None));
        }
        for f in &t.fields {
            if vgc_ir::db::span_of(db, file, f.at).contains(&offset) {
                return Some((key, Some(f.member_name())));
            }
        }
    }
    None
}

/// The type, or field (its Go member name) of a struct, whose rules a hover at `offset` shows: a declaration's name
/// ([`declaration_at`]), else a type named in a field's type or a typedef (`[]Condition`, `metav1.ObjectMeta`) or a
/// field named by a path in a tag (`listMapKey=name`) — what go to definition goes to.
#[must_use]
pub(crate) fn hover_subject(
    db: &dyn Db,
    path: &str,
    offset: usize,
) -> Option<(TypeKey, Option<String>)> {
    if let Some(found) = declaration_at(db, path, offset) {
        return Some(found);
    }
    let prog = vgc_analysis::loaded_program(db);
    let (pkg, file) = file_of(db, prog, path)?;
    match subject_at(db, prog, &pkg, file, offset)? {
        Subject::Type(k) => Some((k, None)),
        Subject::Field(k, i) => {
            let (decl, _) = prog.type_decl(db, &k)?;
            let name = decl.fields.get(i)?.member_name();
            Some((k, Some(name)))
        }
        Subject::Group(_) => None,
    }
}

/// Where what `offset` (a byte of the database's text of `path`) names is declared; empty when it names nothing.
#[must_use]
pub(crate) fn definition(db: &dyn Db, path: &str, offset: usize) -> Vec<Spot> {
    let prog = vgc_analysis::loaded_program(db);
    let Some((pkg, file)) = file_of(db, prog, path) else {
        return Vec::new();
    };
    match subject_at(db, prog, &pkg, file, offset) {
        Some(Subject::Field(k, i)) => field_spot(db, prog, &k, i).into_iter().collect(),
        Some(Subject::Type(k)) => type_spot(db, prog, &k).into_iter().collect(),
        Some(Subject::Group(g)) => group_spots(db, prog, &g, true),
        None => Vec::new(),
    }
}

/// The uses of what `offset` names: for a type, every field and typedef of the program whose type names it; for a
/// union or group, its members (with the declarations of a virtual group); for a field, the field paths in tags
/// that name it (`listMapKey=`, `item(…)` keys, `subfield(…)`). With `declaration`, the declaration comes first.
#[must_use]
pub(crate) fn references(db: &dyn Db, path: &str, offset: usize, declaration: bool) -> Vec<Spot> {
    let prog = vgc_analysis::loaded_program(db);
    let Some((pkg, file)) = file_of(db, prog, path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match subject_at(db, prog, &pkg, file, offset) {
        Some(Subject::Type(k)) => {
            if declaration {
                out.extend(type_spot(db, prog, &k));
            }
            out.extend(type_uses(db, prog, &k));
        }
        Some(Subject::Group(g)) => out = group_spots(db, prog, &g, declaration),
        Some(Subject::Field(k, i)) => {
            if declaration {
                out.extend(field_spot(db, prog, &k, i));
            }
            out.extend(field_uses(db, prog, &Subject::Field(k, i)));
        }
        None => {}
    }
    out
}

/// Every field path in the tags of the program's target packages that names `field` (a [`Subject::Field`]): the
/// `listMapKey=` payloads, `item(…)`/`listMapItem(…)` keys, `subfield(…)` arguments and field-path constraint
/// segments resolving to it, in package and file order — each found by resolving the tag at that place as go to
/// definition does.
fn field_uses(db: &dyn Db, prog: &Program, field: &Subject) -> Vec<Spot> {
    let Subject::Field(k, i) = field else {
        return Vec::new();
    };
    let Some((decl, _)) = prog.type_decl(db, k) else {
        return Vec::new();
    };
    // Only tags whose text holds the field's JSON name can name it.
    let Some(json) = decl.fields.get(*i).map(|f| {
        f.json
            .as_ref()
            .filter(|j| !j.name.is_empty())
            .map_or_else(|| f.member_name(), |j| j.name.clone())
    }) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in prog.packages.values().filter(|p| p.target) {
        for &file in &p.files {
            let ir = vgc_ir::db::file_ir(db, file);
            for t in &ir.types {
                let key = TypeKey {
                    pkg: p.path.clone(),
                    name: t.name.clone(),
                };
                let mut probe = |u: &TagUse, ty: &Ty, owner: Option<&TypeKey>| {
                    let Ok(tag) = &u.parsed else { return };
                    let at = vgc_ir::db::span_of(db, file, u.at);
                    let written = file.text(db).get(at.clone());
                    for c in tag.chain() {
                        let mut sites: Vec<Range<usize>> = Vec::new();
                        match (c.name.as_str(), &c.value) {
                            ("k8s:listMapKey", Some(TagValue::Scalar(Scalar::Str(v), span)))
                                if *v == json =>
                            {
                                sites.push(span.clone());
                            }
                            ("k8s:item" | "k8s:listMapItem", _) => sites.extend(
                                c.args
                                    .iter()
                                    .filter(|a| a.name.as_deref() == Some(json.as_str()))
                                    .map(|a| a.span.start..a.span.start + json.len()),
                            ),
                            (
                                "k8s:subfield" | "k8s:dependentRequired" | "k8s:dependentForbidden",
                                _,
                            ) => sites.extend(
                                c.args
                                    .iter()
                                    .filter(|a| matches!(&a.value, Scalar::Str(v) if *v == json))
                                    .map(|a| a.span.clone()),
                            ),
                            _ => {}
                        }
                        // A field-path constraint's segments equal to the name, where the tag's text has them.
                        if vgc_ir::extension_tags::constraint_tag(c).is_some()
                            && let Some(written) = written
                        {
                            for a in &c.args {
                                let (Some("constraint" | "target"), Scalar::Str(path)) =
                                    (a.name.as_deref(), &a.value)
                                else {
                                    continue;
                                };
                                let Some(start) = written
                                    .get(a.span.clone())
                                    .and_then(|t| t.rfind(path.as_str()))
                                    .map(|i| a.span.start + i)
                                else {
                                    continue;
                                };
                                let mut seg_at = start;
                                for seg in path.split('.') {
                                    if seg == json {
                                        sites.push(seg_at..seg_at + seg.len());
                                    }
                                    seg_at += seg.len() + 1;
                                }
                            }
                        }
                        for site in sites {
                            if in_chain(
                                db,
                                prog,
                                &p.path,
                                (tag, written),
                                ty.clone(),
                                owner,
                                site.start,
                            )
                            .as_ref()
                                == Some(field)
                            {
                                out.push(Spot {
                                    file,
                                    span: at.start + site.start..at.start + site.end,
                                });
                            }
                        }
                    }
                };
                let own = Ty::Named(key.clone());
                for u in &t.tags {
                    probe(u, &own, None);
                }
                for f in &t.fields {
                    if f.tags.is_empty() {
                        continue;
                    }
                    let ty = types::resolve(db, prog, &p.path, file, &f.ty);
                    for u in &f.tags {
                        probe(u, &ty, Some(&key));
                    }
                }
            }
        }
    }
    out
}

/// The JSON names of the struct a tag argument at the cursor names fields of — the element struct of the list for
/// `listMapKey=`/`item(`/`listMapItem(`, the tagged value's struct for `subfield(` — given the declaration the
/// comment is written above: `anchor`, that declaration's first line as written (a field's or a `type` line), found
/// in `path`'s database text nearest to line `line`. `wanted` is the tag under the cursor (canonical name). Each
/// name comes with its Go type as written, for the completion's detail.
#[must_use]
pub(crate) fn json_names(
    db: &dyn Db,
    path: &str,
    anchor: &str,
    line: usize,
    wanted: &str,
) -> Vec<(String, String)> {
    let prog = vgc_analysis::loaded_program(db);
    let Some((pkg, file)) = file_of(db, prog, path) else {
        return Vec::new();
    };
    let Some((_, _, ty)) = declared_at(db, prog, &pkg, file, anchor, line) else {
        return Vec::new();
    };
    let target = match wanted {
        "k8s:subfield" => shape(db, prog, &ty),
        _ => match elem(db, prog, &ty) {
            Some(e) => shape(db, prog, &e),
            None => return Vec::new(),
        },
    };
    let Ty::Named(k) = target else {
        return Vec::new();
    };
    members(db, prog, &k)
        .into_iter()
        .map(|m| (m.json, m.go_type))
        .collect()
}

/// The declaration of `file` whose first line reads `anchor` (trimmed), nearest to line `line`: the type declaring
/// it, the field's index when it is a field, and its type (the type itself for a type declaration).
fn declared_at(
    db: &dyn Db,
    prog: &Program,
    pkg: &str,
    file: SourceFile,
    anchor: &str,
    line: usize,
) -> Option<(TypeKey, Option<usize>, Ty)> {
    let text = file.text(db);
    let ir = vgc_ir::db::file_ir(db, file);
    let spans = vgc_ir::db::file_spans(db, file);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    // The line of span `at` and that line's text, trimmed.
    let line_of = |at: u32| {
        let s = spans.get(at as usize)?.start;
        let l = starts.partition_point(|&b| b <= s).saturating_sub(1);
        let end = starts.get(l + 1).map_or(text.len(), |e| e - 1);
        Some((l, text.get(starts[l]..end)?.trim()))
    };
    let anchor = anchor.trim();
    let mut best: Option<(usize, TypeKey, Option<usize>, u32)> = None;
    for t in &ir.types {
        let key = TypeKey {
            pkg: pkg.to_string(),
            name: t.name.clone(),
        };
        let mut consider = |at: u32, field: Option<usize>| {
            if let Some((l, written)) = line_of(at)
                && written == anchor
            {
                let d = l.abs_diff(line);
                if best.as_ref().is_none_or(|b| d < b.0) {
                    best = Some((d, key.clone(), field, at));
                }
            }
        };
        consider(t.at, None);
        for (i, f) in t.fields.iter().enumerate() {
            consider(f.at, Some(i));
        }
    }
    let (_, key, field, _) = best?;
    let ty = match field {
        None => Ty::Named(key.clone()),
        Some(i) => {
            let t = ir.types.iter().find(|t| t.name == key.name)?;
            types::resolve(db, prog, pkg, file, &t.fields.get(i)?.ty)
        }
    };
    Some((key, field, ty))
}

/// The JSON names (with their Go types) a field-path constraint's next segment may take, below the segments
/// `parents`, from the struct holding the declaration whose first line reads `anchor` (see [`json_names`]) — or
/// from that declaration itself when it is a struct type (`target:` form).
#[must_use]
pub(crate) fn path_names(
    db: &dyn Db,
    path: &str,
    anchor: &str,
    line: usize,
    parents: &[String],
) -> Vec<(String, String)> {
    let prog = vgc_analysis::loaded_program(db);
    let Some((pkg, file)) = file_of(db, prog, path) else {
        return Vec::new();
    };
    let Some((mut cur, _, _)) = declared_at(db, prog, &pkg, file, anchor, line) else {
        return Vec::new();
    };
    for seg in parents {
        let Some(m) = members(db, prog, &cur).into_iter().find(|m| &m.json == seg) else {
            return Vec::new();
        };
        let Ty::Named(next) = shape(db, prog, &m.ty) else {
            return Vec::new();
        };
        cur = next;
    }
    members(db, prog, &cur)
        .into_iter()
        .map(|m| (m.json, m.go_type))
        .collect()
}

/// Every option name an `ifEnabled(…)`/`ifDisabled(…)` of the program's target packages names, sorted.
#[must_use]
pub(crate) fn option_names(db: &dyn Db) -> Vec<String> {
    let prog = vgc_analysis::loaded_program(db);
    let mut names = std::collections::BTreeSet::new();
    for p in prog.packages.values().filter(|p| p.target) {
        for &file in &p.files {
            let ir = vgc_ir::db::file_ir(db, file);
            let uses = ir.types.iter().flat_map(|t| {
                t.tags
                    .iter()
                    .chain(t.fields.iter().flat_map(|f| f.tags.iter()))
            });
            for u in uses.chain(ir.consts.iter().flat_map(|c| c.tags.iter())) {
                let Ok(tag) = &u.parsed else { continue };
                for t in tag.chain() {
                    if matches!(t.name.as_str(), "k8s:ifEnabled" | "k8s:ifDisabled")
                        && let Some(Scalar::Str(o)) = t.args.first().map(|a| &a.value)
                    {
                        names.insert(o.clone());
                    }
                }
            }
        }
    }
    names.into_iter().collect()
}

/// The union or group names in use where the declaration whose first line reads `anchor` (see [`json_names`]) is:
/// `kind` `"union"` — the `union:` names of `unionMember`/`unionDiscriminator` tags of its struct's fields;
/// `"zeroOrOneOf"` — of `zeroOrOneOfMember`; `"virtual"` — the groups its package declares (`union`/`zeroOrOneOf`
/// with `union:`) or names (`memberOf(group: …)`). Sorted, without `""`.
#[must_use]
pub(crate) fn group_names(
    db: &dyn Db,
    path: &str,
    anchor: &str,
    line: usize,
    kind: &str,
) -> Vec<String> {
    let prog = vgc_analysis::loaded_program(db);
    let Some((pkg, file)) = file_of(db, prog, path) else {
        return Vec::new();
    };
    let mut names = std::collections::BTreeSet::new();
    let mut collect = |uses: &mut dyn Iterator<Item = &TagUse>, tags: &[&str], arg: &str| {
        for u in uses {
            let Ok(tag) = &u.parsed else { continue };
            for t in tag.chain() {
                if tags.contains(&t.name.as_str())
                    && let Some(Scalar::Str(v)) = t.arg(arg).map(|a| &a.value)
                    && !v.is_empty()
                {
                    names.insert(v.clone());
                }
            }
        }
    };
    if kind == "virtual" {
        if let Some(p) = prog.packages.get(&pkg) {
            for &f in &p.files {
                let ir = vgc_ir::db::file_ir(db, f);
                for t in &ir.types {
                    let all = || {
                        t.tags
                            .iter()
                            .chain(t.fields.iter().flat_map(|f| f.tags.iter()))
                    };
                    collect(&mut all(), &["k8s:union", "k8s:zeroOrOneOf"], "union");
                    collect(&mut all(), &["k8s:memberOf"], "group");
                }
            }
        }
    } else if let Some((owner, _, _)) = declared_at(db, prog, &pkg, file, anchor, line)
        && let Some((decl, _)) = prog.type_decl(db, &owner)
    {
        let tags: &[&str] = if kind == "union" {
            &["k8s:unionMember", "k8s:unionDiscriminator"]
        } else {
            &["k8s:zeroOrOneOfMember"]
        };
        collect(
            &mut decl.fields.iter().flat_map(|f| f.tags.iter()),
            tags,
            "union",
        );
    }
    names.into_iter().collect()
}

/// The subject at `offset` of `file` (package `pkg`).
fn subject_at(
    db: &dyn Db,
    prog: &Program,
    pkg: &str,
    file: SourceFile,
    offset: usize,
) -> Option<Subject> {
    let ir = vgc_ir::db::file_ir(db, file);
    let spans = vgc_ir::db::file_spans(db, file);
    let text = file.text(db);
    let span = |at: u32| spans.get(at as usize).cloned().unwrap_or(0..0);
    for t in &ir.types {
        let key = TypeKey {
            pkg: pkg.to_string(),
            name: t.name.clone(),
        };
        let at = span(t.at);
        if at.contains(&offset) {
            return Some(Subject::Type(key));
        }
        // A named type on the declaration's line after its name (`type Conditions []Condition`).
        if on_line_after(text, &at, offset) {
            return type_under(db, prog, pkg, file, &t.ty, text, offset).map(Subject::Type);
        }
        let owner = Ty::Named(key.clone());
        for u in &t.tags {
            if let Some(s) = in_use(db, prog, pkg, (text, &span(u.at)), u, &owner, None, offset) {
                return Some(s);
            }
        }
        for (i, f) in t.fields.iter().enumerate() {
            let at = span(f.at);
            if at.contains(&offset) && f.go_name.is_some() {
                return Some(Subject::Field(key, i));
            }
            if at.contains(&offset) || on_line_after(text, &at, offset) {
                return type_under(db, prog, pkg, file, &f.ty, text, offset).map(Subject::Type);
            }
            let ty = types::resolve(db, prog, pkg, file, &f.ty);
            for u in &f.tags {
                if let Some(s) = in_use(
                    db,
                    prog,
                    pkg,
                    (text, &span(u.at)),
                    u,
                    &ty,
                    Some(&key),
                    offset,
                ) {
                    return Some(s);
                }
            }
        }
    }
    None
}

/// Whether `offset` is after `at` on `at`'s line.
fn on_line_after(text: &str, at: &Range<usize>, offset: usize) -> bool {
    offset >= at.end && offset <= text.len() && !text[at.end.min(text.len())..offset].contains('\n')
}

/// The named type of `ty` (a type expression of `file`) whose name is the identifier at `offset`.
#[allow(clippy::too_many_arguments)] // The position and the file's pieces, each needed.
fn type_under(
    db: &dyn Db,
    prog: &Program,
    pkg: &str,
    file: SourceFile,
    ty: &TypeExpr,
    text: &str,
    offset: usize,
) -> Option<TypeKey> {
    let (qual, word) = qualified_word(text, offset)?;
    let mut named = Vec::new();
    named_in(ty, &mut named);
    let (q, n) = named
        .into_iter()
        .find(|(q, n)| n == word && q.as_deref() == qual)?;
    let e = TypeExpr::Named {
        pkg: q,
        name: n,
        args: Vec::new(),
    };
    match types::resolve(db, prog, pkg, file, &e) {
        Ty::Named(k) => Some(k),
        _ => None,
    }
}

/// A declaration outside the loaded program: a file on disk and the bytes of the name in its text.
pub(crate) struct External {
    /// The file's path.
    pub(crate) path: String,
    /// Its text.
    pub(crate) text: String,
    /// The declared name's bytes.
    pub(crate) span: Range<usize>,
}

/// The declaration of a qualified type named at `offset` of `path` that the loaded program does not hold —
/// apimachinery's `resource.Quantity`, `metav1.Time`, `intstr.IntOrString`, which vgc treats as well-known values and
/// never loads — found as the load finds packages: the qualifier's import in the file, resolved through the go.mod of
/// the module at `root` (`replace`, `vendor/`, the module cache), then the first non-test Go file of that directory
/// declaring the name. `None` when the word at `offset` is not `qualifier.Name`, or nothing declares it.
#[must_use]
pub(crate) fn unloaded_type(
    db: &dyn Db,
    path: &str,
    offset: usize,
    root: &str,
) -> Option<External> {
    let prog = vgc_analysis::loaded_program(db);
    let (_, file) = file_of(db, prog, path)?;
    let text = file.text(db);
    let (qual, name) = qualified_word(text, offset)?;
    let qual = qual?;
    let ir = vgc_ir::db::file_ir(db, file);
    let import = ir.imports.iter().find_map(|(alias, import)| {
        let local = alias
            .as_deref()
            .unwrap_or_else(|| import.rsplit('/').next().unwrap_or(import));
        (local == qual).then_some(import)
    })?;
    let sys = vgc_driver::sys::OsSystem;
    let gomod = std::fs::read_to_string(Path::new(root).join("go.mod")).ok()?;
    let gomod = vgc_analysis::gomod::parse_go_mod(&gomod);
    let vgc_analysis::gomod::Resolved::Dir(dir) =
        vgc_analysis::gomod::resolve_import(&sys, root, &gomod, import)
    else {
        return None;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "go") && !p.to_string_lossy().ends_with("_test.go")
        })
        .collect();
    files.sort();
    files.into_iter().find_map(|f| {
        let text = std::fs::read_to_string(&f).ok()?;
        // Only files that can declare it are parsed.
        if !text.contains(name) {
            return None;
        }
        let decl = vgc_parser::go::parse(&text)
            .types
            .into_iter()
            .find(|t| t.name == name)?;
        Some(External {
            path: f.to_str()?.to_string(),
            text,
            span: decl.name_span,
        })
    })
}

/// The Go identifier at `offset` of `text` and the package qualifier written before it (`metav1` of
/// `metav1.Time`), if any; `None` off an identifier.
fn qualified_word(text: &str, offset: usize) -> Option<(Option<&str>, &str)> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    // The byte after the last character of `s` that cannot be part of a name (`§` is two bytes), else 0.
    let word_start = |s: &str| {
        s.char_indices()
            .rev()
            .find(|(_, c)| !ident(*c))
            .map_or(0, |(i, c)| i + c.len_utf8())
    };
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let start = word_start(&text[..offset]);
    let end = text[offset..]
        .find(|c: char| !ident(c))
        .map_or(text.len(), |i| offset + i);
    let word = text.get(start..end).filter(|w| !w.is_empty())?;
    let qual = text[..start].strip_suffix('.').map(|b| &b[word_start(b)..]);
    Some((qual, word))
}

/// Every named type in `t`: (qualifier, name).
fn named_in(t: &TypeExpr, out: &mut Vec<(Option<String>, String)>) {
    match t {
        TypeExpr::Named { pkg, name, args } => {
            out.push((pkg.clone(), name.clone()));
            for a in args {
                named_in(a, out);
            }
        }
        TypeExpr::Pointer(i) | TypeExpr::Slice(i) | TypeExpr::Array { elem: i, .. } => {
            named_in(i, out);
        }
        TypeExpr::Map(k, v) => {
            named_in(k, out);
            named_in(v, out);
        }
        TypeExpr::Struct(fs) => {
            for f in fs {
                named_in(&f.ty, out);
            }
        }
        TypeExpr::Other(_) => {}
    }
}

/// The subject of tag use `u` (its text at `at` in the file) at `offset`: `ty` is the type of what it is written on
/// and `owner` the struct holding that field (`None` on a type declaration).
#[allow(clippy::too_many_arguments)] // The use, where it is, and what it is written on.
fn in_use(
    db: &dyn Db,
    prog: &Program,
    pkg: &str,
    (text, at): (&str, &Range<usize>),
    u: &TagUse,
    ty: &Ty,
    owner: Option<&TypeKey>,
    offset: usize,
) -> Option<Subject> {
    if !at.contains(&offset) {
        return None;
    }
    let tag = u.parsed.as_ref().ok()?;
    let written = text.get(at.clone());
    in_chain(
        db,
        prog,
        pkg,
        (tag, written),
        ty.clone(),
        owner,
        offset - at.start,
    )
}

/// Walks the tag chain from `tag` (with its text as written, when known: field-path constraints need it) with `ty`,
/// the type of the value it applies to, down to the tag holding `rel` (bytes of the tag text), and resolves what it
/// names there.
fn in_chain(
    db: &dyn Db,
    prog: &Program,
    pkg: &str,
    (tag, written): (&Tag, Option<&str>),
    mut ty: Ty,
    owner: Option<&TypeKey>,
    rel: usize,
) -> Option<Subject> {
    // Field-path constraints (vgc extension) name paths from the struct holding the tagged field, or from the
    // tagged struct itself for a type's tag (`target:` form).
    let base = match owner {
        Some(k) => Some(k.clone()),
        None => match shape(db, prog, &ty) {
            Ty::Named(k) => Some(k),
            _ => None,
        },
    };
    // Whether the chain so far still applies to the field itself (union membership is the field's).
    let mut on_field = true;
    for t in tag.chain() {
        if vgc_ir::extension_tags::constraint_tag(t).is_some()
            && let (Some(written), Some(base)) = (written, &base)
        {
            for a in &t.args {
                if matches!(a.name.as_deref(), Some("constraint" | "target"))
                    && a.span.contains(&rel)
                    && let Scalar::Str(path) = &a.value
                {
                    return constraint_path(db, prog, base, written, a.span.clone(), path, rel);
                }
            }
        }
        let str_arg = |name: &str| match t.arg(name).map(|a| &a.value) {
            Some(Scalar::Str(s)) => s.clone(),
            _ => String::new(),
        };
        match t.name.as_str() {
            "k8s:listMapKey" => {
                if let Some(TagValue::Scalar(Scalar::Str(key), span)) = &t.value
                    && span.contains(&rel)
                {
                    let e = shape(db, prog, &elem(db, prog, &ty)?);
                    return member_subject(db, prog, &e, key);
                }
            }
            "k8s:item" | "k8s:listMapItem" => {
                let e = shape(db, prog, &elem(db, prog, &ty)?);
                for a in &t.args {
                    if let Some(name) = &a.name
                        && a.span.contains(&rel)
                    {
                        return member_subject(db, prog, &e, name);
                    }
                }
                ty = e;
                on_field = false;
            }
            "k8s:subfield" => {
                let s = shape(db, prog, &ty);
                let Some(Scalar::Str(name)) = t.args.first().map(|a| &a.value) else {
                    return None;
                };
                if t.args.first().is_some_and(|a| a.span.contains(&rel)) {
                    return member_subject(db, prog, &s, name);
                }
                let Ty::Named(k) = s else { return None };
                ty = members(db, prog, &k)
                    .into_iter()
                    .find(|m| &m.json == name)?
                    .ty;
                on_field = false;
            }
            "k8s:eachVal" => {
                ty = elem(db, prog, &ty)?;
                on_field = false;
            }
            "k8s:eachKey" => {
                ty = match shape(db, prog, &ty) {
                    Ty::Map(k, _) => *k,
                    _ => return None,
                };
                on_field = false;
            }
            // `+k8s:dependentRequired(max)`, `+k8s:dependentForbidden(fixed)`: a sibling of the field, by JSON name.
            "k8s:dependentRequired" | "k8s:dependentForbidden" if on_field => {
                for a in &t.args {
                    if a.span.contains(&rel)
                        && let Scalar::Str(name) = &a.value
                    {
                        return member_subject(db, prog, &Ty::Named(owner?.clone()), name);
                    }
                }
            }
            "k8s:unionMember" | "k8s:unionDiscriminator" if on_field && in_own(t, rel) => {
                return Some(Subject::Group(Group::Union(
                    owner?.clone(),
                    str_arg("union"),
                )));
            }
            "k8s:zeroOrOneOfMember" if on_field && in_own(t, rel) => {
                return Some(Subject::Group(Group::ZeroOrOneOf(
                    owner?.clone(),
                    str_arg("union"),
                )));
            }
            "k8s:memberOf" if in_own(t, rel) => {
                return Some(Subject::Group(Group::Virtual(
                    pkg.to_string(),
                    str_arg("group"),
                )));
            }
            "k8s:union" | "k8s:zeroOrOneOf" if in_own(t, rel) => {
                return Some(Subject::Group(Group::Virtual(
                    pkg.to_string(),
                    str_arg("union"),
                )));
            }
            _ => {}
        }
    }
    None
}

/// The field a field-path constraint's `path` (`limits.maxValue`, the value of the argument at bytes `arg` of the
/// tag text `written`) names at `rel`: the segments up to the one holding `rel`, resolved from struct `base`
/// through each member's struct (pointers and typedefs followed).
fn constraint_path(
    db: &dyn Db,
    prog: &Program,
    base: &TypeKey,
    written: &str,
    arg: Range<usize>,
    path: &str,
    rel: usize,
) -> Option<Subject> {
    let text = written.get(arg.clone())?;
    let start = arg.start + text.rfind(path)?;
    let mut at = start;
    let mut cur = base.clone();
    for seg in path.split('.') {
        let m = members(db, prog, &cur)
            .into_iter()
            .find(|m| m.json == seg)?;
        if (at..=at + seg.len()).contains(&rel) {
            return Some(Subject::Field(m.owner, m.index));
        }
        at += seg.len() + 1;
        let Ty::Named(next) = shape(db, prog, &m.ty) else {
            return None;
        };
        cur = next;
    }
    None
}

/// Whether `rel` is in `t` itself, not in its chained payload.
fn in_own(t: &Tag, rel: usize) -> bool {
    let end = match &t.value {
        Some(TagValue::Tag(inner)) => inner.span.start,
        _ => t.span.end,
    };
    (t.span.start..end).contains(&rel)
}

/// `ty` after pointers and typedef chains: a struct as its `Ty::Named` key, anything else resolved.
fn shape(db: &dyn Db, prog: &Program, ty: &Ty) -> Ty {
    let mut t = ty.clone();
    for _ in 0..64 {
        t = match t {
            Ty::Pointer(i) => *i,
            Ty::Named(_) => match types::native(db, prog, &t) {
                Native::Struct(k) => return Ty::Named(k),
                Native::Other(o) => o,
            },
            other => return other,
        };
    }
    Ty::Any
}

/// The element type of a list (or the value type of a map) `ty` is, through pointers and typedefs.
fn elem(db: &dyn Db, prog: &Program, ty: &Ty) -> Option<Ty> {
    match shape(db, prog, ty) {
        Ty::Slice(e) | Ty::Map(_, e) => Some(*e),
        _ => None,
    }
}

/// One JSON member of a struct.
struct Member {
    /// Its JSON name.
    json: String,
    /// The struct declaring it (the named struct or one it embeds inline).
    owner: TypeKey,
    /// Its index among the owner's fields.
    index: usize,
    /// Its resolved type.
    ty: Ty,
    /// Its Go type as written.
    go_type: String,
}

/// The JSON members of struct `k` a tag can name: its own fields, as upstream `util.GetMemberByJSON` (code-generator
/// v0.37.2) looks them up — the members of a struct embedded inline are not among them (vgc's checks refuse them,
/// `VGC0109`/`VGC0111`, as upstream does); unexported and `json:"-"` fields left out.
fn members(db: &dyn Db, prog: &Program, k: &TypeKey) -> Vec<Member> {
    let mut out: Vec<Member> = Vec::new();
    let t = k.clone();
    if let Some((decl, file)) = prog.type_decl(db, &t) {
        for (i, f) in decl.fields.iter().enumerate() {
            let json = f.json.clone().unwrap_or_default();
            if json.skip {
                continue;
            }
            let ty = types::resolve(db, prog, &t.pkg, file, &f.ty);
            if f.go_name.is_none() && json.name.is_empty() {
                // Embedded inline: `GetMemberByJSON` does not look inside.
                continue;
            }
            let go = f.member_name();
            if !go.starts_with(char::is_uppercase) {
                continue;
            }
            let json = if json.name.is_empty() { go } else { json.name };
            if out.iter().any(|m| m.json == json) {
                continue;
            }
            out.push(Member {
                json,
                owner: t.clone(),
                index: i,
                ty,
                go_type: type_text(&f.ty),
            });
        }
    }
    out
}

/// A type expression as Go writes it.
fn type_text(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Named { pkg, name, .. } => match pkg {
            Some(p) => format!("{p}.{name}"),
            None => name.clone(),
        },
        TypeExpr::Pointer(i) => format!("*{}", type_text(i)),
        TypeExpr::Slice(i) => format!("[]{}", type_text(i)),
        TypeExpr::Array { len, elem } => format!("[{len}]{}", type_text(elem)),
        TypeExpr::Map(k, v) => format!("map[{}]{}", type_text(k), type_text(v)),
        TypeExpr::Struct(_) => "struct{…}".into(),
        TypeExpr::Other(s) => s.clone(),
    }
}

/// The field of struct `s` (a shape) whose JSON name is `json`.
fn member_subject(db: &dyn Db, prog: &Program, s: &Ty, json: &str) -> Option<Subject> {
    let Ty::Named(k) = s else { return None };
    members(db, prog, k)
        .into_iter()
        .find(|m| m.json == json)
        .map(|m| Subject::Field(m.owner, m.index))
}

/// Where field `i` of struct `k` is declared (its name).
fn field_spot(db: &dyn Db, prog: &Program, k: &TypeKey, i: usize) -> Option<Spot> {
    let (decl, file) = prog.type_decl(db, k)?;
    let f = decl.fields.get(i)?;
    Some(Spot {
        file,
        span: vgc_ir::db::span_of(db, file, f.at),
    })
}

/// The tag line on field `field` (its Go member name) of struct `k`, or with `None` on type `k` itself then on its
/// fields, whose chain names the tags `names` in that order (`+k8s:beta(…)=+k8s:maxItems=2` names
/// `["k8s:maxItems"]` and `["k8s:beta", "k8s:maxItems"]`) — the `nth` such line (0-based), or the first when there are
/// fewer; failing that, the first naming `names[0]`.
#[must_use]
pub(crate) fn tag_line(
    db: &dyn Db,
    k: &TypeKey,
    field: Option<&str>,
    ids: &[&str],
    nth: usize,
) -> Option<Spot> {
    if ids.is_empty() {
        return None;
    }
    let prog = vgc_analysis::loaded_program(db);
    let (decl, file) = prog.type_decl(db, k)?;
    let names = |u: &TagUse, ids: &[&str]| {
        u.parsed.as_ref().is_ok_and(|t| {
            let mut chain = t.chain();
            ids.iter().all(|id| chain.any(|c| c.name == *id))
        })
    };
    let uses: Vec<&TagUse> = match field {
        Some(name) => decl
            .fields
            .iter()
            .find(|f| f.member_name() == name)?
            .tags
            .iter()
            .collect(),
        None => decl
            .tags
            .iter()
            .chain(decl.fields.iter().flat_map(|f| f.tags.iter()))
            .collect(),
    };
    let matching: Vec<&&TagUse> = uses.iter().filter(|u| names(u, ids)).collect();
    let found = matching
        .get(nth)
        .or_else(|| matching.first())
        .copied()
        .or_else(|| uses.iter().find(|u| names(u, &ids[..1])))?;
    Some(Spot {
        file,
        span: vgc_ir::db::span_of(db, file, found.at),
    })
}

/// Where type `k` is declared (its name), `None` when the program does not hold it.
#[must_use]
pub(crate) fn declaration_of(db: &dyn Db, k: &TypeKey) -> Option<Spot> {
    type_spot(db, vgc_analysis::loaded_program(db), k)
}

/// Where type `k` is declared (its name).
fn type_spot(db: &dyn Db, prog: &Program, k: &TypeKey) -> Option<Spot> {
    let (decl, file) = prog.type_decl(db, k)?;
    Some(Spot {
        file,
        span: vgc_ir::db::span_of(db, file, decl.at),
    })
}

/// Every field and typedef of the program whose type names `k`, in package and file order.
fn type_uses(db: &dyn Db, prog: &Program, k: &TypeKey) -> Vec<Spot> {
    let mut out = Vec::new();
    let names = |e: &TypeExpr| {
        let mut v = Vec::new();
        named_in(e, &mut v);
        v.into_iter().any(|(_, n)| n == k.name)
    };
    for p in prog.packages.values() {
        for &file in &p.files {
            let ir = vgc_ir::db::file_ir(db, file);
            let uses = |e: &TypeExpr| {
                names(e) && {
                    let mut found = Vec::new();
                    types::collect_named(&types::resolve(db, prog, &p.path, file, e), &mut found);
                    found.contains(k)
                }
            };
            for t in &ir.types {
                if !matches!(t.ty, TypeExpr::Struct(_)) && uses(&t.ty) {
                    out.push(Spot {
                        file,
                        span: vgc_ir::db::span_of(db, file, t.at),
                    });
                }
                for f in &t.fields {
                    if uses(&f.ty) {
                        out.push(Spot {
                            file,
                            span: vgc_ir::db::span_of(db, file, f.at),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Whether the tag chain of `u` holds a tag named one of `names` whose argument `arg` is `value` (`""` when
/// absent), among the wrappers that keep to the field itself.
fn names_group(u: &TagUse, names: &[&str], arg: &str, value: &str) -> bool {
    let Ok(tag) = &u.parsed else { return false };
    for t in tag.chain() {
        if names.contains(&t.name.as_str()) {
            let v = match t.arg(arg).map(|a| &a.value) {
                Some(Scalar::Str(s)) => s.as_str(),
                _ => "",
            };
            return v == value;
        }
        if matches!(
            t.name.as_str(),
            "k8s:item" | "k8s:listMapItem" | "k8s:subfield" | "k8s:eachVal" | "k8s:eachKey"
        ) {
            return false;
        }
    }
    false
}

/// The members of group `g` (field names; for a virtual group also the tags declaring it, first when
/// `declaration`).
fn group_spots(db: &dyn Db, prog: &Program, g: &Group, declaration: bool) -> Vec<Spot> {
    let member_fields = |k: &TypeKey, names: &[&str], value: &str| -> Vec<Spot> {
        let Some((decl, file)) = prog.type_decl(db, k) else {
            return Vec::new();
        };
        decl.fields
            .iter()
            .filter(|f: &&FieldIr| f.tags.iter().any(|u| names_group(u, names, "union", value)))
            .map(|f| Spot {
                file,
                span: vgc_ir::db::span_of(db, file, f.at),
            })
            .collect()
    };
    match g {
        Group::Union(k, name) => {
            member_fields(k, &["k8s:unionMember", "k8s:unionDiscriminator"], name)
        }
        Group::ZeroOrOneOf(k, name) => member_fields(k, &["k8s:zeroOrOneOfMember"], name),
        Group::Virtual(pkg, name) => {
            let Some(p) = prog.packages.get(pkg) else {
                return Vec::new();
            };
            let (mut decls, mut members) = (Vec::new(), Vec::new());
            for &file in &p.files {
                let ir = vgc_ir::db::file_ir(db, file);
                let spot = |u: &TagUse| Spot {
                    file,
                    span: vgc_ir::db::span_of(db, file, u.at),
                };
                for t in &ir.types {
                    let all = t
                        .tags
                        .iter()
                        .chain(t.fields.iter().flat_map(|f| f.tags.iter()));
                    for u in all {
                        if names_group(u, &["k8s:union", "k8s:zeroOrOneOf"], "union", name) {
                            decls.push(spot(u));
                        }
                    }
                    for f in &t.fields {
                        if f.tags.iter().any(|u| memberof(u, name)) {
                            members.push(Spot {
                                file,
                                span: vgc_ir::db::span_of(db, file, f.at),
                            });
                        }
                    }
                }
            }
            if declaration {
                decls.extend(members);
                decls
            } else {
                members
            }
        }
    }
}

/// Whether `u`'s chain holds `memberOf(group: name)` (a field's, or a list-map item's through `listMapItem`).
fn memberof(u: &TagUse, name: &str) -> bool {
    let Ok(tag) = &u.parsed else { return false };
    tag.chain().any(|t| {
        t.name == "k8s:memberOf"
            && matches!(t.arg("group").map(|a| &a.value), Some(Scalar::Str(s)) if s == name)
    })
}

#[cfg(test)]
mod tests {
    use super::qualified_word;

    #[test]
    fn words_after_multi_byte_characters() {
        let text = "// see §x.y and metav1.Time";
        let y = text.find(".y").unwrap_or(0) + 1;
        assert_eq!(qualified_word(text, y), Some((Some("x"), "y")));
        assert_eq!(
            qualified_word(text, text.find('x').unwrap_or(0)),
            Some((None, "x"))
        );
        let t = text.find("Time").unwrap_or(0);
        assert_eq!(qualified_word(text, t), Some((Some("metav1"), "Time")));
        // Inside `§` (not a boundary) and on it: no name there.
        assert_eq!(qualified_word(text, text.find('§').unwrap_or(0) + 1), None);
    }
}
