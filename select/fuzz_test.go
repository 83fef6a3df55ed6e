package sel

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas/trace"
)

func FuzzParseTable(f *testing.F) {
	files, _ := filepath.Glob("testdata/tuned/syn.*.txt")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Base(name), data)
	}
	for _, s := range []string{
		"",
		"#",
		"[",
		"[]",
		"|",
		"# keys:\n",
		"# revision=1 host=\"x\n",
		"# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\nuplo=L n=1 batch=1 | tiny 1 | tiny 2\n",
		"# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\nuplo=L n=9223372036854775807 batch=1 | lpanel:8 1e308\n",
		"# revision=1\n# keys: uplo:exact n:log:3 batch:log\n[float64]\nuplo=L n=1 batch=1 | tiny -\n[float32]\nuplo=L n=1 batch=1 |\n",
		"# revision=99999999999999999999\n",
		"# keys: a:log b:log c:log d:log e:log f:log g:log h:log i:log\n",
		"# keys: uplo:exact n:log batch:log\n# revision=1\n[float64]\nuplo=L n=1 batch=1 | tiny 1\n",
		// Bounds: a row over the entry cap, a spelling repeated far into
		// a row, a long exact value, a row past a \r line end.
		synHead + "uplo=L n=1 batch=1" + strings.Repeat(" | a 1", 100) + "\n",
		synHead + "uplo=L n=1 batch=1 | a 1 | b 1 | c 1 | d 1 | e 1 | f 1 | g 1 | h 1 | i 1 | a 2\n",
		synHead + "uplo=" + strings.Repeat("Q", 300) + " n=1 batch=1 | tiny 1\r\nuplo=U n=1 batch=1 | tiny 1\r",
	} {
		f.Add("syn.x86-64-v4.txt", []byte(s))
	}
	f.Fuzz(func(t *testing.T, file string, data []byte) {
		for _, op := range []*Op{synOp, nil} {
			tb, err := ParseTable(file, data, op)
			var se *StaleError
			if errors.As(err, &se) {
				// Stale, not malformed: the table comes with it.
				if tb == nil || se.Line < 1 || op == nil {
					t.Fatalf("stale error %v without a table, a line or an op", err)
				}
			} else if err != nil {
				var te *TableError
				if !errors.As(err, &te) || te.Line < 1 || tb != nil {
					t.Fatalf("error %v is not a *TableError with a line, and no table", err)
				}
				continue
			}
			// Key tuples are unique per section, so every row is its own
			// nearest row, at distance zero.
			for dt, rows := range tb.Sections {
				for i := range rows {
					r, d, err := tb.Nearest(dt, rows[i].Key)
					if err != nil || r != &rows[i] || d != 0 {
						t.Fatalf("row on line %d: nearest is %v at %v (%v)", rows[i].Line, r, d, err)
					}
				}
			}
		}
	})
}

func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"tiny", "lpanel:panel=8", "lpanel:8", "packed:mc=64:kc=256", "packed:kc=1:mc=2", "packed:64:256",
		"", ":", "lpanel:", "lpanel:=", "lpanel:-1", "lpanel:panel=1073741825", "cta:warps=4", "vendor", "Tiny", "tiny:0", "lpanel:8:8",
		"packed:mc=1:2", "lpanel:panel=08", "lpanel:+8", "a\x00b"} {
		f.Add(s)
	}
	fams := append(append([]*Family(nil), synFamilies...), famPacked)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseChoice(s, fams)
		if err != nil {
			var se *SpellingError
			if !errors.As(err, &se) || !c.IsZero() {
				t.Fatalf("%q: error %v with choice %v", s, err, c)
			}
			return
		}
		long := c.String()
		back, err := ParseChoice(long, fams)
		if err != nil || back != c || back.String() != long {
			t.Fatalf("%q -> %q does not round-trip: %v %v", s, long, back, err)
		}
	})
}

