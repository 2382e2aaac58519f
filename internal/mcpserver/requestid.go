package mcpserver

import (
	"bytes"
	"encoding/json"
)

// The scanners below find the id of a request that cannot be decoded
// (too deep, too long, or broken after its id), to answer it. They never
// recurse, and read each byte a bounded number of times.

// requestID finds the "id" of a JSON object in msg by a shallow scan that
// needs no valid JSON beyond the key and the id itself, at any nesting of
// the other values. cut says that msg is only the start of the message: a
// number at its very end may go on after it. It reports false when msg is
// no object, or the id is missing, unreadable or neither a string nor a
// number.
func requestID(msg []byte, cut bool) (json.RawMessage, bool) {
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(msg, i)
		if i >= len(msg) || msg[i] != '"' {
			return nil, false
		}
		end, ok := skipString(msg, i)
		if !ok {
			return nil, false
		}
		var key string
		if json.Unmarshal(msg[i:end], &key) != nil {
			return nil, false
		}
		i = skipSpace(msg, end)
		if i >= len(msg) || msg[i] != ':' {
			return nil, false
		}
		i = skipSpace(msg, i+1)
		end, ok = skipValue(msg, i)
		if !ok {
			return nil, false
		}
		if key == "id" {
			if cut && end == len(msg) && msg[i] != '"' {
				return nil, false
			}
			return idValue(msg[i:end])
		}
		i = skipSpace(msg, end)
		if i >= len(msg) || msg[i] != ',' {
			return nil, false
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i].
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the value that starts at b[i]: a
// string, an object or array (by counting brackets, without recursion), or
// a literal or number.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[j])) {
		j++
	}
	return j, j > i
}

// idValue returns v as a request id: a string or a number.
func idValue(v []byte) (json.RawMessage, bool) {
	if len(v) > 0 && (v[0] == '"' || v[0] == '-' || ('0' <= v[0] && v[0] <= '9')) && json.Valid(v) {
		return json.RawMessage(v), true
	}
	return nil, false
}

// lastID finds the "id" of a JSON object from its end, in msg, which may
// hold only the object's last bytes: from the closing brace it reads the
// members backwards, each value by its shape, and stops at the first "id"
// it meets (the last one of the object, which is the one a JSON decoder
// keeps). It reports false when msg does not end with the object's closing
// brace, or the members it reads back are not well-formed, or it comes to
// the object's opening brace or to msg's start before an id that is a
// string or a number. Read backwards, a string starts at the first quote
// before its end that an even number of backslashes precede: inside a
// string, every quote is escaped.
func lastID(msg []byte) (json.RawMessage, bool) {
	end := skipSpaceBack(msg, len(msg))
	if end == 0 || msg[end-1] != '}' {
		return nil, false
	}
	end--
	for {
		end = skipSpaceBack(msg, end)
		start, ok := valueStart(msg, end)
		if !ok {
			return nil, false
		}
		colon := skipSpaceBack(msg, start)
		if colon == 0 || msg[colon-1] != ':' {
			return nil, false
		}
		keyEnd := skipSpaceBack(msg, colon-1)
		keyStart, ok := stringStart(msg, keyEnd)
		if !ok {
			return nil, false
		}
		var key string
		if json.Unmarshal(msg[keyStart:keyEnd], &key) != nil {
			return nil, false
		}
		if key == "id" {
			return idValue(msg[start:end])
		}
		comma := skipSpaceBack(msg, keyStart)
		if comma == 0 || msg[comma-1] != ',' {
			return nil, false // the object's start, or not an object
		}
		end = comma - 1
	}
}

// skipSpaceBack returns the index after the last byte before b[end] that
// is not white space.
func skipSpaceBack(b []byte, end int) int {
	for end > 0 && (b[end-1] == ' ' || b[end-1] == '\t' || b[end-1] == '\r' || b[end-1] == '\n') {
		end--
	}
	return end
}

// stringStart returns the index of the opening quote of the string that
// ends at b[end-1]. It fails when the string's start is not in b, or when
// a quote is at b's start or only backslashes are before it, so that
// whether it is escaped cannot be known (a string never starts a whole
// message).
func stringStart(b []byte, end int) (int, bool) {
	if end < 2 || b[end-1] != '"' {
		return 0, false
	}
	for j := end - 2; j >= 0; j-- {
		if b[j] != '"' {
			continue
		}
		k := j
		for k > 0 && b[k-1] == '\\' {
			k--
		}
		if k == 0 {
			// What is before b may be a backslash that escapes the quote.
			return 0, false
		}
		if (j-k)%2 == 0 {
			return j, true
		}
		j = k // the backslashes hold no quote
	}
	return 0, false
}

// valueStart returns the index where the value that ends at b[end-1]
// starts: a string, an object or array (by matching brackets back to the
// opening one, without recursion), or a literal or number. It fails when
// the value's start is not in b.
func valueStart(b []byte, end int) (int, bool) {
	if end == 0 {
		return 0, false
	}
	switch b[end-1] {
	case '"':
		return stringStart(b, end)
	case '}', ']':
		var open []byte // the brackets to match, innermost last
		for j := end - 1; j >= 0; j-- {
			switch c := b[j]; c {
			case '"':
				start, ok := stringStart(b, j+1)
				if !ok {
					return 0, false
				}
				j = start
			case '}':
				open = append(open, '{')
			case ']':
				open = append(open, '[')
			case '{', '[':
				if open[len(open)-1] != c {
					return 0, false
				}
				open = open[:len(open)-1]
				if len(open) == 0 {
					return j, true
				}
			}
		}
		return 0, false
	}
	j := end
	for j > 0 && isLiteralByte(b[j-1]) {
		j--
	}
	// A literal that runs to b's start may have begun before it.
	return j, j > 0 && j < end
}

// isLiteralByte reports whether c can be part of a number or of true,
// false and null.
func isLiteralByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E'
}
