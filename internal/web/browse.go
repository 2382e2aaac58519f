package web

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// browsePage is a folder: the note at its own path, its subfolders and
// its notes.
type browsePage struct {
	Folder  string
	Parents [][2]string // name, path
	List    *wiki.ListResult
}

// browse serves a folder of the wiki ("" for its root).
func (h *Handler) browse(w http.ResponseWriter, r *http.Request) {
	folder := strings.Trim(r.PathValue("path"), "/")
	res, err := h.w.List(r.Context(), wiki.ListRequest{Path: folder, Sort: "alpha", Limit: wiki.MaxListLimit, Cursor: r.URL.Query().Get("cursor")})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	page := browsePage{Folder: folder, List: res}
	if folder != "" {
		parts := strings.Split(folder, "/")
		for i := range parts {
			page.Parents = append(page.Parents, [2]string{parts[i], strings.Join(parts[:i+1], "/")})
		}
	}
	h.render(w, r, "browse.html", page)
}

// searchPage is a search in the query language, with snippets.
type searchPage struct {
	Query   string
	Results []searchHit
	Total   int
	Next    string
	// Semantic is set when the wiki searches by meaning too; Mode is the
	// mode asked, Answered the one that answered, and Fallback,
	// Unembedded, Embedded and Static what the result says of it.
	Semantic       bool
	Mode, Answered string
	Fallback       string
	Unembedded     int
	Embedded       int
	Static         bool
}

type searchHit struct {
	wiki.SearchHit
	Snips []template.HTML
}

// search serves a search of the notes.
func (h *Handler) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	page := searchPage{Query: q, Mode: r.URL.Query().Get("mode")}
	_, page.Semantic = h.w.SemanticState()
	if q != "" {
		res, err := h.w.Search(r.Context(), wiki.SearchParams{Query: q, Limit: 20, Cursor: r.URL.Query().Get("cursor"), Snippets: 3, Mode: page.Mode})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		page.Total, page.Next = res.Total, res.NextCursor
		page.Answered, page.Fallback, page.Unembedded = res.Mode, words.Say(res.Fallback), res.Unembedded
		page.Embedded, page.Static = res.Embedded, res.Static
		for _, hit := range res.Results {
			x := searchHit{SearchHit: hit}
			for _, s := range hit.Snippets {
				x.Snips = append(x.Snips, snippetHTML(s.Text))
			}
			page.Results = append(page.Results, x)
		}
	}
	h.render(w, r, "search.html", page)
}
