package mcpserver

import (
	"bytes"
	"cmp"
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
		{"a number at the end", `{"id":12`, "12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ok := requestID([]byte(tt.msg), false)
			if string(id) != tt.want || ok != (tt.want != "") {
				t.Errorf("requestID = %s, %v; want %s", id, ok, tt.want)
			}
		})
	}
}

func TestRequestID_cut(t *testing.T) {
	// The start of a message whose id is a number may end inside it.
	for _, msg := range []string{`{"id":12`, `{"id":12 `, `{"id":"12"`, `{"id":12,`} {
		id, ok := requestID([]byte(msg), true)
		want := map[string]string{`{"id":12`: "", `{"id":12 `: "12", `{"id":"12"`: `"12"`, `{"id":12,`: "12"}[msg]
		if string(id) != want || ok != (want != "") {
			t.Errorf("requestID(%s, cut) = %s, %v; want %s", msg, id, ok, want)
		}
	}
}

func TestLastID(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	tests := []struct {
		name, msg, want string
	}{
		{"as the TypeScript SDK writes", `{"method":"tools/call","params":{"name":"x","arguments":{"a":"b"}},"jsonrpc":"2.0","id":7}` + "\n", "7"},
		{"string", `{"method":"ping","id":"a\"b"}`, `"a\"b"`},
		{"before a deep value", `{"jsonrpc":"2.0","id":12,"params":` + deep + `}`, "12"},
		{"after a deep value", `{"params":` + deep + `,"id":-3}`, "-3"},
		{"the last of two", `{"id":1,"id":2}`, "2"},
		{"nested ids are not the id", `{"id":1,"params":{"id":2,"x":[{"id":3}]}}`, "1"},
		{"only nested ids", `{"method":"x","params":{"id":2}}`, ""},
		{"a key's words in a string", `{"params":{"x":"\"id\":5}"},"id":9}`, "9"},
		{"escaped backslashes before a quote", `{"a":"\\\\","b":"\\\"","id":4}`, "4"},
		{"brackets in strings", `{"params":{"a":"]}[{","b":["}"]},"id":5}`, "5"},
		{"spaces", "{ \"x\" : [ 1 , 2 ] , \"id\" : 8 }\r\n", "8"},
		{"escaped key", `{"\u0069d":9}`, "9"},
		{"exponent", `{"id":1E2}`, "1E2"},
		{"null id", `{"id":null}`, ""},
		{"object id", `{"id":{"a":1}}`, ""},
		{"no id", `{"method":"ping"}`, ""},
		{"empty object", `{}`, ""},
		{"not an object", `[{"id":1}]`, ""},
		{"not json", `not json`, ""},
		{"no closing brace", `{"id":1`, ""},
		{"mismatched brackets", `{"id":2,"a":[1}}`, ""},
		{"backslashes cut at the start", `\\"id":3}`, ""},
		{"an escaped quote", `\"id":3}`, ""},
		{"a quote at the start", `"id":0}`, ""},
		{"a nested id whose object is cut", `"id":2},"x":1}`, ""},
		{"a number cut at the start", `12}`, ""},
		{"the end of a cut line", `x","jsonrpc":"2.0","id":"req-1"}`, `"req-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ok := lastID([]byte(tt.msg))
			if string(id) != tt.want || ok != (tt.want != "") {
				t.Errorf("lastID = %s, %v; want %s", id, ok, tt.want)
			}
		})
	}
}

func TestLongLine_ID(t *testing.T) {
	pad := strings.Repeat(`a\"\\`, MaxRequestBytes/8)
	tests := []struct {
		name, line, want string
	}{
		{"id last", `{"method":"tools/call","params":{"arguments":{"content":"` + pad + `"}},"jsonrpc":"2.0","id":7}` + "\n", "7"},
		{"id first", `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"arguments":{"content":"` + pad + `"}}}` + "\n", `"x"`},
		{"no id", `{"method":"notifications/x","params":{"content":"` + pad + `"},"jsonrpc":"2.0"}` + "\n", ""},
		{"not an object", `["` + pad + `",{"id":1}]`, ""},
		{"an object's end after an array", `["` + pad + `",{"id":1}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l LongLine
			// In pieces of every size, as a bufio.Reader returns them.
			for rest, n := tt.line, 1; rest != ""; n = n*3 + 1 {
				n = min(n, len(rest))
				l.Write([]byte(rest[:n]))
				rest = rest[n:]
			}
			if l.Len() != int64(len(tt.line)) {
				t.Errorf("Len = %d, want %d", l.Len(), len(tt.line))
			}
			id, ok := l.ID()
			if string(id) != tt.want || ok != (tt.want != "") {
				t.Errorf("ID = %s, %v; want %s", id, ok, tt.want)
			}
			answer, ok := l.Answer()
			if want := `"id":` + cmp.Or(tt.want, "null") + `,`; !bytes.Contains(answer, []byte(want)) || ok != (tt.want != "") ||
				bytes.Count(answer, []byte("\n")) != 1 || !bytes.HasSuffix(answer, []byte("\n")) {
				t.Errorf("Answer = %s, %v; want %s", answer, ok, want)
			}
		})
	}
}
