//! `vgc::manifests::load` — how `vgc validate` reads manifest files — against how kubectl reads them (issue 36).
//!
//! A scratch Go module requires `k8s.io/apimachinery` at the oracle's upstream version (v0.37.2) and
//! `sigs.k8s.io/yaml` at exactly the version that module's `go.mod` requires (v1.6.0, whose YAML 1.1 decoder is
//! `go.yaml.in/yaml/v2`); the test asserts that the build uses those versions. Its driver
//! (`tests/upstream/yaml_kubectl_oracle.go`) reads each file of the corpus as `k8s.io/cli-runtime`'s
//! `StreamVisitor` does — `NewYAMLOrJSONDecoder`, each document into a `runtime.RawExtension` (`YAMLToJSON` for
//! YAML), empty and `null` documents skipped — and prints the JSON kubectl sends for each document (that JSON read
//! as an unstructured object and written again), or the error.
//!
//! The corpus (built below, several hundred files): booleans in every YAML 1.1 spelling and their look-alikes,
//! integers with underscores, signs, octal, hex and binary prefixes, floats, sexagesimal and timestamp look-alikes,
//! nulls, each as a block value, a flow value, a sequence item and a key; explicit tags; merge keys; anchors and
//! aliases; block and flow scalars; multi-document streams with every `---` and `...` spelling; non-string keys;
//! Unicode; comments; byte order marks; JSON streams and their fallback to YAML; realistic manifests.
//!
//! Asserted, for every file: vgc's documents are Go's, in order — the same number, each an error on both sides or
//! equal JSON values on both (serde_json values: an integer is not equal to a float, so `1.0`, which kubectl sends
//! as `1`, must be an integer); `chunks` + `load_chunk` give the same documents as `load`; every recorded span is
//! inside the document. Files where saphyr-parser's YAML 1.2 syntax and go-yaml's YAML 1.1 (libyaml) syntax
//! disagree are listed in [`KNOWN`] with the reason, and asserted to still disagree, so that a fix is noticed.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use vgc_tests::harness::{apimachinery_module, download_module, go, substitute_refused_modules};
use vgc_tests::tier::{NEEDS_GO, skip_slow};

const DRIVER: &str = include_str!("../upstream/yaml_kubectl_oracle.go");

/// Files where vgc and kubectl disagree because the YAML parsers' syntax differs (saphyr-parser reads YAML 1.2,
/// go-yaml v2 is a port of libyaml, YAML 1.1), not because of the conversion: name → why.
const KNOWN: &[(&str, &str)] = &[
    (
        "unicode/nel in plain scalar",
        "YAML 1.1 breaks lines at U+0085 (NEL), U+2028 and U+2029; YAML 1.2 reads them as content",
    ),
    (
        "unicode/ls in plain scalar",
        "YAML 1.1 breaks lines at U+0085 (NEL), U+2028 and U+2029; YAML 1.2 reads them as content",
    ),
    (
        "unicode/nel in double-quoted scalar",
        "YAML 1.1 folds a U+0085 (NEL) line break in a quoted scalar to a space; YAML 1.2 keeps the character",
    ),
    (
        "bom/at the start of a later line",
        "libyaml takes a byte order mark inside a document as part of the key; saphyr-parser refuses it",
    ),
    (
        "anchors/name with a dot",
        "libyaml allows only letters, digits, `-` and `_` in anchor names; YAML 1.2 allows any non-space character",
    ),
    (
        "anchors/alias key without a space before the colon",
        "`*a:` is the alias `a` and a colon for libyaml, an alias named `a:` for YAML 1.2",
    ),
    (
        "syntax/tab after a sequence dash",
        "libyaml refuses a tab as the separation after `- `; YAML 1.2 allows it",
    ),
    (
        "json/lone surrogate",
        "Go's JSON decoder reads a lone surrogate escape as U+FFFD; serde_json refuses it",
    ),
    (
        "syntax/tab after a colon",
        "libyaml accepts a tab as the only separation after a key's `:`; saphyr-parser refuses it",
    ),
    (
        "stream/document end alone",
        "libyaml refuses `...` before any document; saphyr-parser reads it as ending an empty stream",
    ),
];

/// One file of the corpus.
struct Case {
    name: String,
    text: String,
}

