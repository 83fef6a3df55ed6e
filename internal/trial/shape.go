package trial

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

// Shape is a call shape of an op read by key name: a selection key
// together with the op's key specs, which say which name each value of the
// key has. A trial reads its sizes with Num and its variant (uplo, trans,
// ...) with Get.
type Shape struct {
	keys []sel.KeySpec
	k    sel.Key
}

// ShapeOf names the values of k by op's keys.
func ShapeOf(op *sel.Op, k sel.Key) Shape { return Shape{keys: op.Keys(), k: k} }

// index returns the position of a key name in the key, or -1.
func (s Shape) index(name string) int {
	for i, ks := range s.keys {
		if ks.Name == name {
			if i < s.k.Len() {
				return i
			}
			break
		}
	}
	return -1
}

// Get returns the text of the named key's value: an exact key's word, a
// log key's number in decimal; "" when the op has no such key.
func (s Shape) Get(name string) string {
	i := s.index(name)
	switch {
	case i < 0:
		return ""
	case s.keys[i].Kind == sel.Exact:
		return s.k.Str(i)
	}
	return strconv.Itoa(s.k.Int(i))
}

// Num returns the integer value of the named log key; 0 when the op has
// no such key or its value is not a number.
func (s Shape) Num(name string) int {
	i := s.index(name)
	switch {
	case i < 0:
		return 0
	case s.keys[i].Kind == sel.Exact:
		n, _ := strconv.Atoi(s.k.Str(i))
		return n
	}
	return s.k.Int(i)
}

// String is the shape as a table row writes its key: name=value for every
// key, in key order.
func (s Shape) String() string { return s.k.Format(s.keys) }

// Letter reads the value s of the named key as the one-letter enum it
// spells: the batchlas enums (Uplo, Side, Transpose, Diag) are bytes whose
// values are their key letters ('L', 'N', ...), so one parser serves them
// all. allowed lists the enum's values.
func Letter[E ~byte](key, s string, allowed ...E) (E, error) {
	if len(s) == 1 {
		for _, e := range allowed {
			if E(s[0]) == e {
				return e, nil
			}
		}
	}
	letters := make([]string, len(allowed))
	for i, e := range allowed {
		letters[i] = string(rune(e))
	}
	return 0, fmt.Errorf("%s %s: want %s", key, quote.Q(s), strings.Join(letters, " or "))
}
