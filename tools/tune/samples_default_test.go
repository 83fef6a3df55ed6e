//go:build !novendor

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The samples of the README and the guide match the program now: the
// check `make docscheck` makes. The samples show the default build's
// candidates (vendor included), so a -tags novendor build does not check
// them.
func TestDocSamplesMatchTheProgram(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Skip(err)
	}
	problems, err := checkSamples(root, false)
	require.NoError(t, err)
	assert.Empty(t, problems)
}
