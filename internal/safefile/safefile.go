package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Limit is the bound on a file read: at most Max bytes. Noun names what the
// file is for in messages ("a table"); Text is Max for people ("16 MiB").
type Limit struct {
	Max  int64
	Noun string
	Text string
}

// UnusableError is a file that exists but cannot be used: not a regular
// file, or larger than its Limit. Why says which, without the path
// ("is a named pipe (FIFO), not a regular file").
type UnusableError struct {
	Path string
	Why  string
}

// The path is written whole (a temporary directory is longer than 80
// bytes); the message a command prints is bounded at 1 KiB as a whole.
func (e *UnusableError) Error() string { return e.Path + ": " + e.Why }

// Why returns the reason of an UnusableError in err's chain, "" for any
// other error (one of the file system: missing, no permission).
func Why(err error) string {
	var u *UnusableError
	if errors.As(err, &u) {
		return u.Why
	}
	return ""
}

// Kind says what a file that is not regular is ("a named pipe (FIFO)"),
// "" for a regular file.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link" // from an fs.FS that does not follow links
	default:
		return "an irregular file"
	}
}

// Unusable says why a file of that info cannot be read under lim, "" when
// it can.
func Unusable(fi fs.FileInfo, lim Limit) string {
	if k := Kind(fi.Mode()); k != "" {
		return "is " + k + ", not a regular file"
	}
	if fi.Size() > lim.Max {
		return fmt.Sprintf("has %d bytes; %s may have at most %d (%s)", fi.Size(), lim.Noun, lim.Max, lim.Text)
	}
	return ""
}

// ReadFile reads the regular file at path (a symbolic link is followed and
// its target checked), of at most lim.Max bytes. A file that is not usable
// gives an *UnusableError; others are the file system's errors.
func ReadFile(path string, lim Limit) ([]byte, error) {
	if err := statFirst(path, lim); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(path, f, lim)
}

// statFirst refuses an unusable file from its path before it is opened:
// opening a device can act on it (a tape rewinds), and a file refused here
// is never opened. The fstat after the open still decides, since the path
// may be replaced in between.
func statFirst(path string, lim Limit) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if why := Unusable(fi, lim); why != "" {
		return &UnusableError{Path: path, Why: why}
	}
	return nil
}

// ReadFS is ReadFile for a file of an fs.FS (the built-in tables). The
// entry is checked before opening too, since an fs.FS may open without
// the non-blocking flag.
func ReadFS(fsys fs.FS, name string, lim Limit) ([]byte, error) {
	f, fi, err := openFS(fsys, name, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(name, f, fi, lim)
}

// readOpen checks an opened file and reads at most lim.Max bytes of it.
func readOpen(path string, f fs.File, lim Limit) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if why := Unusable(fi, lim); why != "" {
		return nil, &UnusableError{Path: path, Why: why}
	}
	return readAll(path, f, fi, lim)
}

// readAll reads at most lim.Max bytes of f, whose fstat is fi. It is
// sized by fi and read in one buffer (io.ReadAll grows and clears one as
// it goes: most of the cost of reading a table of a few MB); a file that
// grows meanwhile still reads, up to the limit's byte.
func readAll(path string, f fs.File, fi fs.FileInfo, lim Limit) ([]byte, error) {
	size := int64(512)
	if n := fi.Size(); n > 0 && n <= lim.Max {
		size += n
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	if _, err := buf.ReadFrom(io.LimitReader(f, lim.Max+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > lim.Max {
		return nil, TooLarge(path, lim)
	}
	return data, nil
}

// OpenFS opens a file of an fs.FS after the checks of ReadFS, for a
// reader that streams it (a built-in table read a part at a time): it
// must stop at lim.Max bytes and return TooLarge past them.
func OpenFS(fsys fs.FS, name string, lim Limit) (fs.File, error) {
	f, _, err := openFS(fsys, name, lim)
	return f, err
}

// openFS checks name's entry, opens it and checks the opened file.
func openFS(fsys fs.FS, name string, lim Limit) (fs.File, fs.FileInfo, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, nil, err
	}
	if why := Unusable(fi, lim); why != "" {
		return nil, nil, &UnusableError{Path: name, Why: why}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		if why := Unusable(fi, lim); why != "" {
			err = &UnusableError{Path: name, Why: why}
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// TooLarge is the error of a file found longer than lim.Max bytes as it
// is read (it grew after its size was checked).
func TooLarge(path string, lim Limit) error {
	return &UnusableError{Path: path, Why: fmt.Sprintf("has more than %d bytes; %s may have at most %d (%s)", lim.Max, lim.Noun, lim.Max, lim.Text)}
}

// OpenRead opens the regular file at path for reading without blocking
// and checks it by fstat, for a reader that streams a file (a ledger) and
// so bounds it line by line; size is checked against lim.
func OpenRead(path string, lim Limit) (*os.File, error) {
	if err := statFirst(path, lim); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		if why := Unusable(fi, lim); why != "" {
			err = &UnusableError{Path: path, Why: why}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenAppend opens path for appending, creating it (mode 0644) when
// missing and never truncating it. A symbolic link at path is refused
// (O_NOFOLLOW), the open does not block on a FIFO, and the opened file must
// be regular: anything else gives an *UnusableError and is closed.
func OpenAppend(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow|nonBlock, 0o644)
	if err != nil {
		// Say what is in the way rather than the open's errno (a FIFO
		// without a reader gives ENXIO, "no such device or address").
		if fi, lerr := os.Lstat(path); lerr == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				return nil, &UnusableError{Path: path, Why: "is a symbolic link, not a regular file (links are not followed, so a planted link cannot redirect the writes)"}
			}
			if k := Kind(fi.Mode()); k != "" {
				return nil, &UnusableError{Path: path, Why: "is " + k + ", not a regular file"}
			}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &UnusableError{Path: path, Why: "is " + Kind(fi.Mode()) + ", not a regular file"}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, so a reader or a crash never
// sees a half-written file. The directory is created when missing. An
// existing path that is not a regular file (a directory, a FIFO, a device)
// is refused with an *UnusableError and left as it is.
func WriteAtomic(path string, data []byte) error {
	if fi, err := os.Stat(path); err == nil {
		if k := Kind(fi.Mode()); k != "" {
			return &UnusableError{Path: path, Why: "is " + k + ", not a regular file; name a regular file or a new one"}
		}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op after the rename succeeds
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// TableBytes caps the size of one table file, for the selection core's
// loader and every tuner command that reads tables (select/load.go says
// why 16 MiB).
const TableBytes = 16 << 20

// TableLimit is the bound on a table file.
var TableLimit = Limit{Max: TableBytes, Noun: "a table", Text: "16 MiB"}

// DirFS is os.DirFS with the non-blocking open of this package, for
// readers that take an fs.FS (the tuner reads a --dir of tables through
// the same code as the built-in ones): walking or stating a FIFO in dir
// never waits for a writer. Reads still go through ReadFS for the checks.
func DirFS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.OpenFile(filepath.Join(string(d), filepath.FromSlash(name)), os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}
