//! `enum` (upstream `validators/enum.go`; `validate/enum.go`): the type's constants in a package variable
//! `symbolsFor<Type> = sets.New(…)`, and `validate.Enum(…, symbolsFor<Type>, nil)`. Exclusions
//! (`ifEnabled(X)=+k8s:enumExclude`) are not printed yet.

use crate::Gen;
use vgc_analysis::TypeKey;
use vgc_lowering::plan::{EnumPlan, GoTy};

/// The symbols variable's name (upstream: the private name of `SymbolsFor<Type>`).
pub(crate) fn var_name(owner: &TypeKey) -> String {
    format!("symbolsFor{}", owner.name)
}

/// The symbols variable's initializer: `sets.New(C1, C2)`, or `sets.New[T]()` without constants.
pub(crate) fn var_init(g: &mut Gen<'_>, owner: &TypeKey, e: &EnumPlan) -> String {
    let new = g.imports.name("k8s.io/apimachinery/pkg/util/sets", "New");
    if e.constants.is_empty() {
        let t = g.ty(&GoTy::Named {
            pkg: owner.pkg.clone(),
            name: owner.name.clone(),
        });
        return format!("{new}[{t}]()");
    }
    let names: Vec<String> = e
        .constants
        .iter()
        .map(|(pkg, name)| g.imports.name(pkg, name))
        .collect();
    format!("{new}({})", names.join(", "))
}

pub(super) fn call(g: &mut Gen<'_>, e: &EnumPlan, value: &GoTy) -> Option<String> {
    if !e.exclusions.is_empty() {
        return None;
    }
    let GoTy::Named { pkg, name } = super::each::non_pointer(value) else {
        return None;
    };
    let owner = TypeKey {
        pkg: pkg.clone(),
        name: name.clone(),
    };
    Some(super::validate_call(
        g,
        "Enum",
        &[var_name(&owner), "nil".into()],
    ))
}
