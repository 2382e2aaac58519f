package profiletest

import (
	"slices"
	"testing"
)

func TestForeign(t *testing.T) {
	names := map[string]bool{"cairn_patch": true, "path_prefix": true, "find": true, "append_section": true}
	tests := []struct {
		text string
		want []string
	}{
		{"AMBIGUOUS: find text matches 2 times. Hint: add surrounding text to find.", nil},
		{"AMBIGUOUS: edits[0] (replace): find text matches 2 times. Hint: or set expected_matches to 2.", []string{"edits[0]", "expected_matches"}},
		{"INVALID_PARAMS: bad cursor. Hint: pass the next_cursor of the previous page; see cairn_patch and path_prefix.", []string{"next_cursor"}},
		{`NOT_FOUND: no note "my_note". Hint: use append_section.`, nil},
		{`{"error":{"code":"NODE_EXISTS","message":"note \"a_b\" exists. choose another new_path"}}`, []string{"new_path"}},
		{"INVALID_PARAMS: LINK_INTEGRITY and NO_SPACE are codes.", nil},
	}
	for _, tt := range tests {
		if got := Foreign(tt.text, names); !slices.Equal(got, tt.want) {
			t.Errorf("Foreign(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
