package index

import (
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/wikid/wikid/internal/index/analysis"
)

// schemaVersion names the mapping below and the way documents are shaped.
// Bump it whenever either changes: an index recorded with another version
// is removed and rebuilt on Open.
const schemaVersion = "11"

// Field names in the bleve documents, besides the stem fields of each
// language (see fieldStem).
const (
	fieldPath       = "path"         // keyword, lowercased; stored as written
	fieldPathSort   = "path_key"     // keyword as written, in doc values: the last key of every sort
	fieldFolders    = "folders"      // keyword, lowercased: every ancestor folder
	fieldTitle      = "title"        // text, stored
	fieldTitleSort  = "title_key"    // keyword, lowercased title, for sorting
	fieldAliases    = "aliases"      // text
	fieldBody       = "body"         // text, stored, term vectors for snippets
	fieldBodyLine   = "body_line"    // stored only: the file line of the body's first line
	fieldPairs      = "pairs"        // keyword: adjacent common body words, "a b"
	fieldFront      = "front"        // text: the frontmatter block as written, for grep
	fieldUnsure     = "unsure"       // keyword "true": Containing cannot rule the note out
	fieldTags       = "tags"         // keyword, lowercased, with ancestors
	fieldTagsExact  = "tags_as"      // keyword as written, with ancestors, for list_tags
	fieldTagNames   = "tag_names"    // stored only: the tags as written
	fieldProps      = "props"        // keyword, lowercased "key=value"
	fieldCreated    = "created"      // datetime: the frontmatter's, absent when it has none (see dates.go)
	fieldModified   = "modified"     // datetime: the frontmatter's, absent when it has none
	fieldCreatedKey = "created_key"  // keyword: created as a sortable string
	fieldModKey     = "modified_key" // keyword: modified as a sortable string
	fieldModStamp   = "mtime"        // stored only: modified, RFC 3339 with nanoseconds
	fieldGitDated   = "git_dated"    // keyword: "created", "modified": the dates the frontmatter lacks
	fieldLinks      = "links"        // keyword, lowercased; stored for linkedfrom
	fieldFile       = "file"         // stored only
	fieldVersion    = "version"      // stored only
	fieldLang       = "lang"         // stored only: the note's language, "" when none
	fieldScript     = "script"       // keyword: the script of most of its letters (dominantScript), "-" for none
	fieldLangKey    = "lang_key"     // keyword: the note's language, "-" for none
)

// Analyzer names registered in the mapping.
const (
	// analyzerText splits text into Unicode words and lowercases them. It
	// neither stems nor drops stop words: the stem fields find the other
	// forms of a word (see forms.go).
	// Runs of Chinese, Japanese and Korean characters become characters
	// and overlapping bigrams (see cjkFilter), so that a word is found
	// inside a longer run.
	analyzerText = "wikid_text"
	// analyzerKey keeps the whole value as one lowercased term.
	analyzerKey = "wikid_key"
	// analyzerExact keeps the whole value as one term, as written.
	analyzerExact = "wikid_exact"
)

// Keys of the values kept in bleve's internal storage.
var (
	internalCommit = []byte("wikid.commit")
	internalSchema = []byte("wikid.schema")
	internalZone   = []byte("wikid.zone")   // see Options.Location
	internalCommon = []byte("wikid.common") // see commonWords
	internalLangs  = []byte("wikid.langs")  // see langsOf
)

