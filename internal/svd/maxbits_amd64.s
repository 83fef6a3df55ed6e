//go:build amd64 && !purego

#include "textflag.h"

// The AVX-512 twins of maxMagnitudeBits (scale.go): the largest bit
// pattern of an m x n column-major matrix with the sign cleared, a vector
// of rows at a time, the last one of each column masked. The float64 and
// float32 functions differ only in the lane width; edit both.

// func maxBits64(x *uint64, m, n, ld int) uint64
TEXT ·maxBits64(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ m+8(FP), R9
	MOVQ n+16(FP), DX
	MOVQ ld+24(FP), R8
	SHLQ $3, R8
	// K1: the rows past the last whole vector of a column.
	MOVQ R9, CX
	ANDQ $7, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHRQ $3, R9
	MOVQ $0x7fffffffffffffff, AX
	VPBROADCASTQ AX, Z1
	VPXORQ Z0, Z0, Z0
max64col:
	MOVQ SI, DI
	MOVQ R9, BX
	TESTQ BX, BX
	JZ max64tail
max64row:
	VPANDQ (DI), Z1, Z2
	VPMAXUQ Z2, Z0, Z0
	ADDQ $64, DI
	DECQ BX
	JNZ max64row
max64tail:
	KORTESTW K1, K1
	JZ max64next
	VMOVDQU64.Z (DI), K1, Z2
	VPANDQ Z2, Z1, Z2
	VPMAXUQ Z2, Z0, Z0
max64next:
	ADDQ R8, SI
	DECQ DX
	JNZ max64col
	VEXTRACTI64X4 $1, Z0, Y2
	VPMAXUQ Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X2
	VPMAXUQ X2, X0, X0
	VPSHUFD $0x4e, X0, X2
	VPMAXUQ X2, X0, X0
	VMOVQ X0, AX
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET

// func maxBits32(x *uint32, m, n, ld int) uint32
TEXT ·maxBits32(SB), NOSPLIT, $0-36
	MOVQ x+0(FP), SI
	MOVQ m+8(FP), R9
	MOVQ n+16(FP), DX
	MOVQ ld+24(FP), R8
	SHLQ $2, R8
	MOVQ R9, CX
	ANDQ $15, CX
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVW AX, K1
	SHRQ $4, R9
	MOVL $0x7fffffff, AX
	VPBROADCASTD AX, Z1
	VPXORD Z0, Z0, Z0
max32col:
	MOVQ SI, DI
	MOVQ R9, BX
	TESTQ BX, BX
	JZ max32tail
max32row:
	VPANDD (DI), Z1, Z2
	VPMAXUD Z2, Z0, Z0
	ADDQ $64, DI
	DECQ BX
	JNZ max32row
max32tail:
	KORTESTW K1, K1
	JZ max32next
	VMOVDQU32.Z (DI), K1, Z2
	VPANDD Z2, Z1, Z2
	VPMAXUD Z2, Z0, Z0
max32next:
	ADDQ R8, SI
	DECQ DX
	JNZ max32col
	VEXTRACTI64X4 $1, Z0, Y2
	VPMAXUD Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X2
	VPMAXUD X2, X0, X0
	VPSHUFD $0x4e, X0, X2
	VPMAXUD X2, X0, X0
	VPSHUFD $0xb1, X0, X2
	VPMAXUD X2, X0, X0
	VMOVD X0, AX
	MOVL AX, ret+32(FP)
	VZEROUPPER
	RET
