package main

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

var quietSink [][]byte

// quietGC collects only a heap that has grown since the last collection:
// right after one there is nothing to collect, and after new objects of
// twice the live heap there is.
func TestQuietGCCollectsOnlyAGrownHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection of its own in between
	runtime.GC()
	assert.False(t, heapGrown(), "just collected")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for range 2*ms.HeapAlloc/(1<<20) + 4 {
		quietSink = append(quietSink, make([]byte, 1<<20))
	}
	assert.True(t, heapGrown(), "twice the live heap allocated since")
	quietSink = nil
	before := ms.NumGC
	quietGC()()
	runtime.ReadMemStats(&ms)
	assert.Greater(t, ms.NumGC, before, "quietGC collected the grown heap")
	assert.False(t, heapGrown())
}
