// Package embed turns texts into vectors through an OpenAI-compatible
// embeddings endpoint (POST {base}/embeddings), which Ollama, llama.cpp's
// server, LM Studio, vLLM and hosted APIs all serve. It batches the texts
// and retries what can succeed on a second try.
package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options configure a Client.
type Options struct {
	// BaseURL is the API's base, such as http://localhost:11434/v1; the
	// client posts to BaseURL + "/embeddings".
	BaseURL string
	// Model is the model the endpoint embeds with.
	Model string
	// Dimensions, when not 0, asks the endpoint for vectors of this
	// length (models that can shorten theirs); 0 takes the model's own.
	Dimensions int
	// APIKey, when set, goes in an Authorization: Bearer header.
	APIKey string
	// BatchSize is how many texts go in one request; default 64.
	BatchSize int
	// Retries is how many times a request that failed for a reason that
	// may pass (a timeout, a connection cut, 429, 5xx) is tried again;
	// default 3. Backoff is the first wait, doubled each time (default
	// 500ms, at most 10s), unless the endpoint says Retry-After.
	Retries int
	Backoff time.Duration
	// Timeout bounds one request; default 60s.
	Timeout time.Duration
	// MaxChars cuts each text to this many bytes, at a character
	// boundary, before it is sent (models have a context limit); default
	// 8,000.
	MaxChars int
}

// Client embeds texts through an OpenAI-compatible endpoint. It is safe
// for concurrent use.
type Client struct {
	opts Options
	url  string
	http *http.Client
}

// New returns a client for the endpoint in o, defaults filled in. It
// returns an error for a missing base URL or model.
func New(o Options) (*Client, error) {
	if o.BaseURL == "" || o.Model == "" {
		return nil, errors.New("embeddings: a base URL and a model are required")
	}
	if !strings.HasPrefix(o.BaseURL, "http://") && !strings.HasPrefix(o.BaseURL, "https://") {
		return nil, fmt.Errorf("embeddings: base URL %q: want http:// or https://", o.BaseURL)
	}
	if o.Dimensions < 0 || o.BatchSize < 0 || o.Retries < 0 {
		return nil, errors.New("embeddings: dimensions, batch size and retries must not be negative")
	}
	if o.BatchSize == 0 {
		o.BatchSize = 64
	}
	if o.Retries == 0 {
		o.Retries = 3
	}
	if o.Backoff == 0 {
		o.Backoff = 500 * time.Millisecond
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	if o.MaxChars == 0 {
		o.MaxChars = 8000
	}
	return &Client{opts: o, url: strings.TrimRight(o.BaseURL, "/") + "/embeddings", http: &http.Client{Timeout: o.Timeout}}, nil
}

// Model names the model and the vectors' length asked for: vectors made
// under another name are not comparable.
func (c *Client) Model() string {
	if c.opts.Dimensions > 0 {
		return c.opts.Model + "@" + strconv.Itoa(c.opts.Dimensions)
	}
	return c.opts.Model
}

// Endpoint returns the URL the client posts to.
func (c *Client) Endpoint() string { return c.url }

// BatchSize returns how many texts go in one request.
func (c *Client) BatchSize() int { return c.opts.BatchSize }

// Embed returns one vector per text, in order, all of one length. It
// sends the texts in batches and returns the first batch's error: an
// *Error with the endpoint's status and message, wrapping ErrUnreachable
// when it could not be reached at all.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += c.opts.BatchSize {
		batch := texts[start:min(start+c.opts.BatchSize, len(texts))]
		vecs, err := c.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		if len(out) > 0 && len(vecs[0]) != len(out[0]) {
			return nil, &Error{Message: fmt.Sprintf("the endpoint answered vectors of %d and of %d numbers", len(out[0]), len(vecs[0]))}
		}
		out = append(out, vecs...)
	}
	return out, nil
}

type request struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     int      `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
}

// embedBatch posts one batch, trying again after a failure that may pass.
func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	in := make([]string, len(texts))
	for i, t := range texts {
		in[i] = cut(t, c.opts.MaxChars)
		if strings.TrimSpace(in[i]) == "" {
			in[i] = " " // some servers refuse an empty input
		}
	}
	body, err := json.Marshal(request{Model: c.opts.Model, Input: in, Dimensions: c.opts.Dimensions, EncodingFormat: "float"})
	if err != nil {
		return nil, err
	}
	wait := c.opts.Backoff
	for try := 0; ; try++ {
		vecs, err := c.post(ctx, body, len(texts))
		var e *Error
		if err == nil || !errors.As(err, &e) || !e.Retryable || try == c.opts.Retries {
			return vecs, err
		}
		if e.RetryAfter > 0 {
			wait = min(e.RetryAfter, 30*time.Second)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
}

func (c *Client) post(ctx context.Context, body []byte, n int) ([][]float32, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// Nothing listens: no use waiting to try again at once (the
		// background embedding tries again later, and a search should
		// not wait for nothing).
		refused := errors.Is(err, syscall.ECONNREFUSED)
		return nil, &Error{Message: err.Error(), Retryable: !refused, err: ErrUnreachable}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return nil, &Error{Status: resp.StatusCode, Message: "reading the answer: " + err.Error(), Retryable: true}
	}
	if resp.StatusCode != http.StatusOK {
		e := &Error{Status: resp.StatusCode, Message: errorMessage(data),
			Retryable: resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			e.RetryAfter = time.Duration(s) * time.Second
		}
		return nil, e
	}
	return parseResponse(data, n)
}

// parseResponse reads an embeddings answer for n texts.
func parseResponse(data []byte, n int) ([][]float32, error) {
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &Error{Status: http.StatusOK, Message: "the answer is not an embeddings response: " + err.Error()}
	}
	return vectors(r, n)
}

// vectors checks an answer and returns its vectors in input order.
func vectors(r response, n int) ([][]float32, error) {
	if len(r.Data) != n {
		return nil, &Error{Message: fmt.Sprintf("the endpoint answered %d vectors for %d texts", len(r.Data), n)}
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, &Error{Message: fmt.Sprintf("the endpoint answered a vector with index %d", d.Index)}
		}
		if len(d.Embedding) == 0 || (len(out) > 0 && out[0] != nil && len(d.Embedding) != len(out[0])) {
			return nil, &Error{Message: "the endpoint answered vectors of different lengths"}
		}
		v := make([]float32, len(d.Embedding))
		for i, x := range d.Embedding {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, &Error{Message: "the endpoint answered a vector that is not a number"}
			}
			v[i] = float32(x)
		}
		out[d.Index] = v
	}
	for i := range out {
		if len(out[i]) != len(out[0]) {
			return nil, &Error{Message: "the endpoint answered vectors of different lengths"}
		}
	}
	return out, nil
}

// maxResponse bounds an answer: 64 texts of 4,096 numbers as JSON are
// about 6 MB.
const maxResponse = 256 << 20

// errorMessage returns the message of an OpenAI-style error body
// ({"error": {"message": ...}} or {"error": "..."}), else the body's
// start.
func errorMessage(data []byte) string {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && len(e.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		var s string
		if json.Unmarshal(e.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return s
		}
	}
	return cut(strings.TrimSpace(string(data)), 200)
}

// cut returns s cut to at most n bytes at a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
