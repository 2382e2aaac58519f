package gitsync

import "context"

// CheckRewinds runs one look at the branch's reflog, as Run does on each
// tick; the first call notes where the reflog ends.
func (g *Guard) CheckRewinds(ctx context.Context) { g.checkRewinds(ctx) }
