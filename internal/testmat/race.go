//go:build race

package testmat

// RaceEnabled reports a build with the race detector, whose runtime
// allocates on its own: tests asserting zero allocations skip under it.
const RaceEnabled = true
