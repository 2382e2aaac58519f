package web

// ParseMark is parseMark, for the tests outside the package.
func ParseMark(note string) [3]string {
	m := parseMark(note)
	return [3]string{m.State, m.By, m.At}
}
