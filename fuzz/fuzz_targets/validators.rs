//! Fuzz target `validators`: see [`vgc_fuzz::validators`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::validators(data));
