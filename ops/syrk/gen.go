//go:build ignore

// gen writes tri_amd64.s, the AVX-512 kernel of syrk's tile family, which
// computes the whole uplo triangle of one C := alpha*X*X^T (+ beta*C) in
// one call, and tri_avx2_amd64.s, the same kernel for CPUs with AVX2 and
// FMA but no AVX-512 (x86-64-v3). Run it with `go generate` in this
// directory; TestAssemblyIsGenerated fails when a file differs from what
// this program writes (`go run gen.go -o F` writes the file named as F's
// base name to F instead).
//
// The triangle is taken a block of 8 columns at a time and each block's
// rows (from the diagonal down for Lower, from row 0 to the diagonal for
// Upper) a chunk of up to three 64-byte row vectors at a time: 24 (float64)
// or 48 (float32) rows by 8 columns of accumulators, Z0 .. Z23. The vector
// of a chunk that holds the diagonal block is stored under a mask per
// column, so that nothing outside the triangle is read or written. The
// columns past the matrix's last in a narrow last block are computed from
// a repeated column and not stored. The AVX2 kernel walks the same way
// (walk, with its isa's numbers) with blocks of 4 columns and 32-byte row
// vectors: 12 or 24 rows by 4 columns, Y0 .. Y11, its masks VMASKMOV
// masks from a table (chunkAVX2); each entry gets the AVX-512 kernel's
// operations in its order, so the two agree bit for bit.
//
// The call also walks one or two byte ranges of cache hints (the next
// matrix's operands, which the caller names), two lines per step of the
// inner loop: spread over the work, they do not queue behind one another
// as a burst would.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// dtype is what differs between the float64 and float32 functions.
type dtype struct {
	name  string // function suffix
	sfx   string // instruction suffix: PD or PS
	bcast string // broadcast of one element
	mov   string // unaligned vector move
	shift int    // log2 of the element's bytes
}

var dtypes = []dtype{
	{"F64", "PD", "VBROADCASTSD", "VMOVUPD", 3},
	{"F32", "PS", "VBROADCASTSS", "VMOVUPS", 2},
}

// isa is what differs between the two kernels' walks over blocks and
// chunks: the function's name and labels' prefix, the vector's bytes,
// the block's columns, the frame, how a chunk's last vector's lanes are
// kept (K1 or the local tl) and the chunk code.
type isa struct {
	file   string
	fn     func(d dtype) string // the function's name
	label  func(d dtype) string // the labels' prefix
	vbytes int                  // one row vector's bytes
	cols   int                  // a block's columns
	frame  int                  // locals' bytes
	sig    func(d dtype) string // the Go declaration's arguments
	args   int                  // the arguments' bytes
	start  func(p func(string, ...any), d dtype)
	// last keeps a short chunk's last vector's lanes (AX) and jumps to
	// its nvec (CX) code; full keeps a whole one's.
	last, full func(p func(string, ...any), d dtype)
	chunk      func(p func(string, ...any), d dtype, nvec int)
}

var isas = []isa{
	{
		file:   "tri_amd64.s",
		fn:     func(d dtype) string { return "tri" + d.name },
		label:  func(d dtype) string { return d.name },
		vbytes: 64, cols: 8, frame: 80, args: 80,
		sig: func(dtype) string {
			return "(k int, x *T, ldx int, c *T, ldc int, n int, ab *[2]T, hasBeta int, upper int, pf *[4]uintptr)"
		},
		start: func(p func(string, ...any), d dtype) {
			p("\tMOVQ ab+48(FP), AX")
			p("\t%s 0(AX), Z29", d.bcast)
			p("\t%s %d(AX), Z30", d.bcast, 1<<d.shift)
		},
		last: func(p func(string, ...any), d dtype) {
			p("\tMOVQ CX, BX")
			p("\tMOVQ AX, CX")
			p("\tMOVQ $1, AX")
			p("\tSHLQ CX, AX")
			p("\tDECQ AX")
			p("\tKMOVQ AX, K1")
			p("\tCMPQ BX, $2")
		},
		full: func(p func(string, ...any), d dtype) {
			p("\tMOVQ $%d, AX", (1<<(64>>d.shift))-1)
			p("\tKMOVQ AX, K1")
		},
		chunk: chunk,
	},
	{
		file:   "tri_avx2_amd64.s",
		fn:     func(d dtype) string { return "triAVX2" + d.name },
		label:  func(d dtype) string { return "triAVX2" + d.name },
		vbytes: 32, cols: 4, frame: 88, args: 88,
		sig: func(d dtype) string {
			l := 32 >> d.shift
			return fmt.Sprintf("(k int, x *T, ldx int, c *T, ldc int, n int, ab *[2][%d]T, hasBeta int, upper int, pf *[4]uintptr, masks *[%d][%d]T)", l, l+1, l)
		},
		start: func(func(string, ...any), dtype) {},
		last: func(p func(string, ...any), d dtype) {
			p("\tMOVQ AX, tl-88(SP)")
			p("\tCMPQ CX, $2")
		},
		full: func(p func(string, ...any), d dtype) {
			p("\tMOVQ $%d, tl-88(SP)", 32>>d.shift)
		},
		chunk: chunkAVX2,
	},
}

