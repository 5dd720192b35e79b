module vgc.test/extensions-quantities

go 1.25

require k8s.io/apimachinery v0.37.2
