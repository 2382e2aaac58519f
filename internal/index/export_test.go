package index

import (
	"fmt"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
)

// Dump renders what the index holds, in a canonical order, for the tests
// outside the package: its commit, every field's terms with the number of
// documents that hold each, and every document's stored fields.
func Dump(x *Index) (string, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var b strings.Builder
	fmt.Fprintf(&b, "commit %s\n", x.Commit())
	fields, err := x.bi.Fields()
	if err != nil {
		return "", err
	}
	sort.Strings(fields)
	for _, f := range fields {
		d, err := x.bi.FieldDict(f)
		if err != nil {
			return "", err
		}
		var terms []string
		for {
			e, err := d.Next()
			if err != nil {
				d.Close()
				return "", err
			}
			if e == nil {
				break
			}
			terms = append(terms, e.Term)
		}
		d.Close()
		// A dictionary counts the documents deleted but not yet merged
		// away, and the field stays listed: count the live ones, and leave
		// out a field without any.
		line := ""
		for _, t := range terms {
			q := bleve.NewTermQuery(t)
			q.SetField(f)
			res, err := x.bi.Search(bleve.NewSearchRequestOptions(q, 0, 0, false))
			if err != nil {
				return "", err
			}
			if res.Total > 0 {
				line += fmt.Sprintf(" %q=%d", t, res.Total)
			}
		}
		if line != "" {
			fmt.Fprintf(&b, "field %s:%s\n", f, line)
		}
	}
	n, err := x.bi.DocCount()
	if err != nil {
		return "", err
	}
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), int(n)+1, 0, false)
	req.Fields = []string{"*"}
	req.SortBy([]string{"_id"})
	res, err := x.bi.Search(req)
	if err != nil {
		return "", err
	}
	for _, h := range res.Hits {
		keys := make([]string, 0, len(h.Fields))
		for k := range h.Fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "doc %s", h.ID)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%v", k, h.Fields[k])
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}
