package note

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/wikid/wikid/internal/wikierr"
)

func TestCleanPath(t *testing.T) {
	long := strings.Repeat("a", 252) // 252 + len(".md") = 255
	tests := []struct {
		name     string
		in       string
		wantPath string
		wantExt  string
		wantErr  string // the message after "INVALID_PATH: "; "" for no error
	}{
		// Accepted and normalized.
		{"plain", "projects/alpha/plan", "projects/alpha/plan", "", ""},
		{"md extension", "projects/alpha/plan.md", "projects/alpha/plan", ".md", ""},
		{"markdown extension", "notes/old.markdown", "notes/old", ".markdown", ""},
		{"mdx extension", "docs/page.mdx", "docs/page", ".mdx", ""},
		{"extension case kept", "Notes/Plan.MD", "Notes/Plan", ".MD", ""},
		{"mixed case extension", "a.MarkDown", "a", ".MarkDown", ""},
		{"surrounding whitespace trimmed", " \t projects/plan.md \n", "projects/plan", ".md", ""},
		{"leading ./ dropped", "./projects/plan", "projects/plan", "", ""},
		{"dot inside name", "notes/v1.2", "notes/v1.2", "", ""},
		{"other extension is part of the name", "assets/diagram.png", "assets/diagram.png", "", ""},
		{"md inside name", "a.md.backup", "a.md.backup", "", ""},
		{"dots inside segment", "a..b", "a..b", "", ""},
		{"non-ASCII", "areas/café", "areas/café", "", ""},
		{"Japanese", "日記/二月の会議.md", "日記/二月の会議", ".md", ""},
		{"spaces inside", "Meeting notes/2024 Q1 review", "Meeting notes/2024 Q1 review", "", ""},
		{"colon inside", "notes/a:b", "notes/a:b", "", ""},
		{"drive-relative name", "C:notes/a", "C:notes/a", "", ""},
		{"colon name after ./", "./D:x", "D:x", "", ""},
		{"drive letter alone", "C:", "C:", "", ""},
		// Names an existing note may have that a new one may not (see
		// TestCheckNewPath).
		{"decomposed accent", "areas/cafe\u0301", "areas/cafe\u0301", "", ""},
		{"Windows device name", "notes/con.md", "notes/con", ".md", ""},
		{"Windows character", "why?", "why?", "", ""},
		{"byte order mark", "\ufeffnotes", "\ufeffnotes", "", ""},
		{"bidi override", "a\u202eb", "a\u202eb", "", ""},
		{"git word without dot", "git/hooks", "git/hooks", "", ""},
		{"gitignore-like name without dot", "notes/gitignore", "notes/gitignore", "", ""},
		{"segment at limit", long, long, "", ""},
		{"segment at limit with md", long + ".md", long, ".md", ""},
		{"path at limit", strings.Repeat("abcd/", 204) + "a", strings.Repeat("abcd/", 204) + "a", "", ""},

		// Empty.
		{"empty", "", "", "", `path is empty`},
		{"only whitespace", " \t\n", "", "", `path is empty`},
		{"only ./", "./", "", "", `path "./" names no note`},

		// Encoding and characters.
		{"invalid UTF-8", "a\xffb", "", "", `path "a\xffb" is not valid UTF-8`},
		{"NUL", "a\x00b", "", "", `path "a\x00b" contains control character U+0000`},
		{"newline inside", "a\nb", "", "", `path "a\nb" contains control character U+000A`},
		{"DEL", "a\x7fb", "", "", `path "a\x7fb" contains control character U+007F`},
		{"C1 control", "a\u0085b", "", "", `path "a\u0085b" contains control character U+0085`},
		{"backslash", `projects\plan`, "", "", `path "projects\\plan" contains a backslash`},

		// Absolute.
		{"absolute", "/etc/passwd", "", "", `path "/etc/passwd" is absolute`},
		{"root", "/", "", "", `path "/" is absolute`},
		{"drive path", "c:/notes", "", "", `path "c:/notes" is an absolute Windows path`},
		{"drive path after ./", "./D:/x", "", "", `path "./D:/x" is an absolute Windows path`},
		{"windows absolute", `C:\notes`, "", "", `path "C:\\notes" is an absolute Windows path`},
		{"drive root", "C:/", "", "", `path "C:/" is an absolute Windows path`},

		// Folders are not notes.
		{"trailing slash", "projects/", "", "", `path "projects/" ends with a slash: it names a folder, not a note`},
		{"two trailing slashes", "projects//", "", "", `path "projects//" ends with a slash: it names a folder, not a note`},
		{"double extension", "a.md.md", "", "", `path "a.md.md" ends with two markdown extensions`},
		{"double mixed extension", "a.markdown.MDX", "", "", `path "a.markdown.MDX" ends with two markdown extensions`},

		// Segments.
		{"empty segment", "a//b", "", "", `path "a//b" has an empty segment`},
		{"dotdot", "../secret", "", "", `path "../secret" contains a .. segment`},
		{"dotdot inside", "a/../b", "", "", `path "a/../b" contains a .. segment`},
		{"dotdot last", "a/..", "", "", `path "a/.." contains a .. segment`},
		{"dot segment", "a/./b", "", "", `path "a/./b" has a segment starting with a dot: "."`},
		{"only dot", ".", "", "", `path "." has a segment starting with a dot: "."`},
		{"repeated ./", "././a", "", "", `path "././a" has a segment starting with a dot: "."`},
		{"dot folder", ".obsidian/app", "", "", `path ".obsidian/app" has a segment starting with a dot: ".obsidian"`},
		{"dot file", "notes/.hidden.md", "", "", `path "notes/.hidden.md" has a segment starting with a dot: ".hidden"`},
		{"config file", ".wikid.yaml", "", "", `path ".wikid.yaml" has a segment starting with a dot: ".wikid.yaml"`},
		{"only extension", ".md", "", "", `path ".md" has a segment starting with a dot: ".md"`},
		{"only extension in folder", "a/.md", "", "", `path "a/.md" has a segment starting with a dot: ".md"`},
		{"git", ".git/config", "", "", `path ".git/config" is inside .git`},
		{"git note", ".git", "", "", `path ".git" is inside .git`},
		{"git md", ".git.md", "", "", `path ".git.md" is inside .git`},
		{"git upper", ".GIT/HEAD", "", "", `path ".GIT/HEAD" is inside .git`},
		{"git mixed", "a/.Git/b", "", "", `path "a/.Git/b" is inside .git`},
		{"git HFS ignorable", "\u200c.git/config", "", "", `path "\u200c.git/config" is inside .git`},
		{"git BOM", ".g\ufeffit/config", "", "", `path ".g\ufeffit/config" is inside .git`},
		{"git NTFS short name", "GIT~1/config", "", "", `path "GIT~1/config" is inside .git`},
		{"git NTFS stream", "git~1::$INDEX_ALLOCATION/config", "", "", `path "git~1::$INDEX_ALLOCATION/config" is inside .git`},

		// Names Windows cannot have, that git holds: existing notes
		// (CheckNewPath refuses them for a new one).
		{"leading space in segment", "a/ b", "a/ b", "", ""},
		{"trailing space in folder", "a /b", "a /b", "", ""},
		{"trailing space before extension", "a .md", "a ", ".md", ""},
		{"no-break space before extension", "a\u00a0.md", "a\u00a0", ".md", ""},
		{"trailing space of the path trimmed", "a /b ", "a /b", "", ""},
		{"trailing dot", "notes/v1.", "notes/v1.", "", ""},
		{"trailing dot in folder", "a./b", "a./b", "", ""},
		{"trailing dot before extension", "a..md", "a.", ".md", ""},

		// Lengths, counted on the file name.
		{"segment too long", long + "a", "", "", `path "` + long + `a" has a segment of 256 bytes; the limit is 255`},
		{"segment too long with markdown", long + ".markdown", "", "", `path "` + long + `.markdown" has a segment of 261 bytes; the limit is 255`},
		{"folder segment too long", strings.Repeat("b", 256) + "/a", "", "", `path "` + strings.Repeat("b", 256) + `/a" has a segment of 256 bytes; the limit is 255`},
		{"path too long", strings.Repeat("abcd/", 204) + "ab", "", "", `path is 1025 bytes long; the limit is 1024`},
		{"path too long with mdx", strings.Repeat("abcd/", 204) + "a.mdx", "", "", `path is 1025 bytes long; the limit is 1024`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotPath, gotExt, err := CleanPath(tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CleanPath(%q) error = %v, want nil", tt.in, err)
				}
				if gotPath != tt.wantPath || gotExt != tt.wantExt {
					t.Fatalf("CleanPath(%q) = %q, %q; want %q, %q", tt.in, gotPath, gotExt, tt.wantPath, tt.wantExt)
				}
				return
			}
			checkPathErr(t, err, tt.wantErr)
			if gotPath != "" || gotExt != "" {
				t.Errorf("CleanPath(%q) = %q, %q with an error; want empty results", tt.in, gotPath, gotExt)
			}
		})
	}
}

