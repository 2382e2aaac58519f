package web

import "testing"

// TestWords words every reference the core may write.
func TestWords(t *testing.T) {
	if missing := words.Missing(); len(missing) > 0 {
		t.Errorf("the pages have no words for %v", missing)
	}
}
