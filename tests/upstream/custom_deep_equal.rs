
// ---- Appended by tests/tests/output_tests.rs when the suite has `ratcheting/deep_equal_func*` (code-generator
// v0.38 and later): the Rust twins of the project deep-equality functions those packages name with
// `+k8s:validation-gen-deep-equal-func`.

use crate::cmd::validation_gen::output_tests::ratcheting::deep_equal_func as dq;
use crate::cmd::validation_gen::output_tests::ratcheting::deep_equal_func_cross_pkg as dqx;

/// upstream `deep_equal_func.CustomDeepEqual`: for `*NonComparableStruct` only whether `Ptr` is set (two nil
/// pointers are equal, one nil is not), for every other type `reflect.DeepEqual` (vgc's derived equality).
impl dq::DeepEqual for Custom {
    fn deep_equal<T: std::any::Any + PartialEq>(a: Option<&T>, b: Option<&T>) -> bool {
        fn ncs<T: std::any::Any>(v: Option<&T>) -> Option<Option<&dq::NonComparableStruct>> {
            v.map(|v| (v as &dyn std::any::Any).downcast_ref())
        }
        match (ncs(a), ncs(b)) {
            (Some(Some(x)), Some(Some(y))) => x.ptr.is_some() == y.ptr.is_some(),
            (None, None) => true,
            (Some(Some(_)), None) | (None, Some(Some(_))) => false,
            _ => a == b,
        }
    }
}

/// upstream `_codegenignore/other.DeepEqual`: `reflect.DeepEqual` (vgc's derived equality).
impl dqx::DeepEqual for Custom {
    fn deep_equal<T: std::any::Any + PartialEq>(a: Option<&T>, b: Option<&T>) -> bool {
        a == b
    }
}
