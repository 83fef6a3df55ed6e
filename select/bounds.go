package sel

import (
	"slices"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
)

// Parsing bounds. A table file is at most maxTableBytes (16 MiB); these
// bound what parsing it may cost, so that its time is linear in its size
// and its memory bounded whatever its shape (docs/select.md, "What a table
// costs").

// MaxTableRows caps the rows of one table, all sections together
// (tools/tune keeps the tables it writes within it). The
// largest shipped table has under 10,000 rows, and a full-grid table of
// the largest op (gemm: 4,320 grid points per dtype, two dtypes) under
// 9,000 before the tuner's refinement adds points; 65,536 leaves room for
// several times that while bounding the rows' memory (about 550 bytes
// each with the duplicate-key index) to about 36 MB.
const MaxTableRows = 1 << 16

// entriesPerCandidate is how many entries a row may have per candidate of
// its op: a tuned row lists each candidate once, so 2 leaves room for a
// hand-written row that also ranks spellings of another build, while
// bounding the duplicate check's work per row and, with MaxTableRows, the
// memory of a table's entries (56 bytes each).
const entriesPerCandidate = 2

// maxRowEntriesNoOp caps the entries of a row parsed without an op
// (ParseTable with a nil op), which has no candidate count to scale by.
const maxRowEntriesNoOp = 64

// maxCachedSpellings bounds the parser's cache of parsed spellings: a
// table names its op's dozen candidates over and over, and a file naming
// millions of distinct words must not grow the cache with each.
const maxCachedSpellings = 1024

// maxRowEntries is the most entries a row of o's tables may have:
// entriesPerCandidate per candidate of its largest dtype, counting one
// more for a vendor family this build may not compile.
func (o *Op) maxRowEntries() int {
	most := 0
	for _, cands := range o.spec.Candidates {
		most = max(most, len(cands))
	}
	return entriesPerCandidate * (most + 1)
}

// opName names the parser's op for messages.
func (p *tableParser) opName() string {
	if p.op == nil {
		return "a table read without its op"
	}
	return p.op.Name()
}

// exactSets are the values each exact key of o may take, by key index:
// the values its grid lists for the key (an exact key's grid axis lists
// every value it takes, spec.go), nil where the grid has no axis for it.
func exactSets(o *Op) [MaxKeys]map[string]bool {
	var out [MaxKeys]map[string]bool
	for i, k := range o.keys {
		if k.Kind != Exact {
			continue
		}
		for _, ax := range o.spec.Grid {
			if ax.Key != k.Name {
				continue
			}
			set := map[string]bool{}
			for _, v := range slices.Concat(ax.Quick, ax.Full) {
				set[v] = true
			}
			if len(set) > 0 {
				out[i] = set
			}
		}
	}
	return out
}

// setWords writes a value set for a message: "L, U".
func setWords(set map[string]bool) string {
	words := make([]string, 0, len(set))
	for v := range set {
		words = append(words, quote.Cut(v))
	}
	slices.Sort(words)
	return strings.Join(words, ", ")
}
