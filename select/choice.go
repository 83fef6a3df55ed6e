package sel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
)

// MaxFields is the largest number of integer fields a family may declare.
const MaxFields = 3

// Family is one kernel driver: a name and zero or more integer fields.
// Families are declared once per op as package-level pointers; a Choice
// refers to its family by pointer, which keeps Choice comparable and cheap.
type Family struct {
	Name   string
	Fields []string
	// Vendor marks a family that calls a vendor library (origin "vendor"
	// in coverage, excluded by the "native" pin).
	Vendor bool
}

// Choice is one compiled variant: a family plus one value per field. The zero
// Choice is "no choice". Choices are comparable and usable as map keys.
type Choice struct {
	fam  *Family
	vals [MaxFields]int32
}

// With returns the choice of f with the given field values, in the order of
// f.Fields. A wrong number of values or a negative value is a programming
// error in an op's declaration and panics at package initialisation.
func (f *Family) With(vals ...int) Choice {
	if len(vals) != len(f.Fields) || len(f.Fields) > MaxFields {
		panic(fmt.Sprintf("sel: family %s has %d fields, got %d values", f.Name, len(f.Fields), len(vals)))
	}
	c := Choice{fam: f}
	for i, v := range vals {
		if v < 0 || v > 1<<30 {
			panic(fmt.Sprintf("sel: family %s field %s: value %d out of range", f.Name, f.Fields[i], v))
		}
		c.vals[i] = int32(v)
	}
	return c
}

// IsZero reports whether c is the zero Choice.
func (c Choice) IsZero() bool { return c.fam == nil }

// Family returns the family of c (nil for the zero Choice).
func (c Choice) Family() *Family { return c.fam }

// Is reports whether c belongs to family f.
func (c Choice) Is(f *Family) bool { return c.fam == f }

// Vendor reports whether c calls a vendor library.
func (c Choice) Vendor() bool { return c.fam != nil && c.fam.Vendor }

// Value returns the i-th field value of c.
func (c Choice) Value(i int) int { return int(c.vals[i]) }

// Field returns the value of the named field, or -1 if the family has no
// such field.
func (c Choice) Field(name string) int {
	if c.fam == nil {
		return -1
	}
	for i, f := range c.fam.Fields {
		if f == name {
			return int(c.vals[i])
		}
	}
	return -1
}

// String returns the one spelling of c: family[:field=value]... .
func (c Choice) String() string {
	if c.fam == nil {
		return ""
	}
	if len(c.fam.Fields) == 0 {
		return c.fam.Name
	}
	var b strings.Builder
	b.WriteString(c.fam.Name)
	for i, f := range c.fam.Fields {
		b.WriteByte(':')
		b.WriteString(f)
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(int(c.vals[i])))
	}
	return b.String()
}

// SpellingError says why a spelling does not name a choice.
type SpellingError struct {
	Spelling string
	Reason   string
}

func (e *SpellingError) Error() string {
	return quote.Message(fmt.Sprintf("spelling %s: %s", quote.Q(e.Spelling), e.Reason))
}

func validName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '_') {
			return false
		}
	}
	return true
}

// ParseChoice parses a spelling against the given families. It accepts the
// long form (lpanel:panel=8) and the positional form (lpanel:8), but not a
// mix of the two, and every field must be given exactly once.
func ParseChoice(s string, families []*Family) (Choice, error) {
	bad := func(format string, args ...any) (Choice, error) {
		return Choice{}, &SpellingError{Spelling: s, Reason: fmt.Sprintf(format, args...)}
	}
	if s == "" {
		return bad("empty spelling")
	}
	parts := strings.Split(s, ":")
	name := parts[0]
	if !validName(name) {
		return bad("family name must match [a-z][a-z0-9_]*")
	}
	var fam *Family
	for _, f := range families {
		if f.Name == name {
			fam = f
			break
		}
	}
	if fam == nil {
		names := make([]string, len(families))
		for i, f := range families {
			names[i] = f.Name
		}
		return bad("unknown family %s (known: %s)", quote.Q(name), strings.Join(names, ", "))
	}
	args := parts[1:]
	if len(args) != len(fam.Fields) {
		if len(args) < len(fam.Fields) {
			return bad("family %s needs a value for field %s", name, fam.Fields[len(args)])
		}
		if len(fam.Fields) == 0 {
			return bad("family %s has no fields", name)
		}
		return bad("family %s has %d field(s) (%s), got %d values", name, len(fam.Fields), strings.Join(fam.Fields, ", "), len(args))
	}
	c := Choice{fam: fam}
	seen := [MaxFields]bool{}
	named := -1 // unknown yet; 1 = long form, 0 = positional
	for pos, a := range args {
		idx := pos
		val := a
		if k, v, ok := strings.Cut(a, "="); ok {
			if named == 0 {
				return bad("mixes positional and named fields")
			}
			named = 1
			idx = -1
			for i, f := range fam.Fields {
				if f == k {
					idx = i
				}
			}
			if idx < 0 {
				return bad("family %s has no field %s (fields: %s)", name, quote.Q(k), strings.Join(fam.Fields, ", "))
			}
			val = v
		} else {
			if named == 1 {
				return bad("mixes positional and named fields")
			}
			named = 0
		}
		if seen[idx] {
			return bad("field %s given twice", fam.Fields[idx])
		}
		seen[idx] = true
		if val == "" {
			return bad("field %s is missing its value", fam.Fields[idx])
		}
		if val[0] == '-' {
			return bad("field %s must be a non-negative integer, got %s", fam.Fields[idx], quote.Cut(val))
		}
		n, err := strconv.ParseUint(val, 10, 31)
		if err != nil || n > 1<<30 {
			return bad("field %s must be a non-negative integer, got %s", fam.Fields[idx], quote.Q(val))
		}
		c.vals[idx] = int32(n)
	}
	return c, nil
}
