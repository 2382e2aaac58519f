package wiki

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"
)

// A list's cursor is bound to the request that made it: sealCursor appends
// a tag, a hash of the list's name and of the arguments that choose and
// order its items (query, filters, sort; not the page size), and
// openCursor checks the tag before it hands back the position. A cursor
// passed with other arguments would continue some other list at a
// position that means nothing there, so it is refused.

// cursorTagSep separates a cursor's position from its tag; base64url
// positions never hold it.
const cursorTagSep = "."

// cursorScope names a list and the arguments a cursor is bound to. Its
// values must encode to JSON.
type cursorScope []any

// tag is the scope's hash, 12 characters of base64url.
func (sc cursorScope) tag() string {
	b, err := json.Marshal([]any(sc))
	if err != nil {
		panic(err) // scopes hold strings, numbers, booleans and lists of them
	}
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

// seal returns the cursor that continues a list at position pos; "" for
// no next page.
func (sc cursorScope) seal(pos string) string {
	if pos == "" {
		return ""
	}
	return pos + cursorTagSep + sc.tag()
}

// open returns the position of a cursor made by seal for the same scope;
// "" for no cursor. A cursor without a tag, or with another scope's, is
// INVALID_PARAMS.
func (sc cursorScope) open(cursor string) (string, error) {
	if cursor == "" {
		return "", nil
	}
	pos, tag, ok := cutLast(cursor, cursorTagSep)
	if !ok || pos == "" {
		return "", Errorf(CodeInvalidParams, "bad cursor: not a cursor of this list").
			WithHint("pass the {next_cursor} of the previous page unchanged, or start again without {cursor}")
	}
	if tag != sc.tag() {
		return "", Errorf(CodeInvalidParams, "the cursor belongs to another list: it was made for other %s", sc.what()).
			WithHint("start again without {cursor}, or pass the {cursor} with the same arguments as the call that returned it (limit may change)")
	}
	return pos, nil
}

// what names the arguments a scope binds, for a message.
func (sc cursorScope) what() string {
	if len(sc) > 0 {
		if s, ok := sc[0].(string); ok {
			if w, ok := cursorArgs[s]; ok {
				return w
			}
		}
	}
	return "arguments"
}

// cursorArgs describes, per list, the arguments its cursors are bound to.
var cursorArgs = map[string]string{
	"search":   "query, filters or sort",
	"list":     "folder, recursive, tag or sort",
	"recent":   "since, folder or author",
	"history":  "path or follow_renames",
	"activity": "since, until, author, folder, path or tool",
	"broken":   "folder",
}

// timeKey is a time in a cursor's scope: "" for none, else RFC 3339 in
// UTC.
func timeKey(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
