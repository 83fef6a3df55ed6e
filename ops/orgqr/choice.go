package orgqr

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of orgqr, in candidate order (simpler first, native
// before vendor).
var (
	// unblocked forms each Q on one worker one reflector at a time, last
	// first (LAPACK's dorg2r: internal/qr.Org2r).
	unblocked = &sel.Family{Name: "unblocked"}
	// lanes forms groups of 8 (float64) or 16 (float32) Q interleaved one
	// per vector lane, dorg2r's loop on whole rows of lanes
	// (internal/lanesqr), for m up to lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// blocked forms each Q on one worker over panels of nb reflectors,
	// last first: the panel's triangular factor T, its block reflector
	// I - V T V^T applied to the columns to the right, then the panel's
	// own columns by dorg2r (LAPACK's dorgqr: internal/qr.OrgqrBlocked).
	// A matrix with k <= nb is unblocked's computation.
	blocked = &sel.Family{Name: "blocked", Fields: []string{"nb"}}
	// vendor calls gonum's Dorgqr per matrix on a row-major copy
	// (vendor.go); float64 only, absent from a novendor build.
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

var nativeCandidates = []sel.Choice{unblocked.With(), lanesFamily.With(), blocked.With(8), blocked.With(16), blocked.With(32)}

// candidates per dtype: gonum's LAPACK is float64 only.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append([]sel.Choice(nil), nativeCandidates...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Key names: the rows and columns of A (k = n in the tuner's trials) and
// the batch count by log distance, the sizes weighing 4 against the batch
// as in getrf.
const keyNames = "m:log:4 n:log:4 batch:log"

// Op is orgqr's registration with the selection core (also
// sel.Lookup("orgqr")). A program chooses orgqr's kernel with a pin:
// sel.WithPin(ctx, "orgqr", ...) or BATCHLAS_ORGQR_ROUTE.
var Op = sel.Register(spec)

var spec = sel.OpSpec{
	Name:       opName,
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       keyNames,
	Families:   []*sel.Family{unblocked, lanesFamily, blocked, vendor},
	Candidates: candidates,
	// By generality (R4): unblocked serves every shape with the least
	// workspace; vendor next.
	LastResort: []string{"unblocked", "vendor"},
	CanRun:     canRun,
	// A blocked kernel whose nb covers every reflector runs unblocked's
	// computation: the tuner times them once there.
	Twin: twin,
	// The quick grid has geqrf's sizes and batches: lanes fills a group
	// of 8 or 16 matrices whatever the batch, so below a group it loses
	// to unblocked, and without rows at n=2 and batch 4 the nearest row
	// for m=45 n=2 batch=2 was a lanes win at batch 16 (2.2x slower there
	// than unblocked, float32, Intel Xeon guest).
	Grid: []sel.GridAxis{
		{Key: "m", Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}, Full: []string{"1", "2", "4", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}},
		{Key: "n", Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}, Full: []string{"1", "2", "4", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}},
		{Key: "batch", Quick: []string{"1", "4", "16", "64", "256", "1024"}, Full: []string{"1", "8", "64", "512", "4096"}},
	},
}
