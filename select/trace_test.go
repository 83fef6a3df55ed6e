package sel

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas/trace"
)

// The startup report of the tests without switches set, and the notice
// its loading of every op's tables gives (stl's v4 table is stale).
const (
	switchesNone = `batchlas: switches: BATCHLAS_DEVICE="" BATCHLAS_IDENTITY="" BATCHLAS_TUNED_DIR="" BATCHLAS_COVERAGE_OUT="" pins: none`
	staleSTL     = "batchlas: skipping builtin stl table stl.x86-64-v4.txt: written for stl revision 1, the op is at revision 2 (run tools/tune to re-tune this device)"
)

const initV4 = `batchlas: device x86-64-v4 "Test x86-64-v4" cores=2 flags=avx2,fma,fp64 vendor=lapack tables: aux=none big=none gpo=none idn=builtin lro=none onl=none ord=builtin stl=borrowed:x86-64-v2 syn=builtin`

func TestTraceLines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		op     *Op
		ctx    context.Context
		dt     DType
		key    Key
		d      *Device
		refuse []string
		want   string
	}{
		// An exact match for the call's key: the line names no row.
		{"next", synOp, bg, Float64, synKey("L", 64, 1024), v4, nil,
			"syn float64 uplo=L n=64 batch=1024 -> lpanel:panel=8  0.302 ms, next vendor 0.49 ms  [x86-64-v4]"},
		{"tied", synOp, bg, Float64, synKey("L", 512, 16), v4, nil,
			"syn float64 uplo=L n=512 batch=16 -> blocked  14.10 ms, tied with vendor 13.74 ms (3%)  [x86-64-v4]"},
		{"alone", synOp, bg, Float64, synKey("L", 128, 1024), v4, []string{"lpanel:panel=16"},
			"syn float64 uplo=L n=128 batch=1024 -> blocked  1.10 ms  [x86-64-v4]"},
		{"pinned", synOp, WithPin(bg, "syn", "tiny"), Float64, synKey("L", 8, 1024), v4, nil,
			"syn float64 uplo=L n=8 batch=1024 -> tiny  [pinned]"},
		{"pinned native", synOp, WithPin(bg, "syn", "native"), Float64, synKey("U", 64, 1024), v4, nil,
			"syn float64 uplo=U n=64 batch=1024 -> lpanel:panel=8  [pinned native]"},
		{"pinned vendor", synOp, WithPin(bg, "syn", "vendor"), Float64, synKey("L", 8, 1024), v4, nil,
			"syn float64 uplo=L n=8 batch=1024 -> vendor  [pinned vendor]"},
		{"last resort", lroOp, bg, Float64, synKey("L", 64, 1024), v4, nil,
			"lro float64 uplo=L n=64 batch=1024 -> blocked  [last resort]"},
		{"borrowed", synOp, bg, Float64, synKey("L", 64, 1024), v3, nil,
			"syn float64 uplo=L n=64 batch=1024 -> blocked  2.00 ms, next lpanel:panel=8 2.50 ms  [x86-64-v2 table, borrowed for x86-64-v3]"},
		{"fallthrough", synOp, bg, Float64, synKey("L", 64, 1024), v4nov, []string{"lpanel:panel=8"},
			"syn float64 uplo=L n=64 batch=1024 -> blocked  2.00 ms  [x86-64-v2 table, fallthrough from x86-64-v4]"},
		{"untimed", synOp, bg, Float64, synKey("L", 20, 8192), v4, nil,
			"syn float64 uplo=L n=20 batch=8192 -> tiny  untimed  [x86-64-v4]"},
		{"float32", synOp, bg, Float32, synKey("L", 8, 1024), v4, nil,
			"syn float32 uplo=L n=8 batch=1024 -> tiny  0.0101 ms, next vendor 0.18 ms  [x86-64-v4]"},
		// Not an exact match: the row that decided (its log keys, and the
		// exact keys that differ) and its distance follow the chosen time.
		{"nearest row", synOp, bg, Float64, synKey("L", 60, 1000), v4, nil,
			"syn float64 uplo=L n=60 batch=1000 -> lpanel:panel=8  0.302 ms at row n=64 batch=1024 (d=0.3), next vendor 0.49 ms  [x86-64-v4]"},
		{"nearest row, tied", synOp, bg, Float64, synKey("L", 400, 16), v4, nil,
			"syn float64 uplo=L n=400 batch=16 -> blocked  14.10 ms at row n=512 batch=16 (d=1.1), tied with vendor 13.74 ms (3%)  [x86-64-v4]"},
		{"nearest row, untimed", synOp, bg, Float64, synKey("L", 20, 4096), v4, nil,
			"syn float64 uplo=L n=20 batch=4096 -> tiny  untimed at row n=20 batch=8192 (d=1.0)  [x86-64-v4]"},
		{"dropped exact key", synOp, bg, Float32, synKey("U", 8, 1024), v4, nil,
			"syn float32 uplo=U n=8 batch=1024 -> tiny  0.0101 ms at row uplo=L n=8 batch=1024 (d=0.0), next vendor 0.18 ms  [x86-64-v4]"},
		{"dropped exact key, borrowed", synOp, bg, Float64, synKey("U", 64, 2048), v3, nil,
			"syn float64 uplo=U n=64 batch=2048 -> blocked  2.00 ms at row uplo=L n=64 batch=1024 (d=1.0), next lpanel:panel=8 2.50 ms  [x86-64-v2 table, borrowed for x86-64-v3]"},
		{"clamped size", synOp, bg, Float64, synKey("L", 0, 1024), v4, []string{"tiny"},
			"syn float64 uplo=L n=0 batch=1024 -> lpanel:panel=8  0.015 ms at row n=8 batch=1024 (d=9.0), next vendor 0.201 ms  [x86-64-v4]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, tr := fresh(t)
			setenv(t, "BATCHLAS_SELECT_TRACE", "1")
			if tc.refuse != nil {
				refuse(t, tc.refuse...)
			}
			_, err := run(tc.ctx, tc.op, tc.dt, tc.key, tc.d)
			require.NoError(t, err)
			assert.Equal(t, []string{tc.want}, tr.decisions())
			w, err := tc.op.Explain(tc.ctx, tc.dt, tc.key, tc.d)
			require.NoError(t, err)
			assert.Equal(t, tc.want, w.TraceLine, "Explain shows the same line")
		})
	}
}

