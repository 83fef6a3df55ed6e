// Package lazycheck holds the test that the real ops decide the same with
// their built-in tables read lazily (select/lazy.go) as with the same
// tables parsed whole: it links every op that has tables (the test fails
// on a table of an op it does not import), which the selection core's own
// tests must not (their startup report lists the ops linked).
package lazycheck

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	_ "github.com/batchlas-go/batchlas/internal/allops"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// devices are the host and devices around it: its level without an
// identity, other identities of its level, the level below, another
// architecture; each reads the tables in another borrow order.
func devices(t *testing.T) []*sel.Device {
	host := batchlas.Host()
	out := []*sel.Device{host}
	withKey := func(key string) *sel.Device {
		d := *host
		fam, arch, class, err := sel.ParseDeviceKey(key)
		require.NoError(t, err)
		d.Key, d.Family, d.Arch, d.Class = key, fam, arch, class
		return &d
	}
	for _, key := range []string{"x86-64-v4", "x86-64-v3", "arm64"} {
		for _, id := range []string{"", "zen5", "zen4", "sapphirerapids"} {
			d := withKey(key)
			d.Identity = ""
			if id != "" {
				var err error
				d, err = d.WithIdentity(id)
				require.NoError(t, err)
			}
			if d.Key != host.Key || d.Identity != host.Identity {
				out = append(out, d)
			}
		}
	}
	return out
}

// call is one decision to compare.
type call struct {
	op *sel.Op
	dt sel.DType
	k  sel.Key
	d  *sel.Device
}

func (c call) String() string {
	return fmt.Sprintf("%s %s %s on %s.%s", c.op.Name(), c.dt, c.k.Format(c.op.Keys()), c.d.Key, c.d.Identity)
}

// calls lists, for every op and dtype, the key of every other row of
// every table the host reads (each decided on the host; every row would
// double the test's time for neighbours that share their code path), keys
// off those rows
// (around every step-th row: each log key up by a half, down by a third,
// up by one; each exact key set to the other values its rows have), and
// every step-th of all these on the other devices.
func calls(t *testing.T, step int) []call {
	var out []call
	devs := devices(t)
	for _, o := range sel.Ops() {
		for _, dt := range o.DTypes() {
			ts, err := o.Tables(dt, devs[0])
			require.NoError(t, err, "%s %s", o.Name(), dt)
			var keys []sel.Key
			seen := map[string]bool{}
			add := func(k sel.Key) {
				if s := k.Format(o.Keys()); !seen[s] {
					seen[s] = true
					keys = append(keys, k)
				}
			}
			exact := map[int][]string{}
			for _, tb := range ts {
				for _, r := range tb.Sections[dt] {
					for i, ks := range o.Keys() {
						if ks.Kind == sel.Exact && !slices.Contains(exact[i], r.Key.Str(i)) {
							exact[i] = append(exact[i], r.Key.Str(i))
						}
					}
				}
			}
			for _, tb := range ts {
				for ri, r := range tb.Sections[dt] {
					if ri%2 == 0 {
						add(r.Key)
					}
					if ri%step != 0 {
						continue
					}
					for i, ks := range o.Keys() {
						vals := make([]sel.KeyVal, r.Key.Len())
						for j := range vals {
							if o.Keys()[j].Kind == sel.Exact {
								vals[j] = sel.Str(r.Key.Str(j))
							} else {
								vals[j] = sel.Int(r.Key.Int(j))
							}
						}
						if ks.Kind == sel.Log {
							n := r.Key.Int(i)
							for _, m := range []int{n + n/2, max(1, n*2/3), n + 1} {
								vals[i] = sel.Int(m)
								add(sel.MakeKey(vals...))
							}
							continue
						}
						for _, v := range exact[i] {
							vals[i] = sel.Str(v)
							add(sel.MakeKey(vals...))
						}
					}
				}
			}
			for ki, k := range keys {
				out = append(out, call{o, dt, k, devs[0]})
				if ki%step == 0 {
					for _, d := range devs[1:] {
						out = append(out, call{o, dt, k, d})
					}
				}
			}
		}
	}
	return out
}

// decide makes every call's decision in a fresh snapshot.
func decide(cs []call) []string {
	sel.Reload()
	out := make([]string, len(cs))
	for i, c := range cs {
		ch, err := c.op.Pick(context.Background(), c.dt, c.k, c.d)
		out[i] = fmt.Sprint(ch, " ", err)
	}
	return out
}

// The built-in tables, read lazily, decide every call as the same tables
// parsed whole when they load: given as BATCHLAS_TUNED_DIR overrides of
// the same names, which replace every section of the built-in ones. And
// Explain, which reads a section as Rows and searches them as
// Table.Nearest does, agrees with Pick, which reads its compact index.
func TestLazyDecisionsMatchEager(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "BATCHLAS_") {
			t.Setenv(k, "")
		}
	}
	old := sel.SetWarnOutput(io.Discard)
	t.Cleanup(func() { sel.SetWarnOutput(old); sel.Reload() })
	step := 50
	if testing.Short() {
		step = 100
	}
	cs := calls(t, step)
	t.Logf("%d calls", len(cs))
	lazy := decide(cs)
	for i, c := range cs {
		if i%step != 0 {
			continue
		}
		w, err := c.op.Explain(context.Background(), c.dt, c.k, c.d)
		require.Equal(t, lazy[i], fmt.Sprint(w.Choice, " ", err), "%s: Explain", c)
	}

	dir := t.TempDir()
	builtin := opkit.BuiltinTables()
	names, err := fs.Glob(builtin, "*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, name := range names {
		op, _, _, err := sel.SplitTableName(name)
		require.NoError(t, err)
		require.NotNil(t, sel.Lookup(op), "tuned/%s: op %s is not linked into this test: import ops/%s above", name, op, op)
		data, err := fs.ReadFile(builtin, name)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	t.Setenv("BATCHLAS_TUNED_DIR", dir)
	eager := decide(cs)
	for i, c := range cs {
		require.Equal(t, eager[i], lazy[i], "%s: lazy and whole tables", c)
	}
}
