package wiki

import (
	"context"
	"errors"
	"path"
	"strings"
)

// MaxFileRead is the largest file of the wiki ReadFile returns.
const MaxFileRead = 32 << 20

// FileResult is a file of the wiki, an attachment such as an image, as
// committed at HEAD.
type FileResult struct {
	Path    string
	Content []byte
	Size    int64
	Version string
}

// ReadFile returns a file of the wiki at HEAD by its repository path, with
// its extension. It returns INVALID_PATH for a path that leaves the
// repository or names git's own files, NOT_FOUND when there is no such
// file, and TOO_LARGE over MaxFileRead, before reading it.
func (w *Wiki) ReadFile(ctx context.Context, file string) (*FileResult, error) {
	clean := path.Clean("/" + strings.ReplaceAll(file, "\\", "/"))[1:]
	if clean == "" || clean != strings.TrimPrefix(file, "./") || clean == ".git" || strings.HasPrefix(clean, ".git/") {
		return nil, Errorf(CodeInvalidPath, "%q is not a file path inside the wiki", file).
			WithHint("give the file's path from the wiki's root, such as attachments/diagram.png")
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	f, err := snap.Stat(ctx, clean)
	if errors.Is(err, ErrNotFound) {
		return nil, Errorf(CodeNotFound, "no file %q", clean).
			WithHint("check the path; the note that embeds it shows its path with {read}")
	}
	if err != nil {
		return nil, err
	}
	if f.Size > MaxFileRead {
		return nil, Errorf(CodeTooLarge, "%s is %d bytes; files over %d bytes are not read", clean, f.Size, MaxFileRead).
			WithHint("open the file from the repository instead")
	}
	f, content, err := snap.Read(ctx, clean)
	if err != nil {
		return nil, err
	}
	return &FileResult{Path: f.Path, Content: content, Size: int64(len(content)), Version: f.Blob}, nil
}