fn case(out: &mut Vec<Case>, name: impl Into<String>, text: impl Into<String>) {
    out.push(Case {
        name: name.into(),
        text: text.into(),
    });
}

/// YAML 1.1 booleans (go-yaml v2's `resolveMap`) and strings that look like them.
const BOOLEANS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "yES", "tRUE", "oN", "nO", "yeah",
    "t", "f",
];

/// Integers and what looks like one.
const INTEGERS: &[&str] = &[
    "0",
    "00",
    "1",
    "-1",
    "+1",
    "-0",
    "1_000",
    "1__0",
    "1_",
    "_1",
    "+_1",
    "0o17",
    "0O17",
    "017",
    "-017",
    "08",
    "0777",
    "0x1F",
    "0X1f",
    "0x_1F",
    "-0x1F",
    "+0x1F",
    "0x",
    "0o",
    "0b101",
    "0B101",
    "-0b101",
    "0b-101",
    "0b2",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "0xFFFFFFFFFFFFFFFF",
    "0x1FFFFFFFFFFFFFFFF",
];

/// Floats and what looks like one.
const FLOATS: &[&str] = &[
    "1.0",
    "1.",
    ".5",
    "-.5",
    "+.5",
    "1.5",
    "-1.5e3",
    "1e3",
    "1E3",
    "1e+3",
    "1.5e-3",
    "1e-7",
    "1e20",
    "1e21",
    "1e-400",
    "1e400",
    "-1e400",
    "0.1",
    "012.5",
    "09.5",
    "0x1p3",
    "1.5_0",
    "1_000.5",
    "3.14159265358979",
    "6.02e23",
    "-0.0",
    "0.000001",
    "0.0000001",
    "123456789.123456789",
    "inf",
    "-inf",
    "nan",
    ".inf",
    "-.inf",
    "+.inf",
    ".Inf",
    ".INF",
    "-.Inf",
    ".nan",
    ".NaN",
    ".NAN",
    ".iNf",
    "._5",
    ".",
    "+",
    ".e3",
    "1e",
    "e3",
];

/// Sexagesimal numbers, times and dates (YAML 1.1 types go-yaml v2 leaves as strings).
const TIMES: &[&str] = &[
    "1:30",
    "-1:30",
    "190:20:30",
    "1:30.5",
    "12:30:45",
    "2001-12-14",
    "2001-1-2",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14T21:59:43Z",
    "2001-12-14 21:59:43.10 -5",
    "2001-12-14 21:59:43.10",
    "2001-13-14",
];

/// Nulls and their look-alikes.
const NULLS: &[&str] = &[
    "~", "null", "Null", "NULL", "nUll", "''", "\"\"", "None", "nil",
];

/// The scalar lists, each written in four places: a block mapping value, a flow mapping value, a sequence item and
/// a key.
fn scalar_cases(out: &mut Vec<Case>) {
    for (family, list) in [
        ("bool", BOOLEANS),
        ("int", INTEGERS),
        ("float", FLOATS),
        ("time", TIMES),
        ("null", NULLS),
    ] {
        for s in list {
            case(
                out,
                format!("{family}/value {s}"),
                format!("kind: K\nfield: {s}\n"),
            );
            case(
                out,
                format!("{family}/flow {s}"),
                format!("{{kind: K, field: {s}}}\n"),
            );
            case(
                out,
                format!("{family}/item {s}"),
                format!("items:\n- {s}\n- x\n"),
            );
            case(
                out,
                format!("{family}/key {s}"),
                format!("map:\n  {s}: v\n"),
            );
        }
    }
    // Quoted and block scalars are strings, whatever they spell.
    for s in ["yes", "on", "1_000", "017", "1.0", "~", ".inf", "1:30"] {
        case(out, format!("quoted/single {s}"), format!("a: '{s}'\n"));
        case(out, format!("quoted/double {s}"), format!("a: \"{s}\"\n"));
        case(out, format!("quoted/literal {s}"), format!("a: |\n  {s}\n"));
        case(out, format!("quoted/key {s}"), format!("'{s}': v\n"));
    }
}

