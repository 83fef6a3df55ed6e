package pivots

import (
	"errors"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// TestCheck: pivots in [j, n) pass; one below j or at n or beyond is an
// *ArgError naming ipiv, the matrix and the position; a broadcast is
// named as such.
func TestCheck(t *testing.T) {
	v := batchlas.NewVectors[int32](3, 2)
	copy(v.Vector(0), []int32{2, 1, 2})
	copy(v.Vector(1), []int32{0, 2, 2})
	if err := Check("getri", v, 3, 2); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		i, j int
		p    int32
		want string
	}{{1, 1, 0, "ipiv.At(1, 1) = 0"}, {0, 2, 3, "ipiv.At(0, 2) = 3"}, {1, 0, -1, "ipiv.At(1, 0) = -1"}} {
		w := batchlas.NewVectors[int32](3, 2)
		copy(w.Data, v.Data)
		w.Vector(bad.i)[bad.j] = bad.p
		err := Check("getri", w, 3, 2)
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) || ae.Arg != "ipiv" || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("pivot %d at (%d, %d): %v, want an ArgError on ipiv with %q", bad.p, bad.i, bad.j, err, bad.want)
		}
	}
	b := batchlas.BroadcastVectors(batchlas.NewVectors[int32](3, 1), 5)
	b.Data[0] = 5
	if err := Check("getri", b, 3, 5); err == nil || !strings.Contains(err.Error(), "broadcast") {
		t.Errorf("broadcast: %v", err)
	}
	if got := Of(b, 4, 3); &got[0] != &b.Data[0] {
		t.Error("Of on a broadcast is not vector 0")
	}
}
