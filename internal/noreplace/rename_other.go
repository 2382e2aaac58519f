//go:build !linux

package noreplace

// Rename renames old to new unless new exists (an error wrapping
// fs.ErrExist then), atomically where the file system allows it.
func Rename(old, new string) error { return linkRename(old, new) }
