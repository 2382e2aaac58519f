package encoder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	data := tinyModel(t)
	m, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "tiny" || m.Dim() != 8 || m.MaxTokens() != 12 {
		t.Errorf("Load: %s, %d dimensions, %d tokens", m.Name(), m.Dim(), m.MaxTokens())
	}
	t.Run("every truncation", func(t *testing.T) {
		for n := range len(data) {
			if _, err := Load(data[:n]); !errors.Is(err, ErrFormat) {
				t.Fatalf("Load of the first %d of %d bytes: %v, want ErrFormat", n, len(data), err)
			}
		}
	})
	t.Run("bytes after", func(t *testing.T) {
		if _, err := Load(append(slices.Clip(data), 0)); !errors.Is(err, ErrFormat) {
			t.Errorf("Load with a byte after: %v, want ErrFormat", err)
		}
	})
	bad := func(t *testing.T, edit func(*Config, []Tensor) []Tensor, want string) {
		t.Helper()
		cfg := tinyConfig()
		ts := edit(&cfg, tinyTensors(cfg, 1))
		var b bytes.Buffer
		if err := Write(&b, cfg, ts); err != nil {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("Write: %v, want it to say %q", err, want)
			}
			return
		}
		_, err := Load(b.Bytes())
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), want) {
			t.Errorf("Load: %v, want ErrFormat saying %q", err, want)
		}
	}
	t.Run("missing tensor", func(t *testing.T) {
		bad(t, func(_ *Config, ts []Tensor) []Tensor { return ts[:len(ts)-1] }, "no tensor encoder.layer.1.output.LayerNorm.bias")
	})
	t.Run("wrong shape", func(t *testing.T) {
		bad(t, func(c *Config, ts []Tensor) []Tensor { c.Intermediate = 12; return ts }, "is 16×8, not 12×8")
	})
	t.Run("float for int8", func(t *testing.T) {
		bad(t, func(_ *Config, ts []Tensor) []Tensor {
			ts[0] = Tensor{Name: ts[0].Name, Rows: ts[0].Rows, Cols: ts[0].Cols, F32: make([]float32, ts[0].Rows*ts[0].Cols)}
			return ts
		}, "is not int8")
	})
	t.Run("heads", func(t *testing.T) {
		bad(t, func(c *Config, ts []Tensor) []Tensor { c.Heads = 3; return ts }, "3 heads")
	})
	t.Run("pooling", func(t *testing.T) {
		bad(t, func(c *Config, ts []Tensor) []Tensor { c.Pooling = "max"; return ts }, `pooling "max"`)
	})
	t.Run("unknown token", func(t *testing.T) {
		bad(t, func(c *Config, ts []Tensor) []Tensor { c.Tokenizer.Unk = "<unk>"; return ts }, "not in the vocabulary")
	})
	t.Run("magic", func(t *testing.T) {
		d := slices.Clone(data)
		d[0] = 'W'
		if _, err := Load(d); !errors.Is(err, ErrFormat) {
			t.Errorf("Load: %v, want ErrFormat", err)
		}
	})
}

func TestModel_Embed_batches(t *testing.T) {
	m, err := Load(tinyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"the wiki", "a", "", "wikis!", "你好 cafe", "the the the the the the the the the the the the"}
	all, err := m.Embed(context.Background(), texts, Passage)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		one, err := m.Embed(context.Background(), []string{text}, Passage)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one[0], all[i]) {
			t.Errorf("%q alone: %v\nin a batch: %v", text, one[0], all[i])
		}
		var norm float64
		for _, v := range all[i] {
			norm += float64(v) * float64(v)
		}
		if math.Abs(norm-1) > 1e-5 {
			t.Errorf("%q: norm² %v, want 1", text, norm)
		}
	}
	q, err := m.Embed(context.Background(), texts[:1], Query)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(q[0], all[0]) {
		t.Error("a query's vector is its passage's: the query prefix was not put before it")
	}
	if _, err := m.Embed(context.Background(), texts, Kind(7)); !errors.Is(err, ErrKind) {
		t.Errorf("Embed with kind 7: %v, want ErrKind", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, texts, Passage); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: %v", err)
	}
}

func TestGelu(t *testing.T) {
	var worst float64
	for x := -12.0; x <= 12; x += 0.001 {
		v := []float32{float32(x)}
		gelu(v)
		want := 0.5 * x * (1 + math.Erf(x/math.Sqrt2))
		worst = max(worst, math.Abs(float64(v[0])-want))
	}
	if worst > 1e-5 {
		t.Errorf("gelu is %g from the exact GELU at worst", worst)
	}
	odd := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	gelu(odd)
	if !math.IsNaN(float64(odd[0])) || !math.IsInf(float64(odd[1]), 1) || odd[2] != 0 {
		t.Errorf("gelu(NaN, +Inf, -Inf) = %v", odd)
	}
}

func TestQuantize(t *testing.T) {
	data := []float32{0.5, -1, 0.25, 0, 0, 0, 3, 2, -1}
	q := Quantize("w", 3, 3, data)
	if !slices.Equal(q.Q8, []int8{64, -127, 32, 0, 0, 0, 127, 85, -42}) {
		t.Errorf("Quantize: %v", q.Q8)
	}
	if q.Scale[1] != 0 || math.Abs(float64(q.Scale[2])-3.0/127) > 1e-9 {
		t.Errorf("Quantize's scales: %v", q.Scale)
	}
}

// TestModel_Embed_concurrent embeds from several goroutines at once, as a
// caller may to use several cores: the model is shared, read only.
func TestModel_Embed_concurrent(t *testing.T) {
	m, err := Load(tinyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"the wiki", "a b c", "你好"}
	want, err := m.Embed(context.Background(), texts, Query)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := m.Embed(context.Background(), texts, Query)
			if err == nil {
				for i := range got {
					if !slices.Equal(got[i], want[i]) {
						err = fmt.Errorf("%q: %v, want %v", texts[i], got[i], want[i])
					}
				}
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestExpNeg(t *testing.T) {
	var worst float64
	for x := float32(-80); x <= 0; x += 0.0013 {
		want := math.Exp(float64(x))
		worst = max(worst, math.Abs(float64(expNeg(x))-want)/want)
	}
	if worst > 3e-7 {
		t.Errorf("expNeg is %g from e^x relatively at worst", worst)
	}
	t.Logf("expNeg is %g from e^x relatively at worst", worst)
	for _, x := range []float32{0, -0.5, -1, -1e-9} {
		if got, want := expNeg(x), math.Exp(float64(x)); math.Abs(float64(got)-want) > 2e-7 {
			t.Errorf("expNeg(%v) = %v, want %v", x, got, want)
		}
	}
	if expNeg(-81) != 0 || expNeg(float32(math.Inf(-1))) != 0 || !math.IsNaN(float64(expNeg(float32(math.NaN())))) {
		t.Error("expNeg of -81, -Inf or NaN")
	}
}
