// Package noreplace renames a file without replacing a file that is at its
// new name, as os.Rename would.
//
// On Linux the rename is atomic: renameat2 with RENAME_NOREPLACE. Where
// that flag is missing (another system, a file system without it) the file
// is hard-linked to its new name, which fails if a file is there, and its
// old name removed. On a file system without hard links it looks first and
// renames, which leaves a moment in which a file created at the new name is
// replaced.
package noreplace
