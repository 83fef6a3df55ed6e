package testmat

import (
	"fmt"
	"strings"
)

// Outcome is what one call did to a batch of Edge classes: each matrix's
// info and the finite/non-finite pattern of each output the op writes
// (Pattern), and, for the classes whose inputs the op promises to leave
// as they were, whether it did (Kept).
type Outcome struct {
	Info     []int
	Patterns [][]string // per matrix, one per output
	Kept     []bool     // per matrix; nil when the op promises nothing
}

// Disagreements lists, one line per matrix, where got differs from the
// reference want: a different info, or for a matrix both factored (info
// 0) a different pattern of an output, or an input it should have kept
// and did not. It returns nil when they agree.
func Disagreements(edges []Edge, want, got Outcome) []string {
	var out []string
	for i, e := range edges {
		switch {
		case got.Info[i] != want.Info[i]:
			out = append(out, fmt.Sprintf("%s: info %d, want %d", e.Name, got.Info[i], want.Info[i]))
		case got.Kept != nil && !got.Kept[i]:
			out = append(out, fmt.Sprintf("%s: an input it must leave as it was changed", e.Name))
		case want.Info[i] == 0:
			for k := range want.Patterns[i] {
				if got.Patterns[i][k] != want.Patterns[i][k] {
					out = append(out, fmt.Sprintf("%s: output %d pattern\n\t got %s\n\twant %s", e.Name, k, got.Patterns[i][k], want.Patterns[i][k]))
				}
			}
		}
	}
	return out
}

// Summary is at most most lines of d, and how many were left out.
func Summary(d []string, most int) string {
	if len(d) <= most {
		return strings.Join(d, "\n")
	}
	return strings.Join(d[:most], "\n") + fmt.Sprintf("\n... and %d more", len(d)-most)
}
