// Package gemm multiplies float32 matrices for the sentence encoder: a
// batch of activations by a weight matrix stored as int8 with one scale
// per output row (Int8.MulT), and activations by activations for attention
// (F32T for scores, F32 for scores times values).
//
// Every product is cut into tiles of 6 rows by 16 columns, each computed
// by a micro-kernel that keeps its 96 sums in registers: in Go assembly
// with AVX2 and FMA on amd64 (chosen at run time with golang.org/x/sys/cpu)
// and with NEON on arm64, in plain Go everywhere else. Int8 weights are
// packed once, 16 output rows to a panel, and widened to float32 inside the
// kernel; their scale and the bias are applied to each finished sum, so the
// result is the product of the activations and the dequantized weights up
// to float32 rounding.
//
// Building with the tag purego leaves the assembly out, so that the
// plain-Go path can be tested and used anywhere.
//
// The functions are safe for concurrent use; an Int8 is read-only once
// made. A slice too short for the shape it is given makes them panic
// with a message that names it, as an index out of range would.
package gemm
