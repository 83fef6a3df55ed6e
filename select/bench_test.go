package sel

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// bigOp has one 200-row table, for the cost of a first decision.
var bigOp = Register(OpSpec{
	Name:       "big",
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "uplo:exact n:log:3 batch:log",
	Families:   synFamilies,
	Candidates: map[DType][]Choice{Float64: {tiny, lp8, lp16, blocked, vendor}},
	CanRun:     synCanRun,
})

func bigTable() string {
	var b strings.Builder
	b.WriteString(synHead)
	for _, uplo := range []string{"L", "U"} {
		for n := 1; n <= 512; n *= 2 { // 10 sizes
			for batch := 1; batch <= 512; batch *= 2 { // 10 batches
				fmt.Fprintf(&b, "uplo=%s n=%d batch=%d | lpanel:panel=8 %.3f | blocked %.3f | vendor %.3f\n", uplo, n, batch, 0.1*float64(n), 0.2*float64(n), 0.3*float64(n))
			}
		}
	}
	return b.String()
}

func nopLaunch(context.Context, Choice) error { return nil }

// BenchmarkChoose is a steady-state decision through Run: a memo hit with
// trace and coverage off. The target is well under 100 ns and 0 allocations.
func BenchmarkChoose(b *testing.B) {
	fresh(b)
	k := synKey("L", 64, 1024)
	ctx := context.Background()
	if err := synOp.Run(ctx, Float64, k, v4, nopLaunch); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := synOp.Run(ctx, Float64, k, v4, nopLaunch); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChoosePick is the same question asked for sizing (R5).
func BenchmarkChoosePick(b *testing.B) {
	fresh(b)
	k := synKey("L", 64, 1024)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := synOp.Pick(ctx, Float64, k, v4); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChooseScopedPin is a memo hit under a scoped pin of another op
// and one of this op (the context chain is walked on every call).
func BenchmarkChooseScopedPin(b *testing.B) {
	fresh(b)
	k := synKey("L", 64, 1024)
	ctx := WithPin(WithPin(context.Background(), "syn", "blocked"), "aux", "auto")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := synOp.Pick(ctx, Float64, k, v4); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChooseFirst200Rows is a first decision on a 200-row table: the
// memo is emptied every iteration (the table stays parsed, as it does in a
// process). The target is under 10 microseconds.
func BenchmarkChooseFirst200Rows(b *testing.B) {
	fresh(b)
	override(b, map[string]string{"big.x86-64-v4.txt": bigTable()})
	k := synKey("U", 90, 300)
	ctx := context.Background()
	c, err := bigOp.Pick(ctx, Float64, k, v4)
	if err != nil || c != lp8 {
		b.Fatal(c, err)
	}
	if ts, _ := bigOp.Tables(Float64, v4); len(ts) != 1 || len(ts[0].Sections[Float64]) != 200 {
		b.Fatal("want one table of 200 rows")
	}
	b.ReportAllocs()
	for b.Loop() {
		memo.Lock()
		clear(memo.m)
		memo.Unlock()
		if _, err := bigOp.Pick(ctx, Float64, k, v4); err != nil {
			b.Fatal(err)
		}
	}
}

// gemmSizedTable is a big table of about gemm's shipped x86-64-v4 size:
// a [float32] and a [float64] section of 4,000 rows of seven entries each.
func gemmSizedTable() []byte {
	var b strings.Builder
	b.WriteString("# revision=1 grid=quick\n# keys: uplo:exact n:log:3 batch:log\n")
	for _, dt := range []string{"float32", "float64"} {
		fmt.Fprintf(&b, "[%s]\n", dt)
		for _, uplo := range []string{"L", "U"} {
			for n := 1; n <= 100; n++ {
				for batch := 1; batch <= 20; batch++ {
					fmt.Fprintf(&b, "uplo=%s n=%d batch=%d | lpanel:panel=8 %.6g | blocked %.6g | vendor %.6g | tiny %.6g | cta:warps=4 %.6g | lpanel:panel=16 %.6g | lpanel:panel=32 %.6g\n",
						uplo, n, batch*37, 0.001*float64(n), 0.002*float64(n), 0.003*float64(n), 0.004*float64(n), 0.005*float64(n), 0.006*float64(n), 0.007*float64(n))
				}
			}
		}
	}
	return []byte(b.String())
}

// BenchmarkFirstDecisionBuiltin is the first decision of a fresh settings
// snapshot on built-in tables of gemm's shipped size: the device's own,
// which serves, and another level's, which it does not read. Reload drops
// the op's tables, so each iteration does what a process's first call
// does: read the tables' headers, scan the own table, parse its float64
// section and make the row that decides. (Not what a process pays on top:
// the first touch of the memory and of the embedded table, which
// examples/firstcall measures.)
func BenchmarkFirstDecisionBuiltin(b *testing.B) {
	fresh(b)
	table := gemmSizedTable()
	builtinTables(b, fstest.MapFS{"big.x86-64-v4.txt": {Data: table}, "big.x86-64-v2.txt": {Data: table}})
	k := synKey("U", 90, 300)
	ctx := context.Background()
	b.SetBytes(int64(len(table)))
	b.ReportAllocs()
	for b.Loop() {
		Reload()
		if _, err := bigOp.Pick(ctx, Float64, k, v4); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseTable12kRows parses a table of 12,000 rows, about the size
// of gemm's shipped x86-64-v4 table: the cost the first call of an op
// pays for each of its built-in tables.
func BenchmarkParseTable12kRows(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(synHead)
	for _, uplo := range []string{"L", "U"} {
		for n := 1; n <= 100; n++ {
			for batch := 1; batch <= 60; batch++ {
				fmt.Fprintf(&sb, "uplo=%s n=%d batch=%d | lpanel:panel=8 %.3f | blocked %.3f | vendor %.3f\n", uplo, n, batch, 0.1*float64(n), 0.2*float64(n), 0.3*float64(n))
			}
		}
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTable("big.x86-64-v4.txt", data, bigOp); err != nil {
			b.Fatal(err)
		}
	}
}
