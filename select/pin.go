package sel

import (
	"context"
	"strings"
)

// pinScope is one scoped pin; scopes chain through the context so the
// innermost pin for an op wins and leaving a scope restores the outer one.
type pinScope struct {
	parent *pinScope
	op     string
	pin    string // trimmed and lower-cased once here, not per call
	strict bool
}

type pinKey struct{}

// WithPin returns a context in which calls of op use the given pin
// (a spelling, "auto", "native" or "vendor"). Pins nest: the inner one wins.
// It beats BATCHLAS_<OP>_ROUTE. A bad pin surfaces as a *PinError from the
// call, not here.
func WithPin(ctx context.Context, op, pin string) context.Context {
	return withPin(ctx, op, pin, false)
}

// WithStrictPin is WithPin where the native and vendor fallbacks are errors
// instead of warnings (the tuner uses it: a refused pin is "skipped").
func WithStrictPin(ctx context.Context, op, pin string) context.Context {
	return withPin(ctx, op, pin, true)
}

func withPin(ctx context.Context, op, pin string, strict bool) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	parent, _ := ctx.Value(pinKey{}).(*pinScope)
	return context.WithValue(ctx, pinKey{}, &pinScope{parent: parent, op: op, pin: strings.ToLower(strings.TrimSpace(pin)), strict: strict})
}

// scopedPin returns the innermost scoped pin for op.
func scopedPin(ctx context.Context, op string) (s *pinScope) {
	if ctx == nil {
		return nil
	}
	s, _ = ctx.Value(pinKey{}).(*pinScope)
	for ; s != nil; s = s.parent {
		if s.op == op {
			return s
		}
	}
	return nil
}
