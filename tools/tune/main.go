package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

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
		{"docs", "write docs/tables.md (--check: fail when it is out of date)", cmdDocs},
		{"coverage", "merge coverage shards; --require-reached, --suggest N", cmdCoverage},
	}
}

// exitError carries a non-zero exit status without another message (the
// command already printed what went wrong).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	code := mainCode(os.Args[1:], os.Stdout, os.Stderr)
	// Complete this process's coverage file, if the instrument is on.
	if err := sel.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
	}
	os.Exit(code)
}

func mainCode(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
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
		fmt.Fprintf(stderr, "tune %s: %v\n", c.name, err)
		return 1
	}
	fmt.Fprintf(stderr, "tune: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: go run ./tools/tune <command> [flags]   (<command> --help for its flags)")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
}

// newFlags makes a command's flag set: errors are returned, not fatal, and
// --help prints the synopsis and flags.
func newFlags(name, synopsis string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./tools/tune %s\n\n", synopsis)
		fmt.Fprint(stderr, fs.FlagUsages())
	}
	return fs
}

// usageError reports a wrong invocation with the command's synopsis.
func usageError(fs *pflag.FlagSet, format string, args ...any) error {
	fs.Usage()
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
	return nil, fmt.Errorf("no op %q (linked: %s)", name, strings.Join(names, ", "))
}
