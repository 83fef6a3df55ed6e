//go:build linux && amd64 && !purego

package simd

import (
	"fmt"
	"syscall"
	"testing"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The assembly transpose's masked loads and stores touch nothing past the
// matrix: each source and destination here ends where an inaccessible
// page begins, so a stray read or write of an edge block faults the test.
func TestTransposeStaysInBounds(t *testing.T) {
	if !AVX512 {
		t.Skip("no AVX-512 on this machine: only the Go twin runs")
	}
	transposeGuarded[float64](t)
	transposeGuarded[float32](t)
}

func transposeGuarded[T batchlas.Float](t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 6*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mapping the guarded pages: %v", err)
	}
	defer syscall.Munmap(mem)
	// Pages 2 and 5 are guards; pages 0 and 1 hold the source, 3 and 4
	// the destination, each ending at its guard.
	for _, g := range []int{2, 5} {
		if err := syscall.Mprotect(mem[g*page:(g+1)*page], syscall.PROT_NONE); err != nil {
			t.Fatalf("protecting guard page %d: %v", g, err)
		}
	}
	es := int(unsafe.Sizeof(T(0)))
	elems := 2 * page / es
	srcAll := unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), elems)
	dstAll := unsafe.Slice((*T)(unsafe.Pointer(&mem[3*page])), elems)
	for _, m := range []int{1, 2, 5, 8, 9, 16, 17, 23} {
		for _, k := range []int{1, 3, 8, 15, 16, 17, 30} {
			ns, nd := (m-1)*k+k, (k-1)*m+m
			src, dst := srcAll[elems-ns:], dstAll[elems-nd:]
			for i := range src {
				src[i] = T(i + 1)
			}
			Transpose(dst, m, src, k, m, k)
			for i := range m {
				for l := range k {
					if got, want := dst[l*m+i], src[i*k+l]; got != want {
						t.Fatalf("%s: dst(%d, %d) = %v, want %v", fmt.Sprintf("%T m=%d k=%d", T(0), m, k), i, l, got, want)
					}
				}
			}
		}
	}
}
