package batchlas

import "fmt"

// Norm names a matrix norm, as LAPACK's norm letters do: the norm a
// condition number is measured in (package gecon).
type Norm byte

const (
	// OneNorm is the largest absolute column sum, ||A||_1.
	OneNorm Norm = '1'
	// InfNorm is the largest absolute row sum, ||A||_inf = ||A^T||_1.
	InfNorm Norm = 'I'
)

func (n Norm) String() string {
	switch n {
	case OneNorm:
		return "1"
	case InfNorm:
		return "I"
	}
	return fmt.Sprintf("Norm(%q)", rune(n))
}

// Check returns an error unless n is OneNorm or InfNorm; arg names the
// argument.
func (n Norm) Check(op, arg string) error {
	if n != OneNorm && n != InfNorm {
		return &ArgError{Op: op, Arg: arg, Msg: fmt.Sprintf("%s %q: want OneNorm ('1') or InfNorm ('I')", arg, rune(n))}
	}
	return nil
}
