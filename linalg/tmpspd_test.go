package linalg

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

func BenchmarkTmpSPD(b *testing.B) {
	for _, s := range [][2]int{{32, 4096}, {128, 256}} {
		n, count := s[0], s[1]
		a := batchlas.NewBatch[float64](n, n, count)
		matgen.SPD(matgen.Rand(1), a)
		b.Run(fmt.Sprintf("invspd/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				InvSPD(context.Background(), a)
			}
		})
		b.Run(fmt.Sprintf("inv/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				Inv(context.Background(), a)
			}
		})
	}
}
