package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/encoder"
)

// staticFile is the static layer distilled from the default model (make
// static-model), which the quality harness measures against GloVe's.
const staticFile = "model/bge-small-en-v1.5.static"

// TestStatic_Source checks the committed static file against its sum:
// distilled from the default model file as committed, of the size and
// checksum make static-model recorded; and that it reads, and ranks a
// related text above an unrelated one.
func TestStatic_Source(t *testing.T) {
	data, err := os.ReadFile(staticFile)
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("no static file in this tree: run make static-model")
	}
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(staticFile + ".sum")
	if err != nil {
		t.Fatal(err)
	}
	rec := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(sum))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ": "); ok && !strings.HasPrefix(k, "#") {
			rec[k] = v
		}
	}
	src, err := DefaultSource()
	if err != nil {
		t.Fatal(err)
	}
	if rec["model-sha256"] != src.SHA256 {
		t.Errorf("the static file was distilled from a model file of sha256 %s, the default is %s: run make static-model",
			rec["model-sha256"], src.SHA256)
	}
	size, _ := strconv.Atoi(rec["size"])
	if got := encoder.SHA256(data); got != rec["sha256"] || size != len(data) {
		t.Errorf("%s is %d bytes, sha256 %s; its sum records %s bytes, sha256 %s: run make static-model",
			staticFile, len(data), got, rec["size"], rec["sha256"])
	}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Static(data)
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := s.Embed(context.Background(), []string{"git keeps every version", "a version control system", "banana bread"})
	if err != nil {
		t.Fatal(err)
	}
	if near, far := dot(vecs[0], vecs[1]), dot(vecs[0], vecs[2]); near <= far {
		t.Errorf("similarity of related texts %.3f, of unrelated ones %.3f", near, far)
	}
}
