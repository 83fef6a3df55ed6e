//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var tableLimit = Limit{Max: 16 << 20, Noun: "a table", Text: "16 MiB"}

// within fails the test when f has not returned after d: a regression to a
// blocking open fails instead of hanging the suite.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v (an open that waits on a FIFO?)", d)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}

// needWhy asserts err is an *UnusableError whose reason holds want.
func needWhy(t *testing.T, err error, want string) {
	t.Helper()
	if why := Why(err); !strings.Contains(why, want) {
		t.Fatalf("error %v: reason %q, want one containing %q", err, why, want)
	}
}

func TestReadFileRefusesFIFOWithoutBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.txt")
	mkfifo(t, p)
	within(t, 5*time.Second, func() {
		_, err := ReadFile(p, tableLimit)
		needWhy(t, err, "is a named pipe (FIFO), not a regular file")
	})
}

func TestReadFileRefusesDeviceLinks(t *testing.T) {
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err != nil {
			t.Skipf("no %s: %v", dev, err)
		}
		p := filepath.Join(t.TempDir(), "t.txt")
		if err := os.Symlink(dev, p); err != nil {
			t.Fatal(err)
		}
		within(t, 5*time.Second, func() {
			data, err := ReadFile(p, tableLimit)
			needWhy(t, err, "is a character device, not a regular file")
			if data != nil {
				t.Fatalf("%s: read %d bytes", dev, len(data))
			}
		})
	}
}

// A 183 MB file (sparse: no disk used) is refused from its size, before
// anything is read.
func TestReadFileRefusesOversized(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(183_000_000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(p, tableLimit)
	needWhy(t, err, "has 183000000 bytes; a table may have at most 16777216 (16 MiB)")
	// One byte over the bound is refused too; the bound itself is read.
	if err := os.Truncate(p, tableLimit.Max+1); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(p, tableLimit)
	needWhy(t, err, "has 16777217 bytes")
	if err := os.Truncate(p, tableLimit.Max); err != nil {
		t.Fatal(err)
	}
	data, err := ReadFile(p, tableLimit)
	if err != nil || int64(len(data)) != tableLimit.Max {
		t.Fatalf("a file of exactly the bound: %d bytes, %v", len(data), err)
	}
}

func TestReadFileRefusesDirectory(t *testing.T) {
	_, err := ReadFile(t.TempDir(), tableLimit)
	needWhy(t, err, "is a directory, not a regular file")
}

func TestReadFSRefusesOversized(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), make([]byte, 11), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFS(os.DirFS(dir), "t.txt", Limit{Max: 10, Noun: "a test file", Text: "10 B"})
	needWhy(t, err, "has 11 bytes; a test file may have at most 10 (10 B)")
}

func TestOpenAppendRefusesFIFOWithoutBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "shard.csv")
	mkfifo(t, p)
	within(t, 5*time.Second, func() {
		f, err := OpenAppend(p)
		if f != nil {
			f.Close()
		}
		// With no reader, a non-blocking write open of a FIFO fails with
		// ENXIO; with one it opens and fstat refuses it. Either way it is
		// refused at once.
		needWhy(t, err, "is a named pipe (FIFO), not a regular file")
	})
}

// A symbolic link planted at the name is refused and its target is left
// as it was.
func TestOpenAppendDoesNotFollowSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "shard.csv")
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	f, err := OpenAppend(p)
	if f != nil {
		f.Write([]byte("overwritten\n"))
		f.Close()
	}
	needWhy(t, err, "is a symbolic link")
	got, _ := os.ReadFile(target)
	if string(got) != "keep me\n" {
		t.Fatalf("the link's target now holds %q", got)
	}
}

// An existing file is appended to, never truncated.
func TestOpenAppendKeepsExisting(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ledger.jsonl")
	if err := os.WriteFile(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := OpenAppend(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("two\n"))
	f.Close()
	got, _ := os.ReadFile(p)
	if string(got) != "one\ntwo\n" {
		t.Fatalf("file holds %q, want both lines", got)
	}
}

func TestOpenAppendRefusesDevice(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	f, err := OpenAppend("/dev/null")
	if f != nil {
		f.Close()
	}
	needWhy(t, err, "is a character device, not a regular file")
}

func TestWriteAtomicRefusesNonRegularTarget(t *testing.T) {
	dir := t.TempDir()
	err := WriteAtomic(dir, []byte("x"))
	needWhy(t, err, "is a directory, not a regular file")
	p := filepath.Join(dir, "fifo")
	mkfifo(t, p)
	within(t, 5*time.Second, func() {
		needWhy(t, WriteAtomic(p, []byte("x")), "is a named pipe (FIFO), not a regular file")
	})
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi, err)
	}
}

func TestWriteAtomicReplaces(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "t.txt")
	for _, s := range []string{"one\n", "two\n"} {
		if err := WriteAtomic(p, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(filepath.Dir(p))
	if string(got) != "two\n" || len(ents) != 1 {
		t.Fatalf("file holds %q, directory %d entries (a temporary file left?)", got, len(ents))
	}
}

// A FIFO in a DirFS is refused by ReadFS without blocking, and the other
// files of the directory still read.
func TestDirFSDoesNotBlockOnFIFO(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, "a.txt"))
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(dir)
	within(t, 5*time.Second, func() {
		_, err := ReadFS(fsys, "a.txt", tableLimit)
		needWhy(t, err, "is a named pipe (FIFO), not a regular file")
		data, err := ReadFS(fsys, "b.txt", tableLimit)
		if err != nil || string(data) != "ok\n" {
			t.Fatalf("b.txt: %q, %v", data, err)
		}
	})
	if _, err := fsys.Open("../x"); err == nil {
		t.Fatal("a path outside the directory was opened")
	}
}

// The check after the open holds on its own (a path may be swapped for a
// FIFO between the stat and the open): an opened FIFO is refused by fstat,
// and nothing is read from it.
func TestReadOpenChecksTheOpenedFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.txt")
	mkfifo(t, p)
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	within(t, 5*time.Second, func() {
		_, err := readOpen(p, f, tableLimit)
		needWhy(t, err, "is a named pipe (FIFO), not a regular file")
	})
}
