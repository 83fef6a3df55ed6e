package pf

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
	"runtime/metrics"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/linalg"
)

func faults() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(0, &ru)
	return ru.Minflt
}

func held() int64 {
	ms := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(ms)
	return int64(ms[0].Value.Uint64()) - int64(ms[1].Value.Uint64())
}

func TestPF(t *testing.T) {
	n, count := 128, 256
	a := batchlas.Batch[float64]{Data: make([]float64, n*n*count), Rows: n, Cols: n, LD: n, Stride: n * n, Count: count}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range a.Data {
		a.Data[i] = r.NormFloat64()
	}
	ctx := context.Background()
	for i := 0; i < 8; i++ {
		f0, h0 := faults(), held()
		t0 := time.Now()
		_, err := linalg.Inv(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v faults %d held %d KiB", time.Since(t0), faults()-f0, (held()-h0)>>10)
	}
}
