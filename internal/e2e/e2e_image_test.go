package e2e_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// pngOf is a w×h PNG with a pattern in it. It writes the pixels' bytes:
// a Set per pixel costs seconds of a big image under the race detector.
func pngOf(tb testing.TB, w, h int) []byte {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := range w {
			px := row[4*x : 4*x+4]
			px[0], px[1], px[2], px[3] = uint8(x), uint8(y), uint8(x^y), 255
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// TestE2E_ReadImage reads images of a wiki through the official
// TypeScript client: a small one as it is, a large one scaled down, an SVG
// as text, and clear errors for what is no image.
func TestE2E_ReadImage(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := gittest.Init(t)
	small, big := pngOf(t, 64, 32), pngOf(t, 2000, 500)
	for name, data := range map[string][]byte{"attachments/small.png": small, "attachments/big.png": big,
		"attachments/logo.svg":   []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`),
		"attachments/broken.png": []byte("not a png"), "notes/plan.md": []byte("# Plan\n\n![[small.png]]\n")} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Commit(t, dir, "images", nil)
	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir))
	c.listTools(t)

	decode := func(t *testing.T, res *tsResult) image.Config {
		t.Helper()
		if res.IsError || len(res.Content) != 2 || res.Content[1].Type != "image" || res.Content[1].MimeType != "image/png" {
			t.Fatalf("read_image: %+v", res)
		}
		data, err := base64.StdEncoding.DecodeString(res.Content[1].Data)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	res := c.call(t, "read_image", map[string]any{"path": "attachments/small.png"})
	if cfg := decode(t, res); cfg.Width != 64 || cfg.Height != 32 {
		t.Errorf("small image: %dx%d", cfg.Width, cfg.Height)
	}
	if data, _ := base64.StdEncoding.DecodeString(res.Content[1].Data); !bytes.Equal(data, small) {
		t.Error("a small image is not sent as it is")
	}
	res = c.call(t, "read_image", map[string]any{"path": "attachments/big.png"})
	if cfg := decode(t, res); cfg.Width != 1600 || cfg.Height != 400 {
		t.Errorf("big image sent at %dx%d, want 1600x400", cfg.Width, cfg.Height)
	}
	if !strings.Contains(res.text(), "scaled down from 2000×500") {
		t.Errorf("text: %q", res.text())
	}
	res = c.call(t, "read_image", map[string]any{"path": "attachments/logo.svg"})
	if res.IsError || len(res.Content) != 2 || res.Content[1].Type != "text" || !strings.HasPrefix(res.Content[1].Text, "<svg") {
		t.Errorf("svg: %+v", res)
	}
	for path, code := range map[string]string{"attachments/none.png": "NOT_FOUND", "notes/plan.md": "INVALID_PARAMS",
		"attachments/broken.png": "INVALID_PARAMS", "../etc/x.png": "INVALID_PATH"} {
		res := c.call(t, "read_image", map[string]any{"path": path})
		if !res.IsError || !strings.HasPrefix(res.text(), code+": ") {
			t.Errorf("read_image %s: %q, want %s", path, res.text(), code)
		}
	}
}