fn tag_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("str on int", "a: !!str 123\n"),
        ("str on bool", "a: !!str yes\n"),
        ("str on null", "a: !!str ~\n"),
        ("int on quoted", "a: !!int \"5\"\n"),
        ("int on quoted hex", "a: !!int \"0x1F\"\n"),
        ("int on word", "a: !!int \"abc\"\n"),
        ("int on float", "a: !!int 1.5\n"),
        ("float on int", "a: !!float 1\n"),
        ("float on quoted", "a: !!float \"1e3\"\n"),
        ("float out of range", "a: !!float 1e400\n"),
        ("float on big int", "a: !!float 18446744073709551615\n"),
        ("float on int64 max", "a: !!float 9223372036854775807\n"),
        ("int on big int", "a: !!int 18446744073709551615\n"),
        ("bool on yes", "a: !!bool yes\n"),
        ("bool on quoted on", "a: !!bool \"on\"\n"),
        ("bool on int", "a: !!bool 1\n"),
        ("null on tilde", "a: !!null ~\n"),
        ("null on empty quoted", "a: !!null \"\"\n"),
        ("null on word", "a: !!null x\n"),
        ("timestamp", "a: !!timestamp 2001-12-14\n"),
        (
            "timestamp with time",
            "a: !!timestamp 2001-12-14 21:59:43.10\n",
        ),
        ("timestamp invalid", "a: !!timestamp 2001-13-14\n"),
        ("timestamp word", "a: !!timestamp x\n"),
        ("binary", "a: !!binary aGVsbG8=\n"),
        ("binary block", "a: !!binary |\n  aGVs\n  bG8=\n"),
        ("binary unpadded", "a: !!binary aGVsbG8\n"),
        ("binary not utf-8", "a: !!binary /w==\n"),
        ("binary key", "!!binary aGVsbG8=: x\n"),
        ("non-specific on int", "a: ! 123\n"),
        ("non-specific on bool", "a: ! yes\n"),
        ("local tag on int", "a: !foo 123\n"),
        ("local tag on map", "a: !foo {b: 1}\n"),
        ("verbatim int", "a: !<tag:yaml.org,2002:int> \"7\"\n"),
        ("verbatim local", "a: !<!bar> 1\n"),
        ("seq tag on scalar", "a: !!seq x\n"),
        ("map tag on empty flow", "a: !!map {}\n"),
        ("str tag on sequence", "a: !!str [1]\n"),
        ("set", "a: !!set {x, y}\n"),
        ("merge tag on value", "a: !!merge x\n"),
        ("tagged key", "!!str 1: a\n!!int \"2\": b\n"),
    ] {
        case(out, format!("tags/{name}"), text);
    }
}

fn merge_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("alias", "base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  c: 3\n"),
        (
            "explicit key after",
            "base: &b {a: 1}\nx:\n  <<: *b\n  a: 2\n",
        ),
        (
            "explicit key before",
            "base: &b {a: 1}\nx:\n  a: 2\n  <<: *b\n",
        ),
        ("inline mapping", "x: {a: 9, <<: {a: 1, b: 2}}\n"),
        (
            "sequence",
            "p: &p {a: 1, c: 1}\nq: &q {a: 2, d: 2}\nx:\n  <<: [*p, *q]\n",
        ),
        ("sequence inline", "x:\n  <<: [{a: 1}, {a: 2, b: 2}]\n"),
        ("two merge keys", "x:\n  << : {a: 1}\n  << : {a: 2, b: 2}\n"),
        (
            "nested",
            "a: &a {k: 1}\nb: &b {<<: *a, l: 2}\nc:\n  <<: *b\n  m: 3\n",
        ),
        ("alias of sequence", "s: &s [{a: 1}]\nx:\n  <<: *s\n"),
        ("sequence of sequences", "x:\n  <<: [[1]]\n"),
        ("null", "x:\n  <<: ~\n"),
        ("scalar", "x:\n  <<: 1\n"),
        ("quoted key is a key", "x:\n  '<<': {a: 1}\n"),
        ("merge tag", "x:\n  !!merge <<: {a: 1}\n"),
        ("in a sequence item", "b: &b {a: 1}\nl:\n- <<: *b\n  c: 2\n"),
        (
            "deployment",
            "defaults: &defaults\n  replicas: 2\n  paused: no\nspec:\n  <<: *defaults\n  replicas: 3\n",
        ),
    ] {
        case(out, format!("merge/{name}"), text);
    }
}

