//! Fuzz target `go_frontend`: see [`vgc_fuzz::go_frontend`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::go_frontend(data));
