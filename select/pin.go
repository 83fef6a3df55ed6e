package sel

import (
	"context"
	"fmt"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
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
// It beats BATCHLAS_<OP>_ROUTE. The op name is matched without regard to
// case; one that no registered op has is reported once on stderr (the pin
// applies to no call). A bad pin surfaces as a *PinError from the call, not
// here.
func WithPin(ctx context.Context, op, pin string) context.Context {
	return withPin(ctx, op, pin, false)
}

// WithStrictPin is WithPin where the native and vendor fallbacks are errors
// instead of warnings (the tuner uses it: a refused pin is "skipped").
func WithStrictPin(ctx context.Context, op, pin string) context.Context {
	return withPin(ctx, op, pin, true)
}

// withPin pushes a scoped pin. The op name is matched without regard to
// case or surrounding space ("POTRF" pins potrf). A name no registered op
// has is reported once per name with a warning: the pin applies to no call,
// so no call can fail because of it. A bad pin value, on the other hand, is
// an error from every call of the op that reads it.
func withPin(ctx context.Context, op, pin string, strict bool) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	name := strings.ToLower(strings.TrimSpace(op))
	if Lookup(name) == nil {
		fn := "WithPin"
		if strict {
			fn = "WithStrictPin"
		}
		warnOnce("pin-op:"+name, fmt.Sprintf("batchlas: %s: no op named %s is registered in this program (registered: %s); the pin applies to no call",
			fn, quote.Q(name), registeredNames()))
	}
	parent, _ := ctx.Value(pinKey{}).(*pinScope)
	return context.WithValue(ctx, pinKey{}, &pinScope{parent: parent, op: name, pin: strings.ToLower(strings.TrimSpace(pin)), strict: strict})
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
