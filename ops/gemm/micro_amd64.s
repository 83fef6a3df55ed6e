//go:build amd64 && !purego

#include "textflag.h"

// The packed family's mr x nr = 4 x 2 register tile with AVX2 and FMA (see
// micro_amd64.go). A panel holds the 4 rows of op(A) for each k step
// contiguously, B panel the 2 columns of op(B) for each k step: one vector
// load of A and two broadcasts of B feed two fused multiply-adds per k
// step. Four k steps are unrolled into separate accumulators (Y0..Y7), so
// eight FMAs are in flight and their latency is hidden; the four partial
// sums are added at the end.

// func micro4x2F64(kb int, ap, bp *float64, out *[8]float64)
TEXT ·micro4x2F64(SB), NOSPLIT, $0-32
	MOVQ kb+0(FP), CX
	MOVQ ap+8(FP), SI
	MOVQ bp+16(FP), DI
	MOVQ out+24(FP), DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	CMPQ CX, $4
	JLT  d_tail

d_loop4:
	VMOVUPD      (SI), Y8
	VBROADCASTSD (DI), Y9
	VBROADCASTSD 8(DI), Y10
	VFMADD231PD  Y8, Y9, Y0
	VFMADD231PD  Y8, Y10, Y1
	VMOVUPD      32(SI), Y11
	VBROADCASTSD 16(DI), Y12
	VBROADCASTSD 24(DI), Y13
	VFMADD231PD  Y11, Y12, Y2
	VFMADD231PD  Y11, Y13, Y3
	VMOVUPD      64(SI), Y8
	VBROADCASTSD 32(DI), Y9
	VBROADCASTSD 40(DI), Y10
	VFMADD231PD  Y8, Y9, Y4
	VFMADD231PD  Y8, Y10, Y5
	VMOVUPD      96(SI), Y11
	VBROADCASTSD 48(DI), Y12
	VBROADCASTSD 56(DI), Y13
	VFMADD231PD  Y11, Y12, Y6
	VFMADD231PD  Y11, Y13, Y7
	ADDQ         $128, SI
	ADDQ         $64, DI
	SUBQ         $4, CX
	CMPQ         CX, $4
	JGE          d_loop4

d_tail:
	TESTQ CX, CX
	JEQ   d_done

d_loop1:
	VMOVUPD      (SI), Y8
	VBROADCASTSD (DI), Y9
	VBROADCASTSD 8(DI), Y10
	VFMADD231PD  Y8, Y9, Y0
	VFMADD231PD  Y8, Y10, Y1
	ADDQ         $32, SI
	ADDQ         $16, DI
	DECQ         CX
	JNE          d_loop1

d_done:
	VADDPD  Y2, Y0, Y0
	VADDPD  Y6, Y4, Y4
	VADDPD  Y4, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VADDPD  Y7, Y5, Y5
	VADDPD  Y5, Y1, Y1
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VZEROUPPER
	RET

// func micro4x2F32(kb int, ap, bp *float32, out *[8]float32)
TEXT ·micro4x2F32(SB), NOSPLIT, $0-32
	MOVQ kb+0(FP), CX
	MOVQ ap+8(FP), SI
	MOVQ bp+16(FP), DI
	MOVQ out+24(FP), DX
	VXORPS X0, X0, X0
	VXORPS X1, X1, X1
	VXORPS X2, X2, X2
	VXORPS X3, X3, X3
	VXORPS X4, X4, X4
	VXORPS X5, X5, X5
	VXORPS X6, X6, X6
	VXORPS X7, X7, X7
	CMPQ CX, $4
	JLT  s_tail

s_loop4:
	VMOVUPS      (SI), X8
	VBROADCASTSS (DI), X9
	VBROADCASTSS 4(DI), X10
	VFMADD231PS  X8, X9, X0
	VFMADD231PS  X8, X10, X1
	VMOVUPS      16(SI), X11
	VBROADCASTSS 8(DI), X12
	VBROADCASTSS 12(DI), X13
	VFMADD231PS  X11, X12, X2
	VFMADD231PS  X11, X13, X3
	VMOVUPS      32(SI), X8
	VBROADCASTSS 16(DI), X9
	VBROADCASTSS 20(DI), X10
	VFMADD231PS  X8, X9, X4
	VFMADD231PS  X8, X10, X5
	VMOVUPS      48(SI), X11
	VBROADCASTSS 24(DI), X12
	VBROADCASTSS 28(DI), X13
	VFMADD231PS  X11, X12, X6
	VFMADD231PS  X11, X13, X7
	ADDQ         $64, SI
	ADDQ         $32, DI
	SUBQ         $4, CX
	CMPQ         CX, $4
	JGE          s_loop4

s_tail:
	TESTQ CX, CX
	JEQ   s_done

s_loop1:
	VMOVUPS      (SI), X8
	VBROADCASTSS (DI), X9
	VBROADCASTSS 4(DI), X10
	VFMADD231PS  X8, X9, X0
	VFMADD231PS  X8, X10, X1
	ADDQ         $16, SI
	ADDQ         $8, DI
	DECQ         CX
	JNE          s_loop1

s_done:
	VADDPS  X2, X0, X0
	VADDPS  X6, X4, X4
	VADDPS  X4, X0, X0
	VADDPS  X3, X1, X1
	VADDPS  X7, X5, X5
	VADDPS  X5, X1, X1
	VMOVUPS X0, (DX)
	VMOVUPS X1, 16(DX)
	VZEROUPPER
	RET
