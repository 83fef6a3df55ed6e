package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The kernels hash sees code, not comments or spacing: a comment fix or a
// gofmt run leaves it alone, a changed constant or instruction does not.
// (Line breaks where Go reads them as semicolons still count.)
func TestCodeOfIgnoresCommentsAndLayoutOnly(t *testing.T) {
	goA := "package p\n\n// f is one.\nfunc f() int { return 1 }\n"
	goB := "package p\n/* a\n block */\nfunc  f()  int {\treturn 1 } // one\n"
	goC := "package p\n\nfunc f() int { return 2 }\n"
	assert.Equal(t, string(codeOf("x.go", []byte(goA))), string(codeOf("x.go", []byte(goB))))
	assert.NotEqual(t, string(codeOf("x.go", []byte(goA))), string(codeOf("x.go", []byte(goC))))

	asmA := "// f returns.\nTEXT ·f(SB), NOSPLIT, $0-0\n\tRET\n"
	asmB := "TEXT ·f(SB), NOSPLIT, $0-0\n\n   RET   // done\n"
	asmC := "TEXT ·f(SB), NOSPLIT, $0-0\n\tVZEROUPPER\n\tRET\n"
	assert.Equal(t, string(codeOf("x.s", []byte(asmA))), string(codeOf("x.s", []byte(asmB))))
	assert.NotEqual(t, string(codeOf("x.s", []byte(asmA))), string(codeOf("x.s", []byte(asmC))))
}
