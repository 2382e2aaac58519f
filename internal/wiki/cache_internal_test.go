package wiki

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/note"
)

// TestNoteCache_Budget checks that the cache holds no more than its
// budget of content, dropping the least recently used notes first.
func TestNoteCache_Budget(t *testing.T) {
	c := newNoteCache(100, 3000)
	body := strings.Repeat("x", 1000)
	for i := range 5 {
		c.put(fmt.Sprint("blob", i), note.Parse(fmt.Sprint("n", i), []byte(body)))
	}
	if c.spent > 3000 || c.order.Len() != 3 {
		t.Errorf("holds %d notes, %d bytes; want 3 notes within 3000 bytes", c.order.Len(), c.spent)
	}
	if c.get("blob0", "n0") != nil || c.get("blob4", "n4") == nil {
		t.Error("the cache kept an old note and dropped the newest")
	}
	// A note larger than the budget is kept alone, for the stores that
	// parse it in turn.
	c.put("big", note.Parse("big", []byte(strings.Repeat("y", 5000))))
	if c.order.Len() != 1 || c.get("big", "big") == nil {
		t.Errorf("after a note over the budget: %d notes", c.order.Len())
	}
}
