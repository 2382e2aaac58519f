package main

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// tensorProto encodes a float32 TensorProto, its data as raw_data.
func tensorProto(name string, dims []int, data []float32) []byte {
	var b []byte
	var packed []byte
	for _, d := range dims {
		packed = protowire.AppendVarint(packed, uint64(d))
	}
	b = protowire.AppendTag(b, tensorDims, protowire.BytesType)
	b = protowire.AppendBytes(b, packed)
	b = protowire.AppendTag(b, tensorDataType, protowire.VarintType)
	b = protowire.AppendVarint(b, tensorFloat)
	b = protowire.AppendTag(b, tensorName, protowire.BytesType)
	b = protowire.AppendString(b, name)
	raw := make([]byte, 4*len(data))
	for i, f := range data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
	}
	b = protowire.AppendTag(b, tensorRawData, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

func nodeProto(op string, inputs, outputs []string) []byte {
	var b []byte
	for _, in := range inputs {
		b = protowire.AppendTag(b, nodeInput, protowire.BytesType)
		b = protowire.AppendString(b, in)
	}
	for _, out := range outputs {
		b = protowire.AppendTag(b, nodeOutput, protowire.BytesType)
		b = protowire.AppendString(b, out)
	}
	b = protowire.AppendTag(b, nodeOpType, protowire.BytesType)
	return protowire.AppendString(b, op)
}

// modelProto encodes a ModelProto whose graph holds nodes and
// initializers.
func modelProto(nodes, inits [][]byte) []byte {
	var g []byte
	for _, n := range nodes {
		g = protowire.AppendTag(g, graphNode, protowire.BytesType)
		g = protowire.AppendBytes(g, n)
	}
	for _, t := range inits {
		g = protowire.AppendTag(g, graphInitializer, protowire.BytesType)
		g = protowire.AppendBytes(g, t)
	}
	var m []byte
	m = protowire.AppendTag(m, 1, protowire.VarintType) // ir_version
	m = protowire.AppendVarint(m, 8)
	m = protowire.AppendTag(m, modelGraph, protowire.BytesType)
	return protowire.AppendBytes(m, g)
}

func TestGraph_namedWeights(t *testing.T) {
	// x (·, 3) times an anonymous 3×2 weight, plus a named bias, as an
	// export writes BERT's query projection.
	data := modelProto(
		[][]byte{
			nodeProto("MatMul", []string{"x", "onnx::MatMul_7"}, []string{"mm"}),
			nodeProto("Add", []string{"layer.query.bias", "mm"}, []string{"y"}),
		},
		[][]byte{
			tensorProto("onnx::MatMul_7", []int{3, 2}, []float32{1, 2, 3, 4, 5, 6}),
			tensorProto("layer.query.bias", []int{2}, []float32{0.5, -0.5}),
		})
	g, err := readONNX(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.nodes) != 2 || len(g.inits) != 2 {
		t.Fatalf("readONNX: %d nodes, %d initializers", len(g.nodes), len(g.inits))
	}
	ws, err := g.namedWeights()
	if err != nil {
		t.Fatal(err)
	}
	w, ok := ws["layer.query.weight"]
	if !ok {
		t.Fatalf("namedWeights: %v, want layer.query.weight", ws)
	}
	// Transposed to out×in: rows are (1, 3, 5) and (2, 4, 6).
	if !slices.Equal(w.dims, []int{2, 3}) || !slices.Equal(w.data, []float32{1, 3, 5, 2, 4, 6}) {
		t.Errorf("layer.query.weight is %v %v", w.dims, w.data)
	}

	t.Run("a weight added to no named bias", func(t *testing.T) {
		data := modelProto(
			[][]byte{nodeProto("MatMul", []string{"x", "onnx::MatMul_7"}, []string{"mm"})},
			[][]byte{tensorProto("onnx::MatMul_7", []int{3, 2}, []float32{1, 2, 3, 4, 5, 6})})
		g, err := readONNX(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.namedWeights(); err == nil || !strings.Contains(err.Error(), "no named bias") {
			t.Errorf("namedWeights: %v, want an error naming the bias", err)
		}
	})
	t.Run("raw data of the wrong length", func(t *testing.T) {
		data := modelProto(nil, [][]byte{tensorProto("w", []int{3, 3}, []float32{1, 2})})
		if _, err := readONNX(data); err == nil {
			t.Error("readONNX: no error for 2 numbers in a 3×3 tensor")
		}
	})
	t.Run("dimensions that overflow", func(t *testing.T) {
		data := modelProto(nil, [][]byte{tensorProto("w", []int{1 << 32, 1 << 32}, nil)})
		if _, err := readONNX(data); err == nil {
			t.Error("readONNX: no error for a 2³²×2³² tensor of no numbers")
		}
	})
	t.Run("no graph", func(t *testing.T) {
		if _, err := readONNX([]byte{0x08, 0x08}); err == nil {
			t.Error("readONNX: no error for a model without a graph")
		}
	})
}

// FuzzReadONNX checks that readONNX returns a graph or an error, never
// panics, on any bytes.
func FuzzReadONNX(f *testing.F) {
	f.Add(modelProto(
		[][]byte{
			nodeProto("MatMul", []string{"x", "w"}, []string{"mm"}),
			nodeProto("Add", []string{"b.bias", "mm"}, []string{"y"}),
		},
		[][]byte{tensorProto("w", []int{2, 2}, []float32{1, 2, 3, 4}), tensorProto("b.bias", []int{2}, []float32{1, 2})}))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := readONNX(data)
		if err != nil {
			return
		}
		g.namedWeights()
	})
}
