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

// func dotRowsF64(acc, x, y *T, rows int): one accumulator, the rows in
// order (the sum is sequential per lane, as the Go twin's).
TEXT ·dotRowsF64(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MOVQ rows+24(FP), CX
	VMOVUPD (AX), Z0
dotF64loop:
	TESTQ CX, CX
	JZ dotF64done
	VMOVUPD (SI), Z1
	VMULPD (DI), Z1, Z1
	VADDPD Z1, Z0, Z0
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JMP dotF64loop
dotF64done:
	VMOVUPD Z0, (AX)
	VZEROUPPER
	RET

// func dotRowsF32(acc, x, y *T, rows int): one accumulator, the rows in
// order (the sum is sequential per lane, as the Go twin's).
TEXT ·dotRowsF32(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), AX
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DI
	MOVQ rows+24(FP), CX
	VMOVUPS (AX), Z0
dotF32loop:
	TESTQ CX, CX
	JZ dotF32done
	VMOVUPS (SI), Z1
	VMULPS (DI), Z1, Z1
	VADDPS Z1, Z0, Z0
	ADDQ $64, SI
	ADDQ $64, DI
	DECQ CX
	JMP dotF32loop
dotF32done:
	VMOVUPS Z0, (AX)
	VZEROUPPER
	RET
