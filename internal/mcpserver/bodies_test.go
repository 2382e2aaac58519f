package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestBodyBudget_ReadBody(t *testing.T) {
	// Every request's context has ended: one that has to wait for its
	// share fails at once instead.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	post := func(body []byte, chunked bool) *http.Request {
		var in io.Reader = bytes.NewReader(body)
		if chunked {
			in = io.MultiReader(in)
		}
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, HTTPPath, in)
		if chunked {
			r.ContentLength = -1
		}
		return r
	}
	waited := func(err error) bool { return errors.Is(err, context.Canceled) }
	overLimit := func(err error) bool {
		var mbe *http.MaxBytesError
		return errors.As(err, &mbe)
	}
	smallBody := []byte(strings.Repeat("s", 1000))
	largeBody := []byte(strings.Repeat("l", 2*smallBodyBytes))
	tests := []struct {
		name    string
		body    []byte
		chunked bool
		full    bool // the large pool is taken, as by large calls in flight
		wantErr func(error) bool
	}{
		{"small passes large ones", smallBody, false, true, nil},
		{"small chunked waits: it may be large", smallBody, true, true, waited},
		{"small chunked", smallBody, true, false, nil},
		{"large waits", largeBody, false, true, waited},
		{"large chunked waits", largeBody, true, true, waited},
		{"large", largeBody, false, false, nil},
		{"large chunked", largeBody, true, false, nil},
		{"chunked over the limit", bytes.Repeat([]byte("o"), MaxRequestBytes+1), true, false, overLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBodyBudget()
			if tt.full && !b.large.TryAcquire(BodyBudget-smallBodiesBytes) {
				t.Fatal("the large pool is not whole")
			}
			body, release, err := b.readBody(httptest.NewRecorder(), post(tt.body, tt.chunked))
			switch {
			case tt.wantErr != nil:
				if !tt.wantErr(err) {
					t.Fatalf("readBody: %v", err)
				}
			case err != nil:
				t.Fatalf("readBody: %v", err)
			default:
				if !bytes.Equal(body, tt.body) {
					t.Errorf("read %d bytes, want %d", len(body), len(tt.body))
				}
				if held := b.held.Load(); held != int64(len(tt.body)) {
					t.Errorf("holds %d bytes, want %d", held, len(tt.body))
				}
				release()
			}
			if tt.full {
				b.large.Release(BodyBudget - smallBodiesBytes)
			}
			if held := b.held.Load(); held != 0 {
				t.Errorf("holds %d bytes once released", held)
			}
			if !b.small.TryAcquire(smallBodiesBytes) || !b.large.TryAcquire(BodyBudget-smallBodiesBytes) {
				t.Error("the pools are not whole again once released")
			}
		})
	}
}
