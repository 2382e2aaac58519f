// Package embedtest serves an OpenAI-compatible embeddings endpoint for
// tests, whose vectors make meaning checkable: a text's vector is the sum
// of its words' vectors from a fixed table, where words of one topic
// ("onboarding", "hire", "newcomer") share a direction. Texts on one topic
// are near each other whatever words they use; unknown words add a little
// noise of their own.
package embedtest

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"unicode"
)

// Topics are the word groups of the table: every word of a group points
// mostly along the group's axis.
var Topics = [][]string{
	{"onboarding", "onboard", "hire", "hires", "hiring", "newcomer", "newcomers", "recruit", "welcome", "joiner", "joiners", "orientation", "employee", "employees", "designer", "staff", "colleague", "colleagues"},
	{"recipe", "recipes", "cook", "cooking", "bake", "baking", "oven", "flour", "dinner", "soup", "kitchen", "meal", "meals", "bread", "dough"},
	{"trip", "trips", "flight", "flights", "hotel", "hotels", "journey", "vacation", "holiday", "travel", "travelling", "itinerary", "passport", "luggage", "airport"},
	{"budget", "budgets", "money", "invoice", "invoices", "expense", "expenses", "cost", "costs", "spending", "tax", "taxes", "salary", "finance", "accounting"},
	{"garden", "gardening", "plant", "plants", "seeds", "soil", "tomato", "tomatoes", "compost", "watering", "flowers", "harvest"},
	{"server", "servers", "deploy", "deployment", "database", "kubernetes", "outage", "latency", "incident", "backup", "cluster", "infrastructure"},
	{"exercise", "running", "run", "gym", "workout", "fitness", "marathon", "stretching", "training", "muscles", "cardio"},
	{"meeting", "meetings", "agenda", "minutes", "standup", "retro", "retrospective", "sync", "discussion", "attendees"},
}

// Request is one embeddings request the server received.
type Request struct {
	Model      string
	Inputs     []string
	Dimensions int
	Auth       string
}

// Server is a test embeddings endpoint. Its zero value is not usable:
// call Start.
type Server struct {
	// URL is the base URL to configure, ending in /v1.
	URL string

	srv *httptest.Server
	mu  sync.Mutex
	// requests are the requests answered or failed, in order.
	requests []Request
	fails    []int // statuses to answer the next requests with
	words    map[string]int
}

// Start starts a server on loopback; Close stops it.
func Start() *Server {
	s := &Server{words: map[string]int{}}
	for t, ws := range Topics {
		for _, w := range ws {
			s.words[w] = t
		}
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server; requests fail to connect from then on.
func (s *Server) Close() { s.srv.Close() }

// Addr returns the server's host:port.
func (s *Server) Addr() string { return s.srv.Listener.Addr().String() }

// Fail makes the next len(statuses) requests fail with these statuses, in
// order (429 with Retry-After: 1).
func (s *Server) Fail(statuses ...int) {
	s.mu.Lock()
	s.fails = append(s.fails, statuses...)
	s.mu.Unlock()
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Inputs returns how many texts were embedded in all (failed requests
// not counted).
func (s *Server) Inputs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		n += len(r.Inputs)
	}
	return n
}

// DefaultDimensions is the vectors' length when a request asks none.
const DefaultDimensions = 32

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model      string          `json:"model"`
		Input      json.RawMessage `json:"input"`
		Dimensions int             `json:"dimensions"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			http.Error(w, `{"error":{"message":"input: want a string or a list of strings"}}`, http.StatusBadRequest)
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	if len(s.fails) > 0 {
		status := s.fails[0]
		s.fails = s.fails[1:]
		s.mu.Unlock()
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(`{"error":{"message":"failing on purpose","type":"test"}}`))
		return
	}
	s.requests = append(s.requests, Request{Model: req.Model, Inputs: inputs, Dimensions: req.Dimensions, Auth: r.Header.Get("Authorization")})
	s.mu.Unlock()
	if req.Model == "" || strings.Contains(req.Model, "unknown") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"message":"model \"` + req.Model + `\" not found, try pulling it first"}}`))
		return
	}
	dims := req.Dimensions
	if dims == 0 {
		dims = DefaultDimensions
	}
	if dims <= len(Topics) {
		http.Error(w, `{"error":{"message":"dimensions: want more than the topics"}}`, http.StatusBadRequest)
		return
	}
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	out := struct {
		Object string  `json:"object"`
		Model  string  `json:"model"`
		Data   []datum `json:"data"`
	}{Object: "list", Model: req.Model}
	for i, in := range inputs {
		out.Data = append(out.Data, datum{Object: "embedding", Index: i, Embedding: s.Vector(req.Model, in, dims)})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// Vector returns the server's vector of a text for a model: each word
// adds its topic's axis (shifted by the model's name, so that two models'
// vectors differ) and a small vector of its own.
func (s *Server) Vector(model, text string, dims int) []float64 {
	v := make([]float64, dims)
	shift := int(hash(model) % uint32(dims))
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		// A word's own part lies off every topic's axis.
		own := (len(Topics) + int(hash(w)%uint32(dims-len(Topics))) + shift) % dims
		if t, ok := s.words[w]; ok {
			v[(t+shift)%dims] += 1
			v[own] += 0.15
			continue
		}
		v[own] += 0.05
	}
	var n float64
	for _, x := range v {
		n += x * x
	}
	if n == 0 {
		v[0] = 1
		return v
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] /= n
	}
	return v
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// Unreachable returns a base URL on loopback where nothing listens.
func Unreachable() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "http://127.0.0.1:9/v1"
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}
