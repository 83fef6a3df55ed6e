package allops_test

import (
	"os"
	"testing"

	_ "github.com/batchlas-go/batchlas/internal/allops"
	sel "github.com/batchlas-go/batchlas/select"
)

// Every directory of ops/ is an op this package links, and it links
// nothing else: a new op is added here once, and its importers (the
// tuner, the table checks) see it.
func TestLinksEveryOp(t *testing.T) {
	ents, err := os.ReadDir("../../ops")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	for _, e := range ents {
		if e.IsDir() {
			dirs[e.Name()] = true
			if sel.Lookup(e.Name()) == nil {
				t.Errorf("ops/%s is not linked: add it to internal/allops", e.Name())
			}
		}
	}
	for _, op := range sel.Ops() {
		if !dirs[op.Name()] {
			t.Errorf("op %s is registered but has no ops/%s directory", op.Name(), op.Name())
		}
	}
}
