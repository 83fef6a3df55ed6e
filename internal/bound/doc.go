// Package bound runs an op's kernel, chosen and bound to its own
// workspace once for a whole batch, over ranges of the batch's matrices
// one at a time: the part an op's Plan (geqrf.NewPlan, orgqr.NewPlan)
// shares with the others, for a composite that does other work on the
// same matrices between one op's range and the next's while they are in
// a worker's caches (linalg.QR). A kernel that works on one matrix at a
// time runs any range; one across matrices (a lanes kernel) runs whole
// groups, so its ranges start at multiples of the group.
package bound
