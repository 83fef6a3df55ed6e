// Package pivots checks the row-interchange vectors that getrf writes and
// that the ops reading them (getrs, getri) index matrices with unchecked:
// one check, the same error, whichever kernel then runs.
package pivots
