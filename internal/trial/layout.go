package trial

import "fmt"

// Layout is the storage of the matrices a trial builds: tight (LD = rows,
// the default), or every operand with a leading dimension of its own, as a
// view of a larger array has. Table keys carry no leading dimension, so
// only the tuner's bench and stride commands set one: a leading dimension
// that is a multiple of the cache's set period can make a kernel read a
// column panel through a few cache sets, and these time it.
type Layout struct {
	LD  int // at least this leading dimension (0: the operand's rows)
	Pad int // and this many elements more
}

// Tight reports the default layout: every leading dimension the rows.
func (l Layout) Tight() bool { return l.LD == 0 && l.Pad == 0 }

// Of is the leading dimension of an operand of rows rows.
func (l Layout) Of(rows int) int { return max(l.LD, rows, 1) + l.Pad }

func (l Layout) String() string {
	switch {
	case l.Tight():
		return "tight"
	case l.LD == 0:
		return fmt.Sprintf("rows+%d", l.Pad)
	}
	return fmt.Sprintf("%d", l.LD+l.Pad)
}

// OperandLayout is the layout trials build their matrices with. Only
// tools/tune sets it (bench --ld, stride), before it makes a trial and
// never while one is being made; tune run, and a program's first-use
// tuning, leave it tight.
var OperandLayout Layout
