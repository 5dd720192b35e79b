//! vgc test suites live in tests/tests.
