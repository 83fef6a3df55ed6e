package main

import (
	"bytes"
	"fmt"
	"strings"

	sel "github.com/batchlas-go/batchlas/select"
)

// tableDoc is a table the tuner writes, in the format docs/select.md
// describes. The reading side is sel.ParseTable; the tests round-trip one
// through the other.
type tableDoc struct {
	header   [][]headerWord // one slice per `#` line, before `# keys:`
	keys     []sel.KeySpec
	sections []tableSection // in dtype order
}

type headerWord struct{ k, v string }

type tableSection struct {
	dtype sel.DType
	rows  []tableRow
}

// tableRow is one measured cell: entries ranked by the tie rule.
type tableRow struct {
	cell    cell
	entries []entry
	comment string // e.g. "noisy"
}

// tableFileName is the table's name for an op and a device label:
// <op>.<device>.txt, or <op>.<device>.<identity>.txt for an identity's.
func tableFileName(op, label string) string { return op + "." + label + ".txt" }

// quoteValue double-quotes a header value that is not a single plain word.
func quoteValue(v string) string {
	v = strings.ReplaceAll(v, `"`, "'")
	if v == "" || strings.ContainsAny(v, " \t#|=") {
		return `"` + v + `"`
	}
	return v
}

// bytes renders the table.
func (t *tableDoc) bytes() []byte {
	var b bytes.Buffer
	for _, line := range t.header {
		b.WriteString("#")
		for _, w := range line {
			fmt.Fprintf(&b, " %s=%s", w.k, quoteValue(w.v))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "# keys: %s\n", sel.FormatKeys(t.keys))
	for _, s := range t.sections {
		fmt.Fprintf(&b, "[%s]\n", s.dtype)
		for _, r := range s.rows {
			b.WriteString(r.cell.String())
			for _, e := range r.entries {
				fmt.Fprintf(&b, " | %s %s", e.Spelling, formatMS(e.MS))
			}
			if r.comment != "" {
				fmt.Fprintf(&b, "   # %s", r.comment)
			}
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
