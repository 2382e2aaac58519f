// Package encoder embeds texts with a BERT-family sentence encoder
// (bge-small-en-v1.5, e5-small-v2, all-MiniLM-L6-v2) in pure Go: the
// model's WordPiece tokenizer, its forward pass and its own pooling, with
// weights stored as int8 with one float32 scale per output row.
//
// A model file, made from the model's ONNX export and tokenizer.json by
// ./convert, holds a header (the configuration and the tokenizer's
// vocabulary and settings, as JSON) followed by named tensors: int8
// matrices with a scale per row, and float32 vectors. Load reads it; Embed
// turns texts into L2-normalised vectors, with the model's query or
// passage prefix.
//
// The matrix products go through package gemm: the weights, packed for its
// kernel on the first forward pass (a copy of the layers' int8 weights on
// the heap, 25 MB for bge-small, which a model only loaded to count tokens
// never makes), and attention's scores and context. A forward pass runs on
// up to GOMAXPROCS goroutines that share out its rows and attention's
// heads; the vectors are the same bit for bit on any number of them.
//
// Distil makes a static embedding of a model's vocabulary, as model2vec
// does (each token through the model alone, PCA, weights by rank), which
// WriteStatic writes and Model.Static reads: a text's vector is then its
// tokens' vectors summed, in microseconds, with no forward pass.
package encoder
