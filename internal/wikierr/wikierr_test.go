package wikierr

import (
	"errors"
	"fmt"
	"testing"
)

func TestError_Is(t *testing.T) {
	err := fmt.Errorf("read note %q: %w", "a", Errorf(CodeNotFound, "no note a"))
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("errors.Is(%v, ErrNotFound) = false", err)
	}
	if errors.Is(err, ErrConflict) {
		t.Fatalf("errors.Is(%v, ErrConflict) = true", err)
	}
	if got := CodeOf(err); got != CodeNotFound {
		t.Fatalf("CodeOf = %q, want NOT_FOUND", got)
	}
	if got := CodeOf(errors.New("boom")); got != CodeInternal {
		t.Fatalf("CodeOf(plain) = %q, want INTERNAL", got)
	}
	if got := CodeOf(nil); got != "" {
		t.Fatalf("CodeOf(nil) = %q, want empty", got)
	}
}
