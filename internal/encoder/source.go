package encoder

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Source records a model file and what it was made from, as its sum file
// says: make encoder-model writes both, and a test checks that the
// committed model file is the one recorded.
type Source struct {
	// Artifact is the Maven artifact, group:artifact:version, whose jar
	// the model is made from; JarSHA256 is the jar's checksum, hex.
	Artifact, JarSHA256 string
	// ONNX names the model's ONNX file in the jar; ONNXSHA256 and
	// TokenizerSHA256 are the checksums of it and of its tokenizer.json.
	ONNX, ONNXSHA256, TokenizerSHA256 string
	// Model is where the model's authors publish it; License is its
	// licence and the packaging's.
	Model, License string
	// Size and SHA256 are the model file's length and checksum, hex.
	Size   int64
	SHA256 string
}

// sumKeys are the keys of a sum file, in the order WriteSum writes them.
var sumKeys = []string{"artifact", "jar-sha256", "onnx", "onnx-sha256", "tokenizer-sha256",
	"model", "license", "size", "sha256"}

// ReadSum reads a sum file: "key: value" lines, blank lines and lines
// starting with # aside. It returns an error for a line of another form,
// an unknown, repeated or missing key, or a size that is not a number.
func ReadSum(r io.Reader) (Source, error) {
	vals := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return Source{}, fmt.Errorf("sum line %q is not key: value", line)
		}
		k = strings.TrimSpace(k)
		if _, dup := vals[k]; dup {
			return Source{}, fmt.Errorf("sum has %s twice", k)
		}
		vals[k] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return Source{}, fmt.Errorf("read the sum: %w", err)
	}
	for _, k := range sumKeys {
		if vals[k] == "" {
			return Source{}, fmt.Errorf("sum has no %s", k)
		}
	}
	if len(vals) != len(sumKeys) {
		return Source{}, fmt.Errorf("sum has %d keys, not the %d it should", len(vals), len(sumKeys))
	}
	size, err := strconv.ParseInt(vals["size"], 10, 64)
	if err != nil {
		return Source{}, fmt.Errorf("sum's size: %w", err)
	}
	return Source{Artifact: vals["artifact"], JarSHA256: vals["jar-sha256"], ONNX: vals["onnx"],
		ONNXSHA256: vals["onnx-sha256"], TokenizerSHA256: vals["tokenizer-sha256"], Model: vals["model"],
		License: vals["license"], Size: size, SHA256: vals["sha256"]}, nil
}

// WriteSum writes s as the sum file of the model file named file, which
// ReadSum reads.
func WriteSum(w io.Writer, file string, s Source) error {
	_, err := fmt.Fprintf(w, "# The encoder model file %s and the Maven artifact it is made from.\n"+
		"# Written by make encoder-model; checked by TestBuiltin_Source.\n"+
		"artifact: %s\njar-sha256: %s\nonnx: %s\nonnx-sha256: %s\ntokenizer-sha256: %s\n"+
		"model: %s\nlicense: %s\nsize: %d\nsha256: %s\n",
		file, s.Artifact, s.JarSHA256, s.ONNX, s.ONNXSHA256, s.TokenizerSHA256, s.Model, s.License, s.Size, s.SHA256)
	return err
}

// SHA256 returns the hex SHA-256 of data.
func SHA256(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
