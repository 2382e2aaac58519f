package encoder

import "github.com/wikid/wikid/internal/gemm"

// packWeights packs every layer's matrices for gemm's kernel, once, on the
// first forward pass: packing copies them out of the model file's data
// (21 MB of heap for bge-small), which a model loaded only to count tokens
// never needs.
func (m *Model) packWeights() {
	m.pack.Do(func() {
		for i := range m.layers {
			l := &m.layers[i]
			for _, lin := range []*linear{&l.q, &l.k, &l.v, &l.o, &l.in, &l.out} {
				lin.mat = gemm.NewInt8(lin.w, lin.scale, lin.n, lin.k)
			}
		}
	})
}

// apply sets dst (rows×n) to src (rows×k) times the layer's weights, plus
// its bias. The model's weights must be packed.
func (l *linear) apply(dst, src []float32, rows int) {
	l.mat.MulT(dst[:rows*l.n], src[:rows*l.k], rows, l.bias)
}
