package mcpserver

import "github.com/wikid/wikid/internal/wiki"

// Env is what a tool call runs with: the wiki, who the call acts for, and
// whether the server is read-only.
type Env struct {
	Wiki     *wiki.Wiki
	Caller   wiki.Caller
	ReadOnly bool
}

// media is what a result carries besides its text: an image (Data in MIME
// type MIME), or more text.
type media struct {
	Text string
	Data []byte
	MIME string
}

// withMedia is a result that carries media besides its text.
type withMedia interface {
	media() []media
}
