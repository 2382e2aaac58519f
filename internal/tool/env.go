package tool

import (
	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/wiki"
)

// Env is what a tool call runs with: the wiki, who the call acts for,
// whether the server is read-only, and the syncer of the program, which
// runs a sync round on demand (nil where none is made).
type Env struct {
	Wiki     *wiki.Wiki
	Caller   wiki.Caller
	ReadOnly bool
	Sync     *gitsync.Syncer
}

// Media is what a result carries besides its text: an image (Data in MIME
// type MIME), or more text.
type Media struct {
	Text string
	Data []byte
	MIME string
}

// WithMedia is a result that carries media besides its text.
type WithMedia interface {
	Media() []Media
}
