// Package imaging prepares the images of a wiki for a model: it reads PNG,
// JPEG, GIF and WebP, and scales down, with golang.org/x/image's
// Catmull-Rom filter, an image wider than asked or larger than a byte
// limit. SVG is text and passes through unchanged.
package imaging

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers GIF with image.Decode
	"image/jpeg"
	"image/png"
	"path"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP with image.Decode
)

// An Image is an image ready to send: its bytes, MIME type and size in
// pixels, and whether it was scaled down.
type Image struct {
	Data          []byte
	MIME          string
	Width, Height int
	Scaled        bool
	// Original is the width and height before scaling.
	OriginalWidth, OriginalHeight int
}

// Types maps the file extensions of images to their MIME types.
var Types = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml",
}

// TypeOf returns the MIME type of an image file's name, "" when it is not
// an image this package reads.
func TypeOf(name string) string { return Types[strings.ToLower(path.Ext(name))] }

// ErrNotImage is returned for bytes that are not an image of their type.
var ErrNotImage = errors.New("not a readable image")

// maxPixels bounds what is decoded: a larger image is refused before its
// pixels are allocated.
const maxPixels = 50_000_000

// Fit returns the image in data (named name, for its type) no wider than
// maxWidth pixels (0: any width) and no larger than maxBytes (0: any
// size). An image within both is returned as it is; a larger one is
// scaled down, keeping its aspect ratio, and encoded as PNG (JPEG for a
// photo, that is a JPEG or WebP source), halving its width until it fits.
// An animated GIF keeps only its first frame when scaled. SVG is returned
// as it is.
func Fit(name string, data []byte, maxWidth, maxBytes int) (*Image, error) {
	mime := TypeOf(name)
	if mime == "" {
		return nil, fmt.Errorf("%s: %w: not a PNG, JPEG, GIF, WebP or SVG file", name, ErrNotImage)
	}
	if mime == "image/svg+xml" {
		return &Image{Data: data, MIME: mime}, nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrNotImage, err)
	}
	if cfg.Width*cfg.Height > maxPixels {
		return nil, fmt.Errorf("%s: %w: %d×%d pixels is over the %d this reads", name, ErrNotImage, cfg.Width, cfg.Height, maxPixels)
	}
	out := &Image{Data: data, MIME: mime, Width: cfg.Width, Height: cfg.Height, OriginalWidth: cfg.Width, OriginalHeight: cfg.Height}
	if (maxWidth <= 0 || cfg.Width <= maxWidth) && (maxBytes <= 0 || len(data) <= maxBytes) {
		return out, nil
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrNotImage, err)
	}
	photo := mime == "image/jpeg" || mime == "image/webp"
	width := cfg.Width
	if maxWidth > 0 && width > maxWidth {
		width = maxWidth
	}
	for {
		height := max(1, cfg.Height*width/cfg.Width)
		dst := image.NewRGBA(image.Rect(0, 0, width, height))
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Over, nil)
		var b bytes.Buffer
		if photo {
			err = jpeg.Encode(&b, dst, &jpeg.Options{Quality: 85})
			out.MIME = "image/jpeg"
		} else {
			err = png.Encode(&b, dst)
			out.MIME = "image/png"
		}
		if err != nil {
			return nil, fmt.Errorf("%s: encode: %w", name, err)
		}
		out.Data, out.Width, out.Height, out.Scaled = b.Bytes(), width, height, true
		if maxBytes <= 0 || b.Len() <= maxBytes || width <= 16 {
			return out, nil
		}
		width /= 2
	}
}
