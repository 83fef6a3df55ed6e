//go:build !unix

package safefile

// Systems without the flags: the fstat check after opening still refuses
// a file that is not regular.
const (
	nonBlock = 0
	noFollow = 0
)
