package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

// cell is one call shape of an op: one text value per key name, in the order
// of the op's key names. It is what the tuner measures and what becomes one
// table row.
type cell struct {
	keys []sel.KeySpec
	vals []string
}

func newCell(keys []sel.KeySpec, vals []string) cell {
	return cell{keys: keys, vals: append([]string(nil), vals...)}
}

// index returns the position of a key name, or -1.
func keyIndex(keys []sel.KeySpec, name string) int {
	for i, k := range keys {
		if k.Name == name {
			return i
		}
	}
	return -1
}

// get returns the text value of a key ("" if the op has no such key).
func (c cell) get(name string) string {
	if i := keyIndex(c.keys, name); i >= 0 {
		return c.vals[i]
	}
	return ""
}

// num returns the integer value of a log key (0 if absent or not a number;
// cells are validated when built, so specs may rely on it).
func (c cell) num(name string) int {
	n, _ := strconv.Atoi(c.get(name))
	return n
}

// with returns a copy of c with one key changed.
func (c cell) with(name, val string) cell {
	out := newCell(c.keys, c.vals)
	if i := keyIndex(c.keys, name); i >= 0 {
		out.vals[i] = val
	}
	return out
}

// key is the selection key of the cell.
func (c cell) key() sel.Key {
	vals := make([]sel.KeyVal, len(c.keys))
	for i, k := range c.keys {
		if k.Kind == sel.Exact {
			vals[i] = sel.Str(c.vals[i])
		} else {
			n, _ := strconv.Atoi(c.vals[i])
			vals[i] = sel.Int(n)
		}
	}
	return sel.MakeKey(vals...)
}

// String is the row key text: every key as name=value, in key order.
func (c cell) String() string {
	var b strings.Builder
	for i, k := range c.keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k.Name)
		b.WriteByte('=')
		b.WriteString(c.vals[i])
	}
	return b.String()
}

// less orders cells the way tables list rows: exact keys as text, log keys
// as numbers, in key order.
func (c cell) less(d cell) bool {
	for i, k := range c.keys {
		if c.vals[i] == d.vals[i] {
			continue
		}
		if k.Kind == sel.Exact {
			return c.vals[i] < d.vals[i]
		}
		a, _ := strconv.Atoi(c.vals[i])
		b, _ := strconv.Atoi(d.vals[i])
		return a < b
	}
	return false
}

// checkValue validates one key value: log keys are positive integers.
func checkValue(k sel.KeySpec, v string) error {
	if k.Kind == sel.Exact {
		if v == "" || strings.ContainsAny(v, " \t|#=") {
			return fmt.Errorf("key %s: value %s must be a non-empty word", k.Name, quote.Q(v))
		}
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return fmt.Errorf("key %s: value %s must be a positive integer", k.Name, quote.Q(v))
	}
	return nil
}

// exactValues returns the values an exact key of op takes: the key's axis
// in the op's OpSpec.Grid lists every one (quick and full together, in
// order). It is nil for a log key, or when the op declares no axis for
// the key; any word is then accepted.
func exactValues(op *sel.Op, k sel.KeySpec) []string {
	if k.Kind != sel.Exact {
		return nil
	}
	var out []string
	for _, ax := range op.Spec().Grid {
		if ax.Key != k.Name {
			continue
		}
		for _, v := range append(append([]string(nil), ax.Quick...), ax.Full...) {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// keyForms is op's key list as the commands take it, every key as
// name=value: the values of exact keys (uplo=L|U) and <n> for size keys.
func keyForms(op *sel.Op) string {
	var parts []string
	for _, k := range op.Keys() {
		v := "<n>"
		if k.Kind == sel.Exact {
			v = "<word>"
			if vs := exactValues(op, k); len(vs) > 0 {
				v = strings.Join(vs, "|")
			}
		}
		parts = append(parts, k.Name+"="+v)
	}
	return strings.Join(parts, " ")
}

// parseCellArgs builds a cell from `name=value` arguments (explain, bench).
// Every key must be given once; a call that leaves keys out is told all of
// them at once, with the op's key list and the values of its exact keys.
func parseCellArgs(op *sel.Op, args []string) (cell, error) {
	keys := op.Keys()
	vals := make([]string, len(keys))
	for _, a := range args {
		name, v, ok := strings.Cut(a, "=")
		if !ok {
			return cell{}, fmt.Errorf("%s: argument %s: want name=value (keys: %s)", op.Name(), quote.Q(a), keyForms(op))
		}
		i := keyIndex(keys, name)
		if i < 0 {
			return cell{}, fmt.Errorf("%s has no key %s (keys: %s)", op.Name(), quote.Q(name), keyForms(op))
		}
		if vals[i] != "" {
			return cell{}, fmt.Errorf("%s: key %s given twice", op.Name(), name)
		}
		if err := checkValue(keys[i], v); err != nil {
			return cell{}, fmt.Errorf("%s: %v", op.Name(), err)
		}
		if vs := exactValues(op, keys[i]); len(vs) > 0 && !slices.Contains(vs, v) {
			return cell{}, fmt.Errorf("%s: key %s=%s: want one of %s", op.Name(), name, v, strings.Join(vs, ", "))
		}
		vals[i] = v
	}
	var missing []string
	for i, k := range keys {
		if vals[i] == "" {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		return cell{}, fmt.Errorf("%s: missing key(s) %s (keys: %s)", op.Name(), strings.Join(missing, ", "), keyForms(op))
	}
	return newCell(keys, vals), nil
}
