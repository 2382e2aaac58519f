package wiki

import (
	"context"
	"time"
)

// Progress is how far the work a call waits for has come: Done of Total
// (Total 0 when unknown), and what it is.
type Progress struct {
	Done, Total int
	Message     string
}

type progressKey struct{}

// WithProgress returns a context whose calls report to f how far the work
// they wait for has come (a search waiting for the search index to be
// built, say), about twice a second while they wait. f must be quick.
func WithProgress(ctx context.Context, f func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// reportProgress calls ctx's progress function, if any.
func reportProgress(ctx context.Context, p Progress) {
	if f, ok := ctx.Value(progressKey{}).(func(Progress)); ok {
		f(p)
	}
}

// progressEvery is how often a waiting call reports progress.
const progressEvery = 500 * time.Millisecond
