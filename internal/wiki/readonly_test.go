package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// unwritableStore is a real store whose repository reports that its files
// cannot be written, as one on a read-only mount does.
type unwritableStore struct{ wiki.Store }

func (unwritableStore) Unwritable() string {
	return "the repository is on a read-only file system (.git: read-only file system)"
}

// TestWiki_ReadOnly_SaysWhy refuses a change to a wiki that is read-only
// because its files cannot be written, saying so, and not telling the user
// to drop a --read-only they never gave; a wiki served read-only on
// purpose still says that.
func TestWiki_ReadOnly_SaysWhy(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"index.md": "# Home\n"})
	w := openWikiDeps(t, dir, func(o *wiki.Options) { o.ReadOnly = true }, nil, func(d *wiki.Deps) {
		d.Store = unwritableStore{d.Store}
	})
	_, err := w.Write(ctx, write("new", "# New\n"))
	wantCode(t, err, wiki.CodeReadOnly)
	e, _ := err.(*wiki.Error)
	if e == nil || !strings.Contains(e.Message, "cannot be written: the repository is on a read-only file system") ||
		strings.Contains(e.Hint, "without") || !strings.Contains(e.Hint, "mount the repository writable") {
		t.Errorf("error = %#v", err)
	}

	asked := openWiki(t, seeded(t, map[string]string{"index.md": "# Home\n"}), func(o *wiki.Options) { o.ReadOnly = true })
	_, err = asked.Write(ctx, write("new", "# New\n"))
	if e, _ := err.(*wiki.Error); e == nil || e.Message != "the wiki is read-only" || !strings.Contains(e.Hint, "without") {
		t.Errorf("error = %#v", err)
	}
}
