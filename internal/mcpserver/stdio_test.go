package mcpserver

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestRequestReader_Read(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"ping","params":` + deep + `}`,
		`{"jsonrpc":"2.0","id":"three","method":"ping",}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
		`garbage`,
		`{"jsonrpc":"2.0","id":5,"method":"ping"}`,
	}, "\n")
	var out bytes.Buffer
	r := newRequestReader(strings.NewReader(in), &lineWriter{w: &out})
	passed, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n"; string(passed) != want {
		t.Errorf("passed on %q, want %q", passed, want)
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantIDs := []string{`"id":2,`, `"id":"three",`, `"id":null,`}
	if len(answers) != len(wantIDs) {
		t.Fatalf("answers:\n%s", out.String())
	}
	for i, a := range answers {
		if !strings.Contains(a, wantIDs[i]) || !strings.Contains(a, `"code":-32700`) {
			t.Errorf("answer %d: %s, want %s", i, a, wantIDs[i])
		}
	}
	if err := r.closedBy(); err == nil || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("closed by %v, want line 6", err)
	}
}

func TestRequestReader_LongLines(t *testing.T) {
	content := strings.Repeat("x", MaxRequestBytes)
	in := strings.Join([]string{
		// The TypeScript SDK writes the id last.
		`{"method":"tools/call","params":{"name":"write_note","arguments":{"path":"a","content":"` + content + `"}},"jsonrpc":"2.0","id":7}`,
		`{"jsonrpc":"2.0","id":"eight","method":"tools/call","params":{"name":"write_note","arguments":{"path":"a","content":"` + content + `"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"ping"}`,
		// A notification has no id to answer: the session ends.
		`{"method":"notifications/message","params":{"data":"` + content + `"},"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":10,"method":"ping"}`,
	}, "\n")
	var out bytes.Buffer
	r := newRequestReader(strings.NewReader(in), &lineWriter{w: &out})
	passed, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":9,"method":"ping"}` + "\n"; string(passed) != want {
		t.Errorf("passed on %.200q, want %q", passed, want)
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantIDs := []string{`"id":7,`, `"id":"eight",`, `"id":null,`}
	if len(answers) != len(wantIDs) {
		t.Fatalf("answers:\n%.1000s", out.String())
	}
	for i, a := range answers {
		if !strings.Contains(a, wantIDs[i]) || !strings.Contains(a, `"code":-32600`) || !strings.Contains(a, "too large") {
			t.Errorf("answer %d: %s, want %s", i, a, wantIDs[i])
		}
	}
	if err := r.closedBy(); err == nil || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("closed by %v, want line 4", err)
	}
}
