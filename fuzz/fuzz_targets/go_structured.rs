//! Fuzz target `go_structured`: see [`vgc_fuzz::go_structured`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::go_structured(data));
