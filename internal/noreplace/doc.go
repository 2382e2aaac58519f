// Package noreplace moves files without losing a file that is at the
// destination: Rename refuses to replace one, as os.Rename would, and
// Exchange swaps two files, so that neither name is ever missing.
//
// On Linux the rename is atomic: renameat2 with RENAME_NOREPLACE. Where
// that flag is missing (another system, a file system without it) the file
// is hard-linked to its new name, which fails if a file is there, and its
// old name removed. On a file system without hard links it looks first and
// renames, which leaves a moment in which a file created at the new name is
// replaced.
//
// Exchange is atomic on Linux (renameat2 with RENAME_EXCHANGE) and macOS
// (renamex_np with RENAME_SWAP); elsewhere, and on a file system that
// cannot swap, it returns an error wrapping errors.ErrUnsupported, for the
// caller to choose its fallback.
package noreplace
