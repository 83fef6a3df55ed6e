package geqrf

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// A plan run over two ranges, the later first and on another worker,
// gives every candidate's Geqrf bits; a count that leaves a lanes group
// partly filled; tall, square and wide.
func TestPlanIsGeqrf(t *testing.T) {
	forEachCandidate(t, planIsGeqrf[float32], planIsGeqrf[float64])
}

func planIsGeqrf[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	for _, s := range [][2]int{{9, 9}, {20, 7}, {5, 12}} {
		m, n, count := s[0], s[1], 21
		src := testmat.Batch[T](testmat.Rand(uint64(m*n)), m, n, count, m+1, (m+1)*n)
		if !runs(c, src) {
			continue
		}
		a, b := testmat.Clone(src), testmat.Clone(src)
		ta, tb := batchlas.NewVectors[T](min(m, n), count), batchlas.NewVectors[T](min(m, n), count)
		if err := Geqrf(ctx, a, ta, nil); err != nil {
			t.Fatal(err)
		}
		p, err := NewPlan(ctx, b, tb)
		if err != nil {
			t.Fatal(err)
		}
		// Two ranges of several groups each, the later first, on the
		// last worker and then on worker 0.
		g := p.Group()
		mid := (count/2 + g - 1) / g * g
		p.Run(p.Workers()-1, mid, count)
		p.Run(0, 0, mid)
		for i, x := range a.Data {
			if y := b.Data[i]; math.Float64bits(float64(x)) != math.Float64bits(float64(y)) {
				t.Fatalf("%dx%d: element %d %v by the plan, %v by Geqrf", m, n, i, y, x)
			}
		}
		for i, x := range ta.Data {
			if y := tb.Data[i]; x != y {
				t.Fatalf("%dx%d: tau %d %v by the plan, %v by Geqrf", m, n, i, y, x)
			}
		}
	}
}

// NewPlan refuses what Geqrf refuses, with the same errors, and binds an
// empty batch to a plan that does nothing.
func TestPlanErrors(t *testing.T) {
	a := batchlas.NewBatch[float64](4, 3, 2)
	short := batchlas.NewVectors[float64](2, 2)
	_, perr := NewPlan(context.Background(), a, short)
	gerr := Geqrf(context.Background(), a, short, nil)
	var ae *batchlas.ArgError
	if !errors.As(perr, &ae) || perr.Error() != gerr.Error() {
		t.Errorf("short tau: plan %v, Geqrf %v", perr, gerr)
	}
	ctx := sel.WithPin(context.Background(), "geqrf", "no-such-kernel")
	tau := batchlas.NewVectors[float64](3, 2)
	if _, err := NewPlan(ctx, a, tau); err == nil || err.Error() != Geqrf(ctx, a, tau, nil).Error() {
		t.Errorf("bad pin: plan %v", err)
	}
	p, err := NewPlan(context.Background(), batchlas.NewBatch[float64](4, 3, 0), batchlas.NewVectors[float64](3, 0))
	if err != nil || p.Group() != 1 {
		t.Fatalf("empty batch: %v", err)
	}
	p.Run(0, 0, 0)
}
