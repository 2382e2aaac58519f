package note

import (
	"fmt"
	"strings"
	"testing"
)

// realisticNote returns a note of about size bytes shaped like the notes
// of a team wiki: frontmatter, nested headings, paragraphs with wikilinks,
// markdown links and tags, task lists, a table, a code block and a quote.
func realisticNote(size int) []byte {
	var b strings.Builder
	b.WriteString("---\ntitle: Project Alpha weekly notes\ntags: [project/alpha, meeting]\naliases: [Alpha weekly]\n---\n\n")
	b.WriteString("# Project Alpha weekly notes\n\nRunning notes of the weekly sync. See [[projects/alpha/overview|the overview]] and the [plan](plan.md#milestones).\n\n")
	for i := 1; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## 2024-%02d-%02d weekly\n\n", 1+i%12, 1+i%28)
		fmt.Fprintf(&b, "Attendees: [[Alice]], [[people/bob|Bob]], [[Carol Nguyen]]. #meeting #project/alpha\n\n")
		b.WriteString("### Status\n\n")
		b.WriteString("The backfill is at 60%; the dual writes held up under load. Cut-over moves a week,\n")
		b.WriteString("see [[plan#M3: Cut-over]] and the [risk list](../beta/risks.md). Use `make bench` to check.\n\n")
		b.WriteString("- [x] ship the schema change #done\n- [ ] review the runbook with [[Alice]]\n  - nested detail, https://example.com/runbook#step-2\n\n")
		b.WriteString("| owner | task | due |\n|---|---|---|\n| [[Alice]] | backfill | Fri |\n| Bob | cut-over | Mon |\n\n")
		b.WriteString("```sql\n-- # not a heading, [[not a link]] #not-a-tag\nSELECT count(*) FROM events;\n```\n\n")
		b.WriteString("> Decision: keep the old API until [[Decision Log#API v2]] is signed off. #decision\n\n")
	}
	return []byte(b.String())
}

func BenchmarkScanBody(b *testing.B) {
	src := realisticNote(5 << 10)
	start := strings.Index(string(src), "# Project")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		scanBody(src, start, 6)
	}
}

func BenchmarkApplyEdits(b *testing.B) {
	src := realisticNote(5 << 10)
	edits := []Edit{
		{Op: OpAppendSection, Section: "Status", Content: "- [ ] new task"},
		{Op: OpReplace, Find: "Use `make bench`", Content: "Run `make bench`", ExpectedMatches: strings.Count(string(src), "Use `make bench`")},
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ApplyEdits(src, edits); err != nil {
			b.Fatal(err)
		}
	}
}
