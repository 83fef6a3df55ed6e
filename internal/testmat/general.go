package testmat

import (
	"math/rand/v2"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

// General overwrites every matrix of the square batch a with a
// well-conditioned general matrix for LU with partial pivoting, each
// column's largest entry in a random row (matgen.General). Padding is left
// as it was.
func General[T batchlas.Float](r *rand.Rand, a batchlas.Batch[T]) { matgen.General(r, a) }
