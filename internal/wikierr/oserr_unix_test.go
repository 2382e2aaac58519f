//go:build unix

package wikierr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

func TestFromOS(t *testing.T) {
	obj := "/r/.git/objects/ab/tmp_obj_1"
	tests := []struct {
		name     string
		err      error
		wantCode Code // "" when err is returned as it is
		wantMsg  string
		wantHint string
	}{
		{"full disk", fmt.Errorf("commit: write blob object: %w", &fs.PathError{Op: "write", Path: obj, Err: syscall.ENOSPC}),
			CodeNoSpace, "no space left on the device: " + obj + " could not be written",
			"free space on the disk that holds /r/.git/objects/ab, then retry"},
		{"quota", &fs.PathError{Op: "open", Path: "/r/notes/a.md", Err: syscall.EDQUOT},
			CodeNoSpace, "the disk quota is used up: /r/notes/a.md could not be written",
			"free space within your quota on the disk that holds /r/notes (or have the quota raised), then retry"},
		{"rename on a full disk", &os.LinkError{Op: "rename", Old: "/r/.git/x.tmp", New: "/r/.git/index", Err: syscall.ENOSPC},
			CodeNoSpace, "no space left on the device: /r/.git/index could not be written",
			"free space on the disk that holds /r/.git, then retry"},
		{"no path", fmt.Errorf("sync: %w", syscall.ENOSPC),
			CodeNoSpace, "no space left on the device: a file could not be written",
			"free space on the disk that holds the repository, then retry"},
		{"read-only file system", &fs.PathError{Op: "open", Path: "/r/.git/index.lock", Err: syscall.EROFS},
			CodeReadOnly, "the file system is read-only: /r/.git/index.lock could not be written",
			"remount the file system that holds /r/.git read-write, or serve with \x02read_only\x03"},
		{"other error", &fs.PathError{Op: "open", Path: "/r/x", Err: syscall.EIO}, "", "", ""},
		{"already coded", fmt.Errorf("x: %w", Errorf(CodeLocked, "held")), "", "", ""},
		{"nil", nil, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromOS(tt.err)
			if tt.wantCode == "" {
				if got != tt.err {
					t.Fatalf("FromOS(%v) = %v, want it unchanged", tt.err, got)
				}
				return
			}
			var e *Error
			if !errors.As(got, &e) || e.Code != tt.wantCode || e.Message != tt.wantMsg || e.Hint != tt.wantHint {
				t.Fatalf("FromOS(%v) = %#v\nwant code %s, message %q, hint %q", tt.err, e, tt.wantCode, tt.wantMsg, tt.wantHint)
			}
			if got.Error() != string(tt.wantCode)+": "+tt.wantMsg {
				t.Errorf("Error() = %q", got.Error())
			}
			var pe *fs.PathError
			if errors.As(tt.err, &pe) && !errors.As(got, &pe) {
				t.Errorf("the cause's *fs.PathError is lost")
			}
			if !errors.Is(got, &Error{Code: tt.wantCode}) || !errors.Is(got, tt.err) {
				t.Errorf("errors.Is misses the sentinel or the cause in %v", got)
			}
		})
	}
}
