package gitsync

import (
	"sync"

	"github.com/wikid/wikid/internal/wiki"
)

// ofMu guards the making of a syncer by Of, so that rounds asked for at
// once share one.
var ofMu sync.Mutex

// Of returns the syncer that reports to w's status (the daemon's), or,
// when none does, one made now with default options and set to report
// there.
//
// Of is a stopgap that finds the syncer through the wiki, kept for
// internal/mcpserver's sync tool only until that takes the program's
// Syncer as an option, as the daemon and the sync command are handed
// theirs; then it goes.
func Of(w *wiki.Wiki) *Syncer {
	ofMu.Lock()
	defer ofMu.Unlock()
	s, ok := w.SyncReporter().(*Syncer)
	if !ok {
		s = New(w, Options{})
		w.SetSyncReporter(s)
	}
	return s
}
