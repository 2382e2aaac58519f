package mcpserver

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestRequestID(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	tests := []struct {
		name, msg, want string
	}{
		{"number", `{"jsonrpc":"2.0","id":7,"method":"ping"}`, "7"},
		{"string", `{"id":"a\"b","method":"ping"}`, `"a\"b"`},
		{"after a deep value", `{"jsonrpc":"2.0","params":` + deep + `,"id":12}`, "12"},
		{"before a deep value", `{"id":-3,"params":` + deep, "-3"},
		{"after strings with brackets", `{"method":"[{\"x","params":{"a":"]}"},"id":5,`, "5"},
		{"spaces", " { \"id\" : 8 , ", "8"},
		{"escaped key", `{"\u0069d":9}`, "9"},
		{"null id", `{"id":null}`, ""},
		{"object id", `{"id":{"a":1}}`, ""},
		{"no id", `{"method":"ping"}`, ""},
		{"id after a broken value", `{"params":[1,2,"id":4}`, ""},
		{"not an object", `[{"id":1}]`, ""},
		{"not json", `not json`, ""},
		{"cut in the id", `{"id":"abc`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ok := requestID([]byte(tt.msg))
			if string(id) != tt.want || ok != (tt.want != "") {
				t.Errorf("requestID = %s, %v; want %s", id, ok, tt.want)
			}
		})
	}
}

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
