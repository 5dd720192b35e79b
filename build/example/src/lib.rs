//! The validators of `examples/api`, generated at build time by `vgc-build` (see `build.rs`) and included at the
//! crate root: `widgets::v1::Widget`, `registry::validate_value`, ….

include!(concat!(env!("OUT_DIR"), "/vgc.rs"));
