use super::super::{parse_for_tag_prefix, parse_reusing};
use super::Previous;

const BASE: &str = "// Copyright\n\n// Package v1 holds things.\n// +k8s:validation-gen=TypeMeta\npackage v1\n\nimport (\n\t\"fmt\" // for printing\n)\n\n// Detached comment.\n\n// Lease is a lease.\n// +k8s:validation-gen=true\ntype Lease struct {\n\t// Spec is the spec.\n\t// +k8s:required\n\tSpec LeaseSpec `json:\"spec\"`\n}\n\n// LeaseSpec is a spec.\ntype LeaseSpec struct {\n\t// Priority of the lease.\n\t// +k8s:required\n\t// +k8s:minimum=0\n\tPriority *int32 `json:\"priority,omitempty\"` // trailing\n\tNested struct {\n\t\t// +k8s:maxLength=3\n\t\tX string\n\t}\n}\n\nconst (\n\t// ModeA is a.\n\tModeA Mode = \"A\" // +k8s:x\n)\n";

/// Parses `old`, then `new` reusing it; asserts both equal `parse_for_tag_prefix` and that the second was reused
/// (or not) as `reused` says. Returns the second parse's `Previous`.
fn edit(old: &str, new: &str, reused: bool) -> Previous {
    let first = parse_reusing(old, "k8s:", None);
    assert_eq!(first.file, parse_for_tag_prefix(old, "k8s:"), "{old}");
    assert!(!first.reused);
    let second = parse_reusing(new, "k8s:", Some(&first.previous));
    assert_eq!(second.file, parse_for_tag_prefix(new, "k8s:"), "{new}");
    assert_eq!(second.reused, reused, "{old:?} -> {new:?}");
    second.previous
}

