package sel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
)

// DType names the element type of a call, as spelled in table sections.
type DType string

// The dtypes of the CPU ops. complex64 and complex128 are reserved.
const (
	Float32 DType = "float32"
	Float64 DType = "float64"
)

// KeyKind says how a key field is compared in the nearest-row search.
type KeyKind uint8

const (
	// Exact keys are compared as text and filter rows.
	Exact KeyKind = iota
	// Log keys are positive integers compared by weighted log2 distance.
	Log
)

// KeySpec is one declared key name: `uplo:exact`, `n:log:3`, `batch:log`.
type KeySpec struct {
	Name   string
	Kind   KeyKind
	Weight float64 // log keys only; 1 unless declared
}

func (k KeySpec) String() string {
	if k.Kind == Exact {
		return k.Name + ":exact"
	}
	if k.Weight != 1 {
		return k.Name + ":log:" + strconv.FormatFloat(k.Weight, 'g', -1, 64)
	}
	return k.Name + ":log"
}

// ParseKeys parses a key-name line such as "uplo:exact n:log:3 batch:log".
func ParseKeys(s string) ([]KeySpec, error) {
	words := strings.Fields(s)
	if len(words) == 0 {
		return nil, fmt.Errorf("keys: no key names")
	}
	if len(words) > MaxKeys {
		return nil, fmt.Errorf("keys: %d keys, at most %d", len(words), MaxKeys)
	}
	out := make([]KeySpec, 0, len(words))
	seen := map[string]bool{}
	for _, w := range words {
		parts := strings.Split(w, ":")
		if !validName(parts[0]) {
			return nil, fmt.Errorf("keys: %s: name must match [a-z][a-z0-9_]*", quote.Q(w))
		}
		if seen[parts[0]] {
			return nil, fmt.Errorf("keys: %s appears twice", quote.Q(parts[0]))
		}
		seen[parts[0]] = true
		k := KeySpec{Name: parts[0], Weight: 1}
		switch {
		case len(parts) == 2 && parts[1] == "exact":
			k.Kind = Exact
		case (len(parts) == 2 || len(parts) == 3) && parts[1] == "log":
			k.Kind = Log
			if len(parts) == 3 {
				w, err := strconv.ParseFloat(parts[2], 64)
				if err != nil || !(w > 0) || w > 1e6 {
					return nil, fmt.Errorf("keys: %s: weight must be a positive number", quote.Q(parts[2]))
				}
				k.Weight = w
			}
		default:
			return nil, fmt.Errorf("keys: %s: want name:exact, name:log or name:log:weight", quote.Q(w))
		}
		out = append(out, k)
	}
	return out, nil
}

// FormatKeys writes key specs in the form ParseKeys reads.
func FormatKeys(ks []KeySpec) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, " ")
}

// MaxKeys is the largest number of key fields an op may declare.
const MaxKeys = 8

// KeyVal is one key value of a call: text for exact keys, an integer for
// log keys.
type KeyVal struct {
	S string
	N int64
}

// Str makes an exact key value.
func Str(s string) KeyVal { return KeyVal{S: s} }

// Int makes a log key value.
func Int(n int) KeyVal { return KeyVal{N: int64(n)} }

// Key is the facts of one call that the table lookup reads, in the order of
// the op's key names. It is comparable and allocation-free to build.
type Key struct {
	n uint8
	v [MaxKeys]KeyVal
}

// MakeKey builds a key from values in the op's key-name order.
func MakeKey(vals ...KeyVal) Key {
	var k Key
	if len(vals) > MaxKeys {
		vals = vals[:MaxKeys]
	}
	k.n = uint8(len(vals))
	copy(k.v[:], vals)
	return k
}

// Len is the number of values in k.
func (k Key) Len() int { return int(k.n) }

// At returns the i-th value.
func (k Key) At(i int) KeyVal { return k.v[i] }

// Int returns the i-th value as an integer (log keys).
func (k Key) Int(i int) int { return int(k.v[i].N) }

// Str returns the i-th value as text (exact keys).
func (k Key) Str(i int) string { return k.v[i].S }

// Format writes the key as `name=value ...` using the given key specs.
func (k Key) Format(ks []KeySpec) string {
	var b strings.Builder
	for i := 0; i < int(k.n) && i < len(ks); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ks[i].Name)
		b.WriteByte('=')
		if ks[i].Kind == Exact {
			b.WriteString(k.v[i].S)
		} else {
			b.WriteString(strconv.FormatInt(k.v[i].N, 10))
		}
	}
	return b.String()
}

// CanRunFunc reports whether choice c gives a correct answer for a call with
// key k on device d. It reads only correctness facts: the key's sizes, the
// device's capability flags and limits. Never speed, never identity.
type CanRunFunc func(c Choice, k Key, d *Device) bool

// OpSpec is what an op declares once.
type OpSpec struct {
	// Name is the op's lower-case name: its spelling in table file names,
	// pins, trace lines and coverage rows.
	Name string
	// Revision is bumped whenever a change makes old tables meaningless
	// (new key, changed kernel semantics). Tables of another revision are
	// stale and skipped.
	Revision int
	// VendorLib is the vendor library group the vendor family calls:
	// "none", "blas", "lapack". A device offers it with the flag
	// "vendor:<lib>".
	VendorLib string
	// Keys is the key-name line, e.g. "uplo:exact n:log:3 batch:log".
	Keys string
	// Families lists every family the op declares, vendor included even in
	// builds that do not compile it, so tables stay parseable everywhere.
	Families []*Family
	// Candidates lists every compiled choice once per dtype, in tie-break
	// order: simpler first, native before vendor.
	Candidates map[DType][]Choice
	// LastResort lists family names tried first when no table serves;
	// nil means "blocked", then "vendor".
	LastResort []string
	// CanRun is the correctness-only gate (see CanRunFunc).
	CanRun CanRunFunc
	// Grid is what tools/tune measures: one axis per key name.
	Grid []GridAxis
	// Twin, if set, names the candidate whose code c runs on a call with
	// key k of dtype dt on device d, when that is another candidate's
	// (a blocked kernel whose one block is the whole matrix runs the
	// unblocked code), and "" when c runs code of its own there. Like Grid
	// it is for tools/tune, which times twins once: noise would otherwise
	// rank identical code. A fact about the op's code, never about speed;
	// the tuner's tests hold each twin to bit-identical results.
	Twin TwinFunc
}

// TwinFunc is the type of OpSpec.Twin.
type TwinFunc func(c Choice, dt DType, k Key, d *Device) string

// GridAxis lists the values the tuner measures for one key, as key-value
// text ("L", "64"). Every key has an axis of its own: exact keys list every
// value they take, log keys the coarse values of the tuner's design (the
// tuner adds points between them where the winner changes).
type GridAxis struct {
	Key   string
	Quick []string
	Full  []string
}
