package obsidian

import (
	"strings"

	"github.com/wikid/wikid/internal/tool"
)

// doc is a tool's documentation in the pattern of the profile's seed
// ("Tool Documentation Structure"): a brief description, when to use it,
// when not (and what to use instead), concrete examples with what they
// return, and performance notes where a call can be slow.
type doc struct {
	brief    string
	when     []string
	notWhen  []string
	examples []string
	perf     string
}

// String is the documentation as the tool's description.
func (d doc) String() string {
	var b strings.Builder
	b.WriteString(d.brief)
	list := func(head string, items []string) {
		if len(items) == 0 {
			return
		}
		b.WriteString("\n\n" + head + ":")
		for _, it := range items {
			b.WriteString("\n- " + it)
		}
	}
	list("When to use", d.when)
	list("When NOT to use", d.notWhen)
	list("Examples", d.examples)
	if d.perf != "" {
		b.WriteString("\n\nPerformance: " + d.perf)
	}
	return b.String()
}

// documented gives each tool its documentation from docs.
func documented(tools []*tool.Tool) []*tool.Tool {
	for _, t := range tools {
		if d, ok := docs[t.Name]; ok {
			t.Description = d.String()
		}
	}
	return tools
}

// docs documents every tool of the profile, by name.
var docs = map[string]doc{
	"read_note": {
		brief:    "Read the content and metadata of a specific note.",
		when:     []string{"Reading a note's full text before answering from it or editing it", "Seeing a note's frontmatter and tags"},
		notWhen:  []string{"Only metadata or statistics (use get_note_info)", "Its images (use view_note_images)"},
		examples: []string{`read_note(path="Daily/2024-01-15.md") → {"path", "content", "metadata": {"tags", "frontmatter", ...}}`},
	},
	"create_note": {
		brief:   "Create a new note, or overwrite an existing one with overwrite: true.",
		when:    []string{"Writing a new note", "Replacing a note's whole content on purpose (overwrite: true)"},
		notWhen: []string{"Adding to an existing note (use update_note with merge_strategy append)", "Making a folder only (use create_folder)"},
		examples: []string{`create_note(path="Projects/AI Research.md", content="# AI Research\n") → {"success": true, "operation": "created", ...}`,
			`create_note(path="Projects/AI Research.md", content="...", overwrite=true) → the note replaced, as one commit`},
	},
	"update_note": {
		brief:   "Update the content of an existing note: replace it all, or append.",
		when:    []string{"Rewriting a note you have read", "Appending a line or section (merge_strategy append)"},
		notWhen: []string{"Creating a note (use create_note)", "Changing only its tags (use add_tags, update_tags or remove_tags)"},
		examples: []string{`update_note(path="Daily/2024-01-15.md", content="- call Ada\n", merge_strategy="append") → {"success": true, "operation": "updated", ...}`,
			`update_note(path="Ideas/New.md", content="# New\n", create_if_not_exists=true) → {"success": true, ...}`},
	},
	"delete_note": {
		brief:    "Delete a note from the vault. Its versions stay in git history, which can bring it back.",
		when:     []string{"Removing a note that is no longer wanted"},
		notWhen:  []string{"Archiving or renaming a note (use move_note)"},
		examples: []string{`delete_note(path="Inbox/Old idea.md") → {"success": true, "operation": "deleted", "path": "Inbox/Old idea.md"}`},
	},
	"search_notes": {
		brief:   "Search for notes containing specific text or matching search criteria.",
		when:    []string{"Finding notes by content keywords", "Locating notes with specific tags (tag:name)", "Searching within specific folders (path:Folder/*)"},
		notWhen: []string{"Searching by date (use search_by_date)", "Listing all notes (use list_notes)", "Matching a pattern (use search_by_regex)"},
		examples: []string{`search_notes(query="machine learning") → {"results": [{"path", "score", "matches", "context"}], "count": 3, ...}`,
			`search_notes(query="tag:project path:Work/*", max_results=10) → the notes tagged project under Work/`},
	},
	"search_by_date": {
		brief:   "Search for notes by creation or modification date, in the wiki's time zone.",
		when:    []string{"Finding what changed recently", "Finding the notes made on one day"},
		notWhen: []string{"Searching by content (use search_notes)"},
		examples: []string{`search_by_date(date_type="modified", days_ago=7) → the notes changed in the last week, newest first`,
			`search_by_date(date_type="created", days_ago=1, operator="exactly") → the notes created yesterday`},
	},
	"search_by_regex": {
		brief:   "Search for notes with a regular expression, line by line.",
		when:    []string{"Finding code, URLs, dates or TODOs by pattern", "Matching exact spellings that word search would stem"},
		notWhen: []string{"Plain words (use search_notes, ranked and faster)"},
		examples: []string{`search_by_regex(pattern="TODO:.*") → {"results": [{"path", "matches": [{"line", "match", "context"}]}], ...}`,
			`search_by_regex(pattern="https?://\\S+", flags=["ignorecase"], max_results=5) → notes with links to the web`},
		perf: "reads the lines of every note a regular expression may match; the fastest with a literal word in the pattern.",
	},
	"search_by_property": {
		brief:   "Search for notes by their frontmatter property values; a list property matches when an item does.",
		when:    []string{"Finding notes by status, priority, type or any frontmatter key", "Comparing numbers or dates in frontmatter (>, <, >=, <=)"},
		notWhen: []string{"Searching content (use search_notes)", "Finding tags (use search_notes with tag:name)"},
		examples: []string{`search_by_property(property_name="status", value="active") → the notes with status: active`,
			`search_by_property(property_name="priority", operator=">", value="2") → the notes of priority 3 and up`},
		perf: "reads every note's frontmatter, so it is slower than search_notes, which matches key:value itself.",
	},
	"list_notes": {
		brief:   "List notes in the vault or a specific directory.",
		when:    []string{"Seeing what a folder holds", "Checking a note's exact path"},
		notWhen: []string{"Finding notes by content (use search_notes)", "Listing folders (use list_folders)"},
		examples: []string{`list_notes(directory="Projects") → {"items": [{"path", "name"}], "total": 12, "scope": {...}}`,
			`list_notes(directory="Daily", recursive=false) → the notes directly in Daily/`},
	},
	"list_folders": {
		brief:    "List folders in the vault or a specific directory; a folder is there while it holds a note (git keeps no empty folder).",
		when:     []string{"Seeing how the vault is organized", "Choosing where a new note goes"},
		notWhen:  []string{"Listing notes (use list_notes)"},
		examples: []string{`list_folders() → {"items": [{"path": "Projects", ...}], "total": 5, ...}`, `list_folders(directory="Projects", recursive=false) → its direct subfolders`},
	},
	"move_note": {
		brief:    "Move or rename a note, updating links to it, as one commit.",
		when:     []string{"Renaming a note", "Filing a note into another folder, or archiving it"},
		notWhen:  []string{"Moving a whole folder (use move_folder)", "Copying a note (use read_note, then create_note)"},
		examples: []string{`move_note(source_path="Inbox/Idea.md", destination_path="Projects/Idea.md") → {"success": true, "source", "destination", "details": {"links_updated": 2}}`},
	},
	"move_folder": {
		brief:    "Move an entire folder and all its notes, updating links to them, as one commit.",
		when:     []string{"Renaming a folder", "Moving a project's folder into Archive"},
		notWhen:  []string{"Moving one note (use move_note)"},
		examples: []string{`move_folder(source_folder="Projects/Old", destination_folder="Archive/Old") → {"success": true, "type": "folder", "details": {"items_moved": 7, ...}}`},
	},
	"create_folder": {
		brief: "Create a folder. Git keeps no empty folder: with create_placeholder (the default) the folder gets a README.md " +
			"note, committed; without it nothing is written and the folder appears with its first note.",
		when:     []string{"Setting up a folder structure before writing notes"},
		notWhen:  []string{"Adding a note (use create_note, which makes its folders)"},
		examples: []string{`create_folder(folder_path="Projects/2025") → {"success": true, "path": "Projects/2025", ...}`},
	},
	"add_tags": {
		brief:    "Add tags to a note's frontmatter, without duplicates.",
		when:     []string{"Tagging a note with one or a few more tags"},
		notWhen:  []string{"Replacing all of a note's tags (use update_tags)", "Removing tags (use remove_tags)"},
		examples: []string{`add_tags(path="Projects/AI Research.md", tags=["ai", "research/ml"]) → {"success": true, "operation": "added", "tags": {"before", "after", "changes"}}`},
	},
	"update_tags": {
		brief:   "Replace a note's tags, or merge new ones in.",
		when:    []string{"Setting a note's tags to a known list", "Clearing every tag (tags=[])"},
		notWhen: []string{"Adding or removing a few tags (use add_tags or remove_tags)"},
		examples: []string{`update_tags(path="Projects/AI Research.md", tags=["ai", "active"]) → {"success": true, "operation": "updated", "tags": {...}}`,
			`update_tags(path="Projects/AI Research.md", tags=["draft"], merge=true) → draft added to the tags it had`},
	},
	"remove_tags": {
		brief:    "Remove specific tags from a note's frontmatter.",
		when:     []string{"Taking one or a few tags off a note"},
		notWhen:  []string{"Removing every tag (use update_tags with an empty list)"},
		examples: []string{`remove_tags(path="Projects/AI Research.md", tags=["draft"]) → {"success": true, "operation": "removed", "tags": {...}}`},
	},
	"get_note_info": {
		brief:    "Get metadata and statistics about a note without its content.",
		when:     []string{"Checking a note's tags, dates, size or link counts", "Deciding whether a note is worth reading whole"},
		notWhen:  []string{"Reading the content (use read_note)"},
		examples: []string{`get_note_info(path="Projects/AI Research.md") → {"path", "exists": true, "metadata", "stats": {"word_count", "link_count", ...}}`},
	},
	"list_tags": {
		brief:    "List all unique tags used across the vault, nested tags counted for their parents too.",
		when:     []string{"Seeing how the vault is tagged", "Choosing an existing tag before adding one"},
		notWhen:  []string{"One note's tags (use get_note_info)", "The notes with a tag (use search_notes with tag:name)"},
		examples: []string{`list_tags(include_counts=true, sort_by="count") → {"items": [{"name": "project", "count": 12}], "total": 30, ...}`},
	},
	"get_backlinks": {
		brief:    "Find all notes that link to a specific note, from the link index.",
		when:     []string{"Seeing what refers to a note before changing or deleting it", "Finding related notes"},
		notWhen:  []string{"The links from a note (use get_outgoing_links)"},
		examples: []string{`get_backlinks(path="Projects/AI Research.md") → {"findings": [{"source_path", "link_text", "context"}], "summary": {...}, "target": ...}`},
		perf:     "fast at any size: the links come from an index, not from reading every note.",
	},
	"get_outgoing_links": {
		brief:    "List all links from a specific note, with their types.",
		when:     []string{"Following what a note refers to", "Checking a note's links before moving it (check_validity)"},
		notWhen:  []string{"The links to a note (use get_backlinks)", "Broken links across the vault (use find_broken_links)"},
		examples: []string{`get_outgoing_links(path="Projects/AI Research.md", check_validity=true) → {"findings": [...each link, its type, and whether its note exists], "summary": {...}, ...}`},
	},
	"find_broken_links": {
		brief:   "Find all broken links in the vault, a directory, or a single note.",
		when:    []string{"Cleaning up after moves or deletes", "Checking a folder's links"},
		notWhen: []string{"Every link of a note (use get_outgoing_links)"},
		examples: []string{`find_broken_links() → {"findings": [{"source_path", "link_text", "line", "reason", ...}], "summary": {...}, ...}`,
			`find_broken_links(directory="Projects") → only the notes under Projects/`},
	},
	"read_image": {
		brief:    "Read an image file (PNG, JPEG, GIF, WebP; SVG as text) for analysis, scaled down past 1600 px or 1 MB.",
		when:     []string{"Looking at one image file of the vault"},
		notWhen:  []string{"The images a note embeds (use view_note_images)"},
		examples: []string{`read_image(path="Attachments/diagram.png") → the image, and its metadata with include_metadata`},
	},
	"view_note_images": {
		brief:    "Extract the images a note embeds (![[image.png]] or ![alt](path)), scaled to max_width; at most 10.",
		when:     []string{"Seeing the diagrams or screenshots of a note"},
		notWhen:  []string{"One image file by its path (use read_image)"},
		examples: []string{`view_note_images(path="Projects/AI Research.md") → each embedded image`, `view_note_images(path="Projects/AI Research.md", image_index=0) → its first image only`},
	},
}
