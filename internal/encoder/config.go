package encoder

import (
	"fmt"
	"strings"
)

// Pooling names how a model turns its tokens' last hidden states into one
// vector.
const (
	// PoolCLS takes the state of the first token, [CLS] (bge).
	PoolCLS = "cls"
	// PoolMean averages the states of every token, [CLS] and [SEP]
	// included (e5, MiniLM, as sentence-transformers does).
	PoolMean = "mean"
)

// Config is what a model file says about its model, besides its tensors.
type Config struct {
	// Name names the model's vectors, e.g. "bge-small-en-v1.5-int8".
	Name string `json:"name"`
	// Layers, Hidden, Heads and Intermediate are BERT's sizes: the
	// encoder's layers, the width of a token's state, the attention heads
	// and the width of the feed-forward layer.
	Layers       int `json:"layers"`
	Hidden       int `json:"hidden"`
	Heads        int `json:"heads"`
	Intermediate int `json:"intermediate"`
	// MaxPositions is the number of position embeddings; TypeVocab the
	// number of token types.
	MaxPositions int `json:"max_positions"`
	TypeVocab    int `json:"type_vocab"`
	// MaxTokens is the longest input the model is given, [CLS] and [SEP]
	// included: longer texts are truncated, as the reference tokenizer
	// does.
	MaxTokens int `json:"max_tokens"`
	// LayerNormEps is the epsilon of every layer norm.
	LayerNormEps float64 `json:"layer_norm_eps"`
	// Pooling is PoolCLS or PoolMean.
	Pooling string `json:"pooling"`
	// QueryPrefix and PassagePrefix are put before a query and a passage
	// (e5: "query: ", "passage: "; bge: an instruction before queries).
	QueryPrefix   string `json:"query_prefix"`
	PassagePrefix string `json:"passage_prefix"`
	// Tokenizer is the model's WordPiece tokenizer.
	Tokenizer TokenizerConfig `json:"tokenizer"`
}

// TokenizerConfig is a BERT tokenizer as HF tokenizers describes it in
// tokenizer.json: a BertNormalizer, a BertPreTokenizer and a WordPiece
// model with its vocabulary.
type TokenizerConfig struct {
	// CleanText removes control characters and makes every white space a
	// space; ChineseChars puts spaces around CJK ideographs;
	// StripAccents removes non-spacing marks after NFD; Lowercase lowers
	// every letter.
	CleanText    bool `json:"clean_text"`
	ChineseChars bool `json:"handle_chinese_chars"`
	StripAccents bool `json:"strip_accents"`
	Lowercase    bool `json:"lowercase"`
	// Unk is the token of a word WordPiece cannot spell; Prefix marks a
	// piece that continues a word ("##"); MaxWordChars is the longest
	// word spelled, in characters (longer ones are Unk).
	Unk          string `json:"unk_token"`
	Prefix       string `json:"continuing_subword_prefix"`
	MaxWordChars int    `json:"max_input_chars_per_word"`
	// CLS and SEP open and close every input.
	CLS string `json:"cls_token"`
	SEP string `json:"sep_token"`
	// Special lists the tokens matched as they are in the raw text,
	// before normalisation ([PAD], [UNK], [CLS], [SEP], [MASK]).
	Special []string `json:"special"`
	// Vocab is the vocabulary, by id.
	Vocab []string `json:"vocab"`
}

// validate checks that c describes a model this package can run.
func (c *Config) validate() error {
	switch {
	case c.Layers <= 0 || c.Layers > 64:
		return fmt.Errorf("%w: %d layers", ErrFormat, c.Layers)
	case c.Hidden <= 0 || c.Hidden > 8192:
		return fmt.Errorf("%w: hidden size %d", ErrFormat, c.Hidden)
	case c.Heads <= 0 || c.Hidden%c.Heads != 0:
		return fmt.Errorf("%w: %d heads for hidden size %d", ErrFormat, c.Heads, c.Hidden)
	case c.Intermediate <= 0 || c.Intermediate > 65536:
		return fmt.Errorf("%w: intermediate size %d", ErrFormat, c.Intermediate)
	case c.MaxPositions < 3 || c.MaxPositions > 65536:
		return fmt.Errorf("%w: %d positions", ErrFormat, c.MaxPositions)
	case c.TypeVocab <= 0 || c.TypeVocab > 1024:
		return fmt.Errorf("%w: %d token types", ErrFormat, c.TypeVocab)
	case c.MaxTokens < 3 || c.MaxTokens > c.MaxPositions:
		return fmt.Errorf("%w: max tokens %d for %d positions", ErrFormat, c.MaxTokens, c.MaxPositions)
	case !(c.LayerNormEps > 0 && c.LayerNormEps < 1):
		return fmt.Errorf("%w: layer norm epsilon %g", ErrFormat, c.LayerNormEps)
	case c.Pooling != PoolCLS && c.Pooling != PoolMean:
		return fmt.Errorf("%w: pooling %q", ErrFormat, c.Pooling)
	case strings.TrimSpace(c.Name) == "":
		return fmt.Errorf("%w: no model name", ErrFormat)
	}
	t := &c.Tokenizer
	switch {
	case len(t.Vocab) == 0 || len(t.Vocab) > 1<<22:
		return fmt.Errorf("%w: vocabulary of %d tokens", ErrFormat, len(t.Vocab))
	case t.MaxWordChars <= 0:
		return fmt.Errorf("%w: max input chars per word %d", ErrFormat, t.MaxWordChars)
	case t.Unk == "" || t.CLS == "" || t.SEP == "":
		return fmt.Errorf("%w: the tokenizer lacks its unknown, CLS or SEP token", ErrFormat)
	}
	return nil
}
