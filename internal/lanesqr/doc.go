// Package lanesqr is the Householder QR factorisation across matrices:
// a group of lanes.Lanes[T]() small matrices interleaved one per vector
// lane (package lanes' layout), factored by one stream of operations on
// whole rows of lanes, so that orders too small to fill a vector with one
// matrix's column still run every lane at once. It is geqrf's lanes
// kernel; each lane gets qr.Geqr2's factor and reflectors within
// rounding.
//
// It is its own package, not part of package lanes, so that the ops built
// on lanes' other kernels do not depend on it.
package lanesqr
