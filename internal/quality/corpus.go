package quality

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrNoCorpus is returned by Materialize when a repository corpus has no
// clone to read it from.
var ErrNoCorpus = errors.New("no clone of the corpus")

// Materialize writes the markdown notes of a set's corpus into a new git
// repository at dir, in one commit, paths relative to the source's root;
// nothing when dir holds a repository already.
// A module corpus is fetched with `go mod download`; a repository corpus
// is read from clone, a clone that holds the set's commit (ErrNoCorpus
// when clone is "").
func Materialize(ctx context.Context, s *Set, clone, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return nil // made before
	}
	var err error
	switch {
	case s.Source.Module != "":
		err = fromModule(ctx, s.Source, dir)
	case s.Source.Repository != "":
		if clone == "" {
			return fmt.Errorf("%s: %w (%s at %s)", s.Name, ErrNoCorpus, s.Source.Repository, s.Source.Commit)
		}
		err = fromClone(ctx, s.Source, clone, dir)
	default:
		err = errors.New("the set names no source")
	}
	if err != nil {
		return fmt.Errorf("corpus %s: %w", s.Name, err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "corpus " + s.Name}} {
		if _, err := git(ctx, dir, nil, args...); err != nil {
			return fmt.Errorf("corpus %s: %w", s.Name, err)
		}
	}
	return nil
}

// fromModule copies the notes of a Go module's folder.
func fromModule(ctx context.Context, src Source, dir string) error {
	tmp, err := os.MkdirTemp("", "wikid-corpus-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", src.Module+"@"+src.Version)
	cmd.Dir = tmp // outside any module: nothing is added to a go.mod
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GO111MODULE=on")
	out, err := cmd.Output()
	var got struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &got); jerr == nil && got.Error != "" {
		return fmt.Errorf("go mod download %s@%s: %s", src.Module, src.Version, got.Error)
	}
	if err != nil {
		return fmt.Errorf("go mod download %s@%s: %w", src.Module, src.Version, err)
	}
	root := filepath.Join(got.Dir, filepath.FromSlash(src.Root))
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isNote(p) {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return write(dir, filepath.ToSlash(rel), data)
	})
}

// fromClone copies the notes of a commit of a clone, read with git.
func fromClone(ctx context.Context, src Source, clone, dir string) error {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", src.Commit}
	if src.Root != "" {
		args = append(args, "--", src.Root)
	}
	list, err := git(ctx, clone, nil, args...)
	if err != nil {
		return err
	}
	var paths []string
	var batch bytes.Buffer
	for _, entry := range strings.Split(string(list), "\x00") {
		meta, p, ok := strings.Cut(entry, "\t")
		if f := strings.Fields(meta); !ok || len(f) != 3 || f[1] != "blob" || !isNote(p) {
			continue
		}
		paths = append(paths, p)
		batch.WriteString(src.Commit + ":" + p + "\n")
	}
	out, err := git(ctx, clone, &batch, "cat-file", "--batch")
	if err != nil {
		return err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, p := range paths {
		head, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		f := strings.Fields(head)
		if len(f) != 3 {
			return fmt.Errorf("%s: %s", p, strings.TrimSpace(head))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return err
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(r, data); err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, strings.TrimSuffix(src.Root, "/")+"/")
		if err := write(dir, rel, data[:size]); err != nil {
			return err
		}
	}
	return nil
}

func isNote(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}

func write(dir, rel string, data []byte) error {
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return os.WriteFile(full, data, 0o644)
}

// git runs git in dir with a fixed identity and no user configuration.
func git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=corpus", "GIT_AUTHOR_EMAIL=corpus@example.com",
		"GIT_COMMITTER_NAME=corpus", "GIT_COMMITTER_EMAIL=corpus@example.com")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}
