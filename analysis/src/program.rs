//! Loading a Go module tree into a [`Program`]: target packages under the build path, plus every package their
//! types reference (read-only), resolved through `go.mod`, `vendor/` and the module cache.

use crate::gomod::{GoMod, Resolved, parse_go_mod, resolve_import};
use crate::system::System;
use indexmap::IndexMap;
use std::sync::Arc;
use vgc_ir::model::{FileIr, TypeIr};
use vgc_ir::{Code, Db, Diagnostic, SourceFile};
use vgc_parser::go::TypeExpr;

/// A loaded package.
#[derive(Debug, Clone)]
pub struct Package {
    /// Import path.
    pub path: String,
    /// Package name from the package clause.
    pub name: String,
    /// Directory.
    pub dir: String,
    /// Non-test Go files, sorted by path.
    pub files: Vec<SourceFile>,
    /// True for packages under the build path (validation code is generated for their roots).
    pub target: bool,
    /// Type name → (file index, type index in that file's IR).
    pub types: IndexMap<String, (usize, usize)>,
    /// The salsa input for this package.
    pub input: vgc_ir::Package,
}

/// The loaded program.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// The main module's path.
    pub module: String,
    /// The main module's root directory.
    pub root: String,
    /// Packages by import path, targets first in path order, then read-only ones in load order.
    pub packages: IndexMap<String, Package>,
}

/// A type's identity: (import path, name).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeKey {
    /// Import path of the declaring package.
    pub pkg: String,
    /// Type name.
    pub name: String,
}

impl std::fmt::Display for TypeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.pkg, self.name)
    }
}

fn is_go_source(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e == "go")
        && !name.ends_with("_test.go")
}

fn skip_dir(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('_') || name == "testdata" || name == "vendor"
}

/// Loads the module containing `path` (a module root or a package directory inside one). Target packages are
/// the directories under `path` holding non-test `.go` files. Every import referenced by a type expression is
/// loaded read-only, transitively.
///
/// # Errors
/// Fatal problems (no `go.mod` found, unreadable build path) as diagnostics. Missing modules and unreadable files
/// are returned in the diagnostics list alongside the program.
pub fn load(
    db: &dyn Db,
    sys: &dyn System,
    path: &str,
) -> Result<(Program, Vec<Diagnostic>), Vec<Diagnostic>> {
    let path = path.trim_end_matches('/').to_string();
    if !sys.is_dir(&path) {
        return Err(vec![
            Diagnostic::error(Code::Io, format!("{path}: not a directory or not readable"))
                .with_hint("pass a Go module root or a package directory"),
        ]);
    }
    let mut root = path.clone();
    let gomod_text = loop {
        if let Ok(t) = sys.read_file(&format!("{root}/go.mod")) {
            break t;
        }
        match root.rfind('/') {
            Some(i) if i > 0 => root.truncate(i),
            _ => {
                return Err(vec![
                    Diagnostic::error(
                        Code::Io,
                        format!("{path}: no go.mod found in it or any parent"),
                    )
                    .with_hint("vgc builds Go modules; run it on a directory inside one"),
                ]);
            }
        }
    };
    let gomod = parse_go_mod(&gomod_text);
    let mut prog = Program {
        module: gomod.module.clone(),
        root: root.clone(),
        packages: IndexMap::new(),
    };
    let mut diags = Vec::new();
    // Target packages.
    let mut dirs = Vec::new();
    collect_dirs(sys, &path, &mut dirs);
    // Read every target package's files first, then parse them all at once (in parallel where the database
    // can), then index each package.
    let read: Vec<(String, Vec<SourceFile>)> = dirs
        .into_iter()
        .filter_map(|dir| read_package_files(db, sys, &dir, &mut diags).map(|fs| (dir, fs)))
        .collect();
    let all: Vec<SourceFile> = read.iter().flat_map(|(_, fs)| fs.iter().copied()).collect();
    db.prefetch_ir(&all);
    for (dir, files) in read {
        let rel = dir
            .strip_prefix(&root)
            .unwrap_or("")
            .trim_start_matches('/');
        let import = if rel.is_empty() {
            gomod.module.clone()
        } else {
            format!("{}/{rel}", gomod.module)
        };
        if let Some(p) = index_package(db, files, &dir, &import, true) {
            prog.packages.insert(import, p);
        }
    }
    // Read-only packages referenced by type expressions, transitively.
    let mut i = 0;
    let mut missing_reported = std::collections::BTreeSet::new();
    while i < prog.packages.len() {
        let imports = referenced_imports(db, &prog.packages[i]);
        for (import, at) in imports {
            if prog.packages.contains_key(&import) {
                continue;
            }
            match resolve_import(sys, &root, &gomod, &import) {
                Resolved::Dir(d) => {
                    let files = read_package_files(db, sys, &d, &mut diags);
                    if let Some(p) = files.and_then(|fs| {
                        db.prefetch_ir(&fs);
                        index_package(db, fs, &d, &import, false)
                    }) {
                        prog.packages.insert(import, p);
                    }
                }
                Resolved::Std => {}
                // Read-only packages import far more than their API types need; an unresolvable import there
                // matters only if a reachable type uses it, which lowering reports as an unresolved field type.
                Resolved::Missing(..) | Resolved::Unknown if !prog.packages[i].target => {}
                Resolved::Missing(m, v) => {
                    if missing_reported.insert(m.clone()) {
                        let (file, span) = at;
                        diags.push(
                            Diagnostic::error(Code::MissingModule, format!("module {m}@{v} (needed for {import}) is not in the module cache or vendor/"))
                                .at(file, span)
                                .with_hint(format!("run `go mod download {m}` in the module root, or set GOMODCACHE")),
                        );
                    }
                }
                Resolved::Unknown => {
                    let (file, span) = at;
                    diags.push(
                        Diagnostic::error(Code::Unresolved, format!("no module in go.mod provides package {import}"))
                            .at(file, span)
                            .with_hint("add the module to go.mod (`go get`) or mark the field `+k8s:opaqueType`"),
                    );
                }
            }
        }
        i += 1;
    }
    let _: &GoMod = &gomod;
    Ok((prog, diags))
}

