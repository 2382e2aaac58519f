package index

import (
	"context"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func tc(tag string, count int) wiki.TagCount {
	return wiki.TagCount{Tag: tag, Count: count}
}

func TestIndex_Tags(t *testing.T) {
	x := openFixture(t)
	apply(t, x, "c2", []wiki.Document{
		{Path: "ml/one", Tags: []string{"ML"}},
		{Path: "ml/two", Tags: []string{"ML"}},
		{Path: "ml/three", Tags: []string{"#ml"}},
	}, nil)
	tests := []struct {
		name string
		req  wiki.TagsRequest
		want []wiki.TagCount
	}{
		{"all", wiki.TagsRequest{}, []wiki.TagCount{
			tc("project", 4), tc("ML", 3), tc("project/alpha", 3),
			tc("archived", 2), tc("meeting", 2), tc("person", 2),
			tc("Daily", 1), tc("mcp", 1), tc("Planning", 1), tc("project/beta", 1), tc("research", 1),
		}},
		{"prefix", wiki.TagsRequest{Prefix: "proj"}, []wiki.TagCount{
			tc("project", 4), tc("project/alpha", 3), tc("project/beta", 1),
		}},
		{"prefix with hash and case", wiki.TagsRequest{Prefix: "#Project/A"}, []wiki.TagCount{
			tc("project/alpha", 3),
		}},
		{"prefix m", wiki.TagsRequest{Prefix: "m"}, []wiki.TagCount{
			tc("ML", 3), tc("meeting", 2), tc("mcp", 1),
		}},
		{"folder", wiki.TagsRequest{Folder: "projects"}, []wiki.TagCount{
			tc("project", 3), tc("project/alpha", 2), tc("meeting", 1), tc("Planning", 1), tc("project/beta", 1),
		}},
		{"folder and prefix", wiki.TagsRequest{Folder: "projects/alpha/", Prefix: "pl"}, []wiki.TagCount{
			tc("Planning", 1),
		}},
		{"folder without tags", wiki.TagsRequest{Folder: "nowhere"}, []wiki.TagCount{}},
		{"prefix without tags", wiki.TagsRequest{Prefix: "zzz"}, []wiki.TagCount{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := x.Tags(context.Background(), tt.req)
			if err != nil {
				t.Fatalf("Tags: %v", err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("tags =\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
}

// TestIndex_Tags_afterChanges checks that replaced and deleted notes no
// longer count, and that the spelling follows the notes.
func TestIndex_Tags_afterChanges(t *testing.T) {
	x := openFixture(t)
	ann := fixture(t)[3]
	ann.Tags = []string{"Person", "lead"}
	retro := fixture(t)[1]
	retro.Tags = []string{"PERSON"}
	apply(t, x, "c2", []wiki.Document{ann, retro}, []string{"people/bob", "archive/old-search"})
	got, err := x.Tags(context.Background(), wiki.TagsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want := []wiki.TagCount{
		tc("PERSON", 2), tc("project", 2),
		tc("Daily", 1), tc("lead", 1), tc("mcp", 1), tc("meeting", 1), tc("Planning", 1),
		tc("project/alpha", 1), tc("project/beta", 1), tc("research", 1),
	}
	if !slices.Equal(got, want) {
		t.Errorf("tags =\n%v\nwant\n%v", got, want)
	}
}

func TestTagAncestors(t *testing.T) {
	tests := []struct {
		tags []string
		want []string
	}{
		{nil, nil},
		{[]string{"a"}, []string{"a"}},
		{[]string{"a/b/c"}, []string{"a", "a/b", "a/b/c"}},
		{[]string{"#a/b", "a/c", "a"}, []string{"a", "a/b", "a/c"}},
		{[]string{"a/", "/b", " "}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		if got := tagAncestors(tt.tags); !slices.Equal(got, tt.want) {
			t.Errorf("tagAncestors(%q) = %q, want %q", tt.tags, got, tt.want)
		}
	}
}

func TestFolders(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"note", nil},
		{"a/note", []string{"a"}},
		{"a/b/c/note", []string{"a", "a/b", "a/b/c"}},
	}
	for _, tt := range tests {
		if got := folders(tt.path); !slices.Equal(got, tt.want) {
			t.Errorf("folders(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
