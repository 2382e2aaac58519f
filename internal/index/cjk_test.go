package index

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	wordanalysis "github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// analyzeText runs the index's text analyzer.
func analyzeText(tb testing.TB, s string) analysis.TokenStream {
	tb.Helper()
	im, err := newMapping()
	if err != nil {
		tb.Fatal(err)
	}
	return im.AnalyzerNamed(analyzerText).Analyze([]byte(s))
}

func TestCJKFilter(t *testing.T) {
	tests := []struct {
		in   string
		want string // the terms in position order
	}{
		{"Plain English words", "plain english words"},
		{"ノート", "ノ ノー ー ート ト"},
		{"無限キャンバス", "無 無限 限 限キ キ キャ ャ ャン ン ンバ バ バス ス"},
		{"中文", "中 中文 文"},
		{"中 文", "中 文"},
		{"노트북에서 동기화", "노 노트 트 트북 북 북에 에 에서 서 동 동기 기 기화 화"},
		{"abc노트 Wiki", "abc 노 노트 트 wiki"},
		{"노트2", "노 노트 트 2"},
		{"プラグイン、ノート", "プ プラ ラ ラグ グ グイ イ イン ン ノ ノー ー ート ト"},
		{"wikiのノート", "wiki の のノ ノ ノー ー ート ト"},
		{"Obsidian 插件", "obsidian 插 插件 件"},
		{"の", "の"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			stream := analyzeText(t, tt.in)
			var terms []string
			for i, tok := range stream {
				terms = append(terms, string(tok.Term))
				if tok.Position != i+1 {
					t.Errorf("token %q at position %d, want %d", tok.Term, tok.Position, i+1)
				}
				if got := strings.ToLower(tt.in[tok.Start:tok.End]); got != string(tok.Term) {
					t.Errorf("token %q has offsets %d:%d, which hold %q", tok.Term, tok.Start, tok.End, got)
				}
			}
			if got := strings.Join(terms, " "); got != tt.want {
				t.Errorf("terms %q\nwant  %q", got, tt.want)
			}
		})
	}
}

func FuzzCJKFilter(f *testing.F) {
	for _, s := range []string{"ノート", "無限キャンバスデータ", "abc노트 def", "中 文。字", "wiki-ai のノート", "ﾌﾟﾗｸﾞｲﾝ", "Ω漢", "\xff漢"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stream := analyzeText(t, s)
		for i, tok := range stream {
			if tok.Position != i+1 || tok.Start < 0 || tok.End > len(s) || tok.Start >= tok.End {
				t.Fatalf("token %d %q at position %d, offsets %d:%d of %d bytes", i, tok.Term, tok.Position, tok.Start, tok.End, len(s))
			}
			r, _ := utf8.DecodeRune(tok.Term)
			if !wordanalysis.IsCJK(r) {
				continue
			}
			// A CJK token is one or two characters of the text, as written.
			if n := utf8.RuneCount(tok.Term); n > 2 || string(tok.Term) != s[tok.Start:tok.End] {
				t.Fatalf("CJK token %q of %d characters at %d:%d, text %q", tok.Term, n, tok.Start, tok.End, s[tok.Start:tok.End])
			}
		}
	})
}

// cjkDocs is a few notes in Japanese, Korean and Chinese.
func cjkDocs() []wiki.Document {
	return []wiki.Document{
		{Path: "ja/canvas", Title: "キャンバス", Body: "無限キャンバスデータを保存する。\nObsidian プラグインの一覧。\n"},
		{Path: "ja/plugin", Title: "プラグインマネージャー", Body: "コミュニティプラグインとデイリーノート。\n"},
		{Path: "ja/notebook", Title: "メモ", Body: "ノートブックを開く。wiki ノート\n"},
		{Path: "ko/sync", Title: "동기화", Body: "노트북에서 자동동기화를 켭니다.\n"},
		{Path: "ko/note", Title: "노트", Body: "데일리노트를 씁니다.\n"},
		{Path: "zh/canvas", Title: "画布", Body: "无限画布数据和插件。\n"},
		{Path: "zh/notes", Title: "笔记", Body: "每日笔记同步。\n"},
	}
}