fn anchor_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("scalar", "a: &x yes\nb: *x\n"),
        ("mapping", "a: &x {k: on}\nb: *x\n"),
        ("sequence", "a: &x [1, 2]\nb: *x\n"),
        ("redefined", "a: &x 1\nb: *x\nc: &x 2\nd: *x\n"),
        ("unknown", "a: *nope\n"),
        ("recursive", "&a [*a]\n"),
        ("scalar key", "a: &x 1\n*x : 2\n"),
        ("bool key", "a: &x on\n*x : 2\n"),
        ("float key", "a: &x 1.5\n*x : 2\n"),
        ("mapping key", "a: &x {k: 1}\n? *x\n: 2\n"),
        ("anchor on key", "&k a: 1\nb: *k\n"),
        ("infinite alias", "a: &x .inf\nb: 1\n"),
        ("infinite overwritten", "a: .inf\na: 1\n"),
        ("name with a dot", "a: &a.b 1\nb: *a.b\n"),
        (
            "alias key without a space before the colon",
            "a: &x 1\n*x: 2\n",
        ),
        ("billion laughs", &laughs()),
    ] {
        case(out, format!("anchors/{name}"), text);
    }
}

fn laughs() -> String {
    let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for w in ["a", "b", "c", "d", "e", "f", "g", "h"].windows(2) {
        let (p, n) = (w[0], w[1]);
        let _ = writeln!(
            s,
            "{n}: &{n} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]"
        );
    }
    s
}

fn scalar_style_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("literal", "a: |\n  line 1\n  line 2\n"),
        ("literal strip", "a: |-\n  x\n\n"),
        ("literal keep", "a: |+\n  x\n\n"),
        ("literal indent", "a: |2\n   x\n  y\n"),
        ("folded", "a: >\n  one\n  two\n\n  three\n"),
        ("folded strip", "a: >-\n  one\n  two\n"),
        ("plain multi-line", "a: one\n  two\n  three\n"),
        (
            "double-quoted escapes",
            "a: \"tab\\tnl\\nq\\\"u\\u00e9x\\x41U\\U0001F600\"\n",
        ),
        ("double-quoted multi-line", "a: \"one\n  two\"\n"),
        ("double-quoted line continuation", "a: \"one\\\n  two\"\n"),
        ("single-quoted quote", "a: 'it''s'\n"),
        ("single-quoted multi-line", "a: 'one\n  two'\n"),
        ("flow nested", "a: {b: [1, {c: d}], e: []}\n"),
        ("flow trailing commas", "a: [1, 2, ]\nb: {c: 1, }\n"),
        ("flow multi-line", "a: [\n  1,\n  2\n]\n"),
        ("flow implicit null", "a: {b, c: 1}\n"),
        ("empty flow", "a: {}\nb: []\n"),
        ("complex key", "? a\n: 1\n? [b]\n: 2\n"),
        ("empty value", "a:\nb: 1\n"),
        ("colon in value", "a: b:c\nurl: http://x:80/y\n"),
        ("hash in value", "a: b#c\n"),
        ("dash value", "a: -\n"),
        ("tab after a sequence dash", "-\tvalue\n"),
        ("tab after a colon", "a:\tb\n"),
        (
            "long key",
            "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk: 1\n",
        ),
    ] {
        let (prefix, n) = if name.starts_with("tab after") {
            ("syntax", name)
        } else {
            ("styles", name)
        };
        case(out, format!("{prefix}/{n}"), text);
    }
}

fn stream_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("two documents", "a: 1\n---\nb: 2\n"),
        ("leading separator", "---\na: 1\n"),
        ("trailing separator", "a: 1\n---\n"),
        ("separators only", "---\n---\n"),
        ("separator with comment", "a: 1\n--- # c\nb: 2\n"),
        ("separator with comment, no space", "a: 1\n---#c\nb: 2\n"),
        ("separator with trailing spaces", "a: 1\n---   \nb: 2\n"),
        ("separator with a value", "a: 1\n--- x\nb: 2\n"),
        ("separator with a mapping", "--- a: 1\nb: 2\n"),
        ("four dashes", "a: 1\n----\nb: 2\n"),
        ("document end", "a: 1\n...\nb: 2\n"),
        ("document end then separator", "a: 1\n...\n---\nb: 2\n"),
        ("document end alone", "...\na: 1\n"),
        ("error after document end", "a: 1\n...\nb: [\n"),
        (
            "empty documents",
            "---\n# only a comment\n---\n\n---\na: 1\n",
        ),
        ("null document", "~\n---\nnull\n---\na: 1\n"),
        ("scalar document", "just a string\n"),
        ("sequence document", "- a\n- b\n"),
        ("malformed middle", "a: 1\n---\nb: [\n---\nc: 3\n"),
        ("two malformed", "a: [\n---\nb: {\n---\nc: 3\n"),
        ("yaml directive", "%YAML 1.1\n---\na: 1\n"),
        ("yaml 1.2 directive", "%YAML 1.2\n---\na: 1\n"),
        ("crlf", "a: 1\r\nb: yes\r\n---\r\nc: 2\r\n"),
        ("no final newline", "a: 1\n---\nb: on"),
        ("indented separator", "a:\n  ---\n"),
        ("separator inside block scalar", "a: |\n  x\n---\nb: 2\n"),
        (
            "many documents",
            "a: 1\n---\na: 2\n---\na: 3\n---\na: 4\n---\na: 5\n",
        ),
    ] {
        case(out, format!("stream/{name}"), text);
    }
}

