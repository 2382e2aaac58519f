package note

import (
	"testing"
	"time"
)

func TestConflictCopy(t *testing.T) {
	day := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		file, origin string
		n            int
		want         string
	}{
		{"projects/Plan.md", "origin", 1, "projects/Plan (conflict 2026-11-23 origin).md"},
		{"projects/Plan.md", "origin", 3, "projects/Plan (conflict 2026-11-23 origin 3).md"},
		{"Plan.markdown", "saved during a commit", 1, "Plan (conflict 2026-11-23 saved during a commit).markdown"},
		{"assets/image.png", "origin", 1, "assets/image (conflict 2026-11-23 origin).png"},
		{"README", "origin", 2, "README (conflict 2026-11-23 origin 2)"},
		{".hidden", "origin", 1, ".hidden (conflict 2026-11-23 origin)"},
	}
	for _, tt := range tests {
		if got := ConflictCopy(tt.file, day, tt.origin, tt.n); got != tt.want {
			t.Errorf("ConflictCopy(%q, %q, %d) = %q, want %q", tt.file, tt.origin, tt.n, got, tt.want)
		}
	}
}
