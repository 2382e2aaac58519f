package gitstore

import (
	"os"
	"path/filepath"
)

// symlink makes name (under dir) a symlink to target.
func symlink(target, dir, name string) error {
	return os.Symlink(target, filepath.Join(dir, name))
}