func TestCleanFolder(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{"empty is root", "", "", ""},
		{"slash is root", "/", "", ""},
		{"dot is root", ".", "", ""},
		{"dot slash is root", "./", "", ""},
		{"whitespace is root", "  ", "", ""},
		{"plain", "projects/alpha", "projects/alpha", ""},
		{"trailing slash dropped", "projects/alpha/", "projects/alpha", ""},
		{"leading ./ dropped", "./projects", "projects", ""},
		{"extension kept", "old.md", "old.md", ""},
		{"non-ASCII", "日記/2024", "日記/2024", ""},

		{"two trailing slashes", "projects//", "", `path "projects//" has an empty segment`},
		{"absolute", "/projects", "", `path "/projects" is absolute`},
		{"dotdot", "projects/..", "", `path "projects/.." contains a .. segment`},
		{"git", ".git", "", `path ".git" is inside .git`},
		{"git folder", ".git/", "", `path ".git/" is inside .git`},
		{"dot folder", ".obsidian", "", `path ".obsidian" has a segment starting with a dot: ".obsidian"`},
		{"backslash", `a\b`, "", `path "a\\b" contains a backslash`},
		{"control", "a\tb", "", `path "a\tb" contains control character U+0009`},
		{"trailing dot", "a.", "a.", ""},
		{"trailing space, with its slash", "notes /", "notes ", ""},
		{"segment too long", strings.Repeat("a", 256), "", `path "` + strings.Repeat("a", 256) + `" has a segment of 256 bytes; the limit is 255`},
		{"path at limit", strings.Repeat("abcd/", 204) + "abcd/", strings.Repeat("abcd/", 204) + "abcd", ""},
		{"path too long", strings.Repeat("abcd/", 205) + "a", "", `path is 1026 bytes long; the limit is 1024`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CleanFolder(tt.in)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Fatalf("CleanFolder(%q) = %q, %v; want %q, nil", tt.in, got, err, tt.want)
				}
				return
			}
			checkPathErr(t, err, tt.wantErr)
		})
	}
}

