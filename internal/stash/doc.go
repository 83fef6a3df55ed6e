// Package stash copies chosen matrices of a batch aside and puts them
// back: the nested solvers (posv, gesv) solve the whole batch in one call
// and restore the right-hand sides of the systems that failed, so those are
// left exactly as they were.
package stash
