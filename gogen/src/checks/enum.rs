//! `enum` (upstream `validators/enum.go`; `validate/enum.go`): the type's constants in a package variable
//! `symbolsFor<Type> = sets.New(…)`, the exclusions (`ifEnabled(X)=+k8s:enumExclude`) in `exclusionsFor<Type>`, and
//! `validate.Enum(…, symbolsFor<Type>, exclusionsFor<Type> or nil)`.

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
        .map(|(pkg, name, _)| g.imports.name(pkg, name))
        .collect();
    format!("{new}({})", names.join(", "))
}

pub(super) fn call(g: &mut Gen<'_>, e: &EnumPlan, value: &GoTy) -> Option<String> {
    let GoTy::Named { pkg, name } = super::each::non_pointer(value) else {
        return None;
    };
    let owner = TypeKey {
        pkg: pkg.clone(),
        name: name.clone(),
    };
    let exclusions = if e.exclusions.is_empty() {
        "nil".to_string()
    } else {
        exclusions_name(&owner)
    };
    Some(super::validate_call(
        g,
        "Enum",
        &[var_name(&owner), exclusions],
    ))
}

/// The exclusions variable's name (upstream: the private name of `ExclusionsFor<Type>`).
pub(crate) fn exclusions_name(owner: &TypeKey) -> String {
    format!("exclusionsFor{}", owner.name)
}

/// The exclusions variable's initializer: one `validate.EnumExclusion[T]` element per rule — by the value's
/// constant name, then disabled-when rules first and by option (upstream's sort) — printed as gofmt lays out
/// upstream's slice literal (a blank line before each element, the keys aligned; before 1.37 each element's fields on
/// one line). `None` without exclusions, or when
/// a value has no constant.
pub(crate) fn exclusions_init(g: &mut Gen<'_>, owner: &TypeKey, e: &EnumPlan) -> Option<String> {
    if e.exclusions.is_empty() {
        return None;
    }
    let t = g.ty(&GoTy::Named {
        pkg: owner.pkg.clone(),
        name: owner.name.clone(),
    });
    let exclusion = g.imports.name(crate::VALIDATE, "EnumExclusion");
    let mut rules: Vec<(String, bool, String, String)> = Vec::new();
    for x in &e.exclusions {
        let (pkg, name, _) = e.constants.iter().find(|c| c.2 == x.value)?;
        let when = matches!(x.when, vgc_lowering::plan::OptionState::Enabled);
        rules.push((name.clone(), when, x.option.clone(), pkg.clone()));
    }
    rules.sort();
    let mut s = format!("[]{exclusion}[{t}]{{\n");
    for (name, when, option, pkg) in rules {
        let constant = g.imports.name(&pkg, &name);
        if g.legacy {
            // Before 1.37 (no `flNewlineOK`): the fields on one line after the element's brace.
            s.push_str(&format!(
                "\t{{\n\t\tValue: {constant}, Option: {}, ExcludeWhen: {when}}},\n",
                vgc_runtime::field::go_quote(&option)
            ));
            continue;
        }
        s.push_str(&format!(
            "\n\t{{\n\t\tValue:       {constant},\n\t\tOption:      {},\n\t\tExcludeWhen: {when},\n\t}},\n",
            vgc_runtime::field::go_quote(&option)
        ));
    }
    s.push('}');
    Some(s)
}