func TestFileName(t *testing.T) {
	tests := []struct {
		notePath, ext, want string
	}{
		{"projects/plan", "", "projects/plan.md"},
		{"projects/plan", ".md", "projects/plan.md"},
		{"old", ".markdown", "old.markdown"},
		{"page", ".MDX", "page.MDX"},
		{"notes/v1.2", "", "notes/v1.2.md"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := FileName(tt.notePath, tt.ext); got != tt.want {
				t.Fatalf("FileName(%q, %q) = %q, want %q", tt.notePath, tt.ext, got, tt.want)
			}
		})
	}
}

func TestSplitFileName(t *testing.T) {
	tests := []struct {
		file     string
		wantPath string
		wantExt  string
		wantOK   bool
	}{
		{"projects/plan.md", "projects/plan", ".md", true},
		{"old.markdown", "old", ".markdown", true},
		{"docs/page.mdx", "docs/page", ".mdx", true},
		{"Upper.MD", "Upper", ".MD", true},
		{"areas/café.md", "areas/café", ".md", true},
		{"notes/v1.2.md", "notes/v1.2", ".md", true},
		{"assets/image.png", "", "", false},
		{"README", "", "", false},
		{".obsidian/app.md", "", "", false},
		{".wikid.yaml", "", "", false},
		{".md", "", "", false},
		{"a/.md", "", "", false},
		{"a.md.md", "", "", false},
		{"folder.md/", "", "", false},
		{"./a.md", "", "", false},
		{" a.md", "", "", false}, // the path is trimmed: unreachable, so no note
		{"a .md", "a ", ".md", true},
		{"notes /a.md", "notes /a", ".md", true},
		{"a//b.md", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			gotPath, gotExt, ok := SplitFileName(tt.file)
			if gotPath != tt.wantPath || gotExt != tt.wantExt || ok != tt.wantOK {
				t.Fatalf("SplitFileName(%q) = %q, %q, %v; want %q, %q, %v",
					tt.file, gotPath, gotExt, ok, tt.wantPath, tt.wantExt, tt.wantOK)
			}
		})
	}
}

