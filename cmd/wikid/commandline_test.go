package main

import "testing"

func TestNotePath(t *testing.T) {
	for _, tc := range []struct{ goos, in, want string }{
		{"windows", `projects\alpha\plan`, "projects/alpha/plan"},
		{"windows", `projects/alpha\plan.md`, "projects/alpha/plan.md"},
		{"windows", `C:\Users\ann\notes\plan`, "C:/Users/ann/notes/plan"}, // refused as absolute by the wiki
		{"linux", `projects\alpha`, `projects\alpha`},                     // refused, with its reason
		{"darwin", "caf\u00e9", "caf\u00e9"},
	} {
		if got := notePath(tc.goos, tc.in); got != tc.want {
			t.Errorf("notePath(%s, %q) = %q, want %q", tc.goos, tc.in, got, tc.want)
		}
	}
}
