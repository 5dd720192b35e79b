use super::*;
use proptest::prelude::*;

fn ok(s: &str) -> String {
    parse(s)
        .map(|t| t.to_string())
        .unwrap_or_else(|e| panic!("{s}: {e:?}"))
}
fn err(s: &str) -> (String, Span) {
    let e = parse(s).expect_err(s);
    (e.message, e.span)
}

#[test]
fn parses_upstream_shapes() {
    assert_eq!(ok("k8s:required"), "k8s:required");
    assert_eq!(ok("k8s:maxItems=16"), "k8s:maxItems=16");
    assert_eq!(ok("k8s:maxItems=+5"), "k8s:maxItems=+5");
    assert_eq!(ok("k8s:minimum=0x1F"), "k8s:minimum=0x1F");
    assert_eq!(
        ok("k8s:format=k8s-short-name"),
        r#"k8s:format="k8s-short-name""#
    );
    assert_eq!(ok("k8s:listType=map # trailing"), r#"k8s:listType="map""#);
    assert_eq!(ok("name=foo#x"), r#"name="foo""#);
    assert_eq!(ok("name()"), "name");
    assert_eq!(
        ok(r#"k8s:beta(since: "1.37")=+k8s:item(type: "Approved")=+k8s:immutable"#),
        r#"k8s:beta(since: "1.37")=+k8s:item(type: "Approved")=+k8s:immutable"#
    );
    assert_eq!(
        ok("k8s:unionMember(union:foo,memberName: Bar)"),
        r#"k8s:unionMember(union: "foo", memberName: "Bar")"#
    );
    assert_eq!(
        ok("k8s:ifEnabled(MyGate)=+k8s:optional"),
        r#"k8s:ifEnabled("MyGate")=+k8s:optional"#
    );
    assert_eq!(ok("x(a: true)=false"), "x(a: true)=false");
    assert_eq!(ok(r"x=`a\`b`"), r#"x="a`b""#);
    assert_eq!(ok(r#"x="a\"\\b""#), r#"x="a\"\\b""#);
}

#[test]
fn value_types_and_spans() {
    let t = parse(r#"k8s:beta(since: "1.37")=+k8s:item(type: "Approved")=+k8s:immutable"#).unwrap();
    let inner = t.inner().unwrap();
    assert_eq!(inner.name, "k8s:item");
    assert_eq!(inner.name_span, 25..33);
    assert_eq!(t.arg("since").unwrap().value, Scalar::Str("1.37".into()));
    let t = parse("  k8s:minimum=-3").unwrap();
    assert_eq!(t.name_span, 2..13);
    assert_eq!(
        t.scalar_value(),
        Some(&Scalar::Int {
            text: "-3".into(),
            value: -3
        })
    );
}

#[test]
fn rejects_what_upstream_rejects() {
    assert_eq!(err("name ="), ("unexpected character ' '".into(), 4..5));
    assert_eq!(err("name= 5").0, "unexpected character ' '");
    assert_eq!(err("name( a)").0, "unexpected character ' '");
    assert_eq!(err("name(a )").0, "unexpected character ' '");
    assert_eq!(err("name (a)").0, "unexpected character ' '");
    assert_eq!(ok("name(a, )"), r#"name("a")"#);
    assert_eq!(err("name=").0, "unexpected end of input");
    assert_eq!(err("name(").0, "unexpected end of input");
    assert_eq!(err("name=+k8s:x=").0, "unexpected end of input");
    assert_eq!(err("name=09"), ("invalid number \"09\"".into(), 5..7));
    assert_eq!(err("name=1_000").0, "unexpected character '_'");
    assert_eq!(err(r#"name="abc"#).0, "unterminated string");
    assert_eq!(err(r#"name="a\nb""#).0, "unhandled escaped character 'n'");
    assert_eq!(
        err("name(a, b: c)").0,
        "can't mix named and positional arguments"
    );
    assert_eq!(
        err("name(a, b)").0,
        "multiple arguments must use 'name: value' syntax"
    );
    assert_eq!(err("name=foo:bar").0, "unexpected character ':'");
    assert_eq!(err("name=foo bar").0, "unexpected character ' '");
    assert_eq!(err("1name").0, "unexpected character '1'");
    assert_eq!(
        err("name=9223372036854775808").0,
        "invalid number \"9223372036854775808\""
    );
}

#[test]
fn go_ints() {
    assert_eq!(lexer::parse_go_int("017"), Some(15));
    assert_eq!(lexer::parse_go_int("0o17"), Some(15));
    assert_eq!(lexer::parse_go_int("0b101"), Some(5));
    assert_eq!(lexer::parse_go_int("-0x10"), Some(-16));
    assert_eq!(lexer::parse_go_int("-9223372036854775808"), Some(i64::MIN));
    assert_eq!(lexer::parse_go_int("08"), None);
    assert_eq!(lexer::parse_go_int("0x"), None);
}

#[test]
fn raw_mode() {
    let r = parse_raw("k8s:validation-gen=TypesWithField=TypeMeta").unwrap();
    assert_eq!(r.value.as_deref(), Some("TypesWithField=TypeMeta"));
    assert_eq!(r.value_span, 19..42);
    let r = parse_raw("default={\"a\": 1} # x").unwrap();
    assert_eq!(r.value.as_deref(), Some("{\"a\": 1} # x"));
    assert_eq!(parse_raw("k8s:validation-gen-nolint").unwrap().value, None);
}

#[test]
fn extraction_follows_codetags() {
    let lines = [
        "Doc text.",
        "\t+k8s:optional",
        "  +k8s:maxItems=4",
        "+listType=atomic",
        "+k8s:",
    ];
    let got = extract("+k8s:", lines);
    let names: Vec<_> = got.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["k8s:optional", "k8s:maxItems", "k8s:"]);
    assert_eq!(got[1].column, 3);
}

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        "[a-zA-Z_][a-zA-Z0-9_.-]{0,8}".prop_map(|s| match s.as_str() {
            "true" => Scalar::Bool(true),
            "false" => Scalar::Bool(false),
            _ => Scalar::Str(s),
        }),
        "[ -~]{0,10}".prop_map(Scalar::Str),
        any::<i32>().prop_map(|v| Scalar::Int {
            text: v.to_string(),
            value: i64::from(v)
        }),
        any::<bool>().prop_map(Scalar::Bool),
    ]
}

fn tag() -> impl Strategy<Value = Tag> {
    let leaf = (
        "k8s:[a-zA-Z][a-zA-Z0-9-]{0,8}",
        prop::collection::vec(("[a-z][a-zA-Z]{0,5}", scalar()), 0..3),
        proptest::option::of(scalar()),
        any::<bool>(),
    )
        .prop_map(|(name, named, value, positional)| {
            let args = if positional && !named.is_empty() {
                vec![Arg {
                    name: None,
                    value: named[0].1.clone(),
                    span: 0..0,
                }]
            } else {
                named
                    .into_iter()
                    .map(|(n, v)| Arg {
                        name: Some(n),
                        value: v,
                        span: 0..0,
                    })
                    .collect()
            };
            Tag {
                name,
                name_span: 0..0,
                args,
                value: value.map(|v| TagValue::Scalar(v, 0..0)),
                span: 0..0,
            }
        });
    leaf.prop_recursive(3, 6, 1, |inner| {
        (inner.clone(), inner).prop_map(|(mut outer, inner)| {
            outer.value = Some(TagValue::Tag(Box::new(inner)));
            outer
        })
    })
}

fn strip_spans(t: &mut Tag) {
    t.name_span = 0..0;
    t.span = 0..0;
    for a in &mut t.args {
        a.span = 0..0;
    }
    match &mut t.value {
        Some(TagValue::Scalar(_, s)) => *s = 0..0,
        Some(TagValue::Tag(i)) => strip_spans(i),
        None => {}
    }
}

proptest! {
    #[test]
    fn print_parse_round_trip(t in tag()) {
        let printed = t.to_string();
        let mut back = parse(&printed).map_err(|e| TestCaseError::fail(format!("{printed}: {e:?}")))?;
        strip_spans(&mut back);
        prop_assert_eq!(back, t);
    }

    #[test]
    fn never_panics(s in "\\PC{0,40}") {
        let _ = parse(&s);
        let _ = parse_raw(&s);
    }
}

#[test]
fn canonical_spelling_normalizes_space_only() {
    let c = |s: &str| crate::tags::canonical_spelling(s);
    assert_eq!(
        c(r#"k8s:alpha(since:"1.37")=+k8s:optional"#).as_deref(),
        Some(r#"k8s:alpha(since: "1.37")=+k8s:optional"#)
    );
    assert_eq!(
        c(r#"k8s:alpha(since: "1.37")=+k8s:optional"#).as_deref(),
        Some(r#"k8s:alpha(since: "1.37")=+k8s:optional"#)
    );
    assert_eq!(
        c(r#"k8s:item(type:"A",  port: 443 )=+k8s:immutable"#).as_deref(),
        Some(r#"k8s:item(type: "A", port: 443)=+k8s:immutable"#)
    );
    // Unquoted values stay unquoted; quoted strings keep their inner spaces.
    assert_eq!(
        c("k8s:ifEnabled(Gate)=+k8s:format=k8s-short-name").as_deref(),
        Some("k8s:ifEnabled(Gate)=+k8s:format=k8s-short-name")
    );
    assert_eq!(
        c(r#"k8s:validateFalse = "a  b""#).as_deref(),
        Some(r#"k8s:validateFalse="a  b""#)
    );
    assert_eq!(
        c("k8s:maxItems=3   # why").as_deref(),
        Some("k8s:maxItems=3 # why")
    );
    assert_eq!(
        c("k8s:eachVal=+k8s:ifEnabled(X)=+k8s:maxLength=2").as_deref(),
        Some("k8s:eachVal=+k8s:ifEnabled(X)=+k8s:maxLength=2")
    );
    assert_eq!(c(r#"k8s:x("unterminated"#), None);
}

/// R2/R3: chains up to the limit parse; one more link is a located error; a chain of 100,000 links is refused
/// without building (or dropping) a deep tag, on a 2 MiB thread.
#[test]
fn r02_chains_are_limited() {
    let chain = |n: usize| format!("{}k8s:maxLength=3", "k8s:eachVal=+".repeat(n - 1));
    let t = crate::tags::parse(&chain(crate::tags::MAX_CHAIN)).expect("at the limit");
    assert_eq!(t.chain().count(), crate::tags::MAX_CHAIN);
    let e = crate::tags::parse(&chain(crate::tags::MAX_CHAIN + 1)).expect_err("over the limit");
    assert_eq!(
        e.message,
        "more than 32 chained tags; vgc's limit (real tags chain at most a few)"
    );
    let at = "k8s:eachVal=+".len() * crate::tags::MAX_CHAIN - 2;
    assert_eq!(e.span, at..at + 2);
    let long = chain(100_000);
    let r = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || crate::tags::parse(&long).is_err())
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert!(r);
}