func TestIsMarkdown(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"a.md", true},
		{"a.MD", true},
		{"dir/a.markdown", true},
		{"a.Mdx", true},
		{"a.md.png", false},
		{"a.png", false},
		{"a.mdown", false},
		{"amd", false},
		{"md", false},
		{".md", false},
		{"dir/.md", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsMarkdown(tt.name); got != tt.want {
				t.Fatalf("IsMarkdown(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

func TestCheckNewPath(t *testing.T) {
	const (
		windows = "':' is not allowed in a name on Windows"
		device  = "is the name of a device on Windows, whatever the extension, so no file can have it there"
		reorder = "an invisible character that reorders how text is displayed"
	)
	scotland := "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
	// U+0958 is one of the letters that normal form C writes as two, so a
	// name of 84 of them (252 bytes) grows to 504 bytes.
	growing := strings.Repeat("\u0958", 84)
	tests := []struct {
		name     string
		in       string // given to CleanPath, then Normalize, then CheckNewPath
		wantErr  string // the message after "INVALID_PATH: "; "" for no error
		wantHint string // a part of the hint
	}{
		// Dotted names are notes.
		{"plain", "misc/notes", "", ""},
		{"markdown extension", "misc/notes.md", "", ""},
		{"version", "notes/v1.2", "", ""},
		{"version and words", "releases/v1.2 release", "", ""},
		{"date", "journal/2024.01.05", "", ""},
		{"product", "tools/Node.js", "", ""},
		{"domain", "sites/example.org", "", ""},
		{"dotted folder", "v1.2/notes", "", ""},
		{"foreign extension in folder", "assets.png/notes", "", ""},
		{"extension word inside", "my txt notes", "", ""},
		{"excalidraw drawing", "Drawing 2024.excalidraw", "", ""},

		// Extensions of other files.
		{"text file", "misc/notes.txt", `path "misc/notes.txt" ends in .txt, which is not a markdown extension`,
			"use misc/notes or misc/notes.md (or misc/notes.txt.md to keep .txt in the note's name)"},
		{"pdf", "papers/paper.pdf", `path "papers/paper.pdf" ends in .pdf, which is not a markdown extension`, "papers/paper.md"},
		{"image upper case", "a/Photo.PNG", `path "a/Photo.PNG" ends in .PNG, which is not a markdown extension`, "a/Photo.md"},
		{"json", "data.json", `path "data.json" ends in .json, which is not a markdown extension`, "use data or data.md"},
		{"canvas", "boards/plan.canvas", `path "boards/plan.canvas" ends in .canvas, which is not a markdown extension`, "boards/plan.md"},
		{"markdown extension kept in name", "misc/notes.txt.md", "", ""},

		// Replacement character: bytes that were not UTF-8.
		{"replacement character", "misc/caf\uFFFD", "path \"misc/caf\uFFFD\" holds U+FFFD, the character that replaces bytes that were not valid UTF-8", "valid UTF-8"},
		{"replacement character in folder", "a\uFFFD/b.md", "path \"a\uFFFD/b\" holds U+FFFD, the character that replaces bytes that were not valid UTF-8", "valid UTF-8"},

		// Normal form C: a decomposed name is normalized, and may grow past
		// the limits.
		{"decomposed accent", "areas/cafe\u0301", "", ""},
		{"decomposed folder", "Re\u0301unions/2024", "", ""},
		{"normal form past the segment limit", growing, `path "` + norm.NFC.String(growing) + `.md" has a segment of 507 bytes; the limit is 255`, ""},

		// Characters Windows refuses.
		{"colon", "notes/a:b", `path "notes/a:b": ` + windows, "Windows refuses the characters"},
		{"one letter and a colon", "a:b", `path "a:b" starts with "a:", which Windows reads as drive A:; ` + windows, "such as a-b"},
		{"drive-relative path", "C:notes/x", `path "C:notes/x" starts with "C:", which Windows reads as drive C:; ` + windows, "such as C-notes/x"},
		{"drive letter alone", "C:.md", `path "C:" starts with "C:", which Windows reads as drive C:; ` + windows, ""},
		{"colon after a letter in a folder", "notes/C:x", `path "notes/C:x": ` + windows, ""},
		{"colon in a folder", "Q&A: 2024/notes", `path "Q&A: 2024/notes": ` + windows, ""},
		{"star", "a*b", `path "a*b": '*' is not allowed in a name on Windows`, ""},
		{"question mark", "why?", `path "why?": '?' is not allowed in a name on Windows`, ""},
		{"pipe", "a|b", `path "a|b": '|' is not allowed in a name on Windows`, ""},
		{"less than", "a<b", `path "a<b": '<' is not allowed in a name on Windows`, ""},
		{"greater than", "a>b", `path "a>b": '>' is not allowed in a name on Windows`, ""},
		{"double quote", `say "hi"`, `path "say \"hi\"": '"' is not allowed in a name on Windows`, ""},
		{"not less than, composed", "a<\u0338b", "", ""}, // normal form C writes it as U+226E

		// Windows device names, in any case and with any extension.
		{"con", "con", `path "con": "con" ` + device, "con-notes"},
		{"CON upper case", "notes/CON", `path "notes/CON": "CON" ` + device, ""},
		{"con with markdown extension", "con.md", `path "con": "con" ` + device, ""},
		{"nul with another extension", "Nul.txt", `path "Nul.txt": "Nul" ` + device, ""},
		{"aux folder", "aux/notes", `path "aux/notes": "aux" ` + device, ""},
		{"prn with two extensions", "prn.tar.gz", `path "prn.tar.gz": "prn" ` + device, ""},
		{"com1", "COM1", `path "COM1": "COM1" ` + device, ""},
		{"lpt9 with extension", "x/lpt9.backup", `path "x/lpt9.backup": "lpt9" ` + device, ""},
		{"com superscript", "COM\u00b9", "path \"COM\u00b9\": \"COM\u00b9\" " + device, ""},
		{"conin", "CONIN$", `path "CONIN$": "CONIN$" ` + device, ""},
		{"device with space before extension", "con .x", `path "con .x": "con" ` + device, ""},

		// Names Windows drops the end of.
		{"leading space in segment", "a/ b", `path "a/ b" has a segment beginning or ending with whitespace: " b"`, "remove the space"},
		{"trailing space in folder", "a /b", `path "a /b" has a segment beginning or ending with whitespace: "a "`, ""},
		{"trailing space before extension", "a .md", `path "a " has a segment beginning or ending with whitespace: "a "`, ""},
		{"no-break space before extension", "a\u00a0.md", `path "a\u00a0" has a segment beginning or ending with whitespace: "a\u00a0"`, ""},
		{"trailing dot", "notes/v1.", `path "notes/v1." has a segment ending with a dot: "v1."`, "remove it"},
		{"trailing dot in folder", "a./b", `path "a./b" has a segment ending with a dot: "a."`, ""},
		{"trailing dot before extension", "a..md", `path "a." has a segment ending with a dot: "a."`, ""},
		{"console is no device", "console", "", ""},
		{"com10 is no device", "com10", "", ""},
		{"lpt alone is no device", "lpt", "", ""},
		{"device word inside", "prn-notes", "", ""},
		{"nullable", "nullable", "", ""},

		// Invisible characters that make a name pass for another.
		{"byte order mark", "\ufeffnotes", `path "\ufeffnotes" holds U+FEFF BYTE ORDER MARK, an invisible format character`, "remove it"},
		{"right-to-left override", "invoice\u202Efdp.exe", `path "invoice\u202efdp.exe" holds U+202E RIGHT-TO-LEFT OVERRIDE, ` + reorder, ""},
		{"left-to-right embedding", "a\u202Ab", `path "a\u202ab" holds U+202A LEFT-TO-RIGHT EMBEDDING, ` + reorder, ""},
		{"isolate", "a\u2066b", `path "a\u2066b" holds U+2066 LEFT-TO-RIGHT ISOLATE, ` + reorder, ""},
		{"pop isolate", "a\u2069b", `path "a\u2069b" holds U+2069 POP DIRECTIONAL ISOLATE, ` + reorder, ""},
		{"right-to-left mark", "a\u200Fb", `path "a\u200fb" holds U+200F RIGHT-TO-LEFT MARK, ` + reorder, ""},
		{"zero width space", "a\u200Bb", `path "a\u200bb" holds U+200B ZERO WIDTH SPACE, an invisible format character`, ""},
		{"soft hyphen", "co\u00ADop", `path "co\u00adop" holds U+00AD SOFT HYPHEN, an invisible format character`, ""},
		{"invisible in a folder", "a\u2060b/c", `path "a\u2060b/c" holds U+2060 WORD JOINER, an invisible format character`, ""},
		{"tag character alone", "a\U000E0041b", `path "a\U000e0041b" holds U+E0041, an invisible format character`, ""},
		{"flag without cancel tag", "\U0001F3F4\U000E0067", "path \"\U0001F3F4\\U000e0067\" holds U+E0067, an invisible format character", ""},

		// What scripts and emoji need.
		{"zero width joiner in emoji", "family \U0001F468\u200D\U0001F469", "", ""},
		{"zero width non-joiner in Persian", "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645", "", ""},
		{"flag of Scotland", "trips/" + scotland, "", ""},
		{"variation selector", "\u2764\uFE0F notes", "", ""},
		{"Hebrew", "\u05E9\u05DC\u05D5\u05DD", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notePath, ext, err := CleanPath(tt.in)
			if err != nil {
				t.Fatalf("CleanPath(%q): %v", tt.in, err)
			}
			notePath = Normalize(notePath)
			err = CheckNewPath(notePath, ext)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckNewPath(%q, %q) = %v, want nil", notePath, ext, err)
				}
				return
			}
			checkPathErr(t, err, tt.wantErr)
			var e *wikierr.Error
			if errors.As(err, &e) && !strings.Contains(e.Hint, tt.wantHint) {
				t.Errorf("hint %q lacks %q", e.Hint, tt.wantHint)
			}
		})
	}
	t.Run("a path not in normal form C", func(t *testing.T) {
		checkPathErr(t, CheckNewPath("cafe\u0301", ""), "path \"cafe\u0301\" is not in Unicode normalization form C")
	})
	t.Run("a path not in clean form", func(t *testing.T) {
		checkPathErr(t, CheckNewPath("a/../b", ""), `path "a/../b.md" contains a .. segment`)
	})
}

