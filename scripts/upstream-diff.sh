#!/usr/bin/env bash
# Release tracking: what changed in upstream validation-gen (k8s.io/code-generator/cmd/validation-gen) and its runtime
# (k8s.io/apimachinery/pkg/api/validate, .../validate/content, pkg/api/operation, pkg/util/validation/field) between
# two k8s.io/code-generator versions. Downloads both versions, and the k8s.io/apimachinery versions their go.mod files
# require, through the Go module proxy into the module cache (`go mod download -json`, in a temporary directory; a
# module that needs a newer Go is retried with the GOTOOLCHAIN its error names), then prints a Markdown report on
# stdout: tags registered (names, scopes, arguments, payloads, stability), runtime functions the validators emit,
# lint rules and their messages, command-line flags, targets/root selection, error strings found in only one
# version, output_tests packages, and the runtime's exported API and messages. Files that moved (v0.38 moved the
# generator into generators/ and args/) are matched by file name. The report is sorted, so two runs diff cleanly.
#
#   scripts/upstream-diff.sh v0.37.2 v0.38.0-beta.0 > docs/upstream-delta/v0.37.2..v0.38.0-beta.0.md
#
# docs/upstream.md ("Adding the next release") says what to do with the report. The Go source is read with a small
# tokenizer and regular expressions, not a Go parser: attributes that a validator computes at run time are shown as
# `dynamic`, and every changed file is listed with its line counts so that nothing is silently missed.
# UPSTREAM_DIFF_APIMACHINERY_DIRS="pkg/api/validate pkg/api/resource ..." replaces the list of runtime packages compared.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/upstream-diff.sh [-h] OLD NEW

  OLD, NEW   k8s.io/code-generator versions, e.g. v0.37.2 v0.38.0-beta.0

Downloads k8s.io/code-generator@OLD and @NEW and the k8s.io/apimachinery versions they require through the
Go module proxy (go mod download -json) and prints a Markdown report of what changed in validation-gen and
its runtime on stdout. Needs go and python3. Exit status: 0 report written, 1 download or analysis failed,
2 bad arguments.

Environment: UPSTREAM_DIFF_APIMACHINERY_DIRS (space-separated) replaces the k8s.io/apimachinery packages
compared (default: pkg/api/validate pkg/api/validate/content pkg/api/operation pkg/util/validation/field).
EOF
}

