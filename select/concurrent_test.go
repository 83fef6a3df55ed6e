package sel

import (
	"context"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/trace"
)

// Many goroutines decide (Run, Pick, Explain, Tables) while another reloads
// the settings with tracing, a pin and coverage flipping. Run it under -race.
func TestConcurrentDecisionsDuringReload(t *testing.T) {
	fresh(t)
	old := trace.SetOutput(io.Discard)
	t.Cleanup(func() { trace.SetOutput(old) })
	path := withCoverage(t)
	t.Cleanup(func() {
		os.Unsetenv("BATCHLAS_SELECT_TRACE")
		os.Unsetenv("BATCHLAS_SYN_ROUTE")
	})
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			os.Setenv("BATCHLAS_SELECT_TRACE", []string{"", "1"}[i%2])
			os.Setenv("BATCHLAS_SYN_ROUTE", []string{"", "blocked", "native"}[i%3])
			os.Setenv("BATCHLAS_COVERAGE_OUT", []string{path, ""}[i%2])
			Reload()
			_ = Flush()
		}
	}()
	ok := []Choice{tiny, lp8, lp16, blocked, vendor}
	var calls atomic.Int64
	var work sync.WaitGroup
	for g := 0; g < 8; g++ {
		work.Add(1)
		go func(g int) {
			defer work.Done()
			for i := 0; i < 300; i++ {
				k := synKey([]string{"L", "U"}[i%2], 4<<(i%8), 1<<(g%11))
				d := []*Device{v4, v3, v4nov, arm}[(g+i)%4]
				err := synOp.Run(context.Background(), Float64, k, d, func(ctx context.Context, c Choice) error {
					assert.Contains(t, ok, c)
					return auxOp.Run(ctx, Float64, MakeKey(Int(i+1), Int(g+1)), d, func(context.Context, Choice) error { return nil })
				})
				require.NoError(t, err)
				c, err := synOp.Pick(WithPin(bg, "syn", "lpanel:8"), Float64, synKey("L", 64, 64), d)
				require.NoError(t, err)
				require.Equal(t, lp8, c)
				if i%50 == 0 {
					_, err = synOp.Explain(bg, Float64, k, d)
					require.NoError(t, err)
					_, err = synOp.Tables(Float32, d)
					require.NoError(t, err)
				}
				calls.Add(1)
			}
		}(g)
	}
	work.Wait()
	stop.Store(true)
	wg.Wait()
	assert.Equal(t, int64(8*300), calls.Load())
}
