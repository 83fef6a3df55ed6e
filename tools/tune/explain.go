package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/quote"
	sel "github.com/batchlas-go/batchlas/select"
)

const explainSynopsis = "explain OP [DTYPE] key=value... [flags]   e.g. explain potrf float64 uplo=L n=100 batch=3000"

func cmdExplain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explain", explainSynopsis, stdout, stderr)
	dtype := dtypeFlag(fs)
	device := fs.String("device", "", "explain the call as a device with this key would make it (x86-64-v3, ...); default: this host (BATCHLAS_DEVICE respected)")
	fs.note(keysNote(sel.Ops()))
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return fs.usageError("want an op and the call's keys")
	}
	op, err := opByName(fs.Arg(0))
	if err != nil {
		return err
	}
	dt, keys, err := callDType(op, fs.Args()[1:], fs, *dtype)
	if err != nil {
		return err
	}
	c, err := parseCellArgs(op, keys)
	if err != nil {
		return err
	}
	dev, err := deviceFor(*device)
	if err != nil {
		return err
	}
	w, _ := op.Explain(context.Background(), dt, c.key(), dev)
	printWalk(stdout, op, dt, c, dev, w)
	if w.Err != nil {
		return exitError{1}
	}
	return nil
}

// deviceFor is the host, or the host presenting itself under key.
func deviceFor(key string) (*sel.Device, error) {
	if key == "" {
		return batchlas.Host(), nil
	}
	return batchlas.Host().WithKey(key)
}

// printWalk prints every step of a decision: the pin, each table in borrow
// order with its nearest row and every entry's verdict, the decision and
// its trace line.
func printWalk(w io.Writer, op *sel.Op, dt sel.DType, c cell, dev *sel.Device, walk *sel.Walk) {
	fmt.Fprintf(w, "call:     %s %s %s\n", op.Name(), dt, c)
	fmt.Fprintf(w, "device:   %s, identity %s (%s, %d cores; flags %s)\n", dev.Key, identityWord(dev), dev.Name, dev.Cores, strings.Join(dev.Flags, " "))
	switch {
	case walk.Pin == "" || walk.Pin == "auto":
		fmt.Fprintf(w, "pin:      none (automatic)\n")
	default:
		fmt.Fprintf(w, "pin:      %s from %s\n", quote.Q(walk.Pin), walk.PinSource)
	}
	if len(walk.Steps) == 0 && (walk.Pin == "" || walk.Pin == "auto" || walk.Pin == "native") {
		fmt.Fprintf(w, "tables:   none: no %s %s table for %s or any device it may borrow from (built-in tuned/, BATCHLAS_TUNED_DIR)\n", op.Name(), dt, dev.Key)
	} else if len(walk.Steps) == 0 {
		fmt.Fprintf(w, "tables:   not read: the pin decides\n")
	}
	for i, st := range walk.Steps {
		t := st.Table
		prov := fmt.Sprintf("revision %d", t.Revision)
		for _, k := range []string{"kernels", "date", "grid"} {
			if v := t.Header[k]; v != "" {
				prov += fmt.Sprintf(", %s %s", k, v)
			}
		}
		fmt.Fprintf(w, "table %d:  %s (%s, %s; %s)\n", i+1, t.File, t.Origin, st.Role, prov)
		if st.Row == nil {
			fmt.Fprintf(w, "          no %s row\n", dt)
			continue
		}
		fmt.Fprintf(w, "          nearest row: line %d, distance %.3f: %s\n", st.Row.Line, st.Distance, st.Row.Key.Format(t.Keys))
		for j, v := range st.Verdicts {
			ms := "-"
			if v.Entry.Timed {
				ms = formatMS(v.Entry.MS) + " ms"
			}
			verdict := "can_run"
			switch {
			case !v.Candidate:
				verdict = "not a candidate here (not compiled, or excluded by the pin)"
			case !v.CanRun:
				verdict = "can_run refuses this call"
			}
			mark := ""
			if v.Candidate && v.CanRun && v.Entry.Choice == walk.Choice && walk.Err == nil {
				mark = "  <- chosen"
			}
			fmt.Fprintf(w, "          %d. %-24s %-12s %s%s\n", j+1, v.Entry.Spelling, ms, verdict, mark)
		}
	}
	if walk.Err != nil {
		fmt.Fprintf(w, "decision: error: %v\n", walk.Err)
		return
	}
	fmt.Fprintf(w, "decision: %s (%s)\n", walk.Choice, walk.Source)
	fmt.Fprintf(w, "trace:    %s\n", walk.TraceLine)
}
