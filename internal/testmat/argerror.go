package testmat

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// RequireArgError fails t unless err is a *batchlas.ArgError from op on
// argument arg whose message contains want (CheckArgError).
func RequireArgError(t testing.TB, err error, op, arg, want string) {
	t.Helper()
	if bad := CheckArgError(err, op, arg, want); bad != nil {
		t.Fatal(bad)
	}
}

// CheckArgError says how err differs from a *batchlas.ArgError from op on
// argument arg whose message contains want, or returns nil.
func CheckArgError(err error, op, arg, want string) error {
	var ae *batchlas.ArgError
	switch {
	case !errors.As(err, &ae):
		return fmt.Errorf("got %T (%v), want *batchlas.ArgError", err, err)
	case ae.Op != op:
		return fmt.Errorf("Op %q, want %q; error: %v", ae.Op, op, err)
	case ae.Arg != arg:
		return fmt.Errorf("Arg %q, want %q; error: %v", ae.Arg, arg, err)
	case !strings.Contains(err.Error(), want):
		return fmt.Errorf("error %q does not contain %q", err.Error(), want)
	}
	return nil
}