fn key_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("int keys", "1: a\n2: b\n-3: c\n"),
        (
            "float keys",
            "1.5: a\n1e10: b\n0.1: c\n12345678.0: d\n0.00001: e\n-0.0: f\n",
        ),
        ("infinite and nan keys", ".inf: a\n-.inf: b\n.nan: c\n"),
        // A float beyond float32's range names the key `.inf` (go-yaml prints keys as float32).
        ("float32 overflow key", "1e300: d\n"),
        ("bool keys", "true: a\nno: b\n"),
        ("same bool twice", "yes: a\non: b\n"),
        ("null key", "~: a\n"),
        ("empty key", ": a\n"),
        ("null key overwritten", "a: {~: 1}\na: 2\n"),
        ("big key", "18446744073709551615: a\n"),
        ("int64 max key", "9223372036854775807: a\n"),
        ("octal and hex keys", "017: a\n0x1F: b\n1_000: c\n"),
        ("timestamp key", "2001-12-14: a\n"),
        ("sexagesimal key", "1:30: a\n"),
        ("flow sequence key", "? [a]\n: 1\n"),
        ("flow mapping key", "? {a: 1}\n: 1\n"),
        (
            "nested int keys",
            "spec:\n  ports:\n    80: http\n    443: https\n",
        ),
        ("duplicate keys", "a: 1\na: 2\n"),
        ("duplicate keys of another type", "a: {b: 1}\na: 2\n"),
        ("duplicate nested", "a:\n  b: 1\n  b: 2\n"),
        ("y and n", "y: 1\nn: 2\n"),
    ] {
        case(out, format!("keys/{name}"), text);
    }
}

fn unicode_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("accents", "clé: é→x\nnaïve: ünïcödé\n"),
        ("cjk", "名前: 値\n"),
        ("emoji", "a: 😀\nb: \"\\U0001F600\"\n"),
        ("rtl", "a: שלום\n"),
        ("combining", "a: e\u{301}\n"),
        ("nbsp in value", "a: x\u{a0}y\n"),
        ("escapes", "a: \"\\u00e9\\x41\\N\\_\\L\\P\"\n"),
        ("surrogate escape", "a: \"\\ud83d\\ude00\"\n"),
        ("nel in plain scalar", "a: b\u{85}c\n"),
        ("ls in plain scalar", "a: b\u{2028}c\n"),
        ("nel in double-quoted scalar", "a: \"x\u{85}y\"\n"),
    ] {
        case(out, format!("unicode/{name}"), text);
    }
    for (name, text) in [
        ("at the start", "\u{feff}a: 1\n"),
        (
            "at the start of a later document",
            "a: 1\n---\n\u{feff}b: 2\n",
        ),
        ("at the start of a later line", "a: 1\n\u{feff}b: 2\n"),
        ("before json", "\u{feff}{\"a\": 1}\n"),
    ] {
        case(out, format!("bom/{name}"), text);
    }
}

fn comment_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("line", "# c\na: 1\n"),
        ("inline", "a: 1 # c\n"),
        ("after a boolean", "a: yes # c\n"),
        ("between entries", "a: 1\n# c\nb: 2\n"),
        ("in flow", "a: [1, # c\n  2]\n"),
        ("not a comment", "a: b#c\n"),
        ("only comments", "# a\n# b\n"),
        ("after block scalar", "a: |\n  x\n# c\nb: 2\n"),
    ] {
        case(out, format!("comments/{name}"), text);
    }
}