if [[ $# -eq 1 && ( $1 == -h || $1 == --help ) ]]; then
  usage
  exit 0
fi
if [[ $# -ne 2 ]]; then
  usage >&2
  exit 2
fi
semver='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$'
for v in "$1" "$2"; do
  if [[ ! $v =~ $semver ]]; then
    echo "upstream-diff: \"$v\" is not a module version (like v0.37.2 or v0.38.0-beta.0)" >&2
    usage >&2
    exit 2
  fi
done
if [[ $1 == "$2" ]]; then
  echo "upstream-diff: OLD and NEW are the same version ($1)" >&2
  exit 2
fi
for tool in go python3; do
  command -v "$tool" >/dev/null || { echo "upstream-diff: $tool not found" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# json_field FILE FIELD: one field of the (single) JSON object `go mod download -json` printed, or nothing.
json_field() {
  python3 -c 'import json,sys
try:
    print(json.load(open(sys.argv[1])).get(sys.argv[2], ""))
except ValueError:
    pass' "$1" "$2"
}

# download MODULE@VERSION: prints the module's directory in the module cache. A module whose go.mod needs a newer
# Go than the one installed fails with "requires go >= 1.27.0 (running go 1.26.8; GOTOOLCHAIN=local)"; it is
# retried with that toolchain (GOTOOLCHAIN=go1.27.0, fetched through the proxy like a module), then with
# GOTOOLCHAIN=auto.
download() {
  local spec=$1 out=$work/download.json err=$work/download.err dir msg need toolchain
  for toolchain in "${GOTOOLCHAIN:-}" required auto; do
    if [[ $toolchain == required ]]; then
      need=$(grep -oE 'requires go >= [0-9][0-9A-Za-z.]*' <<<"${msg:-}" | head -n1 | awk '{print $4}' || true)
      [[ -n $need ]] || continue
      [[ $need =~ ^[0-9]+\.[0-9]+$ ]] && need=$need.0
      toolchain=go$need
    fi
    (cd "$work" && GOTOOLCHAIN=$toolchain GOFLAGS=-mod=mod go mod download -json "$spec") >"$out" 2>"$err" || true
    dir=$(json_field "$out" Dir)
    if [[ -n $dir && -d $dir ]]; then
      echo "$dir"
      return 0
    fi
    msg="$(json_field "$out" Error) $(cat "$err")"
    [[ $msg == *"requires go"* || $msg == *toolchain* ]] || break
  done
  echo "upstream-diff: go mod download $spec failed: ${msg:-no output}" >&2
  return 1
}

# required_version GOMOD MODULE: the version GOMOD requires of MODULE, or nothing.
required_version() {
  awk -v m="$2" '$1 == m && $2 ~ /^v/ { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$1"
}

old=$1 new=$2
cg_old=$(download "k8s.io/code-generator@$old")
cg_new=$(download "k8s.io/code-generator@$new")
am_old_v=$(required_version "$cg_old/go.mod" k8s.io/apimachinery)
am_new_v=$(required_version "$cg_new/go.mod" k8s.io/apimachinery)
am_old=$(download "k8s.io/apimachinery@${am_old_v:-$old}")
am_new=$(download "k8s.io/apimachinery@${am_new_v:-$new}")

python3 - "$old" "$new" "${am_old_v:-$old}" "${am_new_v:-$new}" "$cg_old" "$cg_new" "$am_old" "$am_new" <<'PYTHON'
import collections
import difflib
import os
import re
import sys

OLD, NEW, AM_OLD, AM_NEW, CG_A, CG_B, AM_A, AM_B = sys.argv[1:9]
GEN = "cmd/validation-gen"
# the runtime packages compared (UPSTREAM_DIFF_APIMACHINERY_DIRS, space-separated, replaces the list)
AM_DIRS = os.environ.get("UPSTREAM_DIFF_APIMACHINERY_DIRS", "").split() or [
    "pkg/api/validate", "pkg/api/validate/content", "pkg/api/operation", "pkg/util/validation/field"]

# ------------------------------------------------------------------ Go tokens

TOKEN_RE = re.compile(r"""
  (?P<ws>[ \t\r\n]+)
| (?P<lcom>//[^\n]*)
| (?P<bcom>/\*.*?\*/)
| (?P<raw>`[^`]*`)
| (?P<str>"(?:[^"\\\n]|\\.)*")
| (?P<chr>'(?:[^'\\\n]|\\.)*')
| (?P<num>\.?[0-9][0-9A-Za-z_.]*)
| (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
| (?P<op>\.\.\.|:=|==|!=|<=|>=|&&|\|\||<-|\+\+|--|[-+*/%&|^<>=!(){}\[\],;:.~])
| (?P<other>.)
""", re.S | re.X)


class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def is_str(self):
        return self.kind in ("str", "raw")

    def value(self):
        return self.text[1:-1].replace("\n", "\\n") if self.is_str() else self.text


def tokenize(src):
    toks, line = [], 1
    for m in TOKEN_RE.finditer(src):
        kind, text = m.lastgroup, m.group()
        if kind not in ("ws", "lcom", "bcom"):
            toks.append(Tok(kind, text, line))
        line += text.count("\n")
    return toks


WORD = ("ident", "num", "str", "raw", "chr")


def go_join(toks):
    """Tokens as Go text, spaced as gofmt spaces a signature."""
    out = ""
    for i, t in enumerate(toks):
        if i:
            prev = toks[i - 1]
            nxt = toks[i + 1].text if i + 1 < len(toks) else ""
            if prev.text == "," or t.text == "|" or prev.text == "|":
                out += " "
            elif prev.kind in WORD and (t.kind in WORD or t.text in ("*", "~", "...")):
                out += " "
            elif prev.kind in WORD and t.text == "[" and nxt == "]":
                out += " "  # a parameter name, then a slice type
            elif prev.text == ")" and (t.kind in WORD or t.text in ("*", "[", "(")):
                out += " "  # the results
        out += t.text
    return out


def sig_types(sig):
    """A signature with the parameter names dropped (an identifier followed by the start of a type), so that renaming
    a parameter is not a change."""
    return re.sub(r"(?<=[(,]) ?[A-Za-z_]\w* (?=[A-Za-z_*\[.~]|map\b|func\b|\.\.\.)", "", sig)


def match_brackets(toks):
    pairs, stack = {}, []
    for i, t in enumerate(toks):
        if t.text in "([{" and t.kind == "op":
            stack.append(i)
        elif t.text in ")]}" and t.kind == "op" and stack:
            j = stack.pop()
            pairs[j], pairs[i] = i, j
    return pairs


class GoFile:
    """Top-level declarations of one Go file, found from its tokens."""

    def __init__(self, path, rel):
        self.path, self.rel = path, rel
        with open(path, encoding="utf-8", errors="replace") as f:
            self.src = f.read()
        self.lines = self.src.split("\n")
        self.toks = tokenize(self.src)
        self.pairs = match_brackets(self.toks)
        self.funcs = []  # (recv type or "", name, sig text, body start, body end, line, doc)
        self.consts = {}  # name -> token list of the value
        self.vars = {}
        self.types = {}  # name -> (kind, token range)
        self._decls()

    def doc_before(self, line):
        doc, i = [], line - 2
        while i >= 0 and self.lines[i].strip().startswith("//"):
            doc.insert(0, self.lines[i].strip()[2:].strip())
            i -= 1
        return "\n".join(doc)

    def _specs(self, start, end):
        """Split a const/var/type group's tokens into specs (one per line at depth 0)."""
        specs, cur, depth, last_line = [], [], 0, None
        for k in range(start, end):
            t = self.toks[k]
            if depth == 0 and t.line != last_line and cur and t.kind == "ident" and t.line > cur[-1][1].line:
                specs.append(cur)
                cur = []
            cur.append((k, t))
            if t.kind == "op" and t.text in "([{":
                depth += 1
            elif t.kind == "op" and t.text in ")]}":
                depth -= 1
            last_line = self.toks[k].line if depth == 0 else last_line
        if cur:
            specs.append(cur)
        return specs

    def _value_spec(self, spec, table):
        names = []
        for _, t in spec:
            if t.kind == "ident":
                names.append(t.text)
                continue
            break
        if not names:
            return
        toks = [t for _, t in spec]
        if "=" in [t.text for t in toks if t.kind == "op"]:
            eq = [i for i, t in enumerate(toks) if t.kind == "op" and t.text == "="][0]
            table[names[0]] = toks[eq + 1:]
        else:
            table.setdefault(names[0], [])

    def _decls(self):
        toks, i, depth = self.toks, 0, 0
        n = len(toks)
        while i < n:
            t = toks[i]
            if t.kind == "op" and t.text in "([{":
                i = self.pairs.get(i, i) + 1
                continue
            if t.kind != "ident":
                i += 1
                continue
            if t.text in ("const", "var"):
                table = self.consts if t.text == "const" else self.vars
                if i + 1 < n and toks[i + 1].text == "(":
                    close = self.pairs.get(i + 1, i + 1)
                    for spec in self._specs(i + 2, close):
                        self._value_spec(spec, table)
                    i = close + 1
                else:
                    j = i + 1
                    while j < n and toks[j].line == toks[i + 1].line:
                        if toks[j].text in "([{" and toks[j].kind == "op":
                            j = self.pairs.get(j, j)
                        j += 1
                    self._value_spec([(k, toks[k]) for k in range(i + 1, j)], table)
                    i = j
                continue
            if t.text == "type":
                groups = []
                if i + 1 < n and toks[i + 1].text == "(":
                    close = self.pairs.get(i + 1, i + 1)
                    groups = self._specs(i + 2, close)
                    nxt = close + 1
                else:
                    j = i + 1
                    while j < n and (toks[j].line == toks[i + 1].line or (toks[j - 1].kind == "op" and toks[j - 1].text in "([{")):
                        if toks[j].text in "([{" and toks[j].kind == "op":
                            j = self.pairs.get(j, j)
                        j += 1
                    groups = [[(k, toks[k]) for k in range(i + 1, j)]]
                    nxt = j
                for spec in groups:
                    if spec and spec[0][1].kind == "ident":
                        self.types[spec[0][1].text] = (spec[0][0], spec[-1][0] + 1)
                i = nxt
                continue
            if t.text == "func":
                line = t.line
                j, recv = i + 1, ""
                if j < n and toks[j].text == "(":
                    close = self.pairs.get(j, j)
                    ids = [x.text for x in toks[j + 1:close] if x.kind == "ident"]
                    recv = ids[1] if len(ids) >= 2 else (ids[0] if ids else "")
                    j = close + 1
                if j >= n or toks[j].kind != "ident":
                    i += 1
                    continue
                name = toks[j].text
                k = j + 1
                sig_start = k
                body = None
                while k < n:
                    x = toks[k]
                    if x.kind == "ident" and x.text in ("struct", "interface") and k + 1 < n and toks[k + 1].text == "{":
                        k = self.pairs.get(k + 1, k + 1) + 1
                        continue
                    if x.kind == "op" and x.text in "([":
                        k = self.pairs.get(k, k) + 1
                        continue
                    if x.kind == "op" and x.text == "{":
                        body = k
                        break
                    if x.kind == "ident" and x.text in ("func", "type", "var", "const") and x.line > toks[k - 1].line:
                        break
                    k += 1
                sig = go_join(toks[sig_start:body if body is not None else k])
                if body is not None:
                    end = self.pairs.get(body, body)
                    self.funcs.append((recv, name, sig, body, end, line, self.doc_before(line)))
                    i = end + 1
                else:
                    self.funcs.append((recv, name, sig, k, k, line, self.doc_before(line)))
                    i = k
                continue
            i += 1

    def func(self, recv, name):
        for f in self.funcs:
            if f[0] == recv and f[1] == name:
                return f
        return None

    def body(self, f):
        return self.toks[f[3] + 1:f[4]]


def go_files(root, rel_dir, recursive=False, tests=False, exclude=()):
    """GoFile for each .go file under root/rel_dir, keyed by path relative to root."""
    out = {}
    base = os.path.join(root, rel_dir)
    if not os.path.isdir(base):
        return out
    for dirpath, dirnames, filenames in os.walk(base):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames if recursive and not any(
            os.path.join(rel, d).startswith(e) for e in exclude))
        for fn in sorted(filenames):
            if not fn.endswith(".go") or (fn.endswith("_test.go") and not tests):
                continue
            r = os.path.normpath(os.path.join(rel, fn))
            out[r] = GoFile(os.path.join(dirpath, fn), r)
        if not recursive:
            break
    return out


def render(toks):
    """An expression as text: adjacent string literals joined by + are merged, other operands shown as {expr}."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t.kind == "op" and t.text in "([{":
            depth += 1
        elif t.kind == "op" and t.text in ")]}":
            depth -= 1
        if depth == 0 and t.kind == "op" and t.text == "+":
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    out = ""
    for p in parts:
        if len(p) == 1 and p[0].is_str():
            out += p[0].value()
        else:
            out += "{" + re.sub(r"\s*([(\[\].,])\s*", r"\1", " ".join(x.text for x in p)) + "}"
    return out


def split_args(toks, open_idx, pairs):
    """The argument token lists of the call whose '(' is toks[open_idx]."""
    close = pairs.get(open_idx, open_idx)
    args, cur, depth = [], [], 0
    for k in range(open_idx + 1, close):
        t = toks[k]
        if t.kind == "op" and t.text in "([{":
            depth += 1
        elif t.kind == "op" and t.text in ")]}":
            depth -= 1
        if depth == 0 and t.kind == "op" and t.text == ",":
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        args.append(cur)
    return args


def has_literal(toks):
    """Whether an expression has a non-empty string literal as an operand (not inside a call's arguments)."""
    depth = 0
    for t in toks:
        if t.kind == "op" and t.text in "([{":
            depth += 1
        elif t.kind == "op" and t.text in ")]}":
            depth -= 1
        elif depth == 0 and t.is_str() and t.value():
            return True
    return False


class Resolver:
    """String constants across a package's files."""

    def __init__(self, files):
        self.consts, self.vars = {}, {}
        for gf in files:
            self.consts.update(gf.consts)
            self.vars.update(gf.vars)

    def string(self, toks, seen=()):
        toks = list(toks)
        # strip conversions such as string(x) or T(x)
        while len(toks) >= 4 and toks[0].kind == "ident" and toks[1].text == "(" and toks[-1].text == ")":
            toks = toks[2:-1]
        if not toks:
            return None
        out = ""
        for part in " ".join(t.text for t in toks).split(" + "):
            part = part.strip()
            m = re.fullmatch(r'"((?:[^"\\]|\\.)*)"|`([^`]*)`', part)
            if m:
                out += m.group(1) if m.group(1) is not None else m.group(2)
            elif re.fullmatch(r"[A-Za-z_]\w*", part) and part in self.consts and part not in seen:
                v = self.string(self.consts[part], seen + (part,))
                if v is None:
                    return None
                out += v
            else:
                return None
        return out


def bare(name):
    return name[4:] if name.startswith("k8s:") else name


NORM_RE = [
    (re.compile(r"\{[^{}]*\}"), "%s"),
    (re.compile(r"k8s:[A-Za-z][\w-]*"), "%s"),
    (re.compile(r"%(\[\d+\])?[sqv][A-Za-z][\w-]*"), "%s"),
    (re.compile(r"%\[\d+\]([sqvd])"), r"%\1"),
    (re.compile(r"(%s)+"), "%s"),
]


def norm_prefix(s):
    """A message with tag names and the tag prefix abstracted: equal for two versions that differ only in how the
    tag name is spelled (a literal k8s:name, or the configured prefix joined with the name)."""
    for r, sub in NORM_RE:
        s = r.sub(sub, s)
    return s


def md(s):
    s = s.replace("|", "\\|")
    if "`" in s:
        return "`` " + s + " ``"
    return "`" + s + "`"


def line_counts(a_path, b_path):
    a = open(a_path, encoding="utf-8", errors="replace").read().split("\n") if a_path else []
    b = open(b_path, encoding="utf-8", errors="replace").read().split("\n") if b_path else []
    plus = minus = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            minus += i2 - i1
        if op in ("replace", "insert"):
            plus += j2 - j1
    return plus, minus


def same_file(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def pair_files(a_files, b_files):
    """(old rel, new rel) pairs: the same path, else the same file name when it is unique on both sides among the
    files not yet paired (files that moved between directories)."""
    pairs, a_left, b_left = [], set(a_files), set(b_files)
    for r in sorted(a_left & b_left):
        pairs.append((r, r))
    a_left -= {p[0] for p in pairs}
    b_left -= {p[1] for p in pairs}
    a_by = collections.defaultdict(list)
    b_by = collections.defaultdict(list)
    for r in a_left:
        a_by[os.path.basename(r)].append(r)
    for r in b_left:
        b_by[os.path.basename(r)].append(r)
    for name in sorted(set(a_by) & set(b_by)):
        if len(a_by[name]) == 1 and len(b_by[name]) == 1:
            pairs.append((a_by[name][0], b_by[name][0]))
            a_left.discard(a_by[name][0])
            b_left.discard(b_by[name][0])
    for r in sorted(a_left):
        pairs.append((r, None))
    for r in sorted(b_left):
        pairs.append((None, r))
    return sorted(pairs, key=lambda p: (p[1] or p[0], p[0] or ""))


class Items:
    """Numbered report items, one list per section."""

    def __init__(self):
        self.rows = collections.OrderedDict()

    def add(self, prefix, text):
        self.rows.setdefault(prefix, []).append(text)

    def section(self, prefix):
        return [("%s%d" % (prefix, i + 1), t) for i, t in enumerate(self.rows.get(prefix, []))]


ITEMS = Items()
OUT = []


def emit(s=""):
    OUT.append(s)


def emit_items(prefix, heading_note=None):
    rows = ITEMS.section(prefix)
    if not rows:
        emit("No changes.")
        emit()
        return
    if heading_note:
        emit(heading_note)
        emit()
    emit("| # | change |")
    emit("|---|---|")
    for ident, text in rows:
        emit("| %s | %s |" % (ident, text))
    emit()


# ------------------------------------------------------------------ validators

SCOPE_RE = re.compile(r"^Scope([A-Z]\w*)$")


def composite_fields(toks, lbrace, pairs, struct_fields):
    """field -> value tokens of a composite literal T{...} (keyed or positional)."""
    out = {}
    for idx, arg in enumerate(split_args(toks, lbrace, pairs)):
        if len(arg) >= 2 and arg[0].kind == "ident" and arg[1].text == ":":
            out[arg[0].text] = arg[2:]
        elif idx < len(struct_fields):
            out[struct_fields[idx]] = arg
    return out


def struct_fields(gf, tname):
    if tname not in gf.types:
        return []
    a, b = gf.types[tname]
    toks = gf.toks[a:b]
    try:
        lb = next(i for i, t in enumerate(toks) if t.text == "{")
    except StopIteration:
        return []
    fields, line_toks = [], collections.OrderedDict()
    depth = 0
    for t in toks[lb + 1:-1]:
        if t.kind == "op" and t.text in "([{":
            depth += 1
        if depth == 0:
            line_toks.setdefault(t.line, []).append(t)
        if t.kind == "op" and t.text in ")]}":
            depth -= 1
    for ts in line_toks.values():
        if not ts or ts[0].kind != "ident":
            continue
        names = [ts[0].text]
        k = 1
        while k + 1 < len(ts) and ts[k].text == "," and ts[k + 1].kind == "ident":
            names.append(ts[k + 1].text)
            k += 2
        if len(ts) == 1 or (len(ts) == 3 and ts[1].text == "."):
            names = [ts[-1].text]  # embedded
        fields.extend(names)
    return fields


def docs_attrs(toks, pairs_toks, resolver):
    """Attributes of a TagDoc found in a token list."""
    attrs = {}
    texts = [t.text for t in toks]
    pairs = match_brackets(toks)
    for i, t in enumerate(toks):
        if t.kind != "ident" or i + 2 >= len(toks) or toks[i + 1].text not in (":", "="):
            continue
        if i > 0 and toks[i - 1].text == "." and not (i > 1 and toks[i - 2].kind == "ident"):
            continue
        v = toks[i + 2]
        key = t.text
        if key == "StabilityLevel":
            if v.kind == "ident" and v.text.startswith("TagStabilityLevel"):
                attrs["stability"] = v.text[len("TagStabilityLevel"):]
            else:
                attrs["stability"] = "dynamic"
        elif key == "PayloadsType" and v.text == "codetags" and i + 4 < len(toks):
            attrs["payload type"] = toks[i + 4].text.replace("ValueType", "")
        elif key in ("PayloadsRequired", "AcceptsUnknownArgs") and v.kind == "ident":
            attrs[{"PayloadsRequired": "payload required", "AcceptsUnknownArgs": "accepts unknown args"}[key]] = v.text
        elif key in ("Args", "Payloads"):
            # find the composite literal's outer brace
            j = i + 2
            while j < len(toks) and toks[j].text != "{":
                j += 1
            if j >= len(toks):
                continue
            end = pairs.get(j, j)
            # for append([]X{...}, more...) take the whole call
            if toks[i + 2].text == "append":
                end = pairs.get(i + 3, end)
            region = toks[j:end + 1]
            if key == "Payloads":
                descs = []
                for k, x in enumerate(region):
                    if x.text == "Description" and k + 2 < len(region) and region[k + 1].text == ":":
                        s = resolver.string(region[k + 2:k + 3]) if region[k + 2].is_str() or region[k + 2].kind == "ident" else None
                        descs.append(s if s is not None else "{" + region[k + 2].text + "}")
                if any(x.kind == "op" and x.text == "..." for x in region):
                    descs.append("…(computed)")
                attrs["payloads"] = ", ".join(descs)
            else:
                rpairs = match_brackets(region)
                args = []
                for el in split_args(region, 0, rpairs):
                    if not el or el[0].text != "{":
                        continue
                    kv = {}
                    elp = match_brackets(el)
                    for a in split_args(el, 0, elp):
                        if len(a) >= 3 and a[1].text == ":":
                            kv[a[0].text] = a[2:]
                    name = resolver.string(kv.get("Name", [])) or ""
                    desc = resolver.string(kv.get("Description", [])) or ""
                    typ = kv.get("Type", [])
                    typ = typ[-1].text.replace("ArgType", "") if typ else "?"
                    s = (name or desc or "?") + ": " + typ
                    if kv.get("Required") and kv["Required"][0].text == "true":
                        s += " (required)"
                    if kv.get("Default"):
                        d = resolver.string(kv["Default"])
                        s += " default " + (repr(d) if d is not None else render(kv["Default"]))
                    args.append(s)
                attrs["args"] = "; ".join(args)
    return attrs


def case_segments(body):
    """(case identifiers, start, end) for each `case` of the switch statements in a token list."""
    segs = []
    k = 0
    while k < len(body):
        t = body[k]
        if t.kind == "ident" and t.text in ("case", "default"):
            j = k + 1
            while j < len(body) and body[j].text != ":":
                j += 1
            ids = [x.text for x in body[k + 1:j] if x.kind == "ident"]
            # the segment runs until the next case/default at the same depth or the end of the switch block
            depth, e = 0, j + 1
            while e < len(body):
                x = body[e]
                if x.kind == "op" and x.text in "([{":
                    depth += 1
                elif x.kind == "op" and x.text in ")]}":
                    if depth == 0:
                        break
                    depth -= 1
                elif depth == 0 and x.kind == "ident" and x.text in ("case", "default"):
                    break
                e += 1
            segs.append((ids, k, e))
            k = e
            continue
        k += 1
    return segs


class ValidatorsModel:
    def __init__(self, root):
        self.root = root
        rel = os.path.join(GEN, "validators")
        self.files = go_files(root, rel)
        self.res = Resolver(self.files.values())
        self.tags = {}  # bare name -> dict of attributes
        self.runtime = collections.defaultdict(set)  # runtime function -> files
        self.raw_names = set()
        self._tags()
        self._runtime()

    def _type_file(self, tname):
        for gf in self.files.values():
            if tname in gf.types:
                return gf
        return None

    def _registrations(self, tname):
        """Composite literals registered for a type: lists of field->value tokens."""
        out = []
        for gf in self.files.values():
            toks = gf.toks
            for i, t in enumerate(toks):
                if t.text != "RegisterTagValidator" or i + 1 >= len(toks) or toks[i + 1].text != "(":
                    continue
                arg = split_args(toks, i + 1, gf.pairs)
                if not arg:
                    continue
                a = [x for x in arg[0] if x.text != "&"]
                if len(a) == 1 and a[0].kind == "ident" and a[0].text in self.res.vars:
                    a = [x for x in self.res.vars[a[0].text] if x.text != "&"]
                if len(a) >= 2 and a[0].text == tname and a[1].text == "{":
                    sub = match_brackets(a)
                    tf = self._type_file(tname)
                    out.append(composite_fields(a, 1, sub, struct_fields(tf, tname) if tf else []))
                elif len(a) >= 1 and a[0].text == tname:
                    out.append({})
        return out

    def _tags(self):
        for gf in self.files.values():
            for f in gf.funcs:
                recv, name = f[0], f[1]
                if name != "TagName" or not recv:
                    continue
                body = gf.body(f)
                names = []
                recv_var = None
                for k, t in enumerate(body):
                    # constants returned (not those compared in a condition)
                    if (t.kind == "ident" and t.text in self.res.consts and k > 0
                            and (body[k - 1].text == "return" or (k > 1 and body[k - 1].text == "(" and body[k - 2].text == "string"))):
                        v = self.res.string([t])
                        if v is not None and v not in names:
                            names.append(v)
                fields = [body[k + 1].text for k in range(len(body) - 1)
                          if body[k].text == "." and body[k + 1].kind == "ident" and k > 0 and body[k - 1].kind == "ident"]
                if not names and fields:
                    for lit in self._registrations(recv):
                        for fld in fields:
                            if fld in lit:
                                v = self.res.string(lit[fld])
                                if v is not None and v not in names:
                                    names.append(v)
                if not names:
                    names = ["<dynamic:%s>" % recv]
                self._docs(gf, recv, names)

    def _scopes(self, tname):
        for gf in self.files.values():
            f = gf.func(tname, "ValidScopes")
            if not f:
                continue
            body = gf.body(f)
            ids = [t.text for t in body if t.kind == "ident"]
            scopes = [SCOPE_RE.match(x).group(1) for x in ids if SCOPE_RE.match(x)]
            if not scopes:
                for x in ids:
                    if x in self.res.vars:
                        scopes += [SCOPE_RE.match(y.text).group(1) for y in self.res.vars[x] if SCOPE_RE.match(y.text)]
            return ", ".join(sorted(set(scopes))) if scopes else "dynamic"
        return "?"

    def _docs(self, gf, tname, names):
        scopes = self._scopes(tname)
        dgf, f = None, None
        for g in self.files.values():
            f = g.func(tname, "Docs")
            if f:
                dgf = g
                break
        common, per = {}, {}
        if f:
            body = dgf.body(f)
            segs = case_segments(body)
            inside = set()
            for ids, s, e in segs:
                inside.update(range(s, e))
                case_names = [self.res.string([Tok("ident", x, 0)]) for x in ids]
                for cn in case_names:
                    if cn is not None:
                        per[cn] = docs_attrs(body[s:e], None, self.res)
            common = docs_attrs([t for k, t in enumerate(body) if k not in inside], None, self.res)
        for n in names:
            self.raw_names.add(n)
            attrs = {"file": os.path.basename(gf.rel), "scopes": scopes}
            attrs.update(common)
            attrs.update(per.get(n, {}))
            self.tags[bare(n)] = attrs

    def _runtime(self):
        for gf in self.files.values():
            toks = gf.toks
            for i in range(len(toks) - 6):
                if (toks[i].text == "Package" and toks[i + 1].text == ":" and toks[i + 2].text == "libValidationPkg"
                        and toks[i + 4].text == "Name" and toks[i + 6].is_str()):
                    self.runtime[toks[i + 6].value()].add(os.path.basename(gf.rel))


ATTR_ORDER = ["file", "scopes", "stability", "args", "payload type", "payload required", "payloads",
              "accepts unknown args"]


def fmt_attrs(a):
    return "; ".join("%s: %s" % (k, md(a[k]) if k in ("payloads", "args") else a[k]) for k in ATTR_ORDER if a.get(k))


# ------------------------------------------------------------------ messages

ERR_CALLS = {("fmt", "Errorf"): [0], ("errors", "New"): [0], ("klog", "Fatalf"): [0], ("klog", "Errorf"): [0],
             ("klog", "Warningf"): [0]}
FIELD_ERRS = {"Invalid", "Required", "Forbidden", "Duplicate", "NotFound", "NotSupported", "TooLong", "TooMany",
              "TooLongMaxLength", "TypeInvalid", "InternalError"}


def messages(gf, with_sprintf=False):
    """(call, message) with the line, for each error-message call of a file whose message has a literal part."""
    out = []
    toks = gf.toks
    for i in range(len(toks) - 3):
        t = toks[i]
        if t.kind != "ident":
            continue
        call = None
        if toks[i + 1].text == "." and toks[i + 2].kind == "ident" and toks[i + 3].text == "(":
            pkg, fn = t.text, toks[i + 2].text
            if (pkg, fn) in ERR_CALLS or (with_sprintf and (pkg, fn) == ("fmt", "Sprintf")):
                call, idxs, open_idx = "%s.%s" % (pkg, fn), [0], i + 3
            elif pkg == "field" and fn in FIELD_ERRS:
                call, idxs, open_idx = "field.%s" % fn, None, i + 3
        elif t.text == "panic" and toks[i + 1].text == "(":
            open_idx = i + 1
            args = split_args(toks, open_idx, gf.pairs)
            if args and len(args[0]) > 3 and args[0][0].text == "fmt" and args[0][2].text == "Sprintf":
                inner = split_args(args[0], 3, match_brackets(args[0]))
                if inner and has_literal(inner[0]):
                    out.append(("panic", render(inner[0]), t.line))
            elif args and has_literal(args[0]):
                out.append(("panic", render(args[0]), t.line))
            continue
        if not call:
            continue
        args = split_args(toks, open_idx, gf.pairs)
        if idxs is None:
            idxs = range(1, len(args))  # field.X(path, ...): the string arguments
        for k in idxs:
            if k < len(args) and has_literal(args[k]):
                out.append((call, render(args[k]), t.line))
    return out


# ------------------------------------------------------------------ load everything

VA, VB = ValidatorsModel(CG_A), ValidatorsModel(CG_B)


def gen_files(root):
    """Every file of cmd/validation-gen outside output_tests (and any examples' output_tests)."""
    base = os.path.join(root, GEN)
    out = {}
    for dirpath, dirnames, filenames in os.walk(base):
        rel = os.path.relpath(dirpath, base)
        dirnames[:] = sorted(d for d in dirnames if d != "output_tests")
        for fn in sorted(filenames):
            out[os.path.normpath(os.path.join(rel, fn))] = os.path.join(dirpath, fn)
    return out


GA, GB = gen_files(CG_A), gen_files(CG_B)
FILE_PAIRS = pair_files(GA, GB)


def find_gen(files, name):
    hits = sorted(r for r in files if os.path.basename(r) == name)
    return hits[0] if hits else None


def short(path):
    return path.replace(os.path.join(os.path.expanduser("~"), "go", "pkg", "mod"), "$GOMODCACHE")


# ------------------------------------------------------------------ report: header

emit("# Upstream delta: k8s.io/code-generator %s → %s" % (OLD, NEW))
emit()
emit("Generated by `scripts/upstream-diff.sh %s %s` (read the Go source of both releases; deterministic: every list is"
     " sorted). Runtime: k8s.io/apimachinery %s → %s (the versions the two code-generator `go.mod` files require)."
     % (OLD, NEW, AM_OLD, AM_NEW))
emit("Each change is one numbered item; the last section, when present, says what vgc did about each.")
emit()
emit("Source read: `k8s.io/code-generator@<v>/%s` (all files outside `output_tests`, and `output_tests`), "
     "`k8s.io/code-generator@<v>/pkg/apidefinitions`, and of `k8s.io/apimachinery@<v>`: %s." % (
         GEN, ", ".join("`%s`" % d for d in AM_DIRS)))
emit()

# ------------------------------------------------------------------ 1. validators

emit("## 1. Validators: tags registered")
emit()
if VA.raw_names and VB.raw_names:
    qa = all(n.startswith("k8s:") for n in VA.raw_names)
    qb = all(n.startswith("k8s:") for n in VB.raw_names)
    if qa != qb:
        emit("Tag names are registered %s in %s and %s in %s; below they are compared without the `k8s:` prefix."
             % ("qualified (`k8s:required`)" if qa else "relative to the tag prefix (`required`)", OLD,
                "qualified (`k8s:required`)" if qb else "relative to the tag prefix (`required`)", NEW))
        emit()
emit("%d tags in %s, %d in %s. Attributes come from each validator's `TagName()`, `ValidScopes()` and `Docs()` "
     "(`TagDoc`: `StabilityLevel`, `Args`, `PayloadsType`, `PayloadsRequired`, `Payloads` descriptions, "
     "`AcceptsUnknownArgs`); attributes set in `if` branches of `Docs()` are merged, those set per `case` are "
     "per tag." % (len(VA.tags), OLD, len(VB.tags), NEW))
emit()
for name in sorted(set(VA.tags) | set(VB.tags)):
    a, b = VA.tags.get(name), VB.tags.get(name)
    if a and not b:
        ITEMS.add("V", "tag %s removed (%s)" % (md(name), fmt_attrs(a)))
    elif b and not a:
        ITEMS.add("V", "tag %s added (%s)" % (md(name), fmt_attrs(b)))
    else:
        changes = []
        for k in ATTR_ORDER:
            if a.get(k, "") != b.get(k, ""):
                changes.append("%s: %s → %s" % (k, md(a.get(k) or "—"), md(b.get(k) or "—")))
        if changes:
            ITEMS.add("V", "tag %s: %s" % (md(name), "; ".join(changes)))
emit_items("V")

emit("<details><summary>All tags of %s</summary>" % NEW)
emit()
emit("| tag | file | scopes | stability | args | payload type | payloads |")
emit("|---|---|---|---|---|---|---|")
for name in sorted(VB.tags):
    a = VB.tags[name]
    emit("| %s | %s | %s | %s | %s | %s%s | %s |" % (
        md(name), a.get("file", ""), a.get("scopes", ""), a.get("stability", ""), md(a["args"]) if a.get("args") else "",
        a.get("payload type", ""), " (required)" if a.get("payload required") == "true" else "",
        md(a["payloads"]) if a.get("payloads") else ""))
emit()
emit("</details>")
emit()

emit("### Runtime functions the validators emit")
emit()
emit("Names the validators reference as `types.Name{Package: libValidationPkg, Name: \"…\"}` "
     "(`k8s.io/apimachinery/pkg/api/validate`).")
emit()
for fn in sorted(set(VA.runtime) | set(VB.runtime)):
    if fn in VA.runtime and fn not in VB.runtime:
        ITEMS.add("R", "%s no longer emitted (was in %s)" % (md("validate." + fn), ", ".join(sorted(VA.runtime[fn]))))
    elif fn in VB.runtime and fn not in VA.runtime:
        ITEMS.add("R", "%s newly emitted (%s)" % (md("validate." + fn), ", ".join(sorted(VB.runtime[fn]))))
emit_items("R")

# ------------------------------------------------------------------ 2. lint rules


def lint_model(root):
    files = gen_files(root)
    rel = find_gen(files, "lint_rules.go")
    if not rel:
        return None, {}
    gf = GoFile(files[rel], rel)
    funcs = {f[1]: f for f in gf.funcs if not f[0]}
    rules = []
    f = funcs.get("lintRules")
    if f:
        body = gf.body(f)
        depth = 0
        for k, t in enumerate(body):
            if t.kind == "op" and t.text == "{":
                depth += 1
            elif t.kind == "op" and t.text == "}":
                depth -= 1
            elif depth == 1 and t.kind == "ident" and k + 1 < len(body) and body[k + 1].text == "(" and t.text in funcs:
                rules.append(t.text)

    def msgs_of(name, seen):
        if name in seen or name not in funcs:
            return set()
        seen.add(name)
        fb = gf.toks[funcs[name][3]:funcs[name][4] + 1]
        pairs = match_brackets(fb)
        out = set()
        for k, t in enumerate(fb):
            if t.text == "Sprintf" and k + 1 < len(fb) and fb[k + 1].text == "(":
                args = split_args(fb, k + 1, pairs)
                if args and has_literal(args[0]):
                    out.add(render(args[0]))
            elif t.text == "return" and k + 1 < len(fb) and fb[k + 1].is_str() and fb[k + 1].value():
                out.add(fb[k + 1].value())
            elif t.kind == "ident" and t.text in funcs and k + 1 < len(fb) and fb[k + 1].text == "(" and t.text != name:
                out |= msgs_of(t.text, seen)
        return out

    return rel, {r: msgs_of(r, set()) for r in rules}


LA_REL, LA = lint_model(CG_A)
LB_REL, LB = lint_model(CG_B)
emit("## 2. Lint rules")
emit()
emit("`lint_rules.go`: %s in %s, %s in %s. Rules are the functions `lintRules()` returns; a rule's messages are the "
     "format strings it (or a helper in the same file) returns. Messages equal after abstracting the tag prefix are "
     "not items." % (md(os.path.join(GEN, LA_REL)) if LA_REL else "absent", OLD,
                     md(os.path.join(GEN, LB_REL)) if LB_REL else "absent", NEW))
emit()
for r in sorted(set(LA) | set(LB)):
    if r in LA and r not in LB:
        ITEMS.add("L", "rule %s removed; its messages: %s" % (md(r), ", ".join(md(m) for m in sorted(LA[r])) or "—"))
    elif r in LB and r not in LA:
        ITEMS.add("L", "rule %s added; its messages: %s" % (md(r), ", ".join(md(m) for m in sorted(LB[r])) or "—"))
    else:
        na = {norm_prefix(m): m for m in LA[r]}
        nb = {norm_prefix(m): m for m in LB[r]}
        for k in sorted(set(na) - set(nb)):
            ITEMS.add("L", "rule %s: message %s removed" % (md(r), md(na[k])))
        for k in sorted(set(nb) - set(na)):
            ITEMS.add("L", "rule %s: message %s added" % (md(r), md(nb[k])))
order_a, order_b = list(LA), list(LB)
common = [r for r in order_a if r in LB]
if common != [r for r in order_b if r in LA]:
    ITEMS.add("L", "rule order changed: %s → %s" % (md(", ".join(order_a)), md(", ".join(order_b))))
emit_items("L")
emit("Rules in %s, in order: %s." % (NEW, ", ".join(md(r) for r in order_b) or "none"))
emit()

# ------------------------------------------------------------------ 3. flags and targets


def flag_model(root):
    files = {}
    files.update({os.path.join(GEN, r): p for r, p in gen_files(root).items() if r.endswith(".go") and not r.endswith("_test.go") and not r.startswith("examples")})
    for r, gf in go_files(root, "pkg/apidefinitions").items():
        files[r] = gf.path
    flags = {}
    for rel, path in sorted(files.items()):
        gf = GoFile(path, rel)
        toks = gf.toks
        for i in range(1, len(toks) - 1):
            t = toks[i]
            if t.kind == "ident" and re.fullmatch(r"\w+VarP?", t.text) and toks[i - 1].text == "." and toks[i + 1].text == "(":
                args = split_args(toks, i + 1, gf.pairs)
                if len(args) < 4 or not (args[1] and args[1][0].is_str()):
                    continue
                name = args[1][0].value()
                rest = args[2:]
                if t.text.endswith("VarP"):
                    rest = rest[1:]
                default = render(rest[0]) if rest else ""
                help_ = render(rest[-1]) if len(rest) > 1 else ""
                flags[name] = {"type": t.text[:-3] if t.text.endswith("Var") else t.text[:-4],
                               "default": default, "help": help_, "file": rel}
    return flags


FA, FB = flag_model(CG_A), flag_model(CG_B)
emit("## 3. Command-line flags, targets and root selection")
emit()
emit("### Flags")
emit()
emit("Flags registered with `fs.<Type>Var(&args.X, \"name\", default, \"help\")` in `%s` and `pkg/apidefinitions` "
     "(gengo's own flags are not listed)." % GEN)
emit()
for name in sorted(set(FA) | set(FB)):
    a, b = FA.get(name), FB.get(name)
    if a and not b:
        ITEMS.add("F", "flag %s removed (%s, default %s)" % (md("--" + name), a["type"], md(a["default"])))
    elif b and not a:
        ITEMS.add("F", "flag %s added (%s, default %s): %s" % (md("--" + name), b["type"], md(b["default"]), md(b["help"])))
    else:
        ch = ["%s %s → %s" % (k, md(a[k]), md(b[k])) for k in ("type", "default", "help") if a[k] != b[k]]
        if ch:
            ITEMS.add("F", "flag %s: %s" % (md("--" + name), "; ".join(ch)))
emit_items("F")
emit("Flags of %s: %s." % (NEW, ", ".join(md("--" + n) for n in sorted(FB))))
emit()


def targets_model(root):
    gfiles = gen_files(root)
    out = {"tags": {}, "funcs": {}, "files": []}
    rels = [r for r in ("targets.go",) if find_gen(gfiles, r)]
    sources = [(os.path.join(GEN, find_gen(gfiles, r)), gfiles[find_gen(gfiles, r)]) for r in rels]
    for r, gf in go_files(root, "pkg/apidefinitions").items():
        sources.append((r, gf.path))
    for rel, path in sources:
        gf = GoFile(path, rel)
        out["files"].append(rel)
        res = Resolver([gf])
        for c in gf.consts:
            if c.endswith("TagName"):
                v = res.string([Tok("ident", c, 0)])
                if v is not None:
                    out["tags"][c] = v
        for f in gf.funcs:
            key = os.path.basename(rel) + ": " + ((f[0] + ".") if f[0] else "") + f[1]
            body = " ".join(t.text for t in gf.body(f))
            out["funcs"][key] = (f[2], body)
        # string literals in the apidefinitions specs
        for t in gf.toks:
            if t.is_str() and re.fullmatch(r"(k8s:)?validation-gen[\w-]*", t.value()):
                out["tags"]["literal " + t.value()] = t.value()
    return out


TA, TB = targets_model(CG_A), targets_model(CG_B)
emit("### Targets and root selection")
emit()
emit("`targets.go` (%s → %s) and `pkg/apidefinitions`: the package and type tags they read (constants named "
     "`…TagName`, compared without `k8s:`; tag literals of `pkg/apidefinitions`), and their functions (signature "
     "changes; bodies changed are listed, see the file table for line counts)." % (
         find_gen(GA, "targets.go") or "absent", find_gen(GB, "targets.go") or "absent"))
emit()
ta = {bare(v) for k, v in TA["tags"].items()}
tb = {bare(v) for k, v in TB["tags"].items()}
for v in sorted(ta - tb):
    ITEMS.add("T", "tag %s no longer read" % md(v))
for v in sorted(tb - ta):
    ITEMS.add("T", "tag %s newly read" % md(v))
for k in sorted(set(TA["funcs"]) | set(TB["funcs"])):
    a, b = TA["funcs"].get(k), TB["funcs"].get(k)
    if a and not b:
        ITEMS.add("T", "function %s removed" % md(k))
    elif b and not a:
        ITEMS.add("T", "function %s added: %s" % (md(k), md(b[0])))
    elif sig_types(a[0]) != sig_types(b[0]):
        ITEMS.add("T", "function %s signature %s → %s" % (md(k), md(a[0]), md(b[0])))
    elif norm_prefix(a[1]) != norm_prefix(b[1]):
        ITEMS.add("T", "function %s body changed" % md(k))
emit_items("T")

# ------------------------------------------------------------------ 4. error strings


def error_strings(root):
    out = collections.defaultdict(set)
    gfiles = gen_files(root)
    srcs = [(os.path.join(GEN, r), p) for r, p in gfiles.items()
            if r.endswith(".go") and not r.endswith("_test.go") and not r.startswith("examples")]
    srcs += [(r, gf.path) for r, gf in go_files(root, "pkg/apidefinitions").items()]
    for rel, path in sorted(srcs):
        gf = GoFile(path, rel)
        for call, msg, line in messages(gf):
            out[msg].add("%s %s:%d" % (call, rel.replace(GEN + "/", ""), line))
    return out


EA, EB = error_strings(CG_A), error_strings(CG_B)
only_a = {m: EA[m] for m in EA if m not in EB}
only_b = {m: EB[m] for m in EB if m not in EA}
na = collections.defaultdict(list)
nb = collections.defaultdict(list)
for m in only_a:
    na[norm_prefix(m)].append(m)
for m in only_b:
    nb[norm_prefix(m)].append(m)
prefix_pairs = []
for k in sorted(set(na) & set(nb)):
    for ma, mb in zip(sorted(na[k]), sorted(nb[k])):
        prefix_pairs.append((ma, mb))
        only_a.pop(ma, None)
        only_b.pop(mb, None)


def base_files(locs):
    return {os.path.basename(l.split(" ")[1].split(":")[0]) for l in locs}


changed_pairs = []
cands = []
for ma in only_a:
    for mb in only_b:
        if base_files(only_a[ma]) & base_files(only_b[mb]):
            x, y = norm_prefix(ma), norm_prefix(mb)
            r = (difflib.SequenceMatcher(None, x.split(), y.split(), autojunk=False).ratio()
                 + difflib.SequenceMatcher(None, x, y, autojunk=False).ratio()) / 2
            if r >= 0.55:
                cands.append((-r, ma, mb))
used_a, used_b = set(), set()
for _, ma, mb in sorted(cands):
    if ma in used_a or mb in used_b:
        continue
    used_a.add(ma)
    used_b.add(mb)
    changed_pairs.append((ma, mb))
emit("## 4. Error and message strings")
emit()
emit("String literals passed to `fmt.Errorf`, `errors.New`, `klog.Fatalf`/`Errorf`/`Warningf`, `panic(…)` and "
     "`field.<Error>(…)` in `%s` (not tests, examples or output_tests) and `pkg/apidefinitions`, present in only one "
     "version. Non-literal operands are shown as `{expr}`. A removed and an added string in the same file that are "
     "alike (mean of word and character similarity at least 0.55) are shown as one change. %d strings differ only in how tag names are spelled (a literal "
     "`k8s:name` became the configured prefix plus the name); they are one item, listed below it."
     % (GEN, len(prefix_pairs)))
emit()
for ma, mb in sorted(changed_pairs):
    ITEMS.add("E", "changed: %s → %s (%s)" % (md(ma), md(mb), ", ".join(sorted(only_b[mb]))))
for ma in sorted(set(only_a) - used_a):
    ITEMS.add("E", "removed: %s (%s)" % (md(ma), ", ".join(sorted(only_a[ma]))))
for mb in sorted(set(only_b) - used_b):
    ITEMS.add("E", "added: %s (%s)" % (md(mb), ", ".join(sorted(only_b[mb]))))
if prefix_pairs:
    ITEMS.add("E", "%d messages now spell tag names with the configured tag prefix (listed below)" % len(prefix_pairs))
emit_items("E")
if prefix_pairs:
    emit("<details><summary>The %d messages that differ only in the tag prefix</summary>" % len(prefix_pairs))
    emit()
    emit("| %s | %s |" % (OLD, NEW))
    emit("|---|---|")
    for ma, mb in sorted(prefix_pairs):
        emit("| %s | %s |" % (md(ma), md(mb)))
    emit()
    emit("</details>")
    emit()

# ------------------------------------------------------------------ 5. output_tests


def test_packages(root, sub):
    base = os.path.join(root, GEN, sub)
    out = {}
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        files = sorted(f for f in filenames)
        if files:
            out[os.path.relpath(dirpath, base)] = {f: os.path.join(dirpath, f) for f in files}
    return out


def package_pairs(a, b):
    pairs, al, bl = [], set(a), set(b)
    for d in sorted(al & bl):
        pairs.append((d, d))
    al -= bl
    bl -= set(a)
    ab = collections.defaultdict(list)
    bb = collections.defaultdict(list)
    for d in al:
        ab[os.path.basename(d)].append(d)
    for d in bl:
        bb[os.path.basename(d)].append(d)
    for name in sorted(set(ab) & set(bb)):
        if len(ab[name]) == 1 and len(bb[name]) == 1:
            pairs.append((ab[name][0], bb[name][0]))
            al.discard(ab[name][0])
            bl.discard(bb[name][0])
    pairs += [(d, None) for d in sorted(al)] + [(None, d) for d in sorted(bl)]
    return pairs


OA, OB = test_packages(CG_A, "output_tests"), test_packages(CG_B, "output_tests")
emit("## 5. output_tests")
emit()
added = removed = changed = moved = 0
line_freq_a, line_freq_b = collections.Counter(), collections.Counter()
for da, db in sorted(package_pairs(OA, OB), key=lambda p: (p[1] or p[0])):
    if da is None:
        added += 1
        ITEMS.add("O", "%s added (%d files: %s)" % (md(db), len(OB[db]), ", ".join(sorted(OB[db]))))
        continue
    if db is None:
        removed += 1
        ITEMS.add("O", "%s removed (%d files: %s)" % (md(da), len(OA[da]), ", ".join(sorted(OA[da]))))
        continue
    fa, fb = OA[da], OB[db]
    diffs = []
    expect = False
    for f in sorted(set(fa) | set(fb)):
        if f in fa and f in fb and same_file(fa[f], fb[f]):
            continue
        p, m = line_counts(fa.get(f), fb.get(f))
        state = "" if f in fa and f in fb else (" (new)" if f in fb else " (gone)")
        diffs.append("%s%s +%d −%d" % (f, state, p, m))
        if not f.startswith("zz_generated.validations.go"):
            expect = True
        if f in fa and f in fb:
            a_lines = [l.strip() for l in open(fa[f], encoding="utf-8").read().split("\n")]
            b_lines = [l.strip() for l in open(fb[f], encoding="utf-8").read().split("\n")]
            for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a_lines, b_lines, autojunk=False).get_opcodes():
                if op != "equal":
                    line_freq_a.update(l for l in a_lines[i1:i2] if l)
                    line_freq_b.update(l for l in b_lines[j1:j2] if l)
    if da != db:
        moved += 1
        ITEMS.add("O", "%s moved to %s%s" % (md(da), md(db), (": " + "; ".join(diffs)) if diffs else " (unchanged)"))
    elif diffs:
        changed += 1
        ITEMS.add("O", "%s changed%s: %s" % (md(db), "" if expect else " (generated code only)", "; ".join(diffs)))
emit("%d test packages in %s, %d in %s: %d added, %d removed, %d moved, %d changed. \"generated code only\": only "
     "`zz_generated.validations.go` differs (the expected results — `doc_test.go`, `*.json`, `types.go` — are "
     "unchanged)." % (len(OA), OLD, len(OB), NEW, added, removed, moved, changed))
emit()
emit_items("O")
emit("<details><summary>Most frequent changed lines in output_tests (top 15 each side)</summary>")
emit()
emit("| count | removed (%s) |" % OLD)
emit("|---|---|")
for l, c in sorted(line_freq_a.items(), key=lambda x: (-x[1], x[0]))[:15]:
    emit("| %d | %s |" % (c, md(l)))
emit()
emit("| count | added (%s) |" % NEW)
emit("|---|---|")
for l, c in sorted(line_freq_b.items(), key=lambda x: (-x[1], x[0]))[:15]:
    emit("| %d | %s |" % (c, md(l)))
emit()
emit("</details>")
emit()

# ------------------------------------------------------------------ 6. apimachinery



def api_model(root, rel_dir):
    files = go_files(root, rel_dir)
    funcs, types_, msgs = {}, {}, collections.defaultdict(set)
    for rel, gf in files.items():
        for f in gf.funcs:
            recv, name, sig = f[0], f[1], f[2]
            if name == "init" or name.startswith("Test"):
                continue
            key = (recv + "." if recv else "") + name
            if not name[0].isupper() or (recv and not recv[0].isupper()):
                key = "(unexported) " + key
            body = " ".join(t.text for t in gf.body(f))
            funcs[key] = (sig, body, "Deprecated:" in f[6], os.path.basename(rel))
        for tname, (a, b) in gf.types.items():
            if tname[0].isupper():
                types_[tname] = (" ".join(t.text for t in gf.toks[a:b]), os.path.basename(rel))
        for call, m, line in messages(gf, with_sprintf=True):
            msgs[m].add("%s:%d" % (os.path.basename(rel), line))
        for table in (gf.consts, gf.vars):
            for name, toks in table.items():
                if re.search(r"(?i)(msg|err|message)", name) and toks and any(t.is_str() for t in toks):
                    msgs[render(toks)].add("%s:%s" % (os.path.basename(rel), name))
    return funcs, types_, msgs


emit("## 6. Runtime: k8s.io/apimachinery %s → %s" % (AM_OLD, AM_NEW))
emit()
emit("Exported functions and methods (added, removed, signature changed, body changed with the same signature, "
     "newly deprecated), unexported functions whose body changed, exported types (added, removed, definition changed) and message strings (`fmt.Errorf`/"
     "`Sprintf`, `errors.New`, `field.<Error>` arguments, constants and variables named `…Msg`/`…Err…`), per "
     "package, tests excluded.")
emit()
for d in AM_DIRS:
    fa, ta_, ma = api_model(AM_A, d)
    fb, tb_, mb = api_model(AM_B, d)
    pfx = "A"
    tag = md(d.replace("pkg/", "", 1))
    for k in sorted(set(fa) | set(fb)):
        a, b = fa.get(k), fb.get(k)
        if k.startswith("(unexported) ") and not (a and b):
            continue  # helpers added or removed show through the exported functions and messages
        if a and not b:
            ITEMS.add(pfx, "%s: func %s removed (%s)" % (tag, md(k), a[3]))
        elif b and not a:
            ITEMS.add(pfx, "%s: func %s added: %s (%s)" % (tag, md(k), md(k + b[0]), b[3]))
        else:
            if sig_types(a[0]) != sig_types(b[0]):
                ITEMS.add(pfx, "%s: func %s signature %s → %s" % (tag, md(k), md(a[0]), md(b[0])))
            elif a[1] != b[1]:
                ITEMS.add(pfx, "%s: func %s body changed (%s)" % (tag, md(k), b[3]))
            if b[2] and not a[2]:
                ITEMS.add(pfx, "%s: func %s deprecated" % (tag, md(k)))
    for k in sorted(set(ta_) | set(tb_)):
        a, b = ta_.get(k), tb_.get(k)
        if a and not b:
            ITEMS.add(pfx, "%s: type %s removed" % (tag, md(k)))
        elif b and not a:
            ITEMS.add(pfx, "%s: type %s added: %s" % (tag, md(k), md(b[0] if len(b[0]) < 160 else b[0][:157] + "…")))
        elif a[0] != b[0]:
            ITEMS.add(pfx, "%s: type %s changed: %s → %s" % (tag, md(k), md(a[0] if len(a[0]) < 200 else a[0][:197] + "…"),
                                                           md(b[0] if len(b[0]) < 200 else b[0][:197] + "…")))
    for m in sorted(set(ma) - set(mb)):
        ITEMS.add(pfx, "%s: message %s removed (%s)" % (tag, md(m), ", ".join(sorted(ma[m]))))
    for m in sorted(set(mb) - set(ma)):
        ITEMS.add(pfx, "%s: message %s added (%s)" % (tag, md(m), ", ".join(sorted(mb[m]))))
emit_items("A")

# ------------------------------------------------------------------ 7. files

emit("## 7. Files of `%s` (outside output_tests)" % GEN)
emit()
emit("Context for the items above, not items themselves: every file added, removed, moved (matched by file name) "
     "or changed, with added/removed line counts, and for Go files the functions whose body changed (`~`), were "
     "added (`+`) or removed (`−`), compared with tag names abstracted as in section 4. Unchanged files are not "
     "listed.")
emit()


def func_bodies(path, rel):
    if not path or not path.endswith(".go"):
        return {}
    gf = GoFile(path, rel)
    return {((f[0] + ".") if f[0] else "") + f[1]: norm_prefix(" ".join(t.text for t in gf.body(f))) for f in gf.funcs}


emit("| %s | %s | + | − | functions |" % (OLD, NEW))
emit("|---|---|---|---|---|")
n_unchanged = 0
for ra, rb in FILE_PAIRS:
    pa, pb = GA.get(ra) if ra else None, GB.get(rb) if rb else None
    if pa and pb and same_file(pa, pb):
        if ra == rb:
            n_unchanged += 1
            continue
    p, m = line_counts(pa, pb)
    fa_, fb_ = func_bodies(pa, ra), func_bodies(pb, rb)
    fn = []
    if pa and pb:
        fn += ["~" + k for k in sorted(set(fa_) & set(fb_)) if fa_[k] != fb_[k]]
        fn += ["+" + k for k in sorted(set(fb_) - set(fa_))]
        fn += ["−" + k for k in sorted(set(fa_) - set(fb_))]
    emit("| %s | %s | %d | %d | %s |" % (md(ra) if ra else "—", md(rb) if rb else "—", p, m, " ".join(fn)))
emit()
emit("%d files unchanged." % n_unchanged)
emit()

# ------------------------------------------------------------------ summary

total = sum(len(v) for v in ITEMS.rows.values())
names = {"V": "tags", "R": "runtime functions emitted", "L": "lint", "F": "flags", "T": "targets",
         "E": "error strings", "O": "output_tests", "A": "apimachinery"}
summary = ", ".join("%s %d" % (names[k], len(ITEMS.rows.get(k, []))) for k in ["V", "R", "L", "F", "T", "E", "O", "A"])
OUT.insert(7, "**%d items**: %s." % (total, summary))
OUT.insert(8, "")
sys.stdout.write("\n".join(OUT).rstrip("\n") + "\n")
PYTHON
