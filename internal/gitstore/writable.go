package gitstore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wikid/wikid/internal/gitstore/internal/gitdir"
	"github.com/wikid/wikid/internal/wiki"
)

// derivedDir returns where the derived state of the repository l lives:
// its git folder's wikid/, or, when this user cannot write the repository,
// a folder of its own under the cache folder (cacheDir, else
// os.UserCacheDir()/wikid), and why.
func derivedDir(l gitdir.Layout, cacheDir string) (unwritable, dir string) {
	dir = filepath.Join(l.GitDir, "wikid")
	d, err := gitdir.Unwritable(l)
	if err == nil {
		return "", dir
	}
	unwritable = fmt.Sprintf("this user cannot write the repository (%s: %v)", d, err)
	if wiki.CodeOf(wiki.FromOS(err)) == wiki.CodeReadOnly {
		unwritable = fmt.Sprintf("the repository is on a read-only file system (%s: %v)", d, err)
	}
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cacheDir = filepath.Join(base, "wikid")
	}
	abs, err := filepath.Abs(l.GitDir)
	if err != nil {
		abs = l.GitDir
	}
	sum := sha256.Sum256([]byte(abs))
	return unwritable, filepath.Join(cacheDir, hex.EncodeToString(sum[:8]))
}

// GitDir returns the repository's git folder.
func (s *Store) GitDir() string { return s.gitDir }