fn json_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        ("object", "{\"a\": 1, \"b\": \"yes\", \"c\": true}\n"),
        (
            "numbers",
            "{\"a\": 1.0, \"b\": 1e2, \"c\": -0, \"d\": 1.5e300, \"e\": 0.1}\n",
        ),
        (
            "big numbers",
            "{\"a\": 18446744073709551615, \"b\": 9223372036854775807, \"c\": 1e21}\n",
        ),
        ("out of range", "{\"a\": 1e400}\n"),
        ("two objects", "{\"a\": 1}\n{\"b\": 2}\n"),
        ("adjacent objects", "{\"a\": 1}{\"b\": 2}"),
        ("three objects", "{\"a\": 1} {\"b\": 2} {\"c\": 3}\n"),
        ("object then array", "{\"a\": 1}\n[1, 2]\n"),
        ("object then null", "{\"a\": 1}\nnull\n"),
        ("object then yaml", "{\"a\": 1}\n---\nb: yes\n"),
        ("object then yaml on the same line", "{\"a\": 1} b: on\n"),
        ("object then short garbage", "{\"a\": 1} x\n"),
        ("object then word", "{\"a\": 1} xyz\n"),
        ("two objects then garbage", "{}{}\nx: 1\n"),
        ("yaml flow mapping", "{a: yes, b: 1_000}\n"),
        ("leading spaces", "   \n\t{\"a\": 1}\n"),
        ("form feed before", "\u{c}{\"a\": 1}\n"),
        ("duplicate keys", "{\"a\": 1, \"a\": 2}\n"),
        (
            "escapes",
            "{\"a\": \"\\u00e9\\n\\/\", \"b\": \"\\ud83d\\ude00\"}\n",
        ),
        ("tab in string", "{\"a\": \"x\ty\"}\n"),
        ("lone surrogate", "{\"a\": \"\\ud800\"}\n"),
        ("nested", "{\"a\": {\"b\": [1, {\"c\": null}]}}\n"),
        ("truncated", "{\"a\": 1\n"),
        ("array first", "[{\"a\": 1}]\n"),
        (
            "list",
            "{\"kind\": \"List\", \"items\": [{\"kind\": \"A\", \"n\": 1.0}]}\n",
        ),
        ("whitespace after", "{\"a\": 1}\n\n  \n"),
        ("comment after", "{\"a\": 1}\n# trailing comment\n"),
    ] {
        case(out, format!("json/{name}"), text);
    }
}

fn manifest_cases(out: &mut Vec<Case>) {
    for (name, text) in [
        (
            "deployment",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web, enabled: on}\n\
             spec:\n  replicas: 1_000\n  paused: yes\n  revisionHistoryLimit: 010\n  progressDeadlineSeconds: 6e2\n\
             \x20 template:\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.25\n        \
             ports:\n        - containerPort: 0x50\n",
        ),
        (
            "configmap",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  enabled: yes\n  ratio: 0.50\n  \
             version: 1.10\n  quoted: \"yes\"\n  time: 12:30\n",
        ),
        (
            "service",
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - port: 80\n    targetPort: 8_080\n  \
             - port: 443\n    targetPort: https\n",
        ),
        (
            "stream",
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n---\n# second\napiVersion: v1\nkind: Secret\n\
             metadata:\n  name: s\n  namespace: a\nstringData:\n  key: off\n",
        ),
        (
            "list",
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    \
             hostNetwork: on\n    priority: +5\n",
        ),
    ] {
        case(out, format!("manifests/{name}"), text);
    }
}

/// Generated combinations: several scalars in one document, nested in sequences and flow collections.
fn combination_cases(out: &mut Vec<Case>) {
    let mix: Vec<&str> = BOOLEANS
        .iter()
        .chain(INTEGERS)
        .chain(
            FLOATS
                .iter()
                .filter(|f| !f.contains("inf") && !f.contains("nan")),
        )
        .chain(TIMES)
        .copied()
        .collect();
    for (i, group) in mix.chunks(7).enumerate() {
        let mut block = String::from("spec:\n");
        let mut flow = String::from("{spec: [");
        for (j, s) in group.iter().enumerate() {
            let _ = writeln!(
                block,
                "  f{j}: {s}\n  l{j}:\n  - {s}\n  - [{s}, {{k: {s}}}]"
            );
            let _ = write!(flow, "{}{s}", if j == 0 { "" } else { ", " });
        }
        flow.push_str("]}\n");
        case(out, format!("combinations/block {i}"), block);
        case(out, format!("combinations/flow {i}"), flow);
        let stream: String = group
            .iter()
            .map(|s| format!("v: {s}\n"))
            .collect::<Vec<_>>()
            .join("---\n");
        case(out, format!("combinations/stream {i}"), stream);
    }
}