fn collect_dirs(sys: &dyn System, dir: &str, out: &mut Vec<String>) {
    let Ok(entries) = sys.read_dir(dir) else {
        return;
    };
    if entries.iter().any(|(n, d)| !d && is_go_source(n)) {
        out.push(dir.to_string());
    }
    for (n, is_dir) in entries {
        if is_dir && !skip_dir(&n) {
            collect_dirs(sys, &format!("{dir}/{n}"), out);
        }
    }
}

/// Reads a package directory's non-test `.go` files into `SourceFile` inputs (sorted by name, as `read_dir`
/// returns them). `None` when the directory cannot be read (reported); an unreadable file is reported and left
/// out.
fn read_package_files(
    db: &dyn Db,
    sys: &dyn System,
    dir: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<SourceFile>> {
    let entries = match sys.read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            diags.push(Diagnostic::error(
                Code::Io,
                format!("{dir}: cannot read directory: {e}"),
            ));
            return None;
        }
    };
    let mut files = Vec::new();
    for (n, is_dir) in entries {
        if is_dir || !is_go_source(&n) {
            continue;
        }
        let p = format!("{dir}/{n}");
        match sys.read_file(&p) {
            Ok(text) => files.push(SourceFile::new(db, p, Arc::from(text))),
            Err(e) => diags.push(
                Diagnostic::error(Code::Io, format!("{p}: cannot read file: {e}"))
                    .with_hint("check the file's permissions and encoding (UTF-8)"),
            ),
        }
    }
    Some(files)
}

/// Builds a [`Package`] from its files: keeps the files whose package clause is the majority's, indexes the
/// declared types and creates the salsa `Package` input. `None` when no file remains.
fn index_package(
    db: &dyn Db,
    files: Vec<SourceFile>,
    dir: &str,
    import: &str,
    target: bool,
) -> Option<Package> {
    // Build-constrained files (`//go:build ignore` and similar) are rare in API packages; files whose package
    // clause disagrees with the majority (e.g. `package main` generators) are skipped.
    let irs: Vec<&FileIr> = files.iter().map(|f| vgc_ir::db::file_ir(db, *f)).collect();
    let name = majority_name(&irs);
    let mut keep = Vec::new();
    for (f, ir) in files.iter().zip(&irs) {
        if ir.package == name {
            keep.push(*f);
        }
    }
    let mut types = IndexMap::new();
    for (fi, f) in keep.iter().enumerate() {
        for (ti, name) in vgc_ir::db::declared_types(db, *f).iter().enumerate() {
            types.entry(name.clone()).or_insert((fi, ti));
        }
    }
    if keep.is_empty() {
        return None;
    }
    let input = vgc_ir::Package::new(db, import.to_string(), keep.clone(), target);
    Some(Package {
        path: import.to_string(),
        name,
        dir: dir.to_string(),
        files: keep,
        target,
        types,
        input,
    })
}

