//go:build amd64 && !purego

#include "textflag.h"

// Scale and Values across a group's lanes (edges.go, scaleGo and
// valuesGo): one 64-byte row of lanes per instruction.

// func scaleF64(grp *float64, nn int, mask uint64, h int, exps *[16]int32) (active uint64)
TEXT ·scaleF64(SB), NOSPLIT, $0-48
	MOVQ grp+0(FP), SI
	MOVQ nn+8(FP), CX
	MOVQ mask+16(FP), AX
	KMOVW AX, K1
	// Z0: each lane's largest bit pattern with the sign cleared; the
	// patterns of non-negative floats are ordered as their values, and
	// Inf's and NaN's are above every finite one's.
	MOVQ $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z1
	VPXORQ Z0, Z0, Z0
	MOVQ SI, DI
	MOVQ CX, BX
scale64max:
	VPANDQ (DI), Z1, Z2
	VPMAXUQ Z2, Z0, Z0
	ADDQ $64, DI
	DECQ BX
	JNZ scale64max
	MOVQ $0x7ff0000000000000, AX
	VPBROADCASTQ AX, Z3
	VPCMPUQ $1, Z3, Z0, K1, K2 // K2: lanes of mask below Inf
	VPTESTMQ Z0, Z0, K2, K3    // K3: those not all zero
	// e = h - ex = (h-1) - floor(log2 amax), 0 outside K3.
	VGETEXPPD Z0, Z4
	MOVQ h+24(FP), AX
	DECQ AX
	VCVTSI2SDQ AX, X5, X5
	VBROADCASTSD X5, Z5
	VSUBPD.Z Z4, Z5, K3, Z6
	// Entries times 2^e, rounded once; lanes outside K2 zeroed.
	MOVQ SI, DI
	MOVQ CX, BX
scale64mul:
	VMOVUPD (DI), Z2
	VSCALEFPD.Z Z6, Z2, K2, Z2
	VMOVUPD Z2, (DI)
	ADDQ $64, DI
	DECQ BX
	JNZ scale64mul
	// Outside mask the rows were zero and stay zero.
	VCVTPD2DQ Z6, Y7
	MOVQ exps+32(FP), DI
	VMOVDQU Y7, (DI)
	KMOVW K2, AX
	MOVQ AX, active+40(FP)
	VZEROUPPER
	RET

// func scaleF32(grp *float32, nn int, mask uint64, h int, exps *[16]int32) (active uint64)
TEXT ·scaleF32(SB), NOSPLIT, $0-48
	MOVQ grp+0(FP), SI
	MOVQ nn+8(FP), CX
	MOVQ mask+16(FP), AX
	KMOVW AX, K1
	MOVL $0x7fffffff, AX
	VPBROADCASTD AX, Z1
	VPXORD Z0, Z0, Z0
	MOVQ SI, DI
	MOVQ CX, BX
scale32max:
	VPANDD (DI), Z1, Z2
	VPMAXUD Z2, Z0, Z0
	ADDQ $64, DI
	DECQ BX
	JNZ scale32max
	MOVL $0x7f800000, AX
	VPBROADCASTD AX, Z3
	VPCMPUD $1, Z3, Z0, K1, K2
	VPTESTMD Z0, Z0, K2, K3
	VGETEXPPS Z0, Z4
	MOVQ h+24(FP), AX
	DECQ AX
	VCVTSI2SSQ AX, X5, X5
	VBROADCASTSS X5, Z5
	VSUBPS.Z Z4, Z5, K3, Z6
	MOVQ SI, DI
	MOVQ CX, BX
scale32mul:
	VMOVUPS (DI), Z2
	VSCALEFPS.Z Z6, Z2, K2, Z2
	VMOVUPS Z2, (DI)
	ADDQ $64, DI
	DECQ BX
	JNZ scale32mul
	VCVTPS2DQ Z6, Z7
	MOVQ exps+32(FP), DI
	VMOVDQU32 Z7, (DI)
	KMOVW K2, AX
	MOVQ AX, active+40(FP)
	VZEROUPPER
	RET

// func valuesF64(grp *float64, n int, ok uint64, exps *[16]int32, minSum float64, buf *float64) (done uint64)
TEXT ·valuesF64(SB), NOSPLIT, $0-56
	MOVQ grp+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ ok+16(FP), AX
	KMOVW AX, K1
	VBROADCASTSD minSum+32(FP), Z20
	MOVQ buf+40(FP), DI
	MOVQ $0x7ff0000000000000, AX
	VPBROADCASTQ AX, Z21
	// Column j's plain sum of squares (acc += x*x, rounded twice, down
	// the rows), checked against [minSum, Inf), its root to buf[j].
	MOVQ CX, R8
	MOVQ DI, R10
