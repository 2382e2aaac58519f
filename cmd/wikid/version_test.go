package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/encoder/builtin"
)

func TestStamp(t *testing.T) {
	vcs := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}, {Key: "GOOS", Value: "windows"}}}
	installed := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}}
	for _, tc := range []struct {
		name            string
		version, commit string
		bi              *debug.BuildInfo
		want            string
	}{
		{"stamped", "v1.0.0", "fedcba9876543210", vcs, "wikid v1.0.0 (commit fedcba987654, modified)\ngo    go1.26.0 windows/"},
		{"vcs only", "dev", "", vcs, "wikid dev (commit 0123456789ab, modified)\ngo    go1.26.0 windows/"},
		{"go install", "dev", "", installed, "wikid v1.2.3\ngo    go1.26.0 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			printVersion(&b, stamp(tc.version, tc.commit, tc.bi))
			if !strings.HasPrefix(b.String(), tc.want) || !strings.Contains(b.String(), "\nmodel "+builtin.Name+": dev.langchain4j:") || !strings.Contains(b.String(), "\nwords builtin/") {
				t.Errorf("version printed\n%s\nwant it to begin with\n%s\nand name the model", b.String(), tc.want)
			}
		})
	}
}
