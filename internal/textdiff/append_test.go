package textdiff

import "testing"

func TestAppendAdded(t *testing.T) {
	tests := []struct {
		name, base, ours, theirs, want string
		ok                             bool
	}{
		{"appended to an old copy", "a\nb\n", "a\nc\n", "a\nb\nd\n", "a\nc\nd\n", true},
		{"a line ours has too", "a\n", "a\nd\ne\n", "a\nd\nf\n", "a\nd\ne\nf\n", true},
		{"a repeated line", "a\n", "a\nx\n", "a\nx\nx\n", "a\nx\nx\n", true},
		{"ours without a final newline", "a\n", "a\nb", "a\nc\n", "a\nb\nc\n", true},
		{"nothing added", "a\nb\n", "a\n", "b\na\n", "a\n", true},
		{"theirs removed a line", "a\nb\n", "a\nb\nc\n", "a\nd\n", "a\nb\nc\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := AppendAdded([]byte(tt.base), []byte(tt.ours), []byte(tt.theirs))
			if string(got) != tt.want || ok != tt.ok {
				t.Errorf("AppendAdded = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSavedFrom(t *testing.T) {
	tests := []struct {
		name, base, given, cur string
		want                   bool
	}{
		{"saved from base", "a\n", "a\nb\n", "a\nc\n", true},
		{"saved from given", "a\n", "a\nb\n", "a\nb\nc\n", false},
		{"given removed a line", "a\nx\n", "a\nb\n", "a\nx\nc\n", false},
		{"given added nothing", "a\n", "a\n", "a\nc\n", false},
		{"a line base has twice", "a\na\n", "a\na\na\n", "a\na\nc\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SavedFrom([]byte(tt.base), []byte(tt.given), []byte(tt.cur)); got != tt.want {
				t.Errorf("SavedFrom = %v, want %v", got, tt.want)
			}
		})
	}
}
