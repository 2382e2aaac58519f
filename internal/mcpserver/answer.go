package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A prompt, resource or completion handler can only fail a request with
// an error, which mcp-go answers with -32603 (internal error) whatever it
// was. The protocol has codes of its own for a bad argument (-32602) and a
// missing resource (-32002 before 2026-07-28, -32602 since). A handler that
// knows its code records it in its request's answerCode (answerWith), and the
// transport, which holds the cell, puts it in the answer: the stream
// session when it writes the response, the HTTP handler's answerWriter as
// the response goes out.

// answerCode is the JSON-RPC error a request is to be answered with, set
// by its handler; the zero value leaves the answer as mcp-go made it.
type answerCode struct {
	mu   sync.Mutex
	code int
	msg  string
}

// answerKey is the context key of a request's answerCode.
type answerKey struct{}

// withAnswerCode returns ctx with a new answerCode for the request it
// serves.
func withAnswerCode(ctx context.Context) (context.Context, *answerCode) {
	a := &answerCode{}
	return context.WithValue(ctx, answerKey{}, a), a
}

// get returns the code and message recorded, code 0 when none was.
func (a *answerCode) get() (int, string) {
	if a == nil {
		return 0, ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.code, a.msg
}

// answerWith records that the request of ctx is answered with the JSON-RPC
// error code and err's text, and returns err, which the handler returns
// to mcp-go.
func answerWith(ctx context.Context, code int, err error) error {
	if a, ok := ctx.Value(answerKey{}).(*answerCode); ok {
		a.mu.Lock()
		a.code, a.msg = code, err.Error()
		a.mu.Unlock()
	}
	return err
}

// invalidParams refuses the request of ctx as having bad parameters.
func invalidParams(ctx context.Context, err error) error {
	return answerWith(ctx, mcp.INVALID_PARAMS, err)
}

// resourceNotFound refuses the request of ctx as naming no resource: -32002
// before protocol 2026-07-28, -32602 since, as each protocol says.
func resourceNotFound(ctx context.Context, err error) error {
	code := mcp.RESOURCE_NOT_FOUND
	if isModern(ctx) {
		code = mcp.INVALID_PARAMS
	}
	return answerWith(ctx, code, err)
}

// isModern reports whether the request of ctx speaks protocol 2026-07-28
// or later.
func isModern(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return true
	}
	return mcp.IsModernProtocol(server.RequestProtocolVersion(ctx))
}

// recode returns resp with the error a, when a holds one and resp is an
// answer: a result becomes that error, an error takes its code and text.
func recode(resp mcp.JSONRPCMessage, a *answerCode) mcp.JSONRPCMessage {
	code, msg := a.get()
	if code == 0 {
		return resp
	}
	switch r := resp.(type) {
	case mcp.JSONRPCError:
		r.Error.Code, r.Error.Message = code, msg
		return r
	case mcp.JSONRPCResponse:
		return mcp.NewJSONRPCError(r.ID, code, msg, nil)
	}
	return resp
}

// recodeJSON is recode for an answer as bytes: the answer to the request
// of id with the error a holds, or nil when a holds none or msg is not
// that answer.
func recodeJSON(msg []byte, id string, a *answerCode) []byte {
	code, text := a.get()
	if code == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil || m["method"] != nil || m["id"] == nil || canonicalID(m["id"]) != id {
		return nil
	}
	if m["result"] == nil && m["error"] == nil {
		return nil
	}
	delete(m, "result")
	m["error"], _ = json.Marshal(map[string]any{"code": code, "message": text})
	out, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return out
}

// httpStatus is the status of an HTTP answer with the JSON-RPC error code:
// protocol 2026-07-28 maps a bad request's codes to 400 and an unknown
// method to 404; earlier protocols answer 200.
func httpStatus(h http.Header, code int) int {
	if !mcp.IsModernProtocol(h.Get(mcp.HeaderProtocolVersion)) {
		return http.StatusOK
	}
	switch code {
	case mcp.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcp.INVALID_PARAMS, mcp.INVALID_REQUEST, mcp.PARSE_ERROR:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
