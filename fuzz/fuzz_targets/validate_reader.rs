//! Fuzz target `validate_reader`: see [`vgc_fuzz::validate_reader`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::validate_reader(data));