func TestCheckNewFolder(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"root", "", ""},
		{"plain", "archive/2024", ""},
		{"composed accent", "R\u00e9unions", ""},
		{"decomposed accent", "Re\u0301unions", "path \"Re\u0301unions\" is not in Unicode normalization form C"},
		{"colon", "Q&A: 2024", `path "Q&A: 2024": ':' is not allowed in a name on Windows`},
		{"device", "archive/aux", `path "archive/aux": "aux" is the name of a device on Windows, whatever the extension, so no file can have it there`},
		{"bidi", "a\u202eb", `path "a\u202eb" holds U+202E RIGHT-TO-LEFT OVERRIDE, an invisible character that reorders how text is displayed`},
		{"replacement character", "a\uFFFD", "path \"a\uFFFD\" holds U+FFFD, the character that replaces bytes that were not valid UTF-8"},
		{"not clean", "a//b", `path "a//b" has an empty segment`},
		{"trailing space", "notes /2024", `path "notes /2024" has a segment beginning or ending with whitespace: "notes "`},
		{"trailing dot", "v1.", `path "v1." has a segment ending with a dot: "v1."`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckNewFolder(tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckNewFolder(%q) = %v, want nil", tt.in, err)
				}
				return
			}
			checkPathErr(t, err, tt.wantErr)
		})
	}
}

