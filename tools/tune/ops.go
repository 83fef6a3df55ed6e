package main

// The ops the tuner times: every op of the library (internal/allops).
// Each registers its selection spec (choice.go) and its measurement
// (trial.go) when linked; the tuner finds them through sel.Ops (tuners,
// spec.go), so linking is all it takes.
import _ "github.com/batchlas-go/batchlas/internal/allops"
