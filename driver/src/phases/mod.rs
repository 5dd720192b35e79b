//! The build pipeline's phases, in the order a build runs them. Each is a function over the pieces of the
//! [`Session`](crate::Session) it needs; [`analyze`](crate::analyze) runs the first four (the front half shared
//! by `vgc build`, `vgc check` and `vgc lint`) and [`Session::build_with`](crate::Session::build_with) the rest.
//!
//! | phase | function | what it does | timing (`--timings`) |
//! |---|---|---|---|
//! | load | [`load::load`], [`load::count_tags`] | the module tree into the database's inputs | `load` |
//! | settings | [`settings::settings`] | profile, roots, tag prefix, extensions and formats onto the `Settings` input | `load` |
//! | check | [`check::check`], [`check::check_plan`], [`check::finish`] | tag checks and upstream's lint (beside lowering), the plan's checks, final diagnostics | `check (beside lower)`, `lint (beside lower)` |
//! | lower | [`lower::lower`] | the crate's validation plan | `lower` |
//! | generate | [`generate::generate`] | Rust modules, reused or generated per module | `codegen` |
//! | format | [`format::format`] | prettyplease or rustfmt, per unit | `format` |
//! | write | [`write::write`] | the output transaction, beside the cache saves | `write and save caches` |
//! | Go target | [`go::generate`], [`go::write`] | instead of generate, format and write: validation-gen's file per tagged package, one transaction | `codegen (Go)`, `write` |

pub(crate) mod check;
pub(crate) mod format;
pub(crate) mod generate;
pub(crate) mod go;
pub(crate) mod load;
pub(crate) mod lower;
pub(crate) mod settings;
pub(crate) mod write;
