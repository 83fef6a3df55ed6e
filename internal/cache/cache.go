package cache

import sel "github.com/batchlas-go/batchlas/select"

// Line is the cache line size of every x86-64 and arm64 core the library
// runs on, in bytes.
const Line = 64

// Level is one cache level of one core: Size bytes, Ways-way set
// associative.
type Level struct {
	Size, Ways int
}

// The geometry assumed where a device does not report its own: the
// smallest L1D and L2 of the x86-64-v3/v4 cores the library has met
// (32 KiB 8-way, 512 KiB 8-way), so that an unknown core is treated as one
// with few sets rather than many.
var (
	defaultL1D = Level{Size: 32 << 10, Ways: 8}
	defaultL2  = Level{Size: 512 << 10, Ways: 8}
)

// L1D is device d's L1 data cache (the default where d reports none).
func L1D(d *sel.Device) Level {
	if d == nil {
		return defaultL1D
	}
	return level(d.L1D, d.L1DWays, defaultL1D)
}

// L2 is device d's L2 cache per core (the default where d reports none).
func L2(d *sel.Device) Level {
	if d == nil {
		return defaultL2
	}
	return level(d.L2, d.L2Ways, defaultL2)
}

func level(size, ways int, def Level) Level {
	if size <= 0 {
		return def
	}
	if ways <= 0 || size/ways < Line {
		ways = def.Ways
	}
	return Level{Size: size, Ways: ways}
}

// period is the distance in bytes between addresses of the same set (at
// least one line).
func (l Level) period() int { return max(Line, l.Size/max(l.Ways, 1)) }

// sets is the number of sets.
func (l Level) sets() int { return l.period() / Line }

// Conflicts reports whether ncols columns of colBytes bytes each, ldBytes
// apart, would miss in this cache because of where they lie rather than
// how much they are: together they take at most half of it, but the sets
// their lines map to hold less than twice what they need (the other half
// is left to the kernel's other operands). A tight copy of the columns
// then stays in cache where the columns in place do not.
func (l Level) Conflicts(ldBytes, colBytes, ncols int) bool {
	if ldBytes <= 0 || colBytes <= 0 || ncols <= 1 {
		return false
	}
	lines := (colBytes+Line-1)/Line + 1 // a column not aligned to a line touches one more
	need := ncols * lines
	if need*Line > l.Size/2 {
		return false // too big for this level whatever its layout
	}
	p := l.period()
	starts := p / gcd(ldBytes%p, p) // distinct positions of a column's start within a period
	touched := min(l.sets(), starts*lines)
	return need*2 > touched*l.Ways
}

// gcd is the greatest common divisor, with gcd(0, b) = b.
func gcd(a, b int) int {
	for a != 0 {
		a, b = b%a, a
	}
	return b
}

// PaddedLD is the leading dimension, in elements of es bytes, for a copy
// of a matrix with rows rows that a kernel reads a few lines of many
// columns at a time: whole lines, and an odd number of them once a column
// is more than 8 lines, so that consecutive columns start at every line
// position of any set period (at most 1/9 more storage). A power-of-two
// column (1024 float64: 8 KiB) would start every column in the same sets.
func PaddedLD(rows, es int) int {
	lines := (rows*es + Line - 1) / Line
	if lines > 8 && lines%2 == 0 {
		lines++
	}
	return max(lines*Line/es, rows)
}
