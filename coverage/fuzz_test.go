package coverage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// validShard is a shard as the recorder writes it: header, linked rows,
// first sightings and a flush.
func validShard() []byte {
	rows := []Row{
		{Kind: Linked, Op: "potrf", DType: "float64", Choice: "tiny", Origin: "native", NativeExisted: 1, NativeSupported: -1, VendorLib: "lapack"},
		{Kind: Linked, Op: "potrf", DType: "float64", Choice: "vendor", Origin: "vendor", NativeExisted: 1, NativeSupported: -1, VendorLib: "lapack"},
		reached("tiny", "uplo=L n=8 batch=1"),
		{Kind: Miss, Op: "potrf", DType: "float32", Device: "x86-64-v4", Calls: 1, Key: "uplo=L n=8 batch=1", NativeExisted: 1, VendorLib: "lapack"},
	}
	rows[2].Calls = 1
	flushed := rows[2]
	flushed.Calls = 7
	return append([]byte(Header+"\n"), encode(append(rows, flushed)...)...)
}

// FuzzParseShard feeds the shard reader arbitrary bytes: it never panics,
// an error comes without rows, and what it accepts reads back the same once
// written again.
func FuzzParseShard(f *testing.F) {
	good := validShard()
	f.Add(good)
	f.Add([]byte(Header + "\n"))
	f.Add([]byte(Header))
	f.Add([]byte(""))
	f.Add(good[:len(good)-5]) // a torn last line
	f.Add([]byte(Header + "\nreached,\"a,b\",\"x\ny\",,,,,,1,\"k=\"\"v\"\"\",1,0,\n"))
	f.Add([]byte(Header + "\nlinked,p,d,,c,native,,,-1,,1,-1,\n"))
	f.Add([]byte(Header + "\nlinked,p,d,,c,native,,,0,,2,-1,\n"))
	f.Add([]byte(Header + "\r\nmiss,p,d,x,,,,,1,k,0,0,\r\n"))
	f.Add([]byte(Header + "\nmiss,p,d,x,,,,,99999999999999999999,k,0,0,\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := parse("shard.csv", data)
		if err != nil {
			if rows != nil {
				t.Fatalf("error %v with %d rows", err, len(rows))
			}
			if !strings.HasPrefix(err.Error(), "shard.csv") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		back, err := parse("again.csv", append([]byte(Header+"\n"), encode(rows...)...))
		if err != nil {
			t.Fatalf("rows read from a shard do not read back: %v", err)
		}
		if !slices.Equal(rows, back) {
			t.Fatalf("round trip:\n%v\n%v", rows, back)
		}
		// One shard's rows are distinct identities: Merge keeps them all,
		// sorted, and their counts.
		m := Merge(rows)
		if len(m) != len(rows) {
			t.Fatalf("merge of %d distinct rows gives %d", len(rows), len(m))
		}
		if !slices.IsSortedFunc(m, compareRows) {
			t.Fatalf("merge is not sorted: %v", m)
		}
		var in, out int64
		for i := range rows {
			in += rows[i].Calls
			out += m[i].Calls
		}
		if in != out {
			t.Fatalf("merge changed the calls: %d -> %d", in, out)
		}
	})
}

// csvNormal is what a CSV field reads back as: encoding/csv reads a \r\n
// inside a quoted field as \n.
func csvNormal(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// FuzzRecorderRoundTrip writes rows with arbitrary fields through a
// Recorder and reads the shard back: every row comes back as written (up
// to csvNormal), with its count, and two copies of the shard merge to
// twice the count.
func FuzzRecorderRoundTrip(f *testing.F) {
	f.Add(uint8(1), "potrf", "float64", "x86-64-v4", "tiny", "native", "table", "potrf.x86-64-v4.txt", "uplo=L n=8 batch=1", "lapack", uint8(3), int8(1), int8(0))
	f.Add(uint8(2), "gemm", "float32", "sm_90", "", "", "", "", "ta=N tb=T m=1 n=1 k=1 batch=1", "", uint8(1), int8(-1), int8(-1))
	f.Add(uint8(1), "a,b", "\"q\"", " lead", "x\ny", "\r", "trail ", "", "", "\xff\xfe", uint8(200), int8(0), int8(1))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, kind uint8, op, dtype, device, choice, origin, source, table, key, vendorLib string, calls uint8, ne, ns int8) {
		rec, err := Open(filepath.Join(dir, "cov"))
		if err != nil {
			t.Fatal(err)
		}
		defer os.Remove(rec.Name())
		tri := func(v int8) int { return int(v%3+3)%3 - 1 } // -1, 0 or 1
		linked := Row{Kind: Linked, Op: op, DType: dtype, Choice: choice, Origin: origin, NativeExisted: tri(ne), NativeSupported: -1, VendorLib: vendorLib}
		row := Row{Kind: []string{Reached, Miss}[kind%2], Op: op, DType: dtype, Device: device, Choice: choice, Origin: origin,
			Source: source, Table: table, Key: key, NativeExisted: tri(ne), NativeSupported: tri(ns), VendorLib: vendorLib}
		rec.Link(op, []Row{linked})
		n := int64(calls%16) + 1
		c := rec.Counter(row)
		for i := int64(0); i < n; i++ {
			c.Add()
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFiles(rec.Name())
		if err != nil {
			t.Fatalf("the recorder's shard does not read back: %v", err)
		}
		norm := func(r Row) Row {
			for _, p := range []*string{&r.Kind, &r.Op, &r.DType, &r.Device, &r.Choice, &r.Origin, &r.Source, &r.Table, &r.Key, &r.VendorLib} {
				*p = csvNormal(*p)
			}
			return r
		}
		row.Calls = n
		want := []Row{norm(linked), norm(row)}
		if !slices.Equal(got, want) {
			t.Fatalf("read back\n%#v\nwant\n%#v", got, want)
		}
		merged, err := ReadFiles(rec.Name(), rec.Name())
		if err != nil {
			t.Fatal(err)
		}
		m := Merge(merged)
		if len(m) != 2 || m[0].Kind != Linked || m[1].Calls != 2*n {
			t.Fatalf("two copies merge to %#v", m)
		}
	})
}