func TestIndex_Search_cjk(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", cjkDocs(), nil)
	tests := []struct {
		query string
		want  []string
	}{
		{"プラグイン", []string{"ja/canvas", "ja/plugin"}}, // at the start and in the middle of a run
		{"ノート", []string{"ja/notebook", "ja/plugin"}}, // at the end and at the start
		{"無限キャンバス", []string{"ja/canvas"}},            // kanji and katakana, inside a longer run
		{"キャンバス", []string{"ja/canvas"}},              // in the title and inside the body
		{"マネージャー", []string{"ja/plugin"}},             // only in the title
		{"노트", []string{"ko/note", "ko/sync"}},        // hangul inside words with particles
		{"동기화", []string{"ko/sync"}},
		{"画布", []string{"zh/canvas"}},
		{"无限画布", []string{"zh/canvas"}},
		{"笔记", []string{"zh/notes"}},
		{"記", nil},                                  // a kanji no note holds
		{"の", []string{"ja/canvas"}},                // one character: anywhere
		{"布", []string{"zh/canvas"}},                // one character at the end of a run
		{"노", []string{"ko/note", "ko/sync"}},       // one hangul syllable
		{`"Obsidian プラグイン"`, []string{"ja/canvas"}}, // a phrase mixing Latin and CJK
		{`"wiki ノート"`, []string{"ja/notebook"}},
		{`"wiki ノートブック"`, nil},                        // the run is ノート, not ノートブック
		{"obsidian AND プラグイン", []string{"ja/canvas"}}, // both words
		{"プラグイン -obsidian", []string{"ja/plugin"}},    // one without the other
		{"プラグイン OR 동기화", []string{"ja/canvas", "ja/plugin", "ko/sync"}},
		{"title:ノート", nil}, // in the body, not the title
		{"title:노트", []string{"ko/note"}},
		{"ノー*", []string{"ja/notebook", "ja/plugin"}}, // a CJK prefix is the text itself
		{"キャンバスデータ保存", nil},                           // the run goes on with を
		{"プラグイン、ノート", nil},                            // no note has the two runs together
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := sortedPaths(find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100}))
			if !slices.Equal(got, tt.want) {
				t.Errorf("Search(%q) = %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestIndex_Search_cjkSnippets(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", cjkDocs(), nil)
	tests := []struct {
		query, path, want string
	}{
		{"無限キャンバス", "ja/canvas", "«無限キャンバス»データを保存する。"},
		{"プラグイン", "ja/plugin", "コミュニティ«プラグイン»とデイリーノート。"},
		{"ノート", "ja/plugin", "コミュニティプラグインとデイリー«ノート»。"},
		{"동기화", "ko/sync", "노트북에서 자동«동기화»를 켭니다."},
		{"笔记", "zh/notes", "每日«笔记»同步。"},
		{"布", "zh/canvas", "无限画«布»数据和插件。"},
		{`"Obsidian プラグイン"`, "ja/canvas", "«Obsidian プラグイン»の一覧。"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100, Snippets: 3})
			var got []string
			for _, h := range res.Results {
				if h.Path == tt.path {
					for _, s := range h.Snippets {
						got = append(got, s.Text)
					}
				}
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("snippets of %s for %q = %q, want %q", tt.path, tt.query, got, tt.want)
			}
		})
	}
}

// TestCJK_phraseTerms checks the phrase a query's text becomes.
func TestCJK_phraseTerms(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	c := &compiler{im: im}
	for in, want := range map[string]string{
		"ノート":           `["ノー" "" "ート"]`,
		"笔记":            `["笔记"]`,
		"の":             `["の"]`,
		"wiki ノート":      `["wiki" "" "ノー" "" "ート"]`,
		"プラグイン、ノート":     `["プラ" "" "ラグ" "" "グイ" "" "イン" "" "" "ノー" "" "ート"]`,
		"model context": `["model" "context"]`,
		"中 文":           `["中" "文"]`,
		"abc노트":         `["abc" "" "노트"]`,
	} {
		if got := fmt.Sprintf("%q", c.phraseTerms(in)); got != want {
			t.Errorf("phraseTerms(%q) = %s, want %s", in, got, want)
		}
	}
}
