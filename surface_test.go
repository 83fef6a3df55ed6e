package batchlas_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// userSurface is the root package's exported API: what a user of the
// library calls. Methods and fields are Type.Name. The plumbing the ops
// share (errors built for them, operand checks, the context's device and
// worker cap, the dtype of T, the embedded tables) is internal/opkit's: a
// name the root package exports is the user's, so a new one belongs here
// only if a program outside this module is meant to call it.
var userSurface = []string{
	// Matrices and vectors.
	"Float", "Elem",
	"Batch", "Batch.Data", "Batch.Rows", "Batch.Cols", "Batch.LD", "Batch.Stride", "Batch.Count",
	"NewBatch", "NewIdentity", "WrapBatch", "WrapStrided", "Broadcast",
	"Batch.At", "Batch.Set", "Batch.Matrix", "Batch.Sub", "Batch.Clone", "Batch.Empty", "Batch.IsBroadcast",
	"Batch.Check", "Batch.CopyMatrixIn", "Batch.CopyMatrixOut", "Batch.SetZero", "Batch.SetIdentity",
	"Vectors", "Vectors.Data", "Vectors.Len", "Vectors.Stride", "Vectors.Count",
	"NewVectors", "WrapVectors", "WrapStridedVectors", "BroadcastVectors", "VectorsAsBatch",
	"Vectors.At", "Vectors.Set", "Vectors.Vector", "Vectors.Sub", "Vectors.Clone", "Vectors.Empty", "Vectors.IsBroadcast",
	"Vectors.Check",
	"Overlap",
	// The ops' flags.
	"Uplo", "Lower", "Upper", "Uplo.String", "Uplo.Check",
	"Side", "Left", "Right", "Side.String", "Side.Check",
	"Transpose", "NoTrans", "Trans", "Transpose.String", "Transpose.Check",
	"Diag", "NonUnit", "Unit", "Diag.String", "Diag.Check",
	"Norm", "OneNorm", "InfNorm", "Norm.String", "Norm.Check",
	// Errors.
	"ArgError", "ArgError.Op", "ArgError.Arg", "ArgError.Msg", "ArgError.Error",
	"NumericalError", "NumericalError.Op", "NumericalError.Index", "NumericalError.Info", "NumericalError.Error",
	"InterruptedError", "InterruptedError.Op", "InterruptedError.Count", "InterruptedError.Completed",
	"InterruptedError.Touched", "InterruptedError.Failed", "InterruptedError.Err",
	"InterruptedError.Error", "InterruptedError.Unwrap",
	// Where and how calls run.
	"Host", "WithDevice", "WithParallelism", "WithConditionCheck", "SetWarnOutput",
}

// TestExportedSurface parses the package's non-test files, whatever their
// build constraints, and fails on every exported name, method or field
// that userSurface does not list: plumbing exported here would be part of
// every user's API (go doc shows it beside Batch), so it goes to
// internal/opkit, where the ops, tools and tests of this module reach it.
func TestExportedSurface(t *testing.T) {
	exported := exportedNames(t, ".")
	for _, name := range exported {
		if !slices.Contains(userSurface, name) {
			t.Errorf("the root package exports %s, which is not in the user's API (userSurface in surface_test.go): "+
				"op plumbing goes to internal/opkit; add it to userSurface only if a user calls it", name)
		}
	}
	for _, name := range userSurface {
		if !slices.Contains(exported, name) {
			t.Errorf("userSurface lists %s, which the root package does not export: remove it from the list", name)
		}
	}
}

// exportedNames lists the exported identifiers the Go files of dir that
// are not tests declare: top-level names, and Type.Name for the exported
// methods and fields of exported types.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, dir+"/"+n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					names = append(names, d.Name.Name)
				} else if recv := recvName(d.Recv.List[0].Type); ast.IsExported(recv) {
					names = append(names, recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						names = append(names, s.Name.Name)
						names = append(names, members(s.Name.Name, s.Type)...)
					case *ast.ValueSpec:
						for _, id := range s.Names {
							if id.IsExported() {
								names = append(names, id.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// recvName is the type name of a method's receiver: T, *T, T[E] or *T[E].
func recvName(x ast.Expr) string {
	for {
		switch e := x.(type) {
		case *ast.StarExpr:
			x = e.X
		case *ast.IndexExpr:
			x = e.X
		case *ast.IndexListExpr:
			x = e.X
		case *ast.ParenExpr:
			x = e.X
		case *ast.Ident:
			return e.Name
		default:
			return ""
		}
	}
}

// members lists typ's exported fields and interface methods as
// owner.Name; an embedded field counts under its type's name.
func members(owner string, typ ast.Expr) []string {
	var list *ast.FieldList
	switch tt := typ.(type) {
	case *ast.StructType:
		list = tt.Fields
	case *ast.InterfaceType:
		list = tt.Methods
	default:
		return nil
	}
	var out []string
	for _, f := range list.List {
		if len(f.Names) == 0 {
			if n := recvName(f.Type); ast.IsExported(n) {
				out = append(out, owner+"."+n)
			}
			continue
		}
		for _, id := range f.Names {
			if id.IsExported() {
				out = append(out, owner+"."+id.Name)
			}
		}
	}
	return out
}
