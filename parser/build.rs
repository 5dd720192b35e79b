//! Generates the tag grammar parser (`$OUT_DIR/tags/grammar.rs`) from `src/tags/grammar.lalrpop`.
fn main() {
    if let Err(e) = lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
    {
        // A grammar error is a bug in this crate, not bad user input: fail the build loudly.
        panic!("lalrpop failed to process the tag grammar: {e}");
    }
}
