package graph

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// fixtureDir returns the folder of a named fixture wiki.
func fixtureDir(tb testing.TB, name string) string {
	tb.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "fixtures", name)
}

// readDir returns the files of a wiki folder as the graph takes them:
// notes parsed, other files by path, dot files and folders left out.
func readDir(tb testing.TB, dir string) []File {
	tb.Helper()
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, fileOf(rel, content))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// fileOf returns a repository file as the graph takes it.
func fileOf(file string, content []byte) File {
	gf := File{File: file, Version: wiki.BlobID(content)}
	blobs.Store(gf.Version, content)
	if p, _, ok := note.SplitFileName(file); ok {
		gf.Note = note.Parse(p, content)
	}
	return gf
}

// blobs holds the content of the files fileOf made, by blob id, for the
// lines links sit on.
var blobs sync.Map

// readBlob reads what blobs holds, as Update.Blobs would.
func readBlob(_ context.Context, id string) ([]byte, error) {
	if b, ok := blobs.Load(id); ok {
		return b.([]byte), nil
	}
	return nil, fs.ErrNotExist
}

// build returns a graph of the files at commit "c1".
func build(tb testing.TB, files []File) *Graph {
	tb.Helper()
	g := New()
	g.ReadBlobsWith(readBlob)
	g.ApplyFiles("c1", files, nil)
	return g
}

// fixture returns the graph of fixtures/basic.
func fixture(tb testing.TB) *Graph {
	tb.Helper()
	return build(tb, readDir(tb, fixtureDir(tb, "basic")))
}