fn corpus() -> Vec<Case> {
    let mut out = Vec::new();
    scalar_cases(&mut out);
    tag_cases(&mut out);
    merge_cases(&mut out);
    anchor_cases(&mut out);
    scalar_style_cases(&mut out);
    stream_cases(&mut out);
    key_cases(&mut out);
    unicode_cases(&mut out);
    comment_cases(&mut out);
    json_cases(&mut out);
    manifest_cases(&mut out);
    combination_cases(&mut out);
    out
}

/// A document on one side: its JSON value, or an error (the message, for the report).
type Doc = Result<Value, String>;

/// Builds the driver against `k8s.io/apimachinery` at the oracle's version and the `sigs.k8s.io/yaml` version its
/// `go.mod` requires; returns the driver's path and the module versions it was built with.
fn build_driver(work: &Path) -> (std::path::PathBuf, String) {
    let apimachinery = apimachinery_module();
    let (dir, version) = download_module(&apimachinery, work);
    let gomod =
        std::fs::read_to_string(Path::new(&dir).join("go.mod")).expect("apimachinery go.mod");
    let sigs_yaml = gomod
        .lines()
        .map(str::trim)
        .find_map(|l| l.strip_prefix("sigs.k8s.io/yaml "))
        .map(|v| v.split_whitespace().next().unwrap_or_default().to_string())
        .expect("k8s.io/apimachinery requires sigs.k8s.io/yaml");
    std::fs::create_dir_all(work.join("cmd/oracle")).expect("mkdir");
    std::fs::write(work.join("cmd/oracle/main.go"), DRIVER).expect("main.go");
    let go_line = gomod
        .lines()
        .find_map(|l| l.strip_prefix("go "))
        .unwrap_or("1.24")
        .trim()
        .to_string();
    std::fs::write(
        work.join("go.mod"),
        format!(
            "module vgc.test/yamloracle\n\ngo {go_line}\n\nrequire (\n\tk8s.io/apimachinery {version}\n\t\
             sigs.k8s.io/yaml {sigs_yaml}\n)\n"
        ),
    )
    .expect("go.mod");
    go(work, &["mod", "tidy"]);
    for r in substitute_refused_modules(work) {
        eprintln!("yaml_kubectl_oracle: replaced {r}");
        go(work, &["mod", "tidy"]);
    }
    let used = |m: &str| {
        go(work, &["list", "-m", "-f", "{{.Version}}", m])
            .trim()
            .to_string()
    };
    assert_eq!(
        used("k8s.io/apimachinery"),
        version,
        "the driver's apimachinery"
    );
    assert_eq!(
        used("sigs.k8s.io/yaml"),
        sigs_yaml,
        "the driver's sigs.k8s.io/yaml"
    );
    let goyaml = used("go.yaml.in/yaml/v2");
    go(work, &["build", "-o", "oracle", "./cmd/oracle"]);
    (
        work.join("oracle"),
        format!(
            "k8s.io/apimachinery {version}, sigs.k8s.io/yaml {sigs_yaml}, go.yaml.in/yaml/v2 {goyaml}"
        ),
    )
}

/// Runs the driver on `texts`: each file's documents.
fn kubectl(driver: &Path, texts: &[&str]) -> Vec<Vec<(Doc, Option<String>)>> {
    let mut child = Command::new(driver)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the driver runs");
    let input = serde_json::to_vec(texts).expect("texts");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(&input).expect("write texts");
    }
    let out = child.wait_with_output().expect("driver output");
    assert!(
        out.status.success(),
        "driver: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<Vec<BTreeMap<String, String>>> =
        serde_json::from_slice(&out.stdout).expect("driver JSON");
    results
        .into_iter()
        .map(|docs| {
            docs.into_iter()
                .map(|d| {
                    let doc = match (d.get("json"), d.get("error")) {
                        (Some(j), _) => {
                            Ok(serde_json::from_str::<Value>(j).expect("the driver's JSON"))
                        }
                        (None, e) => Err(e.cloned().unwrap_or_default()),
                    };
                    (doc, d.get("raw").cloned())
                })
                .collect()
        })
        .collect()
}

