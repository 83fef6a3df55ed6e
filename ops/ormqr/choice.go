package ormqr

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of ormqr, in candidate order (simpler first, native
// before vendor).
var (
	// unblocked applies each Q on one worker one reflector at a time
	// (LAPACK's dorm2r: internal/qr.Orm2r).
	unblocked = &sel.Family{Name: "unblocked"}
	// blocked applies each Q on one worker in panels of nb reflectors,
	// each panel as one block reflector I - V T V^T (LAPACK's dormqr:
	// internal/qr.OrmqrBlocked). With nb >= k it is unblocked's code.
	blocked = &sel.Family{Name: "blocked", Fields: []string{"nb"}}
	// vendor calls gonum's Dormqr per matrix on row-major copies
	// (vendor.go); float64 only, absent from a novendor build.
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

var nativeCandidates = []sel.Choice{unblocked.With(), blocked.With(8), blocked.With(16), blocked.With(32)}

// candidates per dtype: gonum's LAPACK is float64 only.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append([]sel.Choice(nil), nativeCandidates...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Key names: side and trans compared as text, then C's rows and columns,
// the number of reflectors and the batch count by log distance, the sizes
// weighing 4 against the batch.
const keyNames = "side:exact trans:exact m:log:4 n:log:4 k:log:4 batch:log"

// Op is ormqr's registration with the selection core (also
// sel.Lookup("ormqr")). A program chooses ormqr's kernel with a pin:
// sel.WithPin(ctx, "ormqr", ...) or BATCHLAS_ORMQR_ROUTE.
var Op = sel.Register(spec)

var spec = sel.OpSpec{
	Name:       opName,
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       keyNames,
	Families:   []*sel.Family{unblocked, blocked, vendor},
	Candidates: candidates,
	// By generality (R4): unblocked serves every shape with the least
	// workspace; vendor next.
	LastResort: []string{"unblocked", "vendor"},
	CanRun:     canRun,
	Twin:       twin,
	Grid: []sel.GridAxis{
		{Key: "side", Quick: []string{"L", "R"}, Full: []string{"L", "R"}},
		{Key: "trans", Quick: []string{"N", "T"}, Full: []string{"N", "T"}},
		{Key: "m", Quick: []string{"1", "8", "32", "128"}, Full: []string{"1", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "n", Quick: []string{"1", "8", "32", "128"}, Full: []string{"1", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "k", Quick: []string{"1", "8", "32", "128"}, Full: []string{"1", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "batch", Quick: []string{"1", "64", "1024"}, Full: []string{"1", "8", "64", "512", "4096"}},
	},
}
