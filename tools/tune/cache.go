package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/batchlas-go/batchlas/internal/quote"
	"github.com/batchlas-go/batchlas/internal/safefile"
	sel "github.com/batchlas-go/batchlas/select"
)

const cacheSynopsis = "cache list|check|merge|clear [--dir DIR] [--out DIR] [--cores N] [--force]"

// cmdCache works on the tuning cache that first-use tuning
// (BATCHLAS_TUNE=online) fills: list its files, check them, merge their
// rows into tables for BATCHLAS_TUNED_DIR or shipping, clear it.
func cmdCache(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cache", cacheSynopsis, stdout, stderr)
	def, derr := sel.TuneCacheDir()
	dir := fs.String("dir", def, "the cache directory (default: BATCHLAS_TUNE_CACHE, or batchlas under the user's cache directory)")
	out := fs.String("out", "", "merge: the directory the tables are written to")
	cores := fs.Int("cores", runtime.NumCPU(), "merge: the core count whose rows are merged (rows measured with another count are left out)")
	force := fs.Bool("force", false, "merge: replace tables that exist in --out")
	fs.intIn("cores", cores, 1, 1<<16)
	fs.note(func(w io.Writer) {
		fmt.Fprintln(w, `list   one line per cache file: its op, device, identity, cores, rows, and whether this build uses it
check  like list; fails when a file cannot be read or parsed (a program skips it with a warning)
merge  writes <op>.<device>[.<identity>].txt into --out: the rows this build uses, newest kept
clear  removes the cache files (only *.cache files and their temporary files)`)
	})
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fs.usageError("want one action: list, check, merge or clear")
	}
	if *dir == "" {
		return derr
	}
	switch action := fs.Arg(0); action {
	case "list", "check":
		files, err := sel.ReadCacheDir(*dir, nil)
		if err != nil {
			return err
		}
		bad := 0
		for _, f := range files {
			fmt.Fprintln(stdout, cacheFileLine(f))
			if f.Err != nil {
				bad++
			}
		}
		fmt.Fprintf(stdout, "%d file(s) in %s\n", len(files), *dir)
		if action == "check" && bad > 0 {
			fmt.Fprintf(stderr, "tune cache check: %d file(s) cannot be read or parsed; `tune cache clear` removes them\n", bad)
			return exitError{1}
		}
		return nil
	case "merge":
		if *out == "" {
			return fs.usageError("merge needs --out DIR")
		}
		return mergeCache(*dir, *out, *cores, *force, stdout)
	case "clear":
		return clearCache(*dir, stdout)
	default:
		return fs.usageError("unknown action %s: want list, check, merge or clear", quote.Q(action))
	}
}

// cacheFileLine describes one cache file.
func cacheFileLine(f sel.CacheFile) string {
	name := filepath.Base(f.Path)
	switch {
	case f.Err != nil:
		return fmt.Sprintf("%s  unreadable: %v", name, f.Err)
	case f.Table == nil:
		return fmt.Sprintf("%s  not used: %s", name, f.Problem)
	}
	rows := 0
	for _, rs := range f.Table.Sections {
		rows += len(rs)
	}
	state := "used by this build"
	if f.Problem != "" {
		state = "not used: " + f.Problem
	}
	ident := f.Table.Identity
	if ident == "" {
		ident = "-"
	}
	return fmt.Sprintf("%s  op=%s device=%s identity=%s cores=%d rows=%d date=%s  %s", name, f.Table.Op, f.Table.Device, ident, f.Cores, rows, f.Table.Header["date"], state)
}

// mergeCache writes one table per (op, device, identity) of the rows this
// build uses, measured with cores cores.
func mergeCache(dir, out string, cores int, force bool, stdout io.Writer) error {
	files, err := sel.ReadCacheDir(dir, nil)
	if err != nil {
		return err
	}
	type group struct {
		op               *sel.Op
		device, identity string
	}
	var groups []group
	for _, f := range files {
		if f.Table == nil || f.Problem != "" || f.Cores != cores {
			continue
		}
		if g := (group{f.Op, f.Table.Device, f.Table.Identity}); !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		fmt.Fprintf(stdout, "no rows in %s that this build uses with cores=%d; nothing written\n", dir, cores)
		return nil
	}
	slices.SortFunc(groups, func(a, b group) int {
		return strings.Compare(a.op.Name()+a.device+a.identity, b.op.Name()+b.device+b.identity)
	})
	for _, g := range groups {
		name := g.op.Name() + "." + g.device + ".txt"
		if g.identity != "" {
			name = g.op.Name() + "." + g.device + "." + g.identity + ".txt"
		}
		path := filepath.Join(out, name)
		if _, err := os.Stat(path); err == nil && !force {
			return fmt.Errorf("%s exists; pass --force to replace it, or merge into another --out", path)
		}
		text, rows := sel.MergeCache(g.op, g.device, g.identity, cores, files)
		if _, err := sel.ParseTable(name, text, g.op); err != nil {
			return fmt.Errorf("the merged %s does not parse (%v); this is a bug", name, err)
		}
		if err := safefile.WriteAtomic(path, text); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %d row(s)\n", path, rows)
	}
	fmt.Fprintf(stdout, "point BATCHLAS_TUNED_DIR at %s to use them as tables\n", out)
	return nil
}

// clearCache removes the cache files of dir and the temporary files of
// writes that never finished; nothing else.
func clearCache(dir string, stdout io.Writer) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			fmt.Fprintf(stdout, "%s does not exist; nothing to clear\n", dir)
			return nil
		}
		return err
	}
	n := 0
	for _, e := range ents {
		name := e.Name()
		_, _, isCache := sel.CacheFileName(name)
		tmp := strings.HasPrefix(name, ".") && strings.Contains(name, sel.CacheSuffix+".tmp-")
		if e.IsDir() || !(isCache || tmp) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(stdout, "removed %d file(s) from %s\n", n, dir)
	return nil
}
