package main

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The express profile measures a new machine starting from what the tables
// it would otherwise borrow already know. Most of a full tune's time goes
// to candidates that lose by a wide margin everywhere on every CPU (a
// per-matrix kernel on a batch of 32,768 tiny matrices, the vendor's
// per-call overhead at n=4). A table measured on another CPU ranks those
// just as last: what a different microarchitecture changes is the order of
// the few candidates near the top, where cache sizes and ports decide. So
// at each cell, express times the candidates the prior's nearest row ranks
// within priorKeepRatio of its fastest (at least priorKeepMin of them),
// and every candidate the prior's table ranks nowhere (a kernel newer than
// the table). A candidate the table ranks elsewhere but not at this row
// was dropped there by the measurement that wrote it (screened as a clear
// loser, or left out as a twin): it is not timed either. Where no table
// knows the op, every candidate is timed.

// priorKeepRatio is how much slower than the prior's fastest a candidate
// may be ranked and still be timed. Two CPUs of the same level disagree by
// up to 1.7-1.9x on a candidate's relative speed where cache sizes differ
// (gemm n=1024 on a Zen 5 and a Xeon with twice the L2, in docs/decisions.md);
// 2x keeps every such candidate.
const priorKeepRatio = 2.0

// priorKeepMin and priorKeepMax bound the candidates timed per cell from a
// prior's row: a runner-up always, since the prior's winner may be the one
// this machine disagrees on; at most four, since a row of seven candidates
// all within 2x says the prior cannot tell them apart there and the top
// four cover the ones that matter.
const (
	priorKeepMin = 2
	priorKeepMax = 4
)

// prior is the ranking the tables a device reads (before this run's own)
// give each cell: the first table in borrow order with a row for the dtype.
type prior struct {
	op     *sel.Op
	tables map[sel.DType]*sel.Table
	// ranked holds, per dtype, the spellings the table ranks in some row:
	// a candidate outside it is newer than the table.
	ranked map[sel.DType]map[string]bool
}

// loadPrior takes, for each dtype, the first of op's tables in the borrow
// order of dev that priorTable accepts. A table that does not parse is
// left out (the error is the selection core's business; the run times
// every candidate there).
func loadPrior(op *sel.Op, dtypes []sel.DType, dev *sel.Device) prior {
	tables := map[sel.DType]*sel.Table{}
	for _, dt := range dtypes {
		ts, _ := op.Tables(dt, dev)
		if t := priorTable(ts, dev, op.KernelsHash()); t != nil {
			tables[dt] = t
		}
	}
	return newPrior(op, tables)
}

// priorTable is the first of ts (in borrow order) measured at dev's level
// of its family or below, or nil. A table of a higher level ranks code
// this device does not run: on an x86-64-v3 CPU the AVX-512 kernels run
// as AVX2 (at half the vector width) or as their Go twins, so an
// x86-64-v4 table's first candidate there (before the AVX2 paths, an
// across-matrices kernel 10-20x slower than with AVX-512) would be timed
// and the vendor kernel it ranks 3x behind would not. Such a device has
// every candidate timed until its own level has tables.
//
// Among the tables of that first table's level, one measured on the op's
// current kernels (its header's kernels= word is kernels) comes first: a
// table stale by hash ranks code that has changed since, and a new kernel
// it ranks low would not be timed (on the Zen 5 guest, 2026-12-07, a
// stale Intel potri table kept its `lanes` kernel, since made 4x faster,
// out of an express run that a fresh Zen 5 table would have timed). A
// table of a lower level is not preferred for being fresh: it ranks other
// code paths.
func priorTable(ts []*sel.Table, dev *sel.Device, kernels string) *sel.Table {
	var first *sel.Table
	for _, t := range ts {
		fam, arch, _, err := sel.ParseDeviceKey(t.Device)
		if err == nil && dev != nil && fam == dev.Family && arch > dev.Arch {
			continue
		}
		if first == nil {
			first = t
		} else if t.Device != first.Device {
			break
		}
		if kernels == "" || t.Header["kernels"] == kernels {
			return t
		}
	}
	return first
}

// newPrior is the prior of op from one table per dtype.
func newPrior(op *sel.Op, tables map[sel.DType]*sel.Table) prior {
	p := prior{op: op, tables: tables, ranked: map[sel.DType]map[string]bool{}}
	for dt, t := range tables {
		p.ranked[dt] = rankedAnywhere(t.Sections[dt])
	}
	return p
}

// rankedAnywhere is the set of spellings some row of a section ranks.
func rankedAnywhere(rows []sel.Row) map[string]bool {
	set := map[string]bool{}
	for _, r := range rows {
		for _, e := range r.Entries {
			if !e.Choice.IsZero() {
				set[e.Choice.String()] = true
			}
		}
	}
	return set
}

// keep returns the candidates of dt to time at cell c, by spelling, and
// the table they come from; nil when every candidate is timed.
func (p prior) keep(dt sel.DType, c cell) (map[string]bool, *sel.Table) {
	t := p.tables[dt]
	if t == nil {
		return nil, nil
	}
	row, _, err := t.Nearest(dt, c.key())
	if err != nil || row == nil {
		return nil, nil
	}
	return keepFromRow(p.op, dt, row, p.ranked[dt]), t
}

// keepFromRow picks a row's candidates to time: the timed entries within
// priorKeepRatio of the fastest, between priorKeepMin and priorKeepMax of
// them in the row's order, plus every candidate of this build outside
// ranked (the spellings the prior's table ranks anywhere). An untimed
// (hand-ranked) row keeps its first priorKeepMin.
func keepFromRow(op *sel.Op, dt sel.DType, row *sel.Row, ranked map[string]bool) map[string]bool {
	keep := map[string]bool{}
	best := -1.0
	n := 0
	for _, e := range row.Entries {
		if e.Choice.IsZero() || !op.IsCandidate(dt, e.Choice) {
			continue // not a candidate of this build: nothing to time
		}
		if best < 0 {
			best = e.MS
		}
		within := e.Timed && e.MS <= priorKeepRatio*best
		if n < priorKeepMin || within && n < priorKeepMax {
			keep[e.Choice.String()] = true
			n++
		}
	}
	for _, c := range op.Candidates(dt) {
		if !ranked[c.String()] {
			keep[c.String()] = true
		}
	}
	return keep
}

// meanKept is the mean number of candidates timed per cell of cells (all
// of them, all where the prior has no row), for the plan.
func (p prior) meanKept(dt sel.DType, cells []cell, all int) float64 {
	if len(cells) == 0 {
		return 0
	}
	sum := 0
	for _, c := range cells {
		keep, _ := p.keep(dt, c)
		if keep == nil {
			sum += all
		} else {
			sum += len(keep)
		}
	}
	return float64(sum) / float64(len(cells))
}