func TestTraceOverrideLine(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	override(t, map[string]string{"syn.x86-64-v4.txt": synHead + "uplo=L n=64 batch=1024 | blocked 1.00 | lpanel:8 1.5\n"})
	_, err := run(bg, synOp, Float64, synKey("L", 64, 1024), v4)
	require.NoError(t, err)
	assert.Equal(t, "syn float64 uplo=L n=64 batch=1024 -> blocked  1.00 ms, next lpanel:panel=8 1.50 ms  [override x86-64-v4]", tr.decisions()[0])
	// Borrowed from an override.
	_, err = run(bg, synOp, Float64, synKey("L", 64, 1024), dev("x86-64-v5"))
	require.NoError(t, err)
	assert.Equal(t, "syn float64 uplo=L n=64 batch=1024 -> blocked  1.00 ms, next lpanel:panel=8 1.50 ms  [override x86-64-v4 table, borrowed for x86-64-v5]", tr.decisions()[1])
}

func TestTraceInitLineOnce(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	for i := 0; i < 3; i++ {
		_, err := run(bg, synOp, Float64, synKey("L", 8, 1024), v4)
		require.NoError(t, err)
	}
	lines := tr.lines()
	require.Len(t, lines, 6, "the startup report, one notice, then one line per decision")
	assert.Equal(t, initV4, lines[0])
	assert.Equal(t, switchesNone, lines[1])
	assert.Equal(t, staleSTL, lines[2], "notices follow the report")
	assert.Len(t, tr.decisions(), 3)
	forget()
	_, err := run(bg, synOp, Float64, synKey("L", 8, 1024), dev("x86-64-v3", "fp64"))
	require.NoError(t, err)
	assert.Equal(t, `batchlas: device x86-64-v3 "Test x86-64-v3" cores=2 flags=fp64 vendor=none tables: aux=none big=none gpo=none idn=borrowed:x86-64-v2 lro=none onl=none ord=borrowed:x86-64-v2 stl=borrowed:x86-64-v2 syn=float32/borrowed:x86-64-v4,float64/borrowed:x86-64-v2`, tr.lines()[6])
}

func TestTraceNesting(t *testing.T) {
	_, tr := fresh(t)
	setenv(t, "BATCHLAS_SELECT_TRACE", "1")
	auxKey := MakeKey(Int(32), Int(32))
	err := synOp.Run(bg, Float64, synKey("L", 64, 1024), v4, func(ctx context.Context, c Choice) error {
		assert.Equal(t, 1, trace.Depth(ctx))
		return auxOp.Run(ctx, Float64, auxKey, v4, func(ctx context.Context, c Choice) error {
			if err := auxOp.Run(ctx, Float64, auxKey, v4, func(context.Context, Choice) error { return nil }); err != nil {
				return err
			}
			return auxOp.Run(ctx, Float64, auxKey, v4, func(context.Context, Choice) error { return nil })
		})
	})
	require.NoError(t, err)
	_, err = run(bg, auxOp, Float64, auxKey, v4)
	require.NoError(t, err)
	assert.Equal(t, []string{
		initV4,
		switchesNone,
		staleSTL,
		"syn float64 uplo=L n=64 batch=1024 -> lpanel:panel=8  0.302 ms, next vendor 0.49 ms  [x86-64-v4]",
		"  aux float64 m=32 n=32 -> packed:mc=64:kc=256  [last resort]",
		"    aux float64 m=32 n=32 -> packed:mc=64:kc=256  [last resort]",
		"    aux float64 m=32 n=32 -> packed:mc=64:kc=256  [last resort]",
		"aux float64 m=32 n=32 -> packed:mc=64:kc=256  [last resort]",
	}, tr.lines())
}

func TestTraceSilentWhenOff(t *testing.T) {
	_, tr := fresh(t)
	ctx := WithPin(bg, "aux", "auto")
	err := synOp.Run(ctx, Float64, synKey("L", 64, 1024), v4, func(got context.Context, c Choice) error {
		assert.True(t, got == ctx, "no nesting context when tracing is off")
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, tr.String())
}
