//go:build amd64 && !purego

package lanes

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The unrolled AVX2 kernels stop at the orders their Go wrappers send
// them: gen_avx2.go's cholSmallMax and luSmallMax are this package's.
// An order the assembly lacks would fall through to its not-reached
// exit.
func TestAVX2SmallOrdersMatchTheGenerator(t *testing.T) {
	src, err := os.ReadFile("lanes_avx2_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		label string
		max   int
	}{{"cholSmallAVX2F64_lower%d:", cholSmallMax}, {"luSmallAVX2F32_n%d:", luSmallMax}} {
		if !strings.Contains(string(src), fmt.Sprintf(c.label, c.max)) || strings.Contains(string(src), fmt.Sprintf(c.label, c.max+1)) {
			t.Errorf("the assembly's largest %q is not %d", c.label, c.max)
		}
	}
}