func TestNameKey(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"caf\u00e9", "cafe\u0301", true},
		{"Caf\u00e9", "CAFE\u0301", true},
		{"R\u00e9unions/plan", "Re\u0301unions/Plan", true},
		{"cafe", "caf\u00e9", false},
		{"a:b", "a-b", false},
		// Names Windows takes for one, upper-casing each letter.
		{"\u039f\u03b4\u03cc\u03c2", "\u039f\u0394\u038c\u03a3", true},             // Οδός, ΟΔΌΣ: final sigma
		{"\u03c3\u03bf\u03c6\u03cc\u03c2", "\u03c3\u03bf\u03c6\u03cc\u03c3", true}, // σοφός, σοφόσ
		{"Me\u017fsage", "MESSAGE", true},                                          // long s
		{"Stra\u00dfe", "STRASSE", false},                                          // ß is not SS to Windows
		{"Notes/Plan.md", "notes/PLAN.MD", true},
	}
	for _, tt := range tests {
		t.Run(tt.a+" "+tt.b, func(t *testing.T) {
			if got := NameKey(tt.a) == NameKey(tt.b); got != tt.same {
				t.Fatalf("NameKey(%q) == NameKey(%q) is %v, want %v", tt.a, tt.b, got, tt.same)
			}
			if tt.same && Normalize(tt.a) != tt.a && Normalize(tt.b) != tt.b {
				t.Fatalf("neither %q nor %q is in normal form C", tt.a, tt.b)
			}
		})
	}
}

