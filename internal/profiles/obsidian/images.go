package obsidian

import (
	"context"
	"encoding/json"

	"github.com/wikid/wikid/internal/imaging"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

// Image management: an image, and a note's images.

type obImageArgs struct {
	Path            string `json:"path"`
	IncludeMetadata bool   `json:"include_metadata"`
}

func obReadImage() *tool.Tool {
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the image file relative to vault root"),
		tool.Opt("include_metadata", tool.Boolean("Include file size and other metadata about the image").Def(false)),
	)
	return &tool.Tool{
		Name: "read_image", Group: tool.GroupNotes,
		Description: "Read an image file (PNG, JPEG, GIF, WebP; SVG as text) for analysis, scaled down past 1600 px or 1 MB. Use view_note_images for a note's images.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obImageArgs) (any, error) {
			img, err := tools.LoadImage(ctx, s.Wiki, a.Path, tools.ImageWidth)
			if err != nil {
				return nil, err
			}
			return &obImages{images: []*tools.ImageResult{img}, metadata: a.IncludeMetadata}, nil
		}),
	}
}

// obImages are images answered as MCP image content, after a text that
// lists them.
type obImages struct {
	note     string
	images   []*tools.ImageResult
	missing  []string
	metadata bool
}

func (o *obImages) Media() []tool.Media {
	var out []tool.Media
	for _, img := range o.images {
		out = append(out, img.Media()...)
	}
	return out
}

func (o *obImages) text() string {
	list := []map[string]any{}
	for _, img := range o.images {
		m := map[string]any{"path": img.Path, "mime_type": img.MIMEType}
		if o.metadata || o.note != "" {
			m["width"], m["height"], m["size"], m["scaled"] = img.Width, img.Height, img.Size, img.Scaled
		}
		list = append(list, m)
	}
	v := map[string]any{"success": true, "images": list, "count": len(list)}
	if o.note != "" {
		v["path"] = o.note
		v["missing"] = orEmpty(o.missing)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

type obNoteImagesArgs struct {
	Path       string `json:"path"`
	ImageIndex *int   `json:"image_index"`
	MaxWidth   *int   `json:"max_width"`
}

func obNoteImages() *tool.Tool {
	zero := 0.0
	in := tool.SeedObject([]string{"path"},
		obPath("Path to the note containing images"),
		tool.Opt("image_index", &tool.Schema{Type: "integer", Description: "Get only the Nth image from the note (0 = first image). Leave empty to get all images.", Min: &zero}),
		tool.Opt("max_width", obInt("Resize images wider than this. Images smaller than this are unchanged.", 1, 4096, 800)),
	)
	return &tool.Tool{
		Name: "view_note_images", Group: tool.GroupNotes,
		Description: "Extract the images a note embeds (![[image.png]] or ![alt](path)), scaled to max_width; at most 10. Use read_image for one image file.",
		Input:       in,
		Run: obRun(in, func(ctx context.Context, s *tool.Env, a *obNoteImagesArgs) (any, error) {
			width, err := obInRange("max_width", a.MaxWidth, 1, 4096, 800)
			if err != nil {
				return nil, err
			}
			res, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.Path, Direction: wiki.DirOut, Limit: 200})
			if err != nil {
				return nil, err
			}
			var files []string
			out := &obImages{note: a.Path}
			for _, l := range res.Outgoing {
				if imaging.TypeOf(l.Target) == "" && imaging.TypeOf(l.Path) == "" {
					continue
				}
				if l.Path == "" {
					out.missing = append(out.missing, l.Target)
					continue
				}
				files = append(files, l.Path)
			}
			if a.ImageIndex != nil {
				if *a.ImageIndex < 0 || *a.ImageIndex >= len(files) {
					return nil, tool.ArgError("image_index", "is %d; the note embeds %d images", *a.ImageIndex, len(files))
				}
				files = files[*a.ImageIndex : *a.ImageIndex+1]
			}
			for _, f := range files[:min(len(files), 10)] {
				img, err := tools.LoadImage(ctx, s.Wiki, f, width)
				if err != nil {
					out.missing = append(out.missing, f)
					continue
				}
				out.images = append(out.images, img)
			}
			return out, nil
		}),
	}
}
