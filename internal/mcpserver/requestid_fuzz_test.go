package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzRequestID checks the id scanners against encoding/json: on a JSON
// object with one top-level "id", a string or a number, the scan from the
// start and the scan from the end find it, and a scan of any start of the
// object (as a long line's first bytes) or any end of it (its last bytes)
// finds it or nothing; on an object without one, no scan finds any. No
// input makes a scanner panic.
func FuzzRequestID(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`{"method":"tools/call","params":{"name":"x","arguments":{"a":"b"}},"jsonrpc":"2.0","id":7}`,
		`{"id":"a\"b\\","params":[{"id":1},"]}\"{"]}`,
		`{"params":{"x":"\"id\":5}"},"id":9}`,
		`{"a":"\\\\","b":"\\\"","id":-4.5e3}`,
		`{ "\u0069d" : "x" , "y" : [ true , null , false ] }`,
		`{"method":"x","params":{"id":2}}`,
		`{"id":null}`,
		`{"id":1,"id":2}`,
		`[{"id":1}]`,
		`\\"id":3}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		checkIDScans(t, msg)
		// The same bytes, read as the choices that make a JSON object: most
		// mutations of a message are not JSON, and these always are.
		g := &objectGen{choices: msg}
		checkIDScans(t, g.object(0))
	})
}

// checkIDScans runs every scan on msg and, when encoding/json finds one
// top-level id or none in it, checks that they agree.
func checkIDScans(t *testing.T, msg []byte) {
	t.Helper()
	requestID(msg, false)
	requestID(msg, true)
	lastID(msg)
	if len(msg) > 4<<10 {
		return // the scans of every start and end take n² steps
	}
	want, ok := topLevelID(msg)
	if !ok {
		return // not an object, or more than one id
	}
	check := func(scan string, id json.RawMessage, found, partial bool) {
		t.Helper()
		switch {
		case found && !bytes.Equal(id, want):
			t.Fatalf("%s found id %s in %q, want %s", scan, id, msg, want)
		case !found && !partial && want != nil:
			t.Fatalf("%s found no id in %q, want %s", scan, msg, want)
		}
	}
	id, found := requestID(msg, false)
	check("requestID", id, found, false)
	id, found = lastID(msg)
	check("lastID", id, found, false)
	for k := range len(msg) + 1 {
		id, found = requestID(msg[:k], true)
		check("requestID of a start", id, found, true)
		id, found = lastID(msg[k:])
		check("lastID of an end", id, found, true)
	}
}

// objectGen writes a JSON object from a list of choices, rich in what
// trips a scanner: keys like "id" in strings and nested objects, quotes
// and backslashes, brackets in strings, white space between tokens.
type objectGen struct {
	choices []byte
	out     []byte
}

func (g *objectGen) next() int {
	if len(g.choices) == 0 {
		return 0
	}
	c := g.choices[0]
	g.choices = g.choices[1:]
	return int(c)
}

func (g *objectGen) space() {
	g.out = append(g.out, []string{"", "", " ", "\n", " \t\r\n "}[g.next()%5]...)
}

var genKeys = []string{"id", "id", "x", `"id"`, `\`, "i\"d", "params", "ID", "{", "]"}

var genStrings = []string{"", "a", `"`, `\`, `\"`, `"id":1}`, "]}[{", "\"id\":", ",", "é", "\u2028"}

func (g *objectGen) object(depth int) []byte {
	g.out = append(g.out, '{')
	for i := range g.next() % 5 {
		if i > 0 {
			g.out = append(g.out, ',')
		}
		g.space()
		key, _ := json.Marshal(genKeys[g.next()%len(genKeys)])
		g.out = append(g.out, key...)
		g.space()
		g.out = append(g.out, ':')
		g.space()
		g.value(depth + 1)
		g.space()
	}
	g.out = append(g.out, '}')
	return g.out
}

func (g *objectGen) value(depth int) {
	switch k := g.next() % 8; {
	case k == 0 && depth < 5:
		g.object(depth)
	case k == 1 && depth < 5:
		g.out = append(g.out, '[')
		for i := range g.next() % 4 {
			if i > 0 {
				g.out = append(g.out, ',')
			}
			g.space()
			g.value(depth + 1)
		}
		g.out = append(g.out, ']')
	case k <= 4:
		var str []byte
		for range g.next() % 4 {
			str = append(str, genStrings[g.next()%len(genStrings)]...)
		}
		b, _ := json.Marshal(string(str))
		g.out = append(g.out, b...)
	default:
		g.out = append(g.out, []string{"0", "-12", "3.5e-7", "1E2", "true", "false", "null", "123456789"}[g.next()%8]...)
	}
}

// topLevelID decodes msg with encoding/json and returns its top-level
// "id" when that is a string or a number, or nil when it has none or
// another value. It reports false when msg is not an object or has more
// than one id.
func topLevelID(msg []byte) (json.RawMessage, bool) {
	if !json.Valid(msg) {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, false
	}
	var id json.RawMessage
	ids := 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if tok == "id" {
			ids++
			id = v
		}
	}
	if ids > 1 {
		return nil, false
	}
	if _, ok := idValue(id); !ok {
		return nil, true
	}
	return id, true
}

// FuzzLongLine writes a line to a LongLine in pieces of the sizes fuzzed:
// it keeps the line's length, its first idScanBytes and at least its last
// idScanBytes, whatever the pieces.
func FuzzLongLine(f *testing.F) {
	f.Add(uint32(200000), []byte{1, 200, 7, 255, 0, 3})
	f.Add(uint32(idScanBytes*2+1), []byte{255, 255, 255})
	f.Add(uint32(10), []byte{})
	f.Fuzz(func(t *testing.T, n uint32, sizes []byte) {
		line := make([]byte, n%(1<<20))
		for i := range line {
			line[i] = byte(i * 7 % 251)
		}
		var l LongLine
		rest := line
		for i := 0; len(rest) > 0; i++ {
			// A size byte s writes s*s*3 bytes (up to 195,075); 0 or no
			// byte left writes the rest.
			k := len(rest)
			if i < len(sizes) && sizes[i] > 0 {
				k = min(k, int(sizes[i])*int(sizes[i])*3)
			}
			l.Write(rest[:k])
			rest = rest[k:]
		}
		if l.Len() != int64(len(line)) {
			t.Fatalf("Len = %d, want %d", l.Len(), len(line))
		}
		if want := line[:min(len(line), idScanBytes)]; !bytes.Equal(l.head, want) {
			t.Fatalf("head of %d bytes, want the first %d", len(l.head), len(want))
		}
		if len(l.tail) > 2*idScanBytes || len(l.tail) < min(len(line), idScanBytes) || !bytes.HasSuffix(line, l.tail) {
			t.Fatalf("tail of %d bytes is not the last %d or more of %d", len(l.tail), idScanBytes, len(line))
		}
	})
}
