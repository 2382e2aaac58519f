package wiki

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
)

// BlobID returns the git blob id of content: the version a note with this
// content has.
func BlobID(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(content)) + "\x00"))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}
