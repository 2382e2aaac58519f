package graph

import "testing"

func TestIgnoresObsidian(t *testing.T) {
	for _, tt := range []struct {
		gitignore string
		want      bool
	}{
		{".obsidian/\n", true},
		{"# Obsidian\n/.obsidian\n", true},
		{".obsidian/*\n", true},
		{"  .obsidian/**  \n", true},
		{".obsidian/workspace.json\n.obsidian/cache\n", false}, // wikid init's lines: the folder is committed
		{".obsidian-notes/\nnode_modules\n", false},
		{"", false},
	} {
		if got := IgnoresObsidian([]byte(tt.gitignore)); got != tt.want {
			t.Errorf("IgnoresObsidian(%q) = %v, want %v", tt.gitignore, got, tt.want)
		}
	}
}
