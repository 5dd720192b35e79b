//! Fuzz target `output_journal`: see [`vgc_fuzz::output_journal`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::output_journal(data));
