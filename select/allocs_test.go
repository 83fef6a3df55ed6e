package sel

import (
	"context"
	"testing"
)

// A steady-state decision (a memo hit, trace and coverage off) allocates
// nothing, through Run and Pick, unpinned and under a scoped pin: it is on
// the path of every op call, which must allocate nothing with its
// workspace supplied. The launch closure captures like an op's entry point
// does, so a Run that let it escape would fail here.
func TestSteadyDecisionDoesNotAllocate(t *testing.T) {
	fresh(t)
	k := synKey("L", 64, 1024)
	var ran int
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{
		{"auto", context.Background()},
		{"scoped pin", WithPin(context.Background(), "syn", "blocked")},
	} {
		// The closure is made per call and captures the call's locals, as
		// an op's entry point does.
		call := func() {
			n := 64
			if err := synOp.Run(c.ctx, Float64, k, v4, func(ctx context.Context, ch Choice) error {
				ran += n
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		call()
		if n := testing.AllocsPerRun(50, call); n != 0 {
			t.Errorf("%s: Run allocates %v times per call, want 0", c.name, n)
		}
		if n := testing.AllocsPerRun(50, func() {
			if _, err := synOp.Pick(c.ctx, Float64, k, v4); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: Pick allocates %v times per call, want 0", c.name, n)
		}
	}
	if ran == 0 {
		t.Fatal("the launch never ran")
	}
}
