package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSampleMatching(t *testing.T) {
	out := []string{"call:     potrf float64 n=64", "device:   x86-64-v4 (2 cores)", "decision: unblocked (table)", "trace:    potrf ... -> unblocked  17.81 ms"}
	for _, c := range []struct {
		block []string
		timed bool
		want  bool
	}{
		{out, false, true},
		{[]string{"call:     potrf float64 n=64", "device:   ...", "decision: unblocked (table)", "trace:    potrf ... -> unblocked  17.81 ms"}, false, true},
		{[]string{"call:     potrf float64 n=64", "...", "trace:    potrf ... -> unblocked  17.81 ms"}, false, true},
		{[]string{"...", "decision: unblocked (table)", "..."}, false, true},
		{[]string{"call:     potrf float64 n=64", "...", "decision: blocked (table)", "..."}, false, false},
		{[]string{"call:     potrf float64 n=64", "...", "trace:    potrf ... -> unblocked  19.2 ms"}, false, false},
		{[]string{"call:     potrf float64 n=64", "...", "trace:    potrf ... -> unblocked  19.2 ms"}, true, true},
		{[]string{"call:     potrf float64 n=64", "...", "trace:    potrf ... -> blocked  17.81 ms"}, true, false},
		{out[:3], false, false},
		{[]string{"...", "trace:    potrf ... -> unblocked   9.2 ms"}, true, true},
		{[]string{"call:     potrf float64 n=64", "..."}, true, true},
	} {
		assert.Equal(t, c.want, sampleMatches(c.block, out, c.timed), "%q timed=%v", c.block, c.timed)
	}
}

func TestTimedSampleIgnoresNoisy(t *testing.T) {
	assert.True(t, sampleMatches([]string{"  blocked   15.69   23.35   1.065"}, []string{"  blocked   16.01   22.9   1.1  (noisy)"}, true))
	assert.False(t, sampleMatches([]string{"  blocked   15.69   23.35   1.065"}, []string{"  blocked   16.01   22.9   1.1  (noisy)"}, false))
}

func TestFindSamples(t *testing.T) {
	doc := strings.Split("text\n<!-- sample: explain potrf float64 uplo=L n=64 batch=4096 -->\n   ```\n   a\n   b\n   ```\n<!-- sample timed: bench gemm float64 m=1 -->\n```\nc\n```\n", "\n")
	ss, err := findSamples("x.md", doc)
	require.NoError(t, err)
	require.Len(t, ss, 2)
	assert.Equal(t, []string{"explain", "potrf", "float64", "uplo=L", "n=64", "batch=4096"}, ss[0].args)
	assert.Equal(t, "   ", ss[0].indent)
	assert.Equal(t, []string{"   a", "   b"}, doc[ss[0].start:ss[0].end])
	assert.True(t, ss[1].timed)
	_, err = findSamples("x.md", []string{"<!-- sample: explain x -->", "no block"})
	assert.ErrorContains(t, err, "x.md:1: a sample marker must be followed at once by a fenced block")
}
