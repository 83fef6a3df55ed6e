package coverage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func reached(choice, key string) Row {
	return Row{Kind: Reached, Op: "potrf", DType: "float64", Device: "x86-64-v4", Choice: choice, Origin: "native",
		Source: "table", Table: "potrf.x86-64-v4.txt", Key: key, NativeExisted: 1, NativeSupported: 1, VendorLib: "lapack"}
}

func TestShardRowsOnDiskWhenFirstSeen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cov")
	r, err := Open(path)
	require.NoError(t, err)
	assert.Equal(t, ShardName(path, os.Getpid()), r.Name())
	assert.Equal(t, fmt.Sprintf("%s.%d.csv", path, os.Getpid()), r.Name())

	r.Link("potrf", []Row{{Kind: Linked, Op: "potrf", DType: "float64", Choice: "tiny", Origin: "native", NativeExisted: 1, NativeSupported: -1, VendorLib: "lapack"}})
	r.Link("potrf", []Row{{Kind: Linked, Op: "potrf", Choice: "again"}}) // once per op
	c := r.Counter(reached("tiny", "uplo=L n=8 batch=1"))
	assert.Same(t, c, r.Counter(reached("tiny", "uplo=L n=8 batch=1")), "one counter per identity")
	data, _ := os.ReadFile(r.Name())
	assert.Equal(t, Header+"\nlinked,potrf,float64,,tiny,native,,,0,,1,-1,lapack\n", string(data), "no row before the first call")

	c.Add()
	data, _ = os.ReadFile(r.Name())
	assert.Equal(t, Header+"\nlinked,potrf,float64,,tiny,native,,,0,,1,-1,lapack\n"+
		"reached,potrf,float64,x86-64-v4,tiny,native,table,potrf.x86-64-v4.txt,1,uplo=L n=8 batch=1,1,1,lapack\n",
		string(data), "the first call writes the row at once, without a flush")
	c.Add()
	c.Add()
	require.NoError(t, r.Flush())
	require.NoError(t, r.Flush()) // nothing changed: nothing appended
	rows, err := ReadFiles(r.Name())
	require.NoError(t, err)
	require.Len(t, rows, 2)
	assert.Equal(t, int64(3), rows[1].Calls, "the later row supersedes")
	data, _ = os.ReadFile(r.Name())
	assert.Equal(t, 4, strings.Count(string(data), "\n"), "header, linked, first sighting, one flush")
	require.NoError(t, r.Close())
}

func TestReadFilesAndMerge(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.csv")
	b := filepath.Join(dir, "b.csv")
	require.NoError(t, os.WriteFile(a, []byte(Header+"\n"+
		"linked,potrf,float64,,tiny,native,,,0,,1,-1,lapack\n"+
		"reached,potrf,float64,x86-64-v4,tiny,native,table,potrf.x86-64-v4.txt,1,n=8,1,1,lapack\n"+
		"miss,potrf,float64,x86-64-v4,,,,,2,n=9,0,0,lapack\n"+
		"reached,potrf,float64,x86-64-v4,tiny,native,table,potrf.x86-64-v4.txt,5,n=8,1,1,lapack\n"+
		"reached,potrf,float64,x86-64-v4,tiny,native,table,potrf.x86-64-v4.txt,9,n=8"), 0o644)) // torn: ignored
	require.NoError(t, os.WriteFile(b, []byte(Header+"\n"+
		"reached,potrf,float64,x86-64-v4,tiny,native,table,potrf.x86-64-v4.txt,2,n=8,1,1,lapack\n"+
		"linked,potrf,float64,,tiny,native,,,0,,1,-1,lapack\n"), 0o644))
	rows, err := ReadFiles(a, b)
	require.NoError(t, err)
	assert.Len(t, rows, 5, "three from a (one superseded, one torn), two from b")
	got := Merge(rows)
	want := []Row{
		{Kind: Linked, Op: "potrf", DType: "float64", Choice: "tiny", Origin: "native", NativeExisted: 1, NativeSupported: -1, VendorLib: "lapack"},
		{Kind: Reached, Op: "potrf", DType: "float64", Device: "x86-64-v4", Choice: "tiny", Origin: "native", Source: "table", Table: "potrf.x86-64-v4.txt", Calls: 7, Key: "n=8", NativeExisted: 1, NativeSupported: 1, VendorLib: "lapack"},
		{Kind: Miss, Op: "potrf", DType: "float64", Device: "x86-64-v4", Calls: 2, Key: "n=9", VendorLib: "lapack"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Merge (-want +got):\n%s", d)
	}
}

func TestReadFilesErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, msg string }{
		{"empty", "", "empty.csv:1: empty file; want the header"},
		{"header", "a,b\n", `header.csv:1: header is "a,b"`},
		{"kind", Header + "\nseen,potrf,float64,,tiny,native,,,0,,1,-1,\n", `kind.csv:2: kind "seen", want linked, reached or miss`},
		{"calls", Header + "\nlinked,potrf,float64,,tiny,native,,,x,,1,-1,\n", `calls.csv:2: calls "x" is not a non-negative integer`},
		{"flag", Header + "\nlinked,potrf,float64,,tiny,native,,,0,,2,-1,\n", `flag.csv:2: native_existed "2", want 1, 0 or -1`},
		{"columns", Header + "\nlinked,potrf\n", `columns.csv:2: 2 columns, want 13`},
	} {
		p := filepath.Join(dir, tc.name+".csv")
		require.NoError(t, os.WriteFile(p, []byte(tc.src), 0o644))
		_, err := ReadFiles(p)
		require.Error(t, err, tc.name)
		assert.Contains(t, err.Error(), tc.msg)
		assert.True(t, strings.HasPrefix(err.Error(), p+":"), "names the file and line: %v", err)
	}
	_, err := ReadFiles(filepath.Join(dir, "absent.csv"))
	assert.Error(t, err)
	_, err = Open(filepath.Join(dir, "no", "such", "dir", "cov"))
	assert.ErrorContains(t, err, "BATCHLAS_COVERAGE_OUT names a file prefix in a writable directory")
	_, err = Open("")
	assert.Error(t, err)
}

func TestConcurrentCounting(t *testing.T) {
	r, err := Open(filepath.Join(t.TempDir(), "cov"))
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				r.Counter(reached("tiny", fmt.Sprintf("n=%d", i%4))).Add()
				if i%50 == 0 {
					_ = r.Flush()
				}
			}
		}(g)
	}
	wg.Wait()
	require.NoError(t, r.Close())
	rows, err := ReadFiles(r.Name())
	require.NoError(t, err)
	require.Len(t, rows, 4)
	for _, row := range rows {
		assert.Equal(t, int64(400), row.Calls, row.Key)
	}
}
