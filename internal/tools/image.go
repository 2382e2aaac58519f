package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/wikid/wikid/internal/imaging"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Images go to the model as MCP image content, scaled down past these
// bounds: wider than imageWidth pixels, or larger than imageBytes.
const (
	ImageWidth = 1600
	imageBytes = 1 << 20
)

// ImageResult is an image of the wiki, as read_image answers it.
type ImageResult struct {
	Path           string `json:"path"`
	MIMEType       string `json:"mime_type"`
	Size           int    `json:"-"`
	Width          int    `json:"width,omitempty"`
	Height         int    `json:"-"`
	Scaled         bool   `json:"scaled,omitempty"`
	OriginalWidth  int    `json:"-"`
	OriginalHeight int    `json:"-"`
	// svg is the text of an SVG image, sent as text.
	svg  string
	data []byte
}

// Media is the image as MCP content: its bytes, or an SVG's text.
func (r *ImageResult) Media() []tool.Media {
	if r.svg != "" {
		return []tool.Media{{Text: r.svg}}
	}
	return []tool.Media{{Data: r.data, MIME: r.MIMEType}}
}

// LoadImage reads an image file of the wiki, scaled down to maxWidth
// pixels and imageBytes.
func LoadImage(ctx context.Context, w *wiki.Wiki, file string, maxWidth int) (*ImageResult, error) {
	if imaging.TypeOf(file) == "" {
		return nil, wiki.Errorf(wiki.CodeInvalidParams, "%s is not an image: PNG, JPEG, GIF, WebP and SVG files are read", file).
			WithHint("give the path of an image file, with its extension")
	}
	f, err := w.ReadFile(ctx, file)
	if err != nil {
		return nil, err
	}
	img, err := imaging.Fit(f.Path, f.Content, maxWidth, imageBytes)
	if errors.Is(err, imaging.ErrNotImage) {
		return nil, wiki.Errorf(wiki.CodeInvalidParams, "%v", err).WithHint("the file's content is not an image of its type")
	}
	if err != nil {
		return nil, err
	}
	out := &ImageResult{Path: f.Path, MIMEType: img.MIME, Size: len(img.Data), Width: img.Width, Height: img.Height, Scaled: img.Scaled,
		data: img.Data}
	if img.Scaled {
		out.OriginalWidth, out.OriginalHeight = img.OriginalWidth, img.OriginalHeight
	}
	if img.MIME == "image/svg+xml" {
		out.svg = string(img.Data)
	}
	return out, nil
}

func (r *ImageResult) text() string {
	switch {
	case r.svg != "":
		return fmt.Sprintf("%s: an SVG image, %d bytes; its text follows.", r.Path, r.Size)
	case r.Scaled:
		return fmt.Sprintf("%s: %s, %d×%d pixels (scaled down from %d×%d), %d bytes.", r.Path, r.MIMEType, r.Width, r.Height, r.OriginalWidth, r.OriginalHeight, r.Size)
	}
	return fmt.Sprintf("%s: %s, %d×%d pixels, %d bytes.", r.Path, r.MIMEType, r.Width, r.Height, r.Size)
}

type readImageArgs struct {
	Path string `json:"path"`
}

func readImageTool() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("")))
	// No output schema and no structured content: clients that show the
	// model only structured content when there is some would hide the
	// image.
	return &tool.Tool{
		Name: "read_image", Group: tool.GroupNotes, Title: "Read an image",
		Description: "View an image file, scaled to 1600 px and 1 MB. Use read_note to find a note's images.",
		Input:       in,
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *readImageArgs) (any, string, error) {
			img, err := LoadImage(ctx, s.Wiki, a.Path, ImageWidth)
			if err != nil {
				return nil, "", err
			}
			return img, img.text(), nil
		}),
	}
}
