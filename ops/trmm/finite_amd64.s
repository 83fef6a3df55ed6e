//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 loops of finite_amd64.go: the sum of x - x over a rows x cols
// column-major matrix, 0 when every element is finite and NaN otherwise
// (Inf - Inf and NaN - NaN are NaN, and NaN stays in a sum). Two vector
// accumulators per column of 8 (float64) or 16 (float32) elements, then
// one vector, then single elements.

// func sumSelfDiffF64(x *float64, rows, cols, ld int) float64
TEXT ·sumSelfDiffF64(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), SI
	MOVQ rows+8(FP), BX
	MOVQ cols+16(FP), CX
	MOVQ ld+24(FP), DX
	SHLQ $3, DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD X2, X2, X2
f64col:
	TESTQ CX, CX
	JZ f64done
	MOVQ SI, DI
	MOVQ BX, AX
f64by8:
	CMPQ AX, $8
	JLT f64by4
	VMOVUPD (DI), Y3
	VMOVUPD 32(DI), Y4
	VSUBPD Y3, Y3, Y3
	VSUBPD Y4, Y4, Y4
	VADDPD Y3, Y0, Y0
	VADDPD Y4, Y1, Y1
	ADDQ $64, DI
	SUBQ $8, AX
	JMP f64by8
f64by4:
	CMPQ AX, $4
	JLT f64by1
	VMOVUPD (DI), Y3
	VSUBPD Y3, Y3, Y3
	VADDPD Y3, Y0, Y0
	ADDQ $32, DI
	SUBQ $4, AX
f64by1:
	TESTQ AX, AX
	JZ f64next
	VMOVSD (DI), X3
	VSUBSD X3, X3, X3
	VADDSD X3, X2, X2
	ADDQ $8, DI
	DECQ AX
	JMP f64by1
f64next:
	ADDQ DX, SI
	DECQ CX
	JMP f64col
f64done:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD X1, X0, X0
	VUNPCKHPD X0, X0, X1
	VADDSD X1, X0, X0
	VADDSD X2, X0, X0
	VMOVSD X0, ret+32(FP)
	VZEROUPPER
	RET

// func sumSelfDiffF32(x *float32, rows, cols, ld int) float32
TEXT ·sumSelfDiffF32(SB), NOSPLIT, $0-36
	MOVQ x+0(FP), SI
	MOVQ rows+8(FP), BX
	MOVQ cols+16(FP), CX
	MOVQ ld+24(FP), DX
	SHLQ $2, DX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS X2, X2, X2
f32col:
	TESTQ CX, CX
	JZ f32done
	MOVQ SI, DI
	MOVQ BX, AX
f32by16:
	CMPQ AX, $16
	JLT f32by8
	VMOVUPS (DI), Y3
	VMOVUPS 32(DI), Y4
	VSUBPS Y3, Y3, Y3
	VSUBPS Y4, Y4, Y4
	VADDPS Y3, Y0, Y0
	VADDPS Y4, Y1, Y1
	ADDQ $64, DI
	SUBQ $16, AX
	JMP f32by16
f32by8:
	CMPQ AX, $8
	JLT f32by1
	VMOVUPS (DI), Y3
	VSUBPS Y3, Y3, Y3
	VADDPS Y3, Y0, Y0
	ADDQ $32, DI
	SUBQ $8, AX
f32by1:
	TESTQ AX, AX
	JZ f32next
	VMOVSS (DI), X3
	VSUBSS X3, X3, X3
	VADDSS X3, X2, X2
	ADDQ $4, DI
	DECQ AX
	JMP f32by1
f32next:
	ADDQ DX, SI
	DECQ CX
	JMP f32col
f32done:
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVHLPS X0, X0, X1
	VADDPS X1, X0, X0
	VMOVSHDUP X0, X1
	VADDSS X1, X0, X0
	VADDSS X2, X0, X0
	VMOVSS X0, ret+32(FP)
	VZEROUPPER
	RET
