package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"testing"

	sel "github.com/batchlas-go/batchlas/select"
)

// Every candidate a trace can print is named in its op's package doc
// (ops/<op>/doc.go), so that `go doc ./ops/<op>` never lists fewer kernels
// than the op has: the list comes from Op.Candidates, the one source.
func TestOpPackageDocsNameEveryCandidate(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Skip(err)
	}
	for _, op := range sel.Ops() {
		if op.Measurement() == nil {
			continue // not a library op (the tuner links only those)
		}
		path := filepath.Join(root, "ops", op.Name(), "doc.go")
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc == nil {
			t.Errorf("%s has no package comment", path)
			continue
		}
		doc := f.Doc.Text()
		seen := map[string]bool{}
		for _, dt := range op.DTypes() {
			for _, c := range op.Candidates(dt) {
				name := c.Family().Name
				if seen[name] {
					continue
				}
				seen[name] = true
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(doc) {
					t.Errorf("%s: the package comment does not name candidate %s (a trace can print it); describe it there", path, name)
				}
			}
		}
	}
}
