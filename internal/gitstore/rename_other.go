//go:build !linux

package gitstore

// renameNoReplace renames old to new unless new exists (an error wrapping
// fs.ErrExist then), atomically where the file system allows it.
func renameNoReplace(old, new string) error { return linkRename(old, new) }
