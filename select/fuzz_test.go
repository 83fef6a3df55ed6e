package sel

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
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
