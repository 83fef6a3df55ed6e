package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/batchlas-go/batchlas/internal/quote"

	sel "github.com/batchlas-go/batchlas/select"
)

// command is one subcommand: its name, a one-line summary for the top-level
// help, and the function that parses its own flags and runs.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "time every candidate over an op's grid and write tuned tables", cmdRun},
		{"check", "check tables (parse, candidates, keys, revision, tie order); --regret", cmdCheck},
		{"validate", "measure auto against the fastest candidate at random off-grid shapes", cmdValidate},
		{"explain", "show the whole selection walk for one call", cmdExplain},
		{"bench", "time one call shape: auto versus every candidate pinned", cmdBench},
		{"peers", "time numpy and batchlas on the same call shapes, with a memory-copy floor", cmdPeers},
		{"stride", "time calls at a leading dimension against ld+8: stride cliffs", cmdStride},
		{"docs", "write docs/tables.md and its plots (--check: fail when they are out of date)", cmdDocs},
		{"plot", "draw SVG plots of tables: who wins where, and the gain over the best fixed candidate", cmdPlot},
		{"coverage", "merge coverage shards; --require-reached, --suggest N", cmdCoverage},
		{"cache", "list, check, merge or clear the cache first-use tuning (BATCHLAS_TUNE=online) fills", cmdCache},
	}
}

// exitError carries a non-zero exit status without another message (the
// command already printed what went wrong).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	// The tuner measures under its own protocol: a call it makes never
	// tunes itself, whatever BATCHLAS_TUNE says.
	sel.DisableOnlineTuning()
	code := mainCode(os.Args[1:], os.Stdout, os.Stderr)
	// Complete this process's coverage file, if the instrument is on.
	if err := sel.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
	}
	os.Exit(code)
}

// mainCode runs one invocation and returns its exit status. Help that was
// asked for goes to stdout with status 0 (so `tune help run | less` works);
// help printed because the invocation was wrong goes to stderr with a
// non-zero status.
func mainCode(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) == 1 {
			usage(stdout)
			return 0
		}
		if len(args) > 2 || findCommand(args[1]) == nil {
			fmt.Fprintf(stderr, "tune help: want one command name, got %s\n\n", quoteList(args[1:]))
			usage(stderr)
			return 2
		}
		// The command prints its own usage, from the flag set it parses
		// with: one source for what `help X` and `X --help` say.
		args = []string{args[1], "--help"}
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "tune: unknown command %s\n\n", quote.Q(args[0]))
		usage(stderr)
		return 2
	}
	err := c.run(args[1:], stdout, stderr)
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, pflag.ErrHelp):
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	// The last guard on a message's size: values are quoted and cut where
	// they are written, this bounds one that lists many.
	fmt.Fprintf(stderr, "%s\n", quote.Message(fmt.Sprintf("tune %s: %v", c.name, err)))
	return 1
}

func findCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return &c
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: go run ./tools/tune <command> [flags]")
	fmt.Fprintln(w, "       go run ./tools/tune help <command>   (or <command> --help: its arguments and flags)")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
}

// cmdFlags is a command's flag set with what its usage prints: the
// synopsis, the command's summary, the flags, and notes such as each op's
// keys.
type cmdFlags struct {
	*pflag.FlagSet
	name, synopsis string
	notes          []func(io.Writer)
	checks         []flagCheck // accepted ranges (flagcheck.go)
	stdout, stderr io.Writer
}

// newFlags makes a command's flag set. Parse errors are returned, not fatal;
// --help and -h print the usage on stdout (pflag calls Usage for them).
func newFlags(name, synopsis string, stdout, stderr io.Writer) *cmdFlags {
	f := &cmdFlags{FlagSet: pflag.NewFlagSet(name, pflag.ContinueOnError), name: name, synopsis: synopsis, stdout: stdout, stderr: stderr}
	f.SetOutput(stderr)
	f.SortFlags = false
	f.Usage = func() { f.printUsage(stdout) }
	return f
}

// note adds a paragraph printed after the flags in the usage.
func (f *cmdFlags) note(n func(io.Writer)) { f.notes = append(f.notes, n) }

func (f *cmdFlags) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: go run ./tools/tune %s\n", f.synopsis)
	if c := findCommand(f.name); c != nil {
		fmt.Fprintf(w, "\n%s.\n", strings.ToUpper(c.summary[:1])+c.summary[1:])
	}
	if flags := f.FlagUsages(); flags != "" {
		fmt.Fprintf(w, "\nflags:\n%s", flags)
	}
	for _, n := range f.notes {
		fmt.Fprintln(w)
		n(w)
	}
}

// parse parses the command line and checks every flag given against its
// accepted range. A wrong flag prints the usage on stderr and says where
// the full help is.
func (f *cmdFlags) parse(args []string) error {
	if flagSetHook != nil {
		flagSetHook(f)
	}
	err := f.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return err
	}
	if err == nil {
		return f.checkFlags()
	}
	f.printUsage(f.stderr)
	return fmt.Errorf("%s (go run ./tools/tune help %s)", cutQuoted(err.Error()), f.name)
}

// quotedRE matches a double-quoted value in a message of the flag parser.
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// cutQuoted cuts every quoted value of a flag parser's message at 80 bytes
// (pflag repeats a bad value twice, whole: a 120 KB value made a 240 KB
// message).
func cutQuoted(msg string) string {
	return quotedRE.ReplaceAllStringFunc(msg, func(q string) string {
		if v, err := strconv.Unquote(q); err == nil {
			return quote.Q(v)
		}
		return quote.Cut(q)
	})
}

// flagSetHook, when set (by tests), sees every command's flag set as it
// is parsed.
var flagSetHook func(*cmdFlags)

// usageError reports a wrong invocation: the usage on stderr, then the
// error.
func (f *cmdFlags) usageError(format string, args ...any) error {
	f.printUsage(f.stderr)
	return fmt.Errorf(format, args...)
}

// opByName finds a registered op for the commands that take one as an
// argument.
func opByName(name string) (*sel.Op, error) {
	if op := sel.Lookup(strings.ToLower(name)); op != nil {
		return op, nil
	}
	var names []string
	for _, op := range sel.Ops() {
		names = append(names, op.Name())
	}
	return nil, fmt.Errorf("no op %s (linked: %s)", quote.Q(name), strings.Join(names, ", "))
}

// keysNote is the usage paragraph listing each op's keys with the values
// they take, for the commands that take keys.
func keysNote(ops []*sel.Op) func(io.Writer) {
	return func(w io.Writer) {
		ops = sortedOps(ops)
		fmt.Fprintln(w, "keys of each op (<n>: a positive integer):")
		for _, op := range ops {
			fmt.Fprintf(w, "  %-7s %s\n", op.Name(), keyForms(op))
		}
	}
}

func sortedOps(ops []*sel.Op) []*sel.Op {
	out := append([]*sel.Op(nil), ops...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// tunedOps is the ops the tuner has a spec for, sorted by name.
func tunedOps() []*sel.Op {
	var out []*sel.Op
	for _, name := range tunerNames() {
		out = append(out, tuners[name].op)
	}
	return out
}
