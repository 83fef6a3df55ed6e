//go:build novendor

package batchlas

// vendorLibs is empty: this build has no vendor library.
var vendorLibs []string