// The byte offset registers of the broadcast columns 1..7 (column 0 is at
// offset 0).
var offReg = []string{"", "DX", "SI", "DI", "R9", "R10", "R11", "R12"}

func main() {
	files := []string{"tri_amd64.s", "tri_avx2_amd64.s"}
	outs := files
	if len(os.Args) == 3 && os.Args[1] == "-o" {
		outs = []string{os.Args[2]}
		files = []string{filepath.Base(os.Args[2])}
	}
	for i, f := range files {
		var b bytes.Buffer
		p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
		p("// Code generated by gen.go; DO NOT EDIT.")
		p("")
		p("//go:build amd64 && !purego")
		p("")
		p("#include \"textflag.h\"")
		found := false
		for _, is := range isas {
			if is.file != f {
				continue
			}
			found = true
			for _, d := range dtypes {
				walk(p, d, is)
			}
		}
		if !found {
			fmt.Fprintf(os.Stderr, "gen: no file %s (tri_amd64.s or tri_avx2_amd64.s)\n", f)
			os.Exit(2)
		}
		if err := os.WriteFile(outs[i], b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// acc is the accumulator of column c, row vector v, in a chunk of nvec row
// vectors.
func acc(c, v, nvec int) string { return fmt.Sprintf("Z%d", c*nvec+v) }

// Locals (bytes below the frame's top) and what they hold, in bytes where
// they are positions: jb the block's first column times the element size,
// ib the chunk's first row, re the end of the block's rows, ncm1 the
// block's columns less one, pfe the end of the current hint range, pfs2
// and pfe2 the second range, lf 1 when the chunk holds a Lower diagonal
// block (its first vector), ul 1 when it holds an Upper one (its last),
// dbase the diagonal's lane in the last vector at column 0 (Upper); the
// AVX2 kernel's tl the last vector's lanes.

// walk writes one kernel: the blocks of is.cols columns, each block's
// chunks of up to three row vectors, and the hints' ranges.
func walk(p func(string, ...any), d dtype, is isa) {
	fn, l := is.fn(d), is.label(d)
	es := 1 << d.shift
	vshift := map[int]int{64: 6, 32: 5}[is.vbytes]
	p("")
	p("// func %s%s", fn, is.sig(d))
	p("TEXT ·%s(SB), NOSPLIT, $%d-%d", fn, is.frame, is.args)
	is.start(p, d)
	p("\tMOVQ pf+72(FP), AX")
	p("\tMOVQ 0(AX), R13")
	p("\tMOVQ 8(AX), BX")
	p("\tMOVQ BX, pfe-40(SP)")
	p("\tMOVQ 16(AX), BX")
	p("\tMOVQ BX, pfs2-48(SP)")
	p("\tMOVQ 24(AX), BX")
	p("\tMOVQ BX, pfe2-56(SP)")
	p("\tMOVQ $0, jb-8(SP)")

	// A block: its columns and its rows.
	p("%s_block:", l)
	p("\tMOVQ n+40(FP), AX")
	p("\tSHLQ $%d, AX", d.shift)
	p("\tSUBQ jb-8(SP), AX")
	p("\tSHRQ $%d, AX", d.shift) // columns left
	p("\tCMPQ AX, $%d", is.cols)
	p("\tJLE %s_nc", l)
	p("\tMOVQ $%d, AX", is.cols)
	p("%s_nc:", l)
	p("\tDECQ AX")
	p("\tMOVQ AX, ncm1-32(SP)")
	p("\tCMPQ upper+64(FP), $0")
	p("\tJNE %s_rowsUpper", l)
	p("\tMOVQ jb-8(SP), AX") // Lower: rows j0 .. n-1
	p("\tMOVQ AX, ib-16(SP)")
	p("\tMOVQ n+40(FP), AX")
	p("\tSHLQ $%d, AX", d.shift)
	p("\tMOVQ AX, re-24(SP)")
	p("\tJMP %s_chunk", l)
	p("%s_rowsUpper:", l) // Upper: rows 0 .. j0+nc-1
	p("\tMOVQ $0, ib-16(SP)")
	p("\tMOVQ ncm1-32(SP), AX")
	p("\tINCQ AX")
	p("\tSHLQ $%d, AX", d.shift)
	p("\tADDQ jb-8(SP), AX")
	p("\tMOVQ AX, re-24(SP)")

	// A chunk: its vectors, the last one's lanes and whether it holds
	// the diagonal block.
	p("%s_chunk:", l)
	p("\tMOVQ re-24(SP), AX")
	p("\tSUBQ ib-16(SP), AX") // bytes of rows left
	p("\tMOVQ $0, lf-64(SP)")
	p("\tMOVQ $0, ul-72(SP)")
	p("\tCMPQ upper+64(FP), $0")
	p("\tJNE %s_ulFlag", l)
	p("\tMOVQ ib-16(SP), BX")
	p("\tCMPQ BX, jb-8(SP)")
	p("\tJNE %s_flags", l)
	p("\tMOVQ $1, lf-64(SP)")
	p("\tJMP %s_flags", l)
	p("%s_ulFlag:", l)
	p("\tCMPQ AX, $%d", 3*is.vbytes)
	p("\tJGT %s_flags", l)
	p("\tMOVQ $1, ul-72(SP)")
	p("%s_flags:", l)
	p("\tCMPQ AX, $%d", 3*is.vbytes)
	p("\tJGE %s_full3", l)
	// Fewer than three vectors: nvec = ceil(AX/vbytes), the last one's
	// lanes (AX - vbytes*(nvec-1)) / es.
	p("\tMOVQ AX, CX")
	p("\tADDQ $%d, CX", is.vbytes-1)
	p("\tSHRQ $%d, CX", vshift) // nvec
	p("\tMOVQ CX, BX")
	p("\tDECQ BX")
	p("\tSHLQ $%d, BX", vshift)
	p("\tSUBQ BX, AX")
	p("\tSHRQ $%d, AX", d.shift) // lanes of the last vector
	is.last(p, d)
	p("\tJLT %s_v1", l)
	p("\tJEQ %s_v2", l)
	p("\tJMP %s_v3", l)
	p("%s_full3:", l)
	is.full(p, d)
	for _, nvec := range []int{3, 2, 1} {
		is.chunk(p, d, nvec)
	}

	// The next chunk, block, or the end.
	p("%s_next:", l)
	// The second hint range starts when the first is spent.
	p("\tCMPQ R13, pfe-40(SP)")
	p("\tJB %s_pfKeep", l)
	p("\tMOVQ pfs2-48(SP), R13")
	p("\tMOVQ pfe2-56(SP), AX")
	p("\tMOVQ AX, pfe-40(SP)")
	p("\tMOVQ AX, pfs2-48(SP)")
	p("%s_pfKeep:", l)
	p("\tMOVQ ib-16(SP), AX")
	p("\tCMPQ AX, re-24(SP)")
	p("\tJLT %s_chunk", l)
	p("\tMOVQ jb-8(SP), AX")
	p("\tADDQ $%d, AX", is.cols*es)
	p("\tMOVQ AX, jb-8(SP)")
	p("\tMOVQ n+40(FP), BX")
	p("\tSHLQ $%d, BX", d.shift)
	p("\tCMPQ AX, BX")
	p("\tJLT %s_block", l)
	p("\tVZEROUPPER")
	p("\tRET")
}

// columnOffsets puts the byte offsets of a chunk's columns 1 .. cols-1
// in offReg's registers; broadcast columns past the block's last repeat
// its last column (ncm1, the block's columns less one).
func columnOffsets(p func(string, ...any), d dtype, cols int) {
	p("\tMOVQ ncm1-32(SP), AX")
	for c := 1; c < cols; c++ {
		r := offReg[c]
		p("\tMOVQ $%d, %s", c, r)
		p("\tCMPQ %s, AX", r)
		p("\tCMOVQGT AX, %s", r)
		p("\tSHLQ $%d, %s", d.shift, r)
	}
}

// chunk is the code of a chunk of nvec row vectors by 8 columns.
func chunk(p func(string, ...any), d dtype, nvec int) {
	l := fmt.Sprintf("%s_v%d", d.name, nvec)
	es := 1 << d.shift
	lanes := 64 / es
	p("%s:", l)
	columnOffsets(p, d, 8)
	p("\tMOVQ x+8(FP), AX")
	p("\tMOVQ AX, BX")
	p("\tADDQ ib-16(SP), AX")
	p("\tADDQ jb-8(SP), BX")
	p("\tMOVQ k+0(FP), CX")
	p("\tMOVQ ldx+16(FP), R8")
	for c := 0; c < 8; c++ {
		for v := 0; v < nvec; v++ {
			r := acc(c, v, nvec)
			p("\tVPXORQ %s, %s, %s", r, r, r)
		}
	}
	p("%s_loop:", l)
	for v := 0; v < nvec; v++ {
		if v == nvec-1 {
			p("\t%s.Z %d(AX), K1, Z%d", d.mov, 64*v, 24+v)
		} else {
			p("\t%s %d(AX), Z%d", d.mov, 64*v, 24+v)
		}
	}
	for c := 0; c < 8; c++ {
		bz := 27 + c%2
		if c == 0 {
			p("\t%s (BX), Z%d", d.bcast, bz)
		} else {
			p("\t%s (BX)(%s*1), Z%d", d.bcast, offReg[c], bz)
		}
		for v := 0; v < nvec; v++ {
			p("\tVFMADD231%s Z%d, Z%d, %s", d.sfx, 24+v, bz, acc(c, v, nvec))
		}
		if c == 3 || c == 7 {
			// A hint of the next matrix's range, twice a step.
			h := fmt.Sprintf("%s_h%d", l, c)
			p("\tCMPQ R13, pfe-40(SP)")
			p("\tJAE %s", h)
			p("\tPREFETCHT0 (R13)")
			p("\tADDQ $64, R13")
			p("%s:", h)
		}
	}
	p("\tADDQ R8, AX")
	p("\tADDQ R8, BX")
	p("\tDECQ CX")
	p("\tJNE %s_loop", l)

	// The store. DI is column j0's first row of the chunk in C, R8 ldc,
	// R12 the last vector's lanes, R9 the columns less one.
	p("\tMOVQ jb-8(SP), DI")
	p("\tSHRQ $%d, DI", d.shift)
	p("\tIMULQ ldc+32(FP), DI")
	p("\tADDQ c+24(FP), DI")
	p("\tADDQ ib-16(SP), DI")
	p("\tMOVQ ldc+32(FP), R8")
	p("\tKMOVQ K1, R12")
	p("\tMOVQ ncm1-32(SP), R9")
	// dbase: the lane of the last vector that is row j0.
	p("\tMOVQ jb-8(SP), AX")
	p("\tSUBQ ib-16(SP), AX")
	p("\tSARQ $%d, AX", d.shift)
	p("\tSUBQ $%d, AX", (nvec-1)*lanes)
	p("\tMOVQ AX, dbase-80(SP)")
	for _, beta := range []bool{false, true} {
		sl := l + "_nb"
		if beta {
			sl = l + "_b"
			p("%s:", sl)
		} else {
			p("\tCMPQ hasBeta+56(FP), $0")
			p("\tJNE %s_b", l)
		}
		for c := 0; c < 8; c++ {
			if c > 0 {
				p("\tCMPQ R9, $%d", c)
				p("\tJLT %s_end", sl)
				p("\tADDQ R8, DI")
			}
			// R10: the first vector's lanes, R11 the last one's.
			p("\tMOVQ $-1, R10")
			p("\tMOVQ R12, R11")
			p("\tCMPQ lf-64(SP), $0")
			p("\tJEQ %s_c%d_u", sl, c)
			if c > 0 {
				p("\tSHLQ $%d, R10", c)
			}
			p("%s_c%d_u:", sl, c)
			p("\tCMPQ ul-72(SP), $0")
			p("\tJEQ %s_c%d_m", sl, c)
			p("\tMOVQ dbase-80(SP), CX")
			p("\tADDQ $%d, CX", c)
			p("\tMOVQ $2, AX")
			p("\tSHLQ CX, AX")
			p("\tDECQ AX")
			p("\tANDQ AX, R11")
			p("%s_c%d_m:", sl, c)
			if nvec == 1 {
				p("\tANDQ R11, R10")
			}
			p("\tKMOVQ R10, K2")
			p("\tKMOVQ R11, K3")
			for v := 0; v < nvec; v++ {
				r := acc(c, v, nvec)
				k := ""
				switch {
				case v == 0:
					k = "K2"
				case v == nvec-1:
					k = "K3"
				}
				p("\tVMUL%s Z29, %s, %s", d.sfx, r, r)
				if beta {
					if k != "" {
						p("\t%s.Z %d(DI), %s, Z31", d.mov, 64*v, k)
					} else {
						p("\t%s %d(DI), Z31", d.mov, 64*v)
					}
					p("\tVFMADD231%s Z31, Z30, %s", d.sfx, r)
				}
				if k != "" {
					p("\t%s %s, %s, %d(DI)", d.mov, r, k, 64*v)
				} else {
					p("\t%s %s, %d(DI)", d.mov, r, 64*v)
				}
			}
		}
		p("%s_end:", sl)
		p("\tMOVQ ib-16(SP), AX")
		p("\tADDQ $%d, AX", 64*nvec)
		p("\tMOVQ AX, ib-16(SP)")
		p("\tJMP %s_next", d.name)
	}
}

// accAVX2 is the AVX2 kernel's accumulator of column c, row vector v, in a
// chunk of nvec row vectors.
func accAVX2(c, v, nvec int) string { return fmt.Sprintf("Y%d", c*nvec+v) }

// chunkAVX2 is the AVX2 kernel's code of a chunk of nvec 32-byte row
// vectors by 4 columns: the accumulators Y0 .. Y11 (accAVX2), the rows in
// Y12 .. Y14, the broadcast column entry in Y15; alpha and beta read from
// ab, broadcast by the wrapper. The last vector of a short chunk is loaded
// under a mask of the rows left (VMASKMOV, from the table masks: masks[m]
// has its first m lanes set), and the vectors that hold the diagonal
// block are stored under a mask per column.
func chunkAVX2(p func(string, ...any), d dtype, nvec int) {
	l := fmt.Sprintf("triAVX2%s_v%d", d.name, nvec)
	es := 1 << d.shift
	lanes := 32 / es
	p("%s:", l)
	columnOffsets(p, d, 4)
	// R9: the mask of the last vector's lanes.
	p("\tMOVQ tl-88(SP), R9")
	p("\tSHLQ $5, R9")
	p("\tADDQ masks+80(FP), R9")
	p("\tMOVQ ldx+16(FP), R8")
	for c := 0; c < 4; c++ {
		for v := 0; v < nvec; v++ {
			r := accAVX2(c, v, nvec)
			p("\tVXORPS %s, %s, %s", r, r, r)
		}
	}
	// step is the loop over k, the last vector loaded under its mask or,
	// where it is whole, plainly.
	step := func(masked bool) {
		ll := l + "_floop"
		if masked {
			ll = l + "_mloop"
		}
		p("\tMOVQ x+8(FP), AX")
		p("\tMOVQ AX, BX")
		p("\tADDQ ib-16(SP), AX")
		p("\tADDQ jb-8(SP), BX")
		p("\tMOVQ k+0(FP), CX")
		p("%s:", ll)
		for v := 0; v < nvec; v++ {
			if v == nvec-1 && masked {
				// Y15 holds the mask until the first broadcast.
				p("\tVMOVDQU (R9), Y15")
				p("\tVMASKMOV%s %d(AX), Y15, Y%d", d.sfx, 32*v, 12+v)
			} else {
				p("\t%s %d(AX), Y%d", d.mov, 32*v, 12+v)
			}
		}
		for c := 0; c < 4; c++ {
			if c == 0 {
				p("\t%s (BX), Y15", d.bcast)
			} else {
				p("\t%s (BX)(%s*1), Y15", d.bcast, offReg[c])
			}
			for v := 0; v < nvec; v++ {
				p("\tVFMADD231%s Y%d, Y15, %s", d.sfx, 12+v, accAVX2(c, v, nvec))
			}
			if c == 1 || c == 3 {
				// A hint of the next matrix's range, twice a step.
				h := fmt.Sprintf("%s_h%d", ll, c)
				p("\tCMPQ R13, pfe-40(SP)")
				p("\tJAE %s", h)
				p("\tPREFETCHT0 (R13)")
				p("\tADDQ $64, R13")
				p("%s:", h)
			}
		}
		p("\tADDQ R8, AX")
		p("\tADDQ R8, BX")
		p("\tDECQ CX")
		p("\tJNE %s", ll)
	}
	p("\tCMPQ tl-88(SP), $%d", lanes)
	p("\tJEQ %s_full", l)
	step(true)
	p("\tJMP %s_store", l)
	p("%s_full:", l)
	step(false)
	p("%s_store:", l)

	// The store. DI is column j0's first row of the chunk in C, R8 ldc,
	// R9 the columns less one, R10 masks, R11 the ab pair; Y13 beta, Y14
	// and Y15 the first and the last vector's masks of the column, Y12
	// the C vector loaded under a mask.
	p("\tMOVQ jb-8(SP), DI")
	p("\tSHRQ $%d, DI", d.shift)
	p("\tIMULQ ldc+32(FP), DI")
	p("\tADDQ c+24(FP), DI")
	p("\tADDQ ib-16(SP), DI")
	p("\tMOVQ ldc+32(FP), R8")
	p("\tMOVQ ncm1-32(SP), R9")
	p("\tMOVQ masks+80(FP), R10")
	p("\tMOVQ ab+48(FP), R11")
	p("\tVMOVUPS 32(R11), Y13")
	// dbase: the lane of the last vector that is row j0.
	p("\tMOVQ jb-8(SP), AX")
	p("\tSUBQ ib-16(SP), AX")
	p("\tSARQ $%d, AX", d.shift)
	p("\tSUBQ $%d, AX", (nvec-1)*lanes)
	p("\tMOVQ AX, dbase-80(SP)")
	for _, beta := range []bool{false, true} {
		sl := l + "_nb"
		if beta {
			sl = l + "_b"
			p("%s:", sl)
		} else {
			p("\tCMPQ hasBeta+56(FP), $0")
			p("\tJNE %s_b", l)
		}
		for c := 0; c < 4; c++ {
			if c > 0 {
				p("\tCMPQ R9, $%d", c)
				p("\tJLT %s_end", sl)
				p("\tADDQ R8, DI")
			}
			// Y14: the first vector's lanes, all or (Lower diagonal) those
			// from c on; Y15: the last one's, tl of them, and (Upper
			// diagonal) those up to dbase+c.
			p("\tVMOVDQU %d(R10), Y14", 32*lanes)
			if c > 0 {
				p("\tCMPQ lf-64(SP), $0")
				p("\tJEQ %s_c%d_u", sl, c)
				p("\tVMOVDQU %d(R10), Y14", 32*c)
				p("\tVPANDN %d(R10), Y14, Y14", 32*lanes)
				p("%s_c%d_u:", sl, c)
			}
			p("\tMOVQ tl-88(SP), AX")
			p("\tSHLQ $5, AX")
			p("\tVMOVDQU (R10)(AX*1), Y15")
			p("\tCMPQ ul-72(SP), $0")
			p("\tJEQ %s_c%d_m", sl, c)
			p("\tMOVQ dbase-80(SP), AX")
			p("\tADDQ $%d, AX", c+1)
			p("\tSHLQ $5, AX")
			p("\tVPAND (R10)(AX*1), Y15, Y15")
			p("%s_c%d_m:", sl, c)
			if nvec == 1 {
				p("\tVPAND Y14, Y15, Y15")
			}
			for v := 0; v < nvec; v++ {
				r := accAVX2(c, v, nvec)
				m := ""
				switch {
				case v == nvec-1:
					m = "Y15"
				case v == 0:
					m = "Y14"
				}
				p("\tVMUL%s (R11), %s, %s", d.sfx, r, r)
				if beta {
					if m != "" {
						p("\tVMASKMOV%s %d(DI), %s, Y12", d.sfx, 32*v, m)
					} else {
						p("\t%s %d(DI), Y12", d.mov, 32*v)
					}
					p("\tVFMADD231%s Y12, Y13, %s", d.sfx, r)
				}
				if m != "" {
					p("\tVMASKMOV%s %s, %s, %d(DI)", d.sfx, r, m, 32*v)
				} else {
					p("\t%s %s, %d(DI)", d.mov, r, 32*v)
				}
			}
		}
		p("%s_end:", sl)
		p("\tMOVQ ib-16(SP), AX")
		p("\tADDQ $%d, AX", 32*nvec)
		p("\tMOVQ AX, ib-16(SP)")
		p("\tJMP triAVX2%s_next", d.name)
	}
}