func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{
		"projects/alpha/plan", "a.md", "./a.markdown", "a.md.md", "a//b", "../x",
		".git/config", ".GIT", "GIT~1", "\u200c.git", "C:x", `a\b`, "a/", "a.", "a .md",
		" a ", "日記/会議.mdx", "a\x00b", "\xff", "notes/v1.2",
		"misc/notes.txt", "misc/notes.txt.md", "a/Photo.PNG", "2024.01.05", "a\uFFFDb", "v1.2 release",
		"a:b", "C:x", "C:/x", "con", "Nul.txt", "aux/x", "COM\u00b9", "why?", "cafe\u0301", "Re\u0301unions/plan",
		"\ufeffx", "a\u202eb", "a\u200db", "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
		"a<\u0338b", strings.Repeat("\u0958", 84),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		notePath, ext, err := CleanPath(p)
		if err != nil {
			var e *wikierr.Error
			if !errors.As(err, &e) || e.Code != wikierr.CodeInvalidPath || e.Message == "" {
				t.Fatalf("CleanPath(%q) error = %#v, want an INVALID_PATH *wikierr.Error with a message", p, err)
			}
			return
		}
		// Re-cleaning a clean note path changes nothing, but for the
		// whitespace that ends a name, trimmed when nothing follows it.
		again, againExt, err := CleanPath(notePath)
		if err != nil || again != strings.TrimSpace(notePath) || againExt != "" {
			t.Fatalf("CleanPath(%q) = %q; CleanPath of that = %q, %q, %v", p, notePath, again, againExt, err)
		}
		// The file name splits back into the note path.
		file := FileName(notePath, ext)
		sp, se, ok := SplitFileName(file)
		if !ok || sp != notePath || FileName(sp, se) != file {
			t.Fatalf("CleanPath(%q) = %q, %q; SplitFileName(%q) = %q, %q, %v", p, notePath, ext, file, sp, se, ok)
		}
		for _, seg := range strings.Split(file, "/") {
			if seg == ".." || seg == "." || seg == "" || isDotGit(seg) || strings.EqualFold(seg, ".git") {
				t.Fatalf("CleanPath(%q) accepted file %q with segment %q", p, file, seg)
			}
		}
		if len(file) > MaxPathBytes {
			t.Fatalf("CleanPath(%q) accepted a %d-byte file name", p, len(file))
		}
		// A new note is valid UTF-8 without U+FFFD, and never gets ".md"
		// after the extension of another kind of file; once created, its
		// file name is a valid new path too.
		if err := CheckNewPath(notePath, ext); err == nil {
			if !utf8.ValidString(file) || strings.ContainsRune(file, '\uFFFD') {
				t.Fatalf("CheckNewPath(%q, %q) accepted a name that is not clean UTF-8", notePath, ext)
			}
			if ext == "" && foreignExt(notePath) != "" {
				t.Fatalf("CheckNewPath(%q, %q) accepted the extension %q", notePath, ext, foreignExt(notePath))
			}
			if err := CheckNewPath(sp, se); err != nil {
				t.Fatalf("CheckNewPath(%q, %q) = nil, but its file %q gives %v", notePath, ext, file, err)
			}
		} else if e := (*wikierr.Error)(nil); !errors.As(err, &e) || e.Code != wikierr.CodeInvalidPath || e.Hint == "" {
			t.Fatalf("CheckNewPath(%q, %q) error = %#v, want an INVALID_PATH *wikierr.Error with a hint", notePath, ext, err)
		}
		// A new note's name is the caller's in normal form C: accepted, it
		// is in that form, names no drive, holds no character Windows
		// refuses and no invisible format character, and no segment is a
		// Windows device; a new folder of the same name passes too.
		nfc := Normalize(notePath)
		if Normalize(nfc) != nfc || NameKey(nfc) != NameKey(notePath) {
			t.Fatalf("Normalize(%q) = %q is not stable, or changes its key", notePath, nfc)
		}
		if err := CheckNewPath(nfc, ext); err == nil {
			nfcFile := FileName(nfc, ext)
			if !norm.NFC.IsNormalString(nfcFile) {
				t.Fatalf("CheckNewPath(%q, %q) accepted a name not in normal form C", nfc, ext)
			}
			if hasDriveLetter(nfcFile) || strings.ContainsAny(nfcFile, windowsChars) {
				t.Fatalf("CheckNewPath(%q, %q) accepted a name Windows refuses", nfc, ext)
			}
			for _, seg := range strings.Split(nfcFile, "/") {
				if windowsDevice(seg) != "" || invisibleRune(seg) >= 0 {
					t.Fatalf("CheckNewPath(%q, %q) accepted segment %q", nfc, ext, seg)
				}
				for _, r := range seg {
					if unicode.Is(unicode.Cf, r) && r != 0x200C && r != 0x200D && !(0xE0020 <= r && r <= 0xE007F) {
						t.Fatalf("CheckNewPath(%q, %q) accepted format character %U", nfc, ext, r)
					}
				}
			}
			if i := strings.LastIndexByte(nfc, '/'); i >= 0 {
				if err := CheckNewFolder(nfc[:i]); err != nil {
					t.Fatalf("CheckNewPath(%q, %q) = nil, but CheckNewFolder(%q) = %v", nfc, ext, nfc[:i], err)
				}
			}
		}
		// The folder of an accepted note is an accepted folder.
		if i := strings.LastIndexByte(notePath, '/'); i >= 0 {
			if dir, err := CleanFolder(notePath[:i]); err != nil || dir != notePath[:i] {
				t.Fatalf("CleanFolder(%q) = %q, %v for the folder of note %q", notePath[:i], dir, err, notePath)
			}
		}
	})
}

