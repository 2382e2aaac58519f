package encoder

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// tinyConfig is a small model's configuration, with a vocabulary that
// spells a few words.
func tinyConfig() Config {
	vocab := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c", "the", "wiki", "##s", "##ki", "!", ".", "你", "好", "cafe"}
	return Config{
		Name: "tiny", Layers: 2, Hidden: 8, Heads: 2, Intermediate: 16, MaxPositions: 16, TypeVocab: 2,
		MaxTokens: 12, LayerNormEps: 1e-12, Pooling: PoolMean, QueryPrefix: "q ", PassagePrefix: "",
		Tokenizer: TokenizerConfig{CleanText: true, ChineseChars: true, StripAccents: true, Lowercase: true,
			Unk: "[UNK]", Prefix: "##", MaxWordChars: 100, CLS: "[CLS]", SEP: "[SEP]",
			Special: []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}, Vocab: vocab},
	}
}

// tinyTensors are random weights for cfg, int8 where the model file
// quantizes them.
func tinyTensors(cfg Config, seed uint64) []Tensor {
	r := rand.New(rand.NewPCG(seed, 1))
	rnd := func(n int, scale float32) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = (r.Float32()*2 - 1) * scale
		}
		return v
	}
	ones := func(n int) []float32 {
		v := rnd(n, 0.1)
		for i := range v {
			v[i]++
		}
		return v
	}
	h, in := cfg.Hidden, cfg.Intermediate
	ts := []Tensor{
		Quantize("embeddings.word_embeddings.weight", len(cfg.Tokenizer.Vocab), h, rnd(len(cfg.Tokenizer.Vocab)*h, 1)),
		Quantize("embeddings.position_embeddings.weight", cfg.MaxPositions, h, rnd(cfg.MaxPositions*h, 0.5)),
		{Name: "embeddings.token_type_embeddings.weight", Rows: cfg.TypeVocab, Cols: h, F32: rnd(cfg.TypeVocab*h, 0.1)},
		{Name: "embeddings.LayerNorm.weight", Rows: 1, Cols: h, F32: ones(h)},
		{Name: "embeddings.LayerNorm.bias", Rows: 1, Cols: h, F32: rnd(h, 0.1)},
	}
	for l := range cfg.Layers {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, lin := range []struct {
			name string
			n, k int
		}{{"attention.self.query", h, h}, {"attention.self.key", h, h}, {"attention.self.value", h, h},
			{"attention.output.dense", h, h}, {"intermediate.dense", in, h}, {"output.dense", h, in}} {
			ts = append(ts, Quantize(p+lin.name+".weight", lin.n, lin.k, rnd(lin.n*lin.k, 0.5)),
				Tensor{Name: p + lin.name + ".bias", Rows: 1, Cols: lin.n, F32: rnd(lin.n, 0.1)})
		}
		for _, ln := range []string{"attention.output.LayerNorm", "output.LayerNorm"} {
			ts = append(ts, Tensor{Name: p + ln + ".weight", Rows: 1, Cols: h, F32: ones(h)},
				Tensor{Name: p + ln + ".bias", Rows: 1, Cols: h, F32: rnd(h, 0.1)})
		}
	}
	return ts
}

// tinyModel returns the file of a small model with random weights.
func tinyModel(tb testing.TB) []byte {
	tb.Helper()
	cfg := tinyConfig()
	var b bytes.Buffer
	if err := Write(&b, cfg, tinyTensors(cfg, 1)); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}
