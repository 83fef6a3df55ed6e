package main

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// A synthetic table where the answer is known by hand (weight 3 on n):
//
//	n=1: nearest other row n=2 (tiny)  -> tiny here 1/1     = 1
//	n=2: n=1 and n=4 equidistant, the smaller wins (tiny) -> 1
//	n=4: n=2 and n=8 equidistant -> n=2 (tiny) -> tiny here 2/1 = 2
//	n=8: nearest n=4 (unblocked) -> 1
const regretTable = `# op=potrf device=x86-64-v4 revision=3
# keys: uplo:exact n:log:4 batch:log
[float64]
uplo=L n=1 batch=1 | tiny 1 | unblocked 2
uplo=L n=2 batch=1 | tiny 1 | unblocked 1.5
uplo=L n=4 batch=1 | unblocked 1 | tiny 2
uplo=L n=8 batch=1 | unblocked 1 | tiny 1.2
`

func TestLeaveOneOutRegret(t *testing.T) {
	tab, err := sel.ParseTable("potrf.x86-64-v4.txt", []byte(regretTable), potrf.Op)
	require.NoError(t, err)
	rep := leaveOneOut(tab, sel.Float64, potrf.Op, batchlas.Host())
	require.Equal(t, 4, rep.scored)
	var chosen []string
	var slow []float64
	for _, r := range rep.rows {
		chosen = append(chosen, r.chosen)
		slow = append(slow, r.slowdown)
	}
	assert.Equal(t, []string{"tiny", "tiny", "tiny", "unblocked"}, chosen)
	assert.Equal(t, []float64{1, 1, 2, 1}, slow)
	assert.InDelta(t, math.Pow(2, 0.25), rep.geomean, 1e-12)
	assert.Equal(t, 2.0, rep.worst.slowdown)
	assert.Equal(t, "uplo=L n=4 batch=1", rep.worst.row.Key.Format(tab.Keys))

	// Fixed tiny: 1, 1, 2, 1.2; fixed unblocked: 2, 1.5, 1, 1.
	assert.Equal(t, "tiny", rep.fixed)
	assert.InDelta(t, math.Pow(2.4, 0.25), rep.fixedGeomean, 1e-12)
	assert.InDelta(t, math.Pow(1.2, 0.25), rep.fixedSpeedup, 1e-12)
	// At its own rows the table picks the fastest: tiny is 2x slower at n=4
	// and 1.2x at n=8.
	assert.InDelta(t, math.Pow(2.4, 0.25), rep.inSampleSpeedup, 1e-12)
}

func TestLeaveOneOutSkipsUntimedAndUnscorable(t *testing.T) {
	untimed := `# op=potrf device=x86-64-v4 revision=3
# keys: uplo:exact n:log:4 batch:log
[float64]
uplo=L n=1 batch=1 | tiny - | unblocked -
uplo=L n=8 batch=1 | unblocked - | tiny -
`
	tab, err := sel.ParseTable("potrf.x86-64-v4.txt", []byte(untimed), potrf.Op)
	require.NoError(t, err)
	assert.Equal(t, 0, leaveOneOut(tab, sel.Float64, potrf.Op, batchlas.Host()).scored)

	// The neighbour's choice is not timed at n=8: that row is not scored.
	partial := `# op=potrf device=x86-64-v4 revision=3
# keys: uplo:exact n:log:4 batch:log
[float64]
uplo=L n=1 batch=1 | tiny 1 | unblocked 2
uplo=L n=8 batch=1 | unblocked 1
`
	tab, err = sel.ParseTable("potrf.x86-64-v4.txt", []byte(partial), potrf.Op)
	require.NoError(t, err)
	rep := leaveOneOut(tab, sel.Float64, potrf.Op, batchlas.Host())
	assert.Equal(t, 1, rep.scored)
	assert.True(t, math.IsNaN(rep.rows[1].slowdown))
	assert.Equal(t, 2.0, rep.rows[0].slowdown)
}
