package wiki

// Unwritable says why the repository's files cannot be written (a
// read-only mount, files this user may not write), or "" when they can.
// A wiki over such a repository is read-only whether or not it was asked
// to be.
func (w *Wiki) Unwritable() string { return w.store.Unwritable() }

// readOnlyError is the READ_ONLY error of a change to a read-only wiki: it
// says why the wiki is read-only, the repository's files or the option
// that made it so.
func (w *Wiki) readOnlyError() *Error {
	if why := w.store.Unwritable(); why != "" {
		return Errorf(CodeReadOnly, "the repository's files cannot be written: %s", why).
			WithHint(UnwritableHint)
	}
	return Errorf(CodeReadOnly, "the wiki is read-only").
		WithHint("restart wikid without {read_only} to allow changes")
}

// UnwritableHint is the hint of a change refused because the repository's
// files cannot be written.
const UnwritableHint = "mount the repository writable (or give this user write access to it) and restart wikid; " +
	"or serve it with --read-only, which hides the tools that change notes"
