package sel

import (
	"fmt"
	"strings"
)

// widOp is an op with as many candidates as the largest real op (potrf's
// nine), so that its rows may have as many entries as any real table's.
var widOp = unregistered(OpSpec{
	Name:      "wid",
	Revision:  1,
	VendorLib: "lapack",
	Keys:      "uplo:exact n:log:3 batch:log",
	Families:  synFamilies,
	Candidates: map[DType][]Choice{Float64: {tiny, lp8, lp16, famLpanel.With(32), famLpanel.With(64),
		famLpanel.With(128), cta4, blocked, vendor}},
	CanRun: synCanRun,
})

// largestTable builds a wid table of one of the shapes that cost the
// parser most, each as large as a table may be (maxTableBytes, and
// MaxTableRows rows):
//
//   - "rows": the most rows a table may have, as short as rows get;
//   - "entries": rows at the entry cap, of the shortest entries, as many
//     as fit;
//   - "values": the longest words: a header value and an exact key value
//     of several MB each.
//
// Every row ranks blocked first, so a call through the table has a
// choice.
func largestTable(shape string) string {
	var b strings.Builder
	b.Grow(maxTableBytes)
	switch shape {
	case "rows":
		b.WriteString(synHead)
		for i := 0; i < MaxTableRows; i++ {
			row := fmt.Sprintf("uplo=L n=%d batch=1|blocked 1\n", i+1)
			if b.Len()+len(row) > maxTableBytes {
				break
			}
			b.WriteString(row)
		}
	case "entries":
		b.WriteString(synHead)
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
		tail := "|blocked 1"
		for e := range widOp.maxRowEntries() - 1 {
			tail += "|" + letters[e:e+1] + " 1"
		}
		for i := 0; ; i++ {
			row := fmt.Sprintf("uplo=L n=%d batch=1%s\n", i+1, tail)
			if b.Len()+len(row) > maxTableBytes || i == MaxTableRows {
				break
			}
			b.WriteString(row)
		}
	case "values":
		half := (maxTableBytes - 200) / 2
		b.WriteString("# revision=1 host=\"" + strings.Repeat("h", half) + "\"\n")
		b.WriteString("# keys: uplo:exact n:log:3 batch:log\n[float64]\n")
		b.WriteString("uplo=" + strings.Repeat("u", half) + " n=1 batch=1 | blocked 1\n")
	default:
		panic("largestTable: no shape " + shape)
	}
	return b.String()
}
