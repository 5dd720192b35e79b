//! Fuzz target `check_pipeline`: see [`vgc_fuzz::check_pipeline`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::check_pipeline(data));
