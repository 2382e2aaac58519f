package gitdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
)

// Config is what a repository's config says about how to write it.
type Config struct {
	Bare     bool   // core.bare
	LogAll   bool   // core.logAllRefUpdates: create reflogs for branches and HEAD
	FileMode bool   // core.fileMode: the executable bit counts
	WorkTree string // core.worktree, absolute; "" when unset
}

// ReadConfig reads the config of the repository l. It returns an error for
// a config that cannot be read or parsed, and for a repository format that
// is not written here: a repository format version above 1, sha256 object
// ids, or a ref storage other than files (reftable).
func ReadConfig(l Layout) (Config, error) {
	name := filepath.Join(l.CommonDir, "config")
	b, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Config{}, fmt.Errorf("read config: %w", err)
	}
	cfg := gitconfig.New()
	if err := gitconfig.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
		return Config{}, fmt.Errorf("parse %s: %w", name, err)
	}
	core := cfg.Section("core")
	ext := cfg.Section("extensions")
	if v := core.Option("repositoryformatversion"); v != "" && v != "0" && v != "1" {
		return Config{}, fmt.Errorf("open repository: unsupported repository format version %s", v)
	}
	if f := strings.ToLower(ext.Option("objectformat")); f != "" && f != "sha1" {
		return Config{}, fmt.Errorf("open repository: object format %s is not supported, only sha1", f)
	}
	if f := strings.ToLower(ext.Option("refstorage")); f != "" && f != "files" {
		return Config{}, fmt.Errorf("open repository: ref storage %s is not supported, only files", f)
	}
	var rc Config
	rc.Bare = gitformat.ParseBool(core.Option("bare"), l.WorkTree == "")
	rc.LogAll = gitformat.ParseBool(core.Option("logallrefupdates"), !rc.Bare) ||
		strings.EqualFold(core.Option("logallrefupdates"), "always")
	rc.FileMode = gitformat.ParseBool(core.Option("filemode"), true)
	if wt := core.Option("worktree"); wt != "" {
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(l.GitDir, wt)
		}
		rc.WorkTree = filepath.Clean(wt)
	}
	return rc, nil
}

// Unwritable returns the first of the repository's git directory, object
// folder and refs folder in which this user may not create files, and why
// (a permission, a read-only file system); "" and nil when there is none.
// Where access(2) is missing (Windows) a repository counts as writable, and
// a write it refuses fails when it is tried.
func Unwritable(l Layout) (string, error) {
	for _, d := range []string{l.GitDir, filepath.Join(l.CommonDir, "objects"), filepath.Join(l.CommonDir, "refs")} {
		if err := canWrite(d); err != nil {
			return d, err
		}
	}
	return "", nil
}
