//! Fuzz target `tag_parser`: see [`vgc_fuzz::tag_parser`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::tag_parser(data));
