package web

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestFailure(t *testing.T) {
	full := wiki.Errorf(wiki.CodeNoSpace, "no space left on the device: /r/.git/objects/ab/x could not be written").
		WithHint("free space on the disk that holds /r/.git/objects/ab, then retry")
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantMsg    string
	}{
		{"not found", wiki.Errorf(wiki.CodeNotFound, "no commit %q", "x"), http.StatusNotFound, `no commit "x"`},
		{"bad request", wiki.Errorf(wiki.CodeInvalidParams, "state %q", "x"), http.StatusBadRequest, `state "x"`},
		{"full disk, wrapped", fmt.Errorf("revert: %w", full), http.StatusInsufficientStorage,
			"no space left on the device: /r/.git/objects/ab/x could not be written; free space on the disk that holds /r/.git/objects/ab, then retry"},
		{"another branch checked out", fmt.Errorf("revert: %w", wiki.Errorf(wiki.CodeOtherBranch, "the checkout is on branch try, and the wiki writes to main").
			WithHint("switch the checkout back to main (git switch main), then retry")), http.StatusConflict,
			"the checkout is on branch try, and the wiki writes to main; switch the checkout back to main (git switch main), then retry"},
		{"uncommitted changes", wiki.Errorf(wiki.CodeLocalChanges, "the checkout has uncommitted changes to a.md (modified)").
			WithHint("commit or stash them, then retry"), http.StatusConflict,
			"the checkout has uncommitted changes to a.md (modified); commit or stash them, then retry"},
		{"a reference in the hint", wiki.Errorf(wiki.CodeConflict, "a.md changed").WithHint("read it again and pass its version as {expected_version}"),
			http.StatusConflict, "a.md changed; read it again and pass its version as the expected version"},
		{"anything else", errors.New("boom"), http.StatusInternalServerError, "the page could not be made; the wikid log has the details"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, msg := failure(tt.err)
			if status != tt.wantStatus || msg != tt.wantMsg {
				t.Fatalf("failure(%v) = %d, %q; want %d, %q", tt.err, status, msg, tt.wantStatus, tt.wantMsg)
			}
		})
	}
}
