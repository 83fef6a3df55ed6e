package allops_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

// TestRouteDocListsEveryOp: the table of environment variables in
// docs/select.md lists the ops BATCHLAS_<OP>_ROUTE pins, by hand; the op
// registry is the one source of truth, so the list must name every
// registered op (this package links all of them) and nothing else. It once left SYEV out.
func TestRouteDocListsEveryOp(t *testing.T) {
	doc, err := os.ReadFile("../../docs/select.md")
	require.NoError(t, err)
	var row string
	for l := range strings.Lines(string(doc)) {
		if strings.HasPrefix(l, "| `BATCHLAS_<OP>_ROUTE=") {
			row = l
		}
	}
	require.NotEmpty(t, row, "docs/select.md has no `BATCHLAS_<OP>_ROUTE=<v>` row in its table of variables")
	list := regexp.MustCompile("pin op `<op>` \\(([^;]*); any case\\)").FindStringSubmatch(row)
	require.NotNil(t, list, "the row does not list its ops as (`GEMM`, ...; any case): %s", row)
	var documented []string
	for _, m := range regexp.MustCompile("`([A-Z0-9_]+)`").FindAllStringSubmatch(list[1], -1) {
		documented = append(documented, strings.ToLower(m[1]))
	}
	var registered []string
	for _, o := range sel.Ops() {
		registered = append(registered, o.Name())
	}
	slices.Sort(documented)
	slices.Sort(registered)
	require.Equal(t, registered, documented, "docs/select.md's BATCHLAS_<OP>_ROUTE row must list the registered ops")
}
