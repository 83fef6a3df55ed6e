package syev

import (
	"context"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestProfTridiag(t *testing.T) {
	p := newProblem[float64](testmat.Rand(42), WithVectors, batchlas.Lower, 128, 64, kindRandom, false)
	a, w := p.clone()
	ctx := pin(context.Background(), tridiagFamily.With())
	for i := 0; i < 20; i++ {
		copy(a.Data, p.full.Data)
		if err := Syev(ctx, WithVectors, batchlas.Lower, a, w, nil); err != nil {
			t.Fatal(err)
		}
	}
}