// newMapping returns the index mapping: a static document mapping (no
// dynamic fields), BM25 scoring and the analyzers above.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	analyzers := map[string]map[string]any{
		analyzerText: {
			"type":          custom.Name,
			"tokenizer":     unicode.Name,
			"token_filters": []any{analysis.CJKFilterName, lowercase.Name},
		},
		analyzerKey: {
			"type":          custom.Name,
			"tokenizer":     single.Name,
			"token_filters": []any{lowercase.Name},
		},
		analyzerExact: {
			"type":      custom.Name,
			"tokenizer": single.Name,
		},
	}
	for name, config := range analyzers {
		if err := im.AddCustomAnalyzer(name, config); err != nil {
			return nil, err
		}
	}
	im.DefaultAnalyzer = analyzerText

	doc := mapping.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt(fieldPath, keywordField(analyzerKey, true, false))
	doc.AddFieldMappingsAt(fieldPathSort, keywordField(analyzerExact, false, true))
	doc.AddFieldMappingsAt(fieldFolders, keywordField(analyzerKey, false, false))
	doc.AddFieldMappingsAt(fieldTitle, textField(true))
	doc.AddFieldMappingsAt(fieldTitleSort, keywordField(analyzerKey, false, true))
	doc.AddFieldMappingsAt(fieldAliases, textField(false))
	doc.AddFieldMappingsAt(fieldBodyLine, storedField())
	doc.AddFieldMappingsAt(fieldBody, textField(true))
	doc.AddFieldMappingsAt(fieldFront, &mapping.FieldMapping{Type: "text", Analyzer: analyzerText, Index: true})
	doc.AddFieldMappingsAt(fieldPairs, keywordField(analyzerExact, false, false))
	doc.AddFieldMappingsAt(fieldUnsure, keywordField(analyzerKey, false, false))
	doc.AddFieldMappingsAt(fieldTags, keywordField(analyzerKey, false, true))
	doc.AddFieldMappingsAt(fieldTagsExact, keywordField(analyzerExact, false, false))
	doc.AddFieldMappingsAt(fieldTagNames, storedField())
	doc.AddFieldMappingsAt(fieldProps, keywordField(analyzerKey, false, false))
	doc.AddFieldMappingsAt(fieldCreated, dateField())
	doc.AddFieldMappingsAt(fieldModified, dateField())
	doc.AddFieldMappingsAt(fieldCreatedKey, keywordField(analyzerExact, false, true))
	doc.AddFieldMappingsAt(fieldModKey, keywordField(analyzerExact, false, true))
	doc.AddFieldMappingsAt(fieldModStamp, storedField())
	doc.AddFieldMappingsAt(fieldGitDated, keywordField(analyzerExact, false, false))
	doc.AddFieldMappingsAt(fieldLinks, keywordField(analyzerKey, true, false))
	doc.AddFieldMappingsAt(fieldFile, storedField())
	doc.AddFieldMappingsAt(fieldVersion, storedField())
	doc.AddFieldMappingsAt(fieldLang, storedField())
	doc.AddFieldMappingsAt(fieldScript, keywordField(analyzerExact, false, false))
	doc.AddFieldMappingsAt(fieldLangKey, keywordField(analyzerExact, false, false))
	if err := addStemAnalysis(im, doc); err != nil {
		return nil, err
	}
	im.DefaultMapping = doc
	if err := im.Validate(); err != nil {
		return nil, err
	}
	return im, nil
}

// textField is an analyzed field with term vectors (phrases need the
// positions, snippets the offsets).
func textField(store bool) *mapping.FieldMapping {
	return &mapping.FieldMapping{
		Type:               "text",
		Analyzer:           analyzerText,
		Index:              true,
		Store:              store,
		IncludeTermVectors: true,
	}
}

// keywordField is a field whose every value is one term.
func keywordField(analyzer string, store, docValues bool) *mapping.FieldMapping {
	return &mapping.FieldMapping{
		Type:      "text",
		Analyzer:  analyzer,
		Index:     true,
		Store:     store,
		DocValues: docValues,
	}
}

// storedField is kept for results and never searched.
func storedField() *mapping.FieldMapping {
	return &mapping.FieldMapping{
		Type:     "text",
		Analyzer: analyzerExact,
		Store:    true,
	}
}

// dateField is a searchable datetime. Sorts use its key field instead:
// bleve keeps several terms per date in doc values, and reading them for
// every hit of a large result made sorting by date slow.
func dateField() *mapping.FieldMapping {
	return &mapping.FieldMapping{
		Type:  "datetime",
		Index: true,
	}
}
