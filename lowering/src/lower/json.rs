//! Go `encoding/json` views of structs: inline embedding, the names a struct decodes, conflicting names.

use super::*;

impl Lowerer<'_> {
    /// The inline-embedding cycle `[to, from, …, to]` when struct `from` embeds struct `to` again, following inline-embedded
    /// fields by value or pointer (R9), if any. Iterative, visiting each struct once.
    pub(super) fn embedding_cycle(&self, from: &TypeKey, to: &TypeKey) -> Option<Vec<String>> {
        let mut parent: std::collections::BTreeMap<TypeKey, TypeKey> =
            std::collections::BTreeMap::new();
        let mut stack = vec![from.clone()];
        let mut seen = std::collections::BTreeSet::from([from.clone()]);
        while let Some(t) = stack.pop() {
            for e in self.inline_embedded(&t) {
                if &e == to {
                    // to → from → … → t → to
                    let mut back = vec![t.name.clone()];
                    let mut at = t;
                    while let Some(p) = parent.get(&at) {
                        back.push(p.name.clone());
                        at = p.clone();
                    }
                    let mut path = vec![to.name.clone()];
                    path.extend(back.into_iter().rev());
                    path.push(to.name.clone());
                    return Some(path);
                }
                if seen.insert(e.clone()) {
                    parent.insert(e.clone(), t.clone());
                    stack.push(e);
                }
            }
        }
        None
    }

    /// The structs struct `k` embeds inline (by value or pointer, no JSON name, not `json:"-"`).
    pub(super) fn inline_embedded(&self, k: &TypeKey) -> Vec<TypeKey> {
        let Some((decl, file)) = self.prog.type_decl(self.db, k) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for f in &decl.fields {
            let json = f.json.clone().unwrap_or_default();
            if f.go_name.is_some() || !json.name.is_empty() || json.skip {
                continue;
            }
            let ty = types::resolve(self.db, self.prog, &k.pkg, file, &f.ty);
            let inner = match &ty {
                Ty::Pointer(i) => i.as_ref().clone(),
                other => other.clone(),
            };
            if let Native::Struct(e) = types::native(self.db, self.prog, &inner) {
                out.push(e);
            }
        }
        out
    }

    /// The JSON names struct `k` decodes (R9): its exported fields' names and, through its inline embeddings, theirs,
    /// minus the conflicting names Go's `typeFields` ignores ([`Self::json_ignored`]). Sorted, de-duplicated.
    pub(super) fn json_names_through(&self, k: &TypeKey) -> Vec<String> {
        let ignored = self.json_ignored(k);
        let mut names = std::collections::BTreeSet::new();
        let mut stack = vec![k.clone()];
        let mut seen = std::collections::BTreeSet::from([k.clone()]);
        while let Some(t) = stack.pop() {
            let Some((decl, file)) = self.prog.type_decl(self.db, &t) else {
                continue;
            };
            for f in &decl.fields {
                let json = f.json.clone().unwrap_or_default();
                if json.skip {
                    continue;
                }
                if f.go_name.is_none() && json.name.is_empty() {
                    // An embedded struct contributes its own names (below); any other embedded type is a field
                    // named after its type, as in encoding/json.
                    let ty = types::resolve(self.db, self.prog, &t.pkg, file, &f.ty);
                    let inner = match &ty {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        other => other.clone(),
                    };
                    if matches!(types::native(self.db, self.prog, &inner), Native::Struct(_)) {
                        continue;
                    }
                }
                let go = f.member_name();
                if !go.starts_with(|c: char| c.is_uppercase()) {
                    continue;
                }
                names.insert(if json.name.is_empty() { go } else { json.name });
            }
            for e in self.inline_embedded(&t) {
                if seen.insert(e.clone()) {
                    stack.push(e);
                }
            }
        }
        names.into_iter().filter(|n| !ignored.contains(n)).collect()
    }

    /// Every JSON name struct `k`'s object can hold, with its candidate fields as (depth below `k`, tagged with a
    /// JSON name, index of the field of `k` it is reached through): `k`'s own fields at depth 0, inline-embedded
    /// structs' below (Go `encoding/json` `typeFields`' walk, 8 levels).
    fn json_candidates(
        &self,
        k: &TypeKey,
    ) -> std::collections::BTreeMap<String, Vec<(u8, bool, usize)>> {
        let mut seen: std::collections::BTreeMap<String, Vec<(u8, bool, usize)>> =
            std::collections::BTreeMap::new();
        let mut stack = vec![(k.clone(), 0u8, usize::MAX)];
        let mut visited = std::collections::BTreeSet::new();
        while let Some((t, depth, top)) = stack.pop() {
            if depth > 8 || !visited.insert((t.clone(), depth, top)) {
                continue;
            }
            let Some((decl, file)) = self.prog.type_decl(self.db, &t) else {
                continue;
            };
            for (i, f) in decl.fields.iter().enumerate() {
                let top = if depth == 0 { i } else { top };
                let json = f.json.clone().unwrap_or_default();
                if json.skip {
                    continue;
                }
                if f.go_name.is_none() && json.name.is_empty() {
                    let ty = types::resolve(self.db, self.prog, &t.pkg, file, &f.ty);
                    let inner = match &ty {
                        Ty::Pointer(i) => i.as_ref().clone(),
                        other => other.clone(),
                    };
                    if let Native::Struct(e) = types::native(self.db, self.prog, &inner) {
                        stack.push((e, depth + 1, top));
                        continue;
                    }
                }
                let go = f.go_name.clone().unwrap_or_else(|| leaf_type_name(&f.ty));
                if !go.starts_with(|c: char| c.is_uppercase()) {
                    continue;
                }
                let name = if json.name.is_empty() {
                    go
                } else {
                    json.name.clone()
                };
                seen.entry(name)
                    .or_default()
                    .push((depth, !json.name.is_empty(), top));
            }
        }
        seen
    }

    /// The field of `k` through which Go decodes a name with these candidates ([`Self::json_candidates`]): the
    /// shallowest candidate, else the single tagged one among the shallowest; `None` for a tie, which Go ignores.
    fn dominant(cands: &[(u8, bool, usize)]) -> Option<(u8, usize)> {
        let min = cands.iter().map(|c| c.0).min()?;
        let top: Vec<&(u8, bool, usize)> = cands.iter().filter(|c| c.0 == min).collect();
        let tagged: Vec<&&(u8, bool, usize)> = top.iter().filter(|c| c.1).collect();
        match (top.as_slice(), tagged.as_slice()) {
            ([only], _) => Some((min, only.2)),
            (_, [one]) => Some((min, one.2)),
            _ => None,
        }
    }

    /// R9 (trial D4): the JSON names of struct `owner`'s object that decode into the inline-embedded pointer field
    /// `field` (its index in `owner`'s declaration), so that Go's `encoding/json` allocates the pointer when one of
    /// them is present: the names whose dominant field ([`Self::dominant`]) lies inside that embedding. A name
    /// `owner` declares itself, or one another embedding claims at the same depth, does not allocate it. Sorted.
    pub(super) fn embedded_claims(&self, owner: &TypeKey, field: usize) -> Vec<String> {
        self.json_candidates(owner)
            .into_iter()
            .filter(|(_, cands)| Self::dominant(cands).is_some_and(|(_, top)| top == field))
            .map(|(n, _)| n)
            .collect()
    }

    /// Go `encoding/json` `typeFields` on struct `k`: the JSON names of inline-embedded structs' fields that conflict
    /// at their shallowest depth (below the struct's own fields) with no single tagged winner, which Go ignores
    /// when decoding and encoding. Sorted.
    pub(super) fn json_ignored(&self, k: &TypeKey) -> Vec<String> {
        self.json_candidates(k)
            .into_iter()
            .filter(|(_, cands)| {
                cands.iter().map(|c| c.0).min().unwrap_or(0) > 0 && Self::dominant(cands).is_none()
            })
            .map(|(n, _)| n)
            .collect()
    }
}
