package wiki

// SetSequentialBuild sets the size of a wiki from which the stores built
// after the search index are built one at a time, and returns a function
// that restores it.
func SetSequentialBuild(files int) (restore func()) {
	old := sequentialBuild.Swap(int64(files))
	return func() { sequentialBuild.Store(old) }
}

// Cached reports whether the wiki's note cache holds the note at notePath
// whose file content is content.
func (w *Wiki) Cached(notePath string, content []byte) bool {
	return w.notes.get(BlobID(content), notePath) != nil
}
