//! Fuzz target `cache_readers`: see [`vgc_fuzz::cache_readers`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| vgc_fuzz::cache_readers(data));