fn majority_name(irs: &[&FileIr]) -> String {
    let mut counts: IndexMap<&str, usize> = IndexMap::new();
    for ir in irs {
        if !ir.package.is_empty() && ir.package != "main" {
            *counts.entry(ir.package.as_str()).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, c)| *c)
        .map(|(n, _)| n.to_string())
        .unwrap_or_default()
}

/// Imports used by type expressions of the package's struct fields and type definitions, with one place that
/// uses each (for diagnostics).
fn referenced_imports(db: &dyn Db, p: &Package) -> Vec<(String, (String, std::ops::Range<usize>))> {
    let mut out: IndexMap<String, (String, std::ops::Range<usize>)> = IndexMap::new();
    for f in &p.files {
        let ir = vgc_ir::db::file_ir(db, *f);
        let mut visit = |e: &TypeExpr, at| {
            let mut quals = Vec::new();
            qualifiers(e, &mut quals);
            for q in quals {
                if let Some(path) = import_for(ir, &q) {
                    out.entry(path)
                        .or_insert_with(|| (f.path(db).clone(), vgc_ir::db::span_of(db, *f, at)));
                }
            }
        };
        for t in &ir.types {
            visit(&t.ty, t.at);
            for fl in &t.fields {
                visit(&fl.ty, fl.at);
            }
        }
    }
    out.into_iter().collect()
}

fn qualifiers(e: &TypeExpr, out: &mut Vec<String>) {
    match e {
        TypeExpr::Named {
            pkg: Some(p), args, ..
        } => {
            out.push(p.clone());
            args.iter().for_each(|a| qualifiers(a, out));
        }
        TypeExpr::Named { args, .. } => args.iter().for_each(|a| qualifiers(a, out)),
        TypeExpr::Pointer(i) | TypeExpr::Slice(i) | TypeExpr::Array { elem: i, .. } => {
            qualifiers(i, out)
        }
        TypeExpr::Map(k, v) => {
            qualifiers(k, out);
            qualifiers(v, out);
        }
        TypeExpr::Struct(fs) => fs.iter().for_each(|f| qualifiers(&f.ty, out)),
        TypeExpr::Other(_) => {}
    }
}

/// The import path a qualifier refers to in a file: an explicit alias, or the import whose last path element
/// (ignoring a `/vN` major-version suffix) equals the qualifier.
#[must_use]
pub fn import_for(ir: &FileIr, qual: &str) -> Option<String> {
    for (alias, path) in &ir.imports {
        match alias {
            Some(a) if a == qual => return Some(path.clone()),
            Some(_) => {}
            None => {
                let mut segs = path.rsplit('/');
                let last = segs.next().unwrap_or("");
                let guess = if last.len() > 1
                    && last.starts_with('v')
                    && last[1..].bytes().all(|b| b.is_ascii_digit())
                {
                    segs.next().unwrap_or(last)
                } else {
                    last
                };
                if guess == qual || guess.replace(['-', '.'], "_") == qual || last == qual {
                    return Some(path.clone());
                }
            }
        }
    }
    None
}

impl Program {
    /// Looks a type declaration up: its IR and the file that declares it.
    #[must_use]
    pub fn type_decl<'a>(&self, db: &'a dyn Db, key: &TypeKey) -> Option<(&'a TypeIr, SourceFile)> {
        let p = self.packages.get(&key.pkg)?;
        let (fi, ti) = *p.types.get(&key.name)?;
        let f = *p.files.get(fi)?;
        vgc_ir::db::file_ir(db, f).types.get(ti).map(|t| (t, f))
    }
}
