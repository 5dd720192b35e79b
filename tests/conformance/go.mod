module vgc.test/conformance

go 1.25
