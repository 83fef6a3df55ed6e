package main

// The ops the tuner times. Each registers its selection spec (choice.go)
// and its measurement (trial.go) when linked; the tuner finds them through
// sel.Ops (tuners, spec.go), so linking is all it takes.
import (
	_ "github.com/batchlas-go/batchlas/ops/gecon"
	_ "github.com/batchlas-go/batchlas/ops/gels"
	_ "github.com/batchlas-go/batchlas/ops/gemm"
	_ "github.com/batchlas-go/batchlas/ops/geqrf"
	_ "github.com/batchlas-go/batchlas/ops/gesv"
	_ "github.com/batchlas-go/batchlas/ops/getrf"
	_ "github.com/batchlas-go/batchlas/ops/getrs"
	_ "github.com/batchlas-go/batchlas/ops/orgqr"
	_ "github.com/batchlas-go/batchlas/ops/ormqr"
	_ "github.com/batchlas-go/batchlas/ops/pocon"
	_ "github.com/batchlas-go/batchlas/ops/posv"
	_ "github.com/batchlas-go/batchlas/ops/potrf"
	_ "github.com/batchlas-go/batchlas/ops/potrs"
	_ "github.com/batchlas-go/batchlas/ops/syev"
	_ "github.com/batchlas-go/batchlas/ops/trsm"
)
