package imaging

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// picture is a w×h image with a gradient, so that scaling has work to do.
func picture(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) % 256), 255})
		}
	}
	return m
}

func encoded(t *testing.T, format string, m image.Image) []byte {
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, m)
	case "jpg":
		err = jpeg.Encode(&b, m, nil)
	case "gif":
		err = gif.Encode(&b, m, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestFit(t *testing.T) {
	small := encoded(t, "png", picture(40, 20))
	got, err := Fit("a/small.png", small, 800, 0)
	if err != nil || got.Scaled || !bytes.Equal(got.Data, small) || got.Width != 40 || got.MIME != "image/png" {
		t.Fatalf("a small image is sent as it is: %+v %v", got, err)
	}
	for _, format := range []string{"png", "jpg", "gif"} {
		data := encoded(t, format, picture(1200, 600))
		got, err := Fit("big."+format, data, 300, 0)
		if err != nil || !got.Scaled || got.Width != 300 || got.Height != 150 || got.OriginalWidth != 1200 {
			t.Fatalf("%s: %+v %v", format, got, err)
		}
		m, _, err := image.Decode(bytes.NewReader(got.Data))
		if err != nil || m.Bounds().Dx() != 300 {
			t.Errorf("%s: the scaled image does not decode at 300 wide: %v", format, err)
		}
		want := "image/png"
		if format == "jpg" {
			want = "image/jpeg"
		}
		if got.MIME != want {
			t.Errorf("%s scaled is %s, want %s", format, got.MIME, want)
		}
	}
	// A byte limit halves the width until the image fits.
	noise := picture(1000, 1000)
	for i := range noise.Pix {
		noise.Pix[i] = byte(i*7919 + i/13)
	}
	big := encoded(t, "png", noise)
	if len(big) <= 20_000 {
		t.Fatalf("the noise compresses to %d B", len(big))
	}
	got, err = Fit("big.png", big, 0, 20_000)
	if err != nil || len(got.Data) > 20_000 || got.Width >= 1000 {
		t.Fatalf("byte limit: %d B at %d wide, %v", len(got.Data), got.Width, err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`)
	if got, err := Fit("d.SVG", svg, 1, 1); err != nil || !bytes.Equal(got.Data, svg) || got.MIME != "image/svg+xml" {
		t.Errorf("svg: %+v %v", got, err)
	}
	for name, data := range map[string][]byte{"a.png": []byte("not a png"), "a.txt": small, "a.jpg": small[:20]} {
		if _, err := Fit(name, data, 100, 0); !errors.Is(err, ErrNotImage) {
			t.Errorf("%s: %v, want ErrNotImage", name, err)
		}
	}
}

func FuzzFit(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n"), 10)
	var b bytes.Buffer
	png.Encode(&b, picture(30, 30))
	f.Add(b.Bytes(), 10)
	f.Fuzz(func(t *testing.T, data []byte, width int) {
		for _, name := range []string{"x.png", "x.jpg", "x.gif", "x.webp"} {
			got, err := Fit(name, data, width%2000, 4096)
			if err != nil {
				if !errors.Is(err, ErrNotImage) {
					t.Fatalf("%s: %v is not ErrNotImage", name, err)
				}
				continue
			}
			if got.Width <= 0 && got.Scaled {
				t.Fatalf("%s: scaled to width %d", name, got.Width)
			}
		}
	})
}
