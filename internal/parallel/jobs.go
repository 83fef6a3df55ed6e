package parallel

import (
	"reflect"
	"sync"
)

// Kernels keep the state a batch-parallel loop needs (the problem, the
// operands, the workspace) in a job struct whose pointer is the loop's
// Body. A job handed to other goroutines lives on the heap, so jobs are
// recycled here: Get takes one of type J, Put clears it and gives it back.
// In the steady state a call allocates none.
//
// There is one free list per job type, found by its reflect.Type, so a
// generic kernel's float32 and float64 jobs never evict each other and no
// kernel declares a pool of its own.
var jobPools sync.Map // reflect.Type -> *sync.Pool

func poolOf[J any]() *sync.Pool {
	t := reflect.TypeFor[J]()
	if p, ok := jobPools.Load(t); ok {
		return p.(*sync.Pool)
	}
	p, _ := jobPools.LoadOrStore(t, new(sync.Pool))
	return p.(*sync.Pool)
}

// Get returns a zero job of type J, recycled when one is free.
func Get[J any]() *J {
	if j, ok := poolOf[J]().Get().(*J); ok {
		return j
	}
	return new(J)
}

// Put clears j, so the free list holds no caller's memory, and recycles it.
// j must not be used afterwards.
func Put[J any](j *J) {
	var zero J
	*j = zero
	poolOf[J]().Put(j)
}
