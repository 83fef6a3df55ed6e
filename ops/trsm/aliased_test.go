package trsm_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestAliasedLeadingDimension: with A's columns 8 KiB apart (a view of an
// array whose leading dimension is a power of two) the vector kernel of
// side Left copies E to a padded buffer (copiesE) instead of reading it in
// place. The copy must change no bit: every Left variant gives the same X
// as with A's columns 8 KiB + 64 bytes apart, which reads E in place, and
// both agree with the oracle.
func TestAliasedLeadingDimension(t *testing.T) {
	testAliased[float32](t)
	testAliased[float64](t)
}

func testAliased[T batchlas.Float](t *testing.T) {
	var z T
	es := int(unsafe.Sizeof(z))
	aliased := 8192 / es
	ctx := sel.WithPin(t.Context(), "trsm", "vector")
	for _, v := range allVariants() {
		if v.side != batchlas.Left {
			continue
		}
		for _, tn := range []int{9, 70} {
			name := fmt.Sprintf("%T %v t=%d", z, v, tn)
			r := testmat.Rand(uint64(tn))
			src := testmat.Batch[T](r, tn, tn, 2, 0, 0)
			testmat.Triangular(r, src, v.uplo)
			b := testmat.Batch[T](r, tn, 13, 2, 0, 0)
			var xs []batchlas.Batch[T]
			for _, ld := range []int{aliased, aliased + 64/es} {
				a := testmat.WithLD(r, src, ld)
				x := solve(t, ctx, v, 1.5, a, b)
				for i := range 2 {
					forward(t, name, v, 1.5, a, b, x, i)
				}
				xs = append(xs, x)
			}
			if !sameBits(xs[0].Data, xs[1].Data) {
				t.Errorf("%s: X differs between A's leading dimension %d (E copied) and %d (read in place)", name, aliased, aliased+64/es)
			}
		}
	}
}
