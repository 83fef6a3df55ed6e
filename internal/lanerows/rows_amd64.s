//go:build amd64 && !purego

#include "textflag.h"

// Written by hand: one loop, two rows of lanes a turn. Each row is
// y := y + t*x with the product rounded first (VMULP then VADDP, not a
// fused multiply-add), as Go computes y += t*x.

// func axpyRowsF64(y, x *float64, rows int, t *float64)
TEXT ·axpyRowsF64(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ t+24(FP), AX
	VMOVUPD (AX), Z0
f64pair:
	CMPQ CX, $2
	JLT f64one
	VMULPD (SI), Z0, Z1
	VMULPD 64(SI), Z0, Z2
	VADDPD (DI), Z1, Z1
	VADDPD 64(DI), Z2, Z2
	VMOVUPD Z1, (DI)
	VMOVUPD Z2, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $2, CX
	JMP f64pair
f64one:
	TESTQ CX, CX
	JZ f64done
	VMULPD (SI), Z0, Z1
	VADDPD (DI), Z1, Z1
	VMOVUPD Z1, (DI)
f64done:
	VZEROUPPER
	RET

// func axpyRowsF32(y, x *float32, rows int, t *float32)
TEXT ·axpyRowsF32(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ t+24(FP), AX
	VMOVUPS (AX), Z0
f32pair:
	CMPQ CX, $2
	JLT f32one
	VMULPS (SI), Z0, Z1
	VMULPS 64(SI), Z0, Z2
	VADDPS (DI), Z1, Z1
	VADDPS 64(DI), Z2, Z2
	VMOVUPS Z1, (DI)
	VMOVUPS Z2, 64(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $2, CX
	JMP f32pair
f32one:
	TESTQ CX, CX
	JZ f32done
	VMULPS (SI), Z0, Z1
	VADDPS (DI), Z1, Z1
	VMOVUPS Z1, (DI)
f32done:
	VZEROUPPER
	RET

// func dotRowsF64(dst, x, y *T, rows int): four partial sums from zero,
// row r into sum r%4 (Z0, Z2, Z3, Z4), combined as (Z0+Z2)+(Z3+Z4), as
// the Go twin sums; dst is written last, so it may alias a row read.
TEXT ·dotRowsF64(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MOVQ rows+24(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
dotF64four:
	CMPQ CX, $4
	JLT dotF64tail
	VMOVUPD (SI), Z1
	VMULPD (DI), Z1, Z1
	VADDPD Z1, Z0, Z0
	VMOVUPD 64(SI), Z5
	VMULPD 64(DI), Z5, Z5
	VADDPD Z5, Z2, Z2
	VMOVUPD 128(SI), Z6
	VMULPD 128(DI), Z6, Z6
	VADDPD Z6, Z3, Z3
	VMOVUPD 192(SI), Z7
	VMULPD 192(DI), Z7, Z7
	VADDPD Z7, Z4, Z4
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $4, CX
	JMP dotF64four
dotF64tail:
	// Rows 4k, 4k+1, 4k+2 (those that exist) into Z0, Z2, Z3.
	TESTQ CX, CX
	JZ dotF64sum
	VMOVUPD (SI), Z1
	VMULPD (DI), Z1, Z1
	VADDPD Z1, Z0, Z0
	CMPQ CX, $1
	JEQ dotF64sum
	VMOVUPD 64(SI), Z5
	VMULPD 64(DI), Z5, Z5
	VADDPD Z5, Z2, Z2
	CMPQ CX, $2
	JEQ dotF64sum
	VMOVUPD 128(SI), Z6
	VMULPD 128(DI), Z6, Z6
	VADDPD Z6, Z3, Z3
dotF64sum:
	VADDPD Z2, Z0, Z0
	VADDPD Z4, Z3, Z3
	VADDPD Z3, Z0, Z0
	VMOVUPD Z0, (AX)
	VZEROUPPER
	RET

// func dotRowsF32(dst, x, y *T, rows int): four partial sums from zero,
// row r into sum r%4 (Z0, Z2, Z3, Z4), combined as (Z0+Z2)+(Z3+Z4), as
// the Go twin sums; dst is written last, so it may alias a row read.
TEXT ·dotRowsF32(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MOVQ rows+24(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
dotF32four:
	CMPQ CX, $4
	JLT dotF32tail
	VMOVUPS (SI), Z1
	VMULPS (DI), Z1, Z1
	VADDPS Z1, Z0, Z0
	VMOVUPS 64(SI), Z5
	VMULPS 64(DI), Z5, Z5
	VADDPS Z5, Z2, Z2
	VMOVUPS 128(SI), Z6
	VMULPS 128(DI), Z6, Z6
	VADDPS Z6, Z3, Z3
	VMOVUPS 192(SI), Z7
	VMULPS 192(DI), Z7, Z7
	VADDPS Z7, Z4, Z4
	ADDQ $256, SI
	ADDQ $256, DI
	SUBQ $4, CX
	JMP dotF32four
dotF32tail:
	// Rows 4k, 4k+1, 4k+2 (those that exist) into Z0, Z2, Z3.
	TESTQ CX, CX
	JZ dotF32sum
	VMOVUPS (SI), Z1
	VMULPS (DI), Z1, Z1
	VADDPS Z1, Z0, Z0
	CMPQ CX, $1
	JEQ dotF32sum
	VMOVUPS 64(SI), Z5
	VMULPS 64(DI), Z5, Z5
	VADDPS Z5, Z2, Z2
	CMPQ CX, $2
	JEQ dotF32sum
	VMOVUPS 128(SI), Z6
	VMULPS 128(DI), Z6, Z6
	VADDPS Z6, Z3, Z3
dotF32sum:
	VADDPS Z2, Z0, Z0
	VADDPS Z4, Z3, Z3
	VADDPS Z3, Z0, Z0
	VMOVUPS Z0, (AX)
	VZEROUPPER
	RET
