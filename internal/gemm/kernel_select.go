package gemm

// current is the implementation in use: the best the processor runs
// ("avx2" on amd64 with AVX2 and FMA, "neon" on arm64), or plain Go ("go":
// elsewhere, or built with the tag purego). Tests switch it.
var current = best()
