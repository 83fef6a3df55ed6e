//go:build !race

package testmat

// RaceEnabled reports a build with the race detector (see race.go).
const RaceEnabled = false
