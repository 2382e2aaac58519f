package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// graph is what the converter reads of an ONNX model: its nodes and its
// float32 initializers, by name.
type graph struct {
	nodes []node
	inits map[string]initializer
}

type node struct {
	op      string
	inputs  []string
	outputs []string
}

type initializer struct {
	dims []int
	data []float32
}

// ONNX's field numbers (onnx.proto3).
const (
	modelGraph       = 7
	graphNode        = 1
	graphInitializer = 5
	nodeInput        = 1
	nodeOutput       = 2
	nodeOpType       = 4
	tensorDims       = 1
	tensorDataType   = 2
	tensorFloatData  = 4
	tensorName       = 8
	tensorRawData    = 9
	tensorFloat      = 1 // TensorProto.DataType FLOAT
)

// fields calls f with each field of the protobuf message b; it stops at
// the first error.
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := f(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}

// readONNX decodes the graph of an ONNX model: its nodes and its float
// initializers (others are skipped).
func readONNX(data []byte) (*graph, error) {
	g := &graph{inits: make(map[string]initializer)}
	var body []byte
	err := fields(data, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num == modelGraph && typ == protowire.BytesType {
			body = v
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the model: %w", err)
	}
	if body == nil {
		return nil, errors.New("the model has no graph")
	}
	err = fields(body, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case graphNode:
			n, err := readNode(v)
			if err != nil {
				return err
			}
			g.nodes = append(g.nodes, n)
		case graphInitializer:
			name, t, err := readTensor(v)
			if err != nil {
				return fmt.Errorf("initializer %q: %w", name, err)
			}
			if t.data != nil {
				g.inits[name] = t
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the graph: %w", err)
	}
	return g, nil
}

func readNode(b []byte) (node, error) {
	var n node
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case nodeInput:
			n.inputs = append(n.inputs, string(v))
		case nodeOutput:
			n.outputs = append(n.outputs, string(v))
		case nodeOpType:
			n.op = string(v)
		}
		return nil
	})
	return n, err
}

// readTensor decodes a TensorProto; a tensor that is not float32 comes
// back without data.
func readTensor(b []byte) (string, initializer, error) {
	var (
		name    string
		t       initializer
		dtype   uint64
		raw     []byte
		floats  []float32
		hasData bool
	)
	err := fields(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch {
		case num == tensorDims && typ == protowire.VarintType:
			t.dims = append(t.dims, int(x))
		case num == tensorDims && typ == protowire.BytesType:
			for len(v) > 0 {
				d, n := protowire.ConsumeVarint(v)
				if n < 0 {
					return protowire.ParseError(n)
				}
				t.dims = append(t.dims, int(d))
				v = v[n:]
			}
		case num == tensorDataType:
			dtype = x
		case num == tensorName:
			name = string(v)
		case num == tensorRawData:
			raw, hasData = v, true
		case num == tensorFloatData && typ == protowire.BytesType:
			for ; len(v) >= 4; v = v[4:] {
				floats = append(floats, math.Float32frombits(binary.LittleEndian.Uint32(v)))
			}
			hasData = true
		case num == tensorFloatData && typ == protowire.Fixed32Type:
			return errors.New("unpacked float_data is not read")
		}
		return nil
	})
	if err != nil || dtype != tensorFloat || !hasData {
		return name, initializer{}, err
	}
	size := 1
	for _, d := range t.dims {
		if d < 0 || d > 1<<31 || size*d > 1<<33 {
			return name, t, fmt.Errorf("dimensions %v", t.dims)
		}
		size *= d
	}
	if raw != nil {
		if len(raw) != 4*size {
			return name, t, fmt.Errorf("%d bytes of raw data for %v", len(raw), t.dims)
		}
		floats = make([]float32, size)
		for i := range floats {
			floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	}
	if len(floats) != size {
		return name, t, fmt.Errorf("%d floats for %v", len(floats), t.dims)
	}
	t.data = floats
	return name, t, nil
}

// namedWeights returns the weight of each MatMul whose second input is an
// initializer, named after the bias its result is added to ("x.bias" gives
// "x.weight"): exports often name those weights anonymously
// (onnx::MatMul_1525). Each weight comes back transposed to BERT's
// out×in.
func (g *graph) namedWeights() (map[string]initializer, error) {
	consumers := make(map[string][]node)
	for _, n := range g.nodes {
		for _, in := range n.inputs {
			consumers[in] = append(consumers[in], n)
		}
	}
	out := make(map[string]initializer)
	for _, n := range g.nodes {
		if n.op != "MatMul" || len(n.inputs) != 2 || len(n.outputs) != 1 {
			continue
		}
		w, ok := g.inits[n.inputs[1]]
		if !ok || len(w.dims) != 2 {
			continue
		}
		var name string
		for _, c := range consumers[n.outputs[0]] {
			if c.op != "Add" {
				continue
			}
			for _, in := range c.inputs {
				if _, isInit := g.inits[in]; isInit && len(in) > 5 && in[len(in)-5:] == ".bias" {
					name = in[:len(in)-5] + ".weight"
				}
			}
		}
		if name == "" {
			return nil, fmt.Errorf("the weight %s of a MatMul is added to no named bias", n.inputs[1])
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("two weights for %s", name)
		}
		rows, cols := w.dims[0], w.dims[1] // in×out
		tr := make([]float32, rows*cols)
		for i := range rows {
			for j := range cols {
				tr[j*rows+i] = w.data[i*cols+j]
			}
		}
		out[name] = initializer{dims: []int{cols, rows}, data: tr}
	}
	return out, nil
}

// count returns how many nodes of g have the operator op.
func (g *graph) count(op string) int {
	n := 0
	for _, nd := range g.nodes {
		if nd.op == op {
			n++
		}
	}
	return n
}
