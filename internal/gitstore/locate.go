package gitstore

import (
	"path/filepath"

	"github.com/wikid/wikid/internal/gitstore/internal/gitdir"
	"github.com/wikid/wikid/internal/wiki"
)

// Locate returns the git directory of the repository containing path, found
// as Open finds it, with symbolic links resolved: one name per repository
// (per linked worktree), whichever folder inside it path names. It reads
// nothing but the layout, so it is cheap enough to run before every command.
func Locate(path string) (string, error) {
	l, err := gitdir.Discover(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(l.GitDir)
	if err != nil {
		return "", err
	}
	return filepath.Abs(dir)
}

// UserIdentityAt is UserIdentity for the repository containing path,
// without opening it.
func UserIdentityAt(path string, getenv func(string) string) (wiki.Identity, error) {
	l, err := gitdir.Discover(path)
	if err != nil {
		return wiki.Identity{}, err
	}
	return userIdentity(l.CommonDir, getenv)
}
