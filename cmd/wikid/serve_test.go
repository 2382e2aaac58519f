package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// testEnv is an env with buffers for output and a fixed environment.
func testEnv(stdin string, vars map[string]string) (env, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	return env{
		stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return vars[k] },
	}, &stdout, &stderr
}

func TestServeCommand_Parse(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		vars    map[string]string
		want    serveFlags
		wantErr string
	}{
		{"stdio", nil, nil, serveFlags{repo: ".", logLevel: "info"}, ""},
		{"repo from the environment", nil, map[string]string{"WIKID_REPO": "/w"}, serveFlags{repo: "/w", logLevel: "info"}, ""},
		{"http", []string{"--http", "127.0.0.1:9000"}, nil, serveFlags{repo: ".", logLevel: "info", httpAddr: "127.0.0.1:9000", httpSet: true}, ""},
		{"http default", []string{"--http="}, nil, serveFlags{repo: ".", logLevel: "info", httpAddr: defaultHTTPAddr, httpSet: true}, ""},
		{"token from the environment", []string{"--http", ":1"}, map[string]string{"WIKID_TOKEN": "env"},
			serveFlags{repo: ".", logLevel: "info", httpAddr: ":1", httpSet: true, token: "env"}, ""},
		{"token flag wins", []string{"--http", ":1", "--token", "flag"}, map[string]string{"WIKID_TOKEN": "env"},
			serveFlags{repo: ".", logLevel: "info", httpAddr: ":1", httpSet: true, token: "flag"}, ""},
		{"origins", []string{"--http", ":1", "--allow-origin", "https://a", "--allow-origin", "https://b"}, nil,
			serveFlags{repo: ".", logLevel: "info", httpAddr: ":1", httpSet: true, origins: stringList{"https://a", "https://b"}}, ""},
		{"token without http", []string{"--token", "x"}, nil, serveFlags{}, "--token and --allow-origin apply to --http only"},
		{"origin without http", []string{"--allow-origin", "https://a"}, nil, serveFlags{}, "--token and --allow-origin apply to --http only"},
		{"the environment's token is for http only", nil, map[string]string{"WIKID_TOKEN": "env"}, serveFlags{repo: ".", logLevel: "info"}, ""},
		{"unknown flag", []string{"--port", "1"}, nil, serveFlags{}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, _ := testEnv("", tt.vars)
			got, err := (&serveCommand{env: e}).parse(tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want.String() {
				t.Errorf("flags %s\nwant  %s", got, &tt.want)
			}
		})
	}
}

// String renders the flags for comparison.
func (f *serveFlags) String() string {
	return strings.Join([]string{f.repo, f.httpAddr, f.token, f.tools, f.author, f.logLevel,
		boolStr(f.httpSet), boolStr(f.readOnly), f.origins.String()}, "|")
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestCheckBind(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8765", "", true},
		{"localhost:8765", "", true},
		{"[::1]:8765", "", true},
		{"127.1.2.3:80", "", true},
		{"0.0.0.0:8765", "", false},
		{":8765", "", false},
		{"[::]:8765", "", false},
		{"192.168.1.5:8765", "", false},
		{"example.com:8765", "", false},
		{"0.0.0.0:8765", "t", true},
		{"no-port", "t", false},
	}
	for _, tt := range tests {
		err := checkBind(tt.addr, tt.token)
		if (err == nil) != tt.ok {
			t.Errorf("checkBind(%q, %q) = %v, want ok %v", tt.addr, tt.token, err, tt.ok)
		}
	}
}

func TestParseIdentity(t *testing.T) {
	tests := []struct {
		in   string
		want wiki.Identity
		ok   bool
	}{
		{"Ada Lovelace <ada@example.com>", wiki.Identity{Name: "Ada Lovelace", Email: "ada@example.com"}, true},
		{"  Ada   <ada@example.com>  ", wiki.Identity{Name: "Ada", Email: "ada@example.com"}, true},
		{"ada@example.com", wiki.Identity{}, false},
		{"<ada@example.com>", wiki.Identity{}, false},
		{"Ada <>", wiki.Identity{}, false},
		{"Ada <a@b> trailing", wiki.Identity{}, false},
	}
	for _, tt := range tests {
		got, err := parseIdentity(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseIdentity(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

// TestServeCommand_Run runs wikid serve in the process: refusals happen
// before the repository is opened, and a stdio session that ends with its
// input closes the wiki cleanly.
func TestServeCommand_Run(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
	refusals := []struct {
		name string
		args []string
		want string
	}{
		{"open bind without token", []string{"--repo", dir, "--http", "0.0.0.0:0"}, "refusing to serve on 0.0.0.0:0 without a token"},
		{"unknown group", []string{"--repo", dir, "--tools", "notes,graph"}, `unknown tool group "graph"`},
		{"bad author", []string{"--repo", dir, "--author", "nobody"}, `want "Name <email>"`},
		{"bad log level", []string{"--repo", dir, "--log-level", "loud"}, "--log-level"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			e, stdout, _ := testEnv("", nil)
			err := (&serveCommand{env: e}).Run(ctx, tt.args)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("wrote to standard output: %q", stdout)
			}
		})
	}

	t.Run("outside a repository, says what to run", func(t *testing.T) {
		notes := t.TempDir()
		gittest.WriteFiles(t, notes, map[string]string{"a.md": "# A\n"})
		e, stdout, _ := testEnv("", nil)
		err := run(ctx, e, []string{"serve", "--repo", notes})
		var ne *wiki.Error
		if !errors.As(err, &ne) || !strings.Contains(ne.Message, "no git repository at or above") ||
			!strings.Contains(ne.Hint, "run 'wikid init "+notes+"' to make it a wiki") {
			t.Errorf("error %#v, want one that says to run wikid init", err)
		}
		if stdout.Len() != 0 {
			t.Errorf("wrote to standard output: %q", stdout)
		}
	})

	t.Run("stdio until the input ends", func(t *testing.T) {
		in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cli-test","version":"1"}}}` + "\n"
		// In this process: a daemon would be this test binary, started
		// again, which runs the tests instead of answering.
		e, stdout, stderr := testEnv(in, map[string]string{"WIKID_NO_DAEMON": "1"})
		if err := (&serveCommand{env: e}).Run(ctx, []string{"--repo", dir}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stdout.String(), `"serverInfo":{"name":"wikid"`) || strings.Count(stdout.String(), "\n") != 1 {
			t.Errorf("standard output holds more than the protocol:\n%s", stdout)
		}
		if !strings.Contains(stderr.String(), "serving MCP on standard input and output") {
			t.Errorf("standard error:\n%s", stderr)
		}
	})
}
