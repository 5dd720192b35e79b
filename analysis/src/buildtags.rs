//! Go file selection as `go/build` does it for the default build context that upstream's `go/packages` load uses
//! on a Linux machine (`GOOS=linux`, `GOARCH=amd64`, cgo on, the `gc` toolchain, every `go1.N` release tag):
//! `//go:build` constraint lines in the file header and `_GOOS` / `_GOARCH` / `_GOOS_GOARCH` file-name suffixes.
//! A file that does not match (`//go:build ignore` generators, `_windows.go` variants) is not part of the package.
//!
//! upstream: `go/build` (`Context.MatchFile`, `shouldBuild`, `goodOSArchFile`) and `go/build/constraint`.

/// `GOOS` values `go/build` knows (`syslist.go`); a file-name suffix naming another one is not a constraint.
const KNOWN_OS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
];

/// `GOARCH` values `go/build` knows (`syslist.go`).
const KNOWN_ARCH: &[&str] = &[
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
];

/// The deepest `!`/`(` nesting of a `//go:build` expression that is evaluated; deeper ones count as malformed
/// (and the file as included), so the evaluator's recursion is bounded.
const MAX_EXPR_DEPTH: usize = 64;

/// Whether a build tag holds in the default context.
fn tag_holds(tag: &str) -> bool {
    matches!(tag, "linux" | "amd64" | "unix" | "gc" | "cgo")
        || tag
            .strip_prefix("go1.")
            .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether the file name's `_GOOS`/`_GOARCH` suffixes match the default context (`goodOSArchFile`).
#[must_use]
pub fn name_matches(name: &str) -> bool {
    let stem = name.strip_suffix(".go").unwrap_or(name);
    let Some(i) = stem.find('_') else {
        return true;
    };
    let parts: Vec<&str> = stem[i..].split('_').collect();
    let n = parts.len();
    if n >= 2 && KNOWN_OS.contains(&parts[n - 2]) && KNOWN_ARCH.contains(&parts[n - 1]) {
        return tag_holds(parts[n - 2]) && tag_holds(parts[n - 1]);
    }
    let last = parts[n - 1];
    if KNOWN_OS.contains(&last) || KNOWN_ARCH.contains(&last) {
        return tag_holds(last);
    }
    true
}

/// The `//go:build` expression of the file header (the line comments and blank lines before the first other
/// line), if any.
#[must_use]
pub fn constraint(text: &str) -> Option<&str> {
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let comment = t.strip_prefix("//")?;
        if let Some(expr) = comment.strip_prefix("go:build")
            && expr.starts_with([' ', '\t'])
        {
            return Some(expr.trim());
        }
    }
    None
}

/// The legacy `// +build` lines of the file header, when the file has no `//go:build` line: those of the leading
/// line comments that a blank line ends (go/build reads the header only up to the last blank line before the first
/// other line, so `+build` lines attached to the package clause are not constraints). Each line is one `&&` term.
#[must_use]
pub fn legacy_constraints(text: &str) -> Vec<&str> {
    let (mut out, mut pending) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            out.append(&mut pending);
            continue;
        }
        let Some(comment) = t.strip_prefix("//") else {
            break;
        };
        if let Some(expr) = comment.trim_start().strip_prefix("+build")
            && (expr.is_empty() || expr.starts_with([' ', '\t']))
        {
            pending.push(expr.trim());
        }
    }
    out
}

/// Evaluates one legacy `+build` line: space-separated options, any of which may hold; each a comma-separated list
/// of terms that must all hold; a term `!tag` negates (go/build `matchTag` of the `+build` syntax).
#[must_use]
pub fn eval_legacy(line: &str) -> bool {
    line.split_whitespace().any(|option| {
        option.split(',').all(|term| match term.strip_prefix('!') {
            Some(tag) => !tag.is_empty() && !tag_holds(tag),
            None => tag_holds(term),
        })
    })
}

/// Whether a file with this name and text is part of its package in the default context: its name's suffixes
/// match, and its `//go:build` line holds — or, without one, every legacy `// +build` line does (go/build's
/// `shouldBuild`: the `//go:build` line wins when both are present). A malformed `//go:build` expression counts as
/// satisfied (the file is read, and its problems are reported as usual).
#[must_use]
pub fn file_matches(name: &str, text: &str) -> bool {
    name_matches(name)
        && match constraint(text) {
            Some(e) => eval(e).unwrap_or(true),
            None => legacy_constraints(text).into_iter().all(eval_legacy),
        }
}