values64col:
	VPXORQ Z0, Z0, Z0
	MOVQ CX, R9
values64row:
	VMOVUPD (SI), Z1
	VMULPD Z1, Z1, Z1
	VADDPD Z1, Z0, Z0
	ADDQ $64, SI
	DECQ R9
	JNZ values64row
	VCMPPD $29, Z20, Z0, K1, K1 // acc >= minSum, ordered
	VCMPPD $1, Z21, Z0, K1, K1  // acc < Inf, ordered
	VSQRTPD Z0, Z0
	VMOVUPD Z0, (R10)
	ADDQ $64, R10
	DECQ R8
	JNZ values64col
	// Sorted descending by an insertion network: row i is exchanged
	// down to row 0, the larger of each pair kept above.
	MOVQ $1, R8
values64sorti:
	CMPQ R8, CX
	JGE values64sorted
	MOVQ R8, R10
	SHLQ $6, R10
	ADDQ DI, R10
	MOVQ R8, R9
values64sortj:
	VMOVUPD (R10), Z0
	VMOVUPD -64(R10), Z1
	VMAXPD Z0, Z1, Z2
	VMINPD Z0, Z1, Z3
	VMOVUPD Z2, -64(R10)
	VMOVUPD Z3, (R10)
	SUBQ $64, R10
	DECQ R9
	JNZ values64sortj
	INCQ R8
	JMP values64sorti
values64sorted:
	// Times 2^-e, rounded once.
	MOVQ exps+24(FP), DX
	VCVTDQ2PD (DX), Z22
	VPXORQ Z23, Z23, Z23
	VSUBPD Z22, Z23, Z22
	MOVQ DI, R10
	MOVQ CX, R8
values64scale:
	VMOVUPD (R10), Z0
	VSCALEFPD Z22, Z0, Z0
	VMOVUPD Z0, (R10)
	ADDQ $64, R10
	DECQ R8
	JNZ values64scale
	KMOVW K1, AX
	MOVQ AX, done+48(FP)
	VZEROUPPER
	RET

// func valuesF32(grp *float32, n int, ok uint64, exps *[16]int32, minSum float32, buf *float32) (done uint64)
TEXT ·valuesF32(SB), NOSPLIT, $0-56
	MOVQ grp+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ ok+16(FP), AX
	KMOVW AX, K1
	VBROADCASTSS minSum+32(FP), Z20
	MOVQ buf+40(FP), DI
	MOVL $0x7f800000, AX
	VPBROADCASTD AX, Z21
	MOVQ CX, R8
	MOVQ DI, R10
values32col:
	VPXORD Z0, Z0, Z0
	MOVQ CX, R9
values32row:
	VMOVUPS (SI), Z1
	VMULPS Z1, Z1, Z1
	VADDPS Z1, Z0, Z0
	ADDQ $64, SI
	DECQ R9
	JNZ values32row
	VCMPPS $29, Z20, Z0, K1, K1
	VCMPPS $1, Z21, Z0, K1, K1
	VSQRTPS Z0, Z0
	VMOVUPS Z0, (R10)
	ADDQ $64, R10
	DECQ R8
	JNZ values32col
	MOVQ $1, R8
values32sorti:
	CMPQ R8, CX
	JGE values32sorted
	MOVQ R8, R10
	SHLQ $6, R10
	ADDQ DI, R10
	MOVQ R8, R9
values32sortj:
	VMOVUPS (R10), Z0
	VMOVUPS -64(R10), Z1
	VMAXPS Z0, Z1, Z2
	VMINPS Z0, Z1, Z3
	VMOVUPS Z2, -64(R10)
	VMOVUPS Z3, (R10)
	SUBQ $64, R10
	DECQ R9
	JNZ values32sortj
	INCQ R8
	JMP values32sorti
values32sorted:
	MOVQ exps+24(FP), DX
	VCVTDQ2PS (DX), Z22
	VPXORD Z23, Z23, Z23
	VSUBPS Z22, Z23, Z22
	MOVQ DI, R10
	MOVQ CX, R8
values32scale:
	VMOVUPS (R10), Z0
	VSCALEFPS Z22, Z0, Z0
	VMOVUPS Z0, (R10)
	ADDQ $64, R10
	DECQ R8
	JNZ values32scale
	KMOVW K1, AX
	MOVQ AX, done+48(FP)
	VZEROUPPER
	RET
