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
// kernel declares a list of its own.
var jobLists sync.Map // reflect.Type -> *FreeList[any]

func listOf[J any]() *FreeList[any] {
	t := reflect.TypeFor[J]()
	if l, ok := jobLists.Load(t); ok {
		return l.(*FreeList[any])
	}
	l, _ := jobLists.LoadOrStore(t, NewFreeList[any]())
	return l.(*FreeList[any])
}

// Get returns a zero job of type J, recycled when one is free.
func Get[J any]() *J {
	if x, ok := listOf[J]().Get(); ok {
		if j, ok := x.(*J); ok {
			return j
		}
	}
	return new(J)
}

// Put clears j, so the free list holds no caller's memory, and recycles it.
// j must not be used afterwards.
func Put[J any](j *J) {
	var zero J
	*j = zero
	listOf[J]().Put(j)
}

// freeListCap is how many free items a FreeList keeps: more than the
// calls a process runs at once, in practice.
const freeListCap = 64

// FreeList is a bounded list of free items shared by every goroutine.
// Unlike a sync.Pool it keeps its items across garbage collections and
// has no per-P private slot: an item put back on one P is found by a Get
// on any other, which a caller that migrates while it waits for its
// helpers needs, or a sync.Pool allocates anew about once a call.
type FreeList[T any] struct {
	ch chan T
}

// NewFreeList returns an empty free list.
func NewFreeList[T any]() *FreeList[T] {
	return &FreeList[T]{ch: make(chan T, freeListCap)}
}

// Get takes a free item, if there is one; it never waits.
func (l *FreeList[T]) Get() (x T, ok bool) {
	select {
	case x = <-l.ch:
		return x, true
	default:
		return x, false
	}
}

// Put gives x back, dropping it when the list is full; it never waits.
func (l *FreeList[T]) Put(x T) {
	select {
	case l.ch <- x:
	default:
	}
}
