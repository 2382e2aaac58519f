package gitstore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// derivedDir returns where the derived state of the repository l lives:
// its git folder's wikid/, or, when this user cannot write the repository,
// a folder of its own under the cache folder (cacheDir, else
// os.UserCacheDir()/wikid), and why.
func derivedDir(l layout, cacheDir string) (unwritable, dir string) {
	dir = filepath.Join(l.gitDir, "wikid")
	for _, d := range []string{l.gitDir, filepath.Join(l.commonDir, "objects"), filepath.Join(l.commonDir, "refs")} {
		if err := canWrite(d); err != nil {
			unwritable = fmt.Sprintf("this user cannot write the repository (%s: %v)", d, err)
			break
		}
	}
	if unwritable == "" {
		return "", dir
	}
	if cacheDir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		cacheDir = filepath.Join(base, "wikid")
	}
	abs, err := filepath.Abs(l.gitDir)
	if err != nil {
		abs = l.gitDir
	}
	sum := sha256.Sum256([]byte(abs))
	return unwritable, filepath.Join(cacheDir, hex.EncodeToString(sum[:8]))
}

// GitDir returns the repository's git folder.
func (s *Store) GitDir() string { return s.gitDir }