// FuzzDecide drives whole decisions of the synthetic op syn from a random
// override table (under one of a few device names), a random environment
// pin, a random scoped pin (for syn, another op or none; strict or not) and
// a random key, dtype and device, with tracing on or off. Nothing panics;
// Run, Pick and Explain agree; and a choice is always a compiled candidate
// for the dtype that syn's can_run accepts for that key and device.
func FuzzDecide(f *testing.F) {
	files, _ := filepath.Glob("testdata/tuned/syn.*.txt")
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		where := uint8(slices.Index(fuzzTableNames, filepath.Base(name)))
		f.Add(data, where, "", uint8(0), "", false, "L", int64(64), int64(1024), uint8(0), false)
		f.Add(data, where+uint8(i), "tiny", uint8(1), "lpanel:16", true, "U", int64(8), int64(1), uint8(1), true)
		f.Add(data, uint8(i), "native", uint8(2), "vendor", false, "L", int64(600), int64(3), uint8(0), true)
		f.Add(data, uint8(3*i), " VENDOR ", uint8(1), "native", true, "U", int64(-5), int64(0), uint8(1), false)
	}
	f.Add([]byte(synHead+"uplo=L n=64 batch=1024 | blocked 1.00 | vendor 2\n[float32]\n"), uint8(0), "auto", uint8(3), "garbage", false, "L", int64(1<<62), int64(1), uint8(2), true)
	f.Add([]byte("garbage\n"), uint8(1), "", uint8(4), "tiny", false, "", int64(0), int64(0), uint8(3), true)
	f.Add([]byte("\ufeff# revision=1\r# keys: uplo:exact n:log:3 batch:log\r[float64]\ruplo=L n=64 batch=1024 | cta:4 1 | tiny 2\r"), uint8(4), "", uint8(0), "", false, "L", int64(64), int64(1024), uint8(0), true)

	dir := f.TempDir()
	devices := []*Device{v4, v4nov, v3, v1, arm, sm90, sm80, riscv}
	dtypes := []DType{Float64, Float32, "complex64", ""}
	scopedOps := []string{"", "syn", "SYN", "aux", "sny"}
	prevTrace := trace.SetOutput(io.Discard)
	f.Cleanup(func() { trace.SetOutput(prevTrace) })
	f.Fuzz(func(t *testing.T, table []byte, where uint8, envPin string, scopedOp uint8, scopedPin string, strict bool,
		uplo string, n, batch int64, dtSel uint8, tracing bool) {
		name := fuzzTableNames[int(where)%len(fuzzTableNames)]
		d := devices[int(where)/len(fuzzTableNames)%len(devices)]
		dt := dtypes[int(dtSel)%len(dtypes)]
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			os.Remove(filepath.Join(dir, e.Name()))
		}
		if err := os.WriteFile(filepath.Join(dir, name), table, 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"BATCHLAS_TUNED_DIR": dir, "BATCHLAS_SYN_ROUTE": envPin, "BATCHLAS_SELECT_TRACE": ""}
		if tracing {
			env["BATCHLAS_SELECT_TRACE"] = "1"
		}
		for k, v := range env {
			os.Setenv(k, v)
		}
		defer func() {
			for k := range env {
				os.Unsetenv(k)
			}
			forget()
			Reload()
		}()
		forget() // warnings of earlier inputs must not pile up
		Reload()

		ctx := bg
		if op := scopedOps[int(scopedOp)%len(scopedOps)]; op != "" {
			if strict {
				ctx = WithStrictPin(ctx, op, scopedPin)
			} else {
				ctx = WithPin(ctx, op, scopedPin)
			}
		}
		k := synKey(uplo, int(n), int(batch))
		c, err := synOp.Pick(ctx, dt, k, d)
		if err != nil {
			if !c.IsZero() {
				t.Fatalf("error %v with choice %v", err, c)
			}
		} else if !synOp.IsCandidate(dt, c) || !synCanRun(c, k, d) {
			t.Fatalf("%s %s on %s: %v is not a candidate that can run it", dt, k.Format(synOp.Keys()), d.Key, c)
		}
		rc, rerr := run(ctx, synOp, dt, k, d)
		if rc != c || rerr != err {
			t.Fatalf("Run gives %v, %v; Pick %v, %v", rc, rerr, c, err)
		}
		w, werr := synOp.Explain(ctx, dt, k, d)
		if w.Choice != c || fmt.Sprint(werr) != fmt.Sprint(err) {
			t.Fatalf("Explain gives %v, %v; Pick %v, %v", w.Choice, werr, c, err)
		}
	})
}

// fuzzTableNames are the names FuzzDecide gives its override table: the
// device's own table, a borrowed one, another class's, a new device's.
var fuzzTableNames = []string{"syn.x86-64-v4.txt", "syn.x86-64-v2.txt", "syn.sm_90.txt", "syn.arm64.txt", "syn.x86-64-v3.txt", "syn.riscv64.txt"}
