package wiki

import "github.com/wikid/wikid/internal/note"

// bodyStart returns where n's body starts in the window of content that
// a read returns: the window starts offset characters in and holds size
// bytes. A section's content is all body.
func bodyStart(n *note.Note, section bool, content []byte, offset, size int) int {
	if section {
		return 0
	}
	start := byteOffset(content, 0, offset)
	return min(max(n.BodyStart-start, 0), size)
}