func checkPathErr(tb testing.TB, err error, want string) {
	tb.Helper()
	if err == nil {
		tb.Fatalf("error = nil, want %q", want)
	}
	if !errors.Is(err, wikierr.ErrInvalidPath) {
		tb.Errorf("errors.Is(%v, wikierr.ErrInvalidPath) = false", err)
	}
	if got := err.Error(); got != "INVALID_PATH: "+want {
		tb.Errorf("error = %s\nwant    INVALID_PATH: %s", got, want)
	}
}

func TestSpellings(t *testing.T) {
	const e, eD = "\u00e9", "e\u0301"
	tests := []struct {
		p    string
		want []string
	}{
		{"plain/ascii", []string{"plain/ascii"}},
		{"R" + e + "unions/caf" + e, []string{"R" + e + "unions/caf" + e, "R" + eD + "unions/caf" + e, "R" + e + "unions/caf" + eD, "R" + eD + "unions/caf" + eD}},
		{"notes/th" + eD, []string{"notes/th" + eD, "notes/th" + e}},
	}
	for _, tc := range tests {
		if got := Spellings(tc.p); !slices.Equal(got, tc.want) {
			t.Errorf("Spellings(%+q) = %+q, want %+q", tc.p, got, tc.want)
		}
	}
	if got := Spellings(strings.Repeat(e+"/", 8) + e); len(got) != 16 {
		t.Errorf("%d spellings of a path of 9 segments in form C, want 16", len(got))
	}
}
