package gemm

import (
	"fmt"
	"math"
)

// checkLen panics unless an operand of have elements holds rows×cols
// numbers, with a message that names the function, the operand and the
// shape, as a slice index out of range would, but before anything is
// written.
func checkLen(fn, name string, have, rows, cols int) {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("gemm.%s: negative dimension %d×%d", fn, rows, cols))
	}
	if cols != 0 && rows > math.MaxInt/cols {
		panic(fmt.Sprintf("gemm.%s: dimension %d×%d overflows int", fn, rows, cols))
	}
	if need := rows * cols; have < need {
		panic(fmt.Sprintf("gemm.%s: %s has %d elements, %d×%d needs %d", fn, name, have, rows, cols, need))
	}
}
