// Package allops links every op of the library, for the programs and
// tests that must see them all (the tuner, the shipped-table checks): one
// list, checked against the ops/ directory by its test, instead of one
// per importer.
package allops

import (
	_ "github.com/batchlas-go/batchlas/ops/gecon"
	_ "github.com/batchlas-go/batchlas/ops/gels"
	_ "github.com/batchlas-go/batchlas/ops/gemm"
	_ "github.com/batchlas-go/batchlas/ops/geqrf"
	_ "github.com/batchlas-go/batchlas/ops/gesv"
	_ "github.com/batchlas-go/batchlas/ops/gesvd"
	_ "github.com/batchlas-go/batchlas/ops/getrf"
	_ "github.com/batchlas-go/batchlas/ops/getri"
	_ "github.com/batchlas-go/batchlas/ops/getrs"
	_ "github.com/batchlas-go/batchlas/ops/matinv"
	_ "github.com/batchlas-go/batchlas/ops/orgqr"
	_ "github.com/batchlas-go/batchlas/ops/ormqr"
	_ "github.com/batchlas-go/batchlas/ops/pocon"
	_ "github.com/batchlas-go/batchlas/ops/poinv"
	_ "github.com/batchlas-go/batchlas/ops/posv"
	_ "github.com/batchlas-go/batchlas/ops/potrf"
	_ "github.com/batchlas-go/batchlas/ops/potri"
	_ "github.com/batchlas-go/batchlas/ops/potrs"
	_ "github.com/batchlas-go/batchlas/ops/syev"
	_ "github.com/batchlas-go/batchlas/ops/syrk"
	_ "github.com/batchlas-go/batchlas/ops/trmm"
	_ "github.com/batchlas-go/batchlas/ops/trsm"
)
