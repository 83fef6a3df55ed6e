package potrf

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/internal/testmat"
)

// TestLowerUpdate checks lowerUpdate (column pairs and the single-column
// remainder) against the defining sum, including source ranges the drivers
// never produce (odd counts, k0 > 0), and that nothing outside the updated
// triangle moves.
func TestLowerUpdate(t *testing.T) {
	r := testmat.Rand(11)
	const ld, n = 23, 20
	for _, tc := range []struct{ j0, jb, rowEnd, k0, k1 int }{
		{8, 4, 20, 0, 8}, {8, 4, 12, 0, 8}, {9, 7, 20, 2, 9}, {5, 5, 10, 0, 5},
		{12, 8, 20, 1, 12}, {4, 4, 8, 3, 4}, {6, 11, 17, 0, 6}, {7, 0, 20, 0, 7},
	} {
		t.Run(fmt.Sprintf("%+v", tc), func(t *testing.T) {
			a := make([]float64, ld*n)
			for i := range a {
				a[i] = r.Float64() - 0.5
			}
			want := append([]float64(nil), a...)
			for j := tc.j0; j < tc.j0+tc.jb; j++ {
				for i := j; i < tc.rowEnd; i++ {
					for k := tc.k0; k < tc.k1; k++ {
						want[j*ld+i] -= a[k*ld+i] * a[k*ld+j]
					}
				}
			}
			lowerUpdate(a, ld, tc.j0, tc.jb, tc.rowEnd, tc.k0, tc.k1)
			for i := range a {
				require.InDelta(t, want[i], a[i], 1e-12, "element %d (row %d, col %d)", i, i%ld, i/ld)
			}
		})
	}
}
