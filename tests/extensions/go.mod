module vgc.test/extensions

go 1.25
