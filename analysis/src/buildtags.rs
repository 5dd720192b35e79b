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

/// Whether a file with this name and text is part of its package in the default context. A malformed
/// constraint counts as satisfied (the file is read, and its problems are reported as usual).
#[must_use]
pub fn file_matches(name: &str, text: &str) -> bool {
    name_matches(name) && constraint(text).is_none_or(|e| eval(e).unwrap_or(true))
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
        assert!(!name_matches("types_windows.go"));
        assert!(!name_matches("x_linux_arm64.go"));
        assert!(name_matches("x_linux_amd64.go"));
        assert!(name_matches("linux.go"));
        assert!(name_matches("zz_generated.deepcopy.go"));
    }
}
