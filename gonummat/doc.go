// Package gonummat converts between batchlas batches and gonum's mat
// types, for programs that already hold their matrices as *mat.Dense or
// *mat.SymDense and their right-hand sides as *mat.VecDense, and for
// reading results back: matrices (ToDense, ToTri), solutions (ToVecs) and
// eigenvalues (VectorsToVecs). The package Example solves gonum systems.
//
// The core of batchlas does not import this package, nor gonum when built
// with -tags novendor: only a program that imports gonummat links it.
//
// gonum's matrices are row-major and a Batch is column-major, so every
// conversion copies element by element, converting to the batch's element
// type (float64 to float32 rounds to nearest). A batch shares no storage
// with the gonum matrices it was made from or copied to. Every function
// returns an *batchlas.ArgError naming it and the argument at fault, and
// validates everything before it writes anything.
package gonummat