/// vgc's documents of `text`, with the loader's own invariants checked.
fn vgc_docs(name: &str, text: &str) -> Vec<Doc> {
    let docs = vgc::manifests::load(text);
    let pieces: Vec<_> = vgc::manifests::chunks(text)
        .into_iter()
        .filter_map(|c| vgc::manifests::load_chunk(text, c))
        .collect();
    assert_eq!(pieces, docs, "{name}: chunks + load_chunk differ from load");
    docs.into_iter()
        .map(|d| {
            d.map(|d| {
                for (pointer, r) in &d.spans(text).values {
                    assert!(
                        r.start <= r.end
                            && text.is_char_boundary(r.start)
                            && text.is_char_boundary(r.end),
                        "{name}: span of {pointer} is not a range of the text"
                    );
                }
                d.value
            })
            .map_err(|e| e.message)
        })
        .collect()
}

fn show(d: &Doc) -> String {
    match d {
        Ok(v) => serde_json::to_string(v).unwrap_or_default(),
        Err(e) => format!("error: {e}"),
    }
}

fn same(a: &[Doc], b: &[Doc]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Ok(x), Ok(y)) => x == y,
            (Err(_), Err(_)) => true,
            _ => false,
        })
}

#[test]
fn vgc_reads_manifests_as_kubectl_does() {
    if skip_slow(NEEDS_GO) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (driver, versions) = build_driver(tmp.path());
    let cases = corpus();
    let mut names = std::collections::BTreeSet::new();
    for c in &cases {
        assert!(
            names.insert(c.name.as_str()),
            "duplicate case name {}",
            c.name
        );
    }
    for (k, _) in KNOWN {
        assert!(names.contains(k), "KNOWN names no case: {k}");
    }
    let texts: Vec<&str> = cases.iter().map(|c| c.text.as_str()).collect();
    let theirs = kubectl(&driver, &texts);
    assert_eq!(theirs.len(), cases.len());

    let known: BTreeMap<&str, &str> = KNOWN.iter().copied().collect();
    let mut differences = Vec::new();
    let mut fixed = Vec::new();
    let (mut documents, mut errors, mut raw_differs) = (0, 0, 0);
    for (c, theirs) in cases.iter().zip(&theirs) {
        let ours = vgc_docs(&c.name, &c.text);
        let go_docs: Vec<Doc> = theirs.iter().map(|(d, _)| d.clone()).collect();
        raw_differs += theirs
            .iter()
            .filter(|(d, raw)| {
                matches!((d, raw), (Ok(v), Some(r)) if serde_json::from_str::<Value>(r).ok().as_ref() != Some(v))
            })
            .count();
        let agree = same(&ours, &go_docs);
        match (agree, known.contains_key(c.name.as_str())) {
            (true, false) => {
                documents += ours.len();
                errors += ours.iter().filter(|d| d.is_err()).count();
            }
            (false, true) => {}
            (true, true) => fixed.push(c.name.clone()),
            (false, false) => {
                let mut report = format!("{}: {:?}\n", c.name, c.text);
                for i in 0..ours.len().max(go_docs.len()) {
                    let _ = writeln!(
                        report,
                        "  document {i}: vgc {}\n              kubectl {}",
                        ours.get(i).map_or("(none)".into(), show),
                        go_docs.get(i).map_or("(none)".into(), show)
                    );
                }
                differences.push(report);
            }
        }
    }
    let compared = cases.len() - known.len();
    eprintln!(
        "yaml_kubectl_oracle: {} differences over {compared} cases ({documents} documents, {errors} of them errors on \
         both sides; {raw_differs} documents whose YAMLToJSON output kubectl sends changed); {} known parser \
         differences listed apart; {versions}",
        differences.len(),
        known.len(),
    );
    assert!(
        differences.is_empty(),
        "{} of {compared} cases differ from kubectl:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "cases listed in KNOWN now agree with kubectl: take them out of KNOWN: {fixed:?}"
    );
}