/// Evaluates a `//go:build` expression; `None` when it does not parse.
#[must_use]
pub fn eval(expr: &str) -> Option<bool> {
    let tokens = tokenize(expr)?;
    let mut p = Parser { tokens, at: 0 };
    let v = p.or(0)?;
    (p.at == p.tokens.len()).then_some(v)
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Not,
    And,
    Or,
    Open,
    Close,
    Tag(String),
}

fn tokenize(s: &str) -> Option<Vec<Tok>> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' => i += 1,
            b'!' => {
                out.push(Tok::Not);
                i += 1;
            }
            b'(' => {
                out.push(Tok::Open);
                i += 1;
            }
            b')' => {
                out.push(Tok::Close);
                i += 1;
            }
            b'&' if b.get(i + 1) == Some(&b'&') => {
                out.push(Tok::And);
                i += 2;
            }
            b'|' if b.get(i + 1) == Some(&b'|') => {
                out.push(Tok::Or);
                i += 2;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.')
                {
                    i += 1;
                }
                out.push(Tok::Tag(s[start..i].to_string()));
            }
            _ => return None,
        }
    }
    Some(out)
}

struct Parser {
    tokens: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at)
    }

    fn or(&mut self, depth: usize) -> Option<bool> {
        let mut v = self.and(depth)?;
        while self.peek() == Some(&Tok::Or) {
            self.at += 1;
            v |= self.and(depth)?;
        }
        Some(v)
    }

    fn and(&mut self, depth: usize) -> Option<bool> {
        let mut v = self.not(depth)?;
        while self.peek() == Some(&Tok::And) {
            self.at += 1;
            v &= self.not(depth)?;
        }
        Some(v)
    }

    fn not(&mut self, depth: usize) -> Option<bool> {
        if depth > MAX_EXPR_DEPTH {
            return None;
        }
        match self.tokens.get(self.at).cloned()? {
            Tok::Not => {
                self.at += 1;
                Some(!self.not(depth + 1)?)
            }
            Tok::Open => {
                self.at += 1;
                let v = self.or(depth + 1)?;
                (self.peek() == Some(&Tok::Close)).then_some(())?;
                self.at += 1;
                Some(v)
            }
            Tok::Tag(t) => {
                self.at += 1;
                Some(tag_holds(&t))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_evaluate_as_go_build_does_on_linux_amd64() {
        assert_eq!(eval("ignore"), Some(false));
        assert_eq!(eval("!ignore"), Some(true));
        assert_eq!(eval("linux && (amd64 || arm64)"), Some(true));
        assert_eq!(eval("windows || darwin"), Some(false));
        assert_eq!(eval("go1.21 && !purego"), Some(true));
        assert_eq!(eval("linux &&"), None);
        assert_eq!(
            eval(&format!("{}x{}", "(".repeat(100), ")".repeat(100))),
            None
        );
        assert!(!file_matches(
            "gen.go",
            "// Copyright\n\n//go:build ignore\n\npackage main\n"
        ));
        assert!(file_matches("a.go", "package v1\n//go:build ignore\n"));
    }

    /// R49 (issue 36 row 4): the legacy `// +build` form, as go/build reads it when there is no `//go:build` line.
    #[test]
    fn legacy_build_lines_select_files_as_go_build_does() {
        assert!(!file_matches(
            "gen.go",
            "// +build ignore\n\npackage main\n"
        ));
        assert!(!file_matches(
            "a.go",
            "// Copyright\n\n// +build windows\n\npackage v1\n"
        ));
        assert!(
            file_matches("a.go", "// +build linux darwin\n\npackage v1\n"),
            "an option holds"
        );
        assert!(
            !file_matches("a.go", "// +build linux,!cgo\n\npackage v1\n"),
            "a term fails"
        );
        assert!(
            !file_matches("a.go", "// +build linux\n// +build ignore\n\npackage v1\n"),
            "lines are and-ed"
        );
        // Attached to the package clause (no blank line after it): a doc comment, not a constraint.
        assert!(file_matches("a.go", "// +build ignore\npackage v1\n"));
        // `//go:build` wins over `+build` lines.
        assert!(file_matches(
            "a.go",
            "//go:build linux\n// +build ignore\n\npackage v1\n"
        ));
        assert!(!name_matches("types_windows.go"));
        assert!(!name_matches("x_linux_arm64.go"));
        assert!(name_matches("x_linux_amd64.go"));
        assert!(name_matches("linux.go"));
        assert!(name_matches("zz_generated.deepcopy.go"));
    }
}