fn doc_of(src: &str, ty: &str) -> Vec<String> {
    let f = parse_for_tag_prefix(src, "k8s:");
    let t = f.types.iter().find(|t| t.name == ty).expect("the type");
    match &t.ty {
        super::TypeExpr::Struct(fields) => fields[0].doc.iter().map(|l| l.text.clone()).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_tag_value_edit_is_reused() {
    let new = BASE.replace("+k8s:minimum=0", "+k8s:minimum=10");
    let prev = edit(BASE, &new, true);
    assert!(prev.is_reusable());
    assert_eq!(
        doc_of(&new, "LeaseSpec"),
        ["Priority of the lease.", "+k8s:required", "+k8s:minimum=10"]
    );
    // Every later span moved by one byte, so reading the new text at it gives the same name.
    let f = parse_for_tag_prefix(&new, "k8s:");
    let c = &f.consts[0];
    assert_eq!(&new[c.span.clone()], "ModeA");
    // A chain of edits: the reused previous is reused again, back to the first text too.
    let third = new.replace("Priority of the lease.", "Priority, in words.");
    let r = parse_reusing(&third, "k8s:", Some(&prev));
    assert!(r.reused);
    assert_eq!(r.file, parse_for_tag_prefix(&third, "k8s:"));
    let back = parse_reusing(BASE, "k8s:", Some(&r.previous));
    assert!(back.reused);
    assert_eq!(back.file, parse_for_tag_prefix(BASE, "k8s:"));
}

#[test]
fn a_comment_line_added_changes_the_skeleton_and_parses() {
    let new = BASE.replace(
        "\t// +k8s:minimum=0\n",
        "\t// +k8s:minimum=0\n\t// +k8s:maximum=9\n",
    );
    edit(BASE, &new, false);
}

#[test]
fn an_emptied_comment_body_is_reused_unless_its_group_loses_every_line() {
    // The group keeps other lines: reused; the emptied line is a blank line at the group's end, dropped.
    let new = BASE.replace("// +k8s:minimum=0", "//");
    edit(BASE, &new, true);
    assert_eq!(
        doc_of(&new, "LeaseSpec"),
        ["Priority of the lease.", "+k8s:required"]
    );
    // The nested field's only doc line: its group has no text line any more.
    let new = BASE.replace("// +k8s:maxLength=3", "//");
    edit(BASE, &new, false);
    // And back: an empty group gaining a line.
    edit(&new, BASE, false);
    // A directive-only group (dropped by go/ast Text) turning into text is the same case.
    let directive = BASE.replace("// +k8s:maxLength=3", "//go:generate x");
    edit(&directive, BASE, false);
    edit(BASE, &directive, false);
    // A trailing comment (a group of its own) edited: reused; emptied: its group has no line any more.
    edit(BASE, &BASE.replace("// trailing", "// other"), true);
    edit(BASE, &BASE.replace("// trailing", "//"), false);
    // A directive-like change inside a group with other lines: reused.
    edit(
        BASE,
        &BASE.replace("// Spec is the spec.", "//go:embed x"),
        true,
    );
}

#[test]
fn second_closest_and_package_comments_follow_the_edit() {
    let new = BASE
        .replace("Detached comment.", "Detached, edited: +k8s:opaque")
        .replace("Package v1 holds things.", "Package v1 holds other things.");
    edit(BASE, &new, true);
    let f = parse_for_tag_prefix(&new, "k8s:");
    let lease = f.types.iter().find(|t| t.name == "Lease").expect("Lease");
    assert_eq!(lease.second_doc[0].text, "Detached, edited: +k8s:opaque");
    assert_eq!(
        &new[lease.second_doc[0].offset..lease.second_doc[0].offset + 9],
        "Detached,"
    );
}

#[test]
fn crlf_files_and_non_ascii_comments_are_reused() {
    let crlf = BASE.replace('\n', "\r\n");
    let new = crlf.replace("+k8s:minimum=0", "+k8s:minimum=100 — é");
    edit(&crlf, &new, true);
    // A comment at the end of the file without a line end.
    let end = format!("{BASE}// last");
    edit(&end, &format!("{BASE}// the very last"), true);
}

#[test]
fn comments_holding_block_comment_markers() {
    // `/*` inside a line comment is comment text: reused.
    let new = BASE.replace("Priority of the lease.", "Priority /* of the */ lease /*");
    edit(BASE, &new, true);
    // A block comment's text is in the skeleton: an edit of it parses.
    let block = BASE.replace("// Detached comment.", "/* Detached comment. */");
    let edited = block.replace("/* Detached comment. */", "/* Detached, edited. */");
    edit(&block, &edited, false);
    // Its line comments still reuse the parse.
    edit(
        &block,
        &block.replace("+k8s:minimum=0", "+k8s:minimum=1"),
        true,
    );
}

#[test]
fn a_file_with_a_syntax_error_always_parses() {
    let broken = BASE.replace("type LeaseSpec struct {", "type LeaseSpec struct { )(");
    let first = parse_reusing(&broken, "k8s:", None);
    assert!(!first.file.problems.is_empty());
    assert!(!first.previous.is_reusable());
    edit(
        &broken,
        &broken.replace("+k8s:minimum=0", "+k8s:minimum=1"),
        false,
    );
    // A missing package clause too.
    let nopkg = BASE.replace("package v1\n", "");
    edit(
        &nopkg,
        &nopkg.replace("+k8s:minimum=0", "+k8s:minimum=1"),
        false,
    );
}

#[test]
fn a_text_read_across_a_comment_always_parses() {
    let iface = format!("{BASE}\ntype I interface {{\n\t// M does.\n\tM()\n}}\n");
    let first = parse_reusing(&iface, "k8s:", None);
    assert!(!first.previous.is_reusable());
    edit(&iface, &iface.replace("M does.", "M does more."), false);
    let expr = format!("{BASE}\nconst P = 1 + // one\n\t2\n");
    edit(&expr, &expr.replace("// one", "// two"), false);
}

#[test]
fn a_comment_edit_across_the_declaration_free_shortcut() {
    let free = "package v1\n\n// nothing here\nfunc f() {}\n";
    let first = parse_reusing(free, "k8s:", None);
    assert!(!first.previous.is_reusable());
    let tagged = free.replace("nothing here", "+k8s:required");
    edit(free, &tagged, false);
    edit(&tagged, free, false);
    // A file that declares a type: a comment edit removing its last tag text keeps it parsed, and reused.
    let one = "package v1\n\n// +k8s:required\ntype T struct{}\n";
    edit(one, &one.replace("+k8s:required", "required"), true);
    // Under another prefix, `+k8s:` text is still a reason to parse.
    let first = parse_reusing(one, "example.com:", None);
    assert_eq!(first.file, parse_for_tag_prefix(one, "example.com:"));
    let second = parse_reusing(
        &one.replace("+k8s:required", "+example.com:required"),
        "example.com:",
        Some(&first.previous),
    );
    assert!(second.reused);
}

#[test]
fn a_code_edit_parses() {
    edit(
        BASE,
        &BASE.replace("Priority *int32", "Priority *int64"),
        false,
    );
    edit(BASE, &BASE.replace("\"A\"", "\"B\""), false);
    // Go letters tree-sitter-go does not take: never reused.
    let odd = BASE.replace("Priority *int32", "X\u{2E2F}Y *int32");
    let first = parse_reusing(&odd, "k8s:", None);
    assert!(!first.previous.is_reusable());
    edit(
        &odd,
        &odd.replace("+k8s:minimum=0", "+k8s:minimum=1"),
        false,
    );
}

/// The body of every `//` comment of `src`, as the parser's scan finds them (after the `//`, before a final `\r`).
fn bodies(src: &str) -> Vec<std::ops::Range<usize>> {
    super::super::depth::scan(src)
        .line_comments
        .into_iter()
        .map(|c| {
            let end = if src[c.clone()].ends_with('\r') {
                c.end - 1
            } else {
                c.end
            };
            c.start + 2..end.max(c.start + 2)
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
    /// Random Go-ish files (as the skeleton's own proptest builds them), then random new bodies for random `//`
    /// comments: the reusing parse is the full parse, whether it reuses or not.
    #[test]
    fn random_comment_edits_give_the_full_parse(
        pieces in proptest::collection::vec(proptest::sample::select(
            [crate::go::tests::GO_PIECES, &["type I interface {\n", "//go:generate x\n", "// +k8s:minimum=1\n"]]
                .concat(),
        ), 0..40),
        edits in proptest::collection::vec((0usize..64, proptest::sample::select(vec![
            "", " ", " +k8s:required", " +k8s:minimum=2", "go:generate y", " é", " /* open", " */", " `", " \"",
            " +groupName=x", " type T", "\r", "x\ry",
        ])), 1..4),
    ) {
        let src: String = pieces.concat();
        let first = parse_reusing(&src, "k8s:", None);
        proptest::prop_assert_eq!(&first.file, &parse_for_tag_prefix(&src, "k8s:"));
        let found = bodies(&src);
        if found.is_empty() {
            return Ok(());
        }
        let mut new = src.clone();
        // Replace from the last body back, so earlier ranges stay valid.
        let mut chosen: Vec<(std::ops::Range<usize>, &str)> =
            edits.iter().map(|(i, b)| (found[i % found.len()].clone(), *b)).collect();
        chosen.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        chosen.dedup_by_key(|(r, _)| r.start);
        for (r, body) in chosen {
            new.replace_range(r, body);
        }
        let second = parse_reusing(&new, "k8s:", Some(&first.previous));
        proptest::prop_assert_eq!(&second.file, &parse_for_tag_prefix(&new, "k8s:"), "{:?} -> {:?}", src, new);
    }
}
