package embed_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/embed"
	"github.com/wikid/wikid/internal/embed/embedtest"
)

func newClient(t *testing.T, o embed.Options) *embed.Client {
	t.Helper()
	o.Backoff = 10 * time.Millisecond
	c, err := embed.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return d / math.Sqrt(na*nb)
}

func TestClient_Embed(t *testing.T) {
	srv := embedtest.Start()
	defer srv.Close()
	ctx := context.Background()

	t.Run("batches in order", func(t *testing.T) {
		c := newClient(t, embed.Options{BaseURL: srv.URL, Model: "test", BatchSize: 3, APIKey: "k1"})
		texts := []string{"first week plan for the new hire", "onboarding the new designer", "bread recipe for the oven",
			"dinner soup", "flight and hotel", "", "taxes and invoices"}
		before := len(srv.Requests())
		vecs, err := c.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()[before:]
		if len(reqs) != 3 || len(reqs[0].Inputs) != 3 || len(reqs[2].Inputs) != 1 {
			t.Fatalf("requests %d, want 3 batches of 3, 3, 1", len(reqs))
		}
		if reqs[0].Auth != "Bearer k1" {
			t.Errorf("Authorization %q", reqs[0].Auth)
		}
		if len(vecs) != len(texts) || len(vecs[0]) != embedtest.DefaultDimensions {
			t.Fatalf("got %d vectors of %d", len(vecs), len(vecs[0]))
		}
		// Order is kept: the onboarding texts are near each other, not the bread.
		if near, far := cosine(vecs[0], vecs[1]), cosine(vecs[0], vecs[2]); near <= far {
			t.Errorf("hire~designer %.3f <= hire~bread %.3f", near, far)
		}
	})

	t.Run("dimensions", func(t *testing.T) {
		c := newClient(t, embed.Options{BaseURL: srv.URL, Model: "test", Dimensions: 48})
		vecs, err := c.Embed(ctx, []string{"a"})
		if err != nil || len(vecs[0]) != 48 {
			t.Fatalf("%v, %d", err, len(vecs[0]))
		}
		if c.Model() != "test@48" {
			t.Errorf("Model %q", c.Model())
		}
	})

	t.Run("retries what may pass", func(t *testing.T) {
		c := newClient(t, embed.Options{BaseURL: srv.URL, Model: "test", Retries: 2})
		srv.Fail(http.StatusServiceUnavailable, http.StatusTooManyRequests)
		start := time.Now()
		if _, err := c.Embed(ctx, []string{"hire"}); err != nil {
			t.Fatal(err)
		}
		if time.Since(start) < time.Second {
			t.Error("did not wait for Retry-After: 1")
		}
		srv.Fail(500, 500, 500)
		_, err := c.Embed(ctx, []string{"hire"})
		var e *embed.Error
		if !errors.As(err, &e) || e.Status != 500 || !strings.Contains(err.Error(), "failing on purpose") {
			t.Fatalf("after 3 failures: %v", err)
		}
	})

	t.Run("does not retry a refusal", func(t *testing.T) {
		c := newClient(t, embed.Options{BaseURL: srv.URL, Model: "unknown-model"})
		before := len(srv.Requests())
		_, err := c.Embed(ctx, []string{"hire"})
		var e *embed.Error
		if !errors.As(err, &e) || e.Status != 404 || !strings.Contains(e.Message, "not found") {
			t.Fatalf("%v", err)
		}
		if n := len(srv.Requests()) - before; n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})

	t.Run("unreachable", func(t *testing.T) {
		c := newClient(t, embed.Options{BaseURL: embedtest.Unreachable(), Model: "test", Retries: 1})
		_, err := c.Embed(ctx, []string{"hire"})
		if !errors.Is(err, embed.ErrUnreachable) {
			t.Fatalf("%v, want ErrUnreachable", err)
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		c := newClient(t, embed.Options{BaseURL: srv.URL, Model: "test", Retries: 5})
		srv.Fail(500, 500, 500, 500, 500, 500)
		cctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
		defer cancel()
		if _, err := c.Embed(cctx, []string{"hire"}); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%v", err)
		}
	})
}

func TestNew_Refuses(t *testing.T) {
	for _, o := range []embed.Options{{}, {BaseURL: "localhost:11434", Model: "m"}, {BaseURL: "http://x", Model: "m", Dimensions: -1}} {
		if _, err := embed.New(o); err == nil {
			t.Errorf("New(%+v) succeeded", o)
		}
	}
}
