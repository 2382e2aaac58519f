package staticembed_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/staticembed"
)

// TestBuiltin_Source checks that the committed model file is the one its
// sum records, made from the package that package-lock.json pins, and the
// one the binary embeds; with the package at hand (after make model), that
// the vectors are the recorded ones and convert to the same model file.
func TestBuiltin_Source(t *testing.T) {
	dir := filepath.Join("model")
	data, err := os.ReadFile(filepath.Join(dir, "builtin.semb"))
	if errors.Is(err, os.ErrNotExist) && os.Getenv("CI") == "" {
		t.Skip("the built-in model file is missing: run make model")
	}
	if err != nil {
		t.Fatal(err)
	}
	src, err := staticembed.BuiltinSource()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("file", func(t *testing.T) {
		if got := staticembed.SHA256(data); got != src.SHA256 || int64(len(data)) != src.Size {
			t.Errorf("model file: %d bytes, sha256 %s; the sum records %d bytes, sha256 %s (run make model)",
				len(data), got, src.Size, src.SHA256)
		}
	})
	t.Run("package", func(t *testing.T) {
		lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
		if err != nil {
			t.Fatal(err)
		}
		version, integrity, err := staticembed.LockedPackage(lock, src.Package)
		if err != nil {
			t.Fatal(err)
		}
		if version != src.Version || integrity != src.Integrity {
			t.Errorf("package-lock.json pins %s %s (%s); the model was made from %s (%s): run make model",
				src.Package, version, integrity, src.Version, src.Integrity)
		}
	})
	t.Run("embedded", func(t *testing.T) {
		m, err := staticembed.Builtin()
		if err != nil {
			t.Fatal(err)
		}
		if m.Model() != staticembed.BuiltinName || m.Dimensions() != 100 {
			t.Errorf("%s, %d dimensions", m.Model(), m.Dimensions())
		}
	})
	t.Run("regenerate", func(t *testing.T) {
		name := filepath.Join(dir, "node_modules", src.Package, src.Package+".json")
		vectors, err := os.ReadFile(name)
		if errors.Is(err, os.ErrNotExist) {
			t.Skip("the npm package is not installed (make model installs it)")
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := staticembed.SHA256(vectors); got != src.SourceSHA256 {
			t.Fatalf("%s: sha256 %s, the sum records %s", name, got, src.SourceSHA256)
		}
		if testing.Short() {
			t.Skip("converting the vectors takes seconds")
		}
		words, vecs, err := staticembed.ReadWink(bytes.NewReader(vectors), 0)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := staticembed.Write(&b, words, vecs, src.Bits); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), data) || len(words) != src.Words {
			t.Errorf("converting %s again gives %d words, sha256 %s; the committed file has sha256 %s",
				name, len(words), staticembed.SHA256(b.Bytes()), src.SHA256)
		}
	})
}

func TestReadSum(t *testing.T) {
	s := staticembed.Source{Package: "p", Version: "1.0.0", Integrity: "sha512-x", SourceSHA256: "aa",
		Words: 3, Bits: 4, Size: 10, SHA256: "bb"}
	var b bytes.Buffer
	if err := staticembed.WriteSum(&b, s); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	got, err := staticembed.ReadSum(strings.NewReader(text))
	if err != nil || got != s {
		t.Fatalf("ReadSum = %+v, %v; want %+v", got, err, s)
	}
	for _, bad := range []string{"package p\n", "package: p\n", strings.Replace(text, "words: 3", "words: x", 1)} {
		if _, err := staticembed.ReadSum(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadSum(%q) = nil error", bad)
		}
	}
}

// BenchmarkBuiltin_Load measures loading the built-in model file, which
// the first semantic search or embedding of a process waits for.
func BenchmarkBuiltin_Load(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("model", "builtin.semb"))
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := staticembed.Load(bytes.NewReader(data), staticembed.BuiltinName); err != nil {
			b.Fatal(err)
		}
	}
}
