package obsidian

import (
	"strings"
	"testing"
)

// The seed's "Tool Documentation Structure":
//
//	Each tool follows a consistent documentation pattern:
//	1. **Brief Description**: One-line summary of what the tool does
//	2. **When to Use**: Clear scenarios where this tool is appropriate
//	3. **When NOT to Use**: Alternative tools for different scenarios
//	4. **Examples**: Concrete usage examples with expected outputs
func TestSeed_DocumentationPattern(t *testing.T) {
	tools := toolSet()
	if len(tools) != 23 {
		t.Errorf("%d tools, want the seed's 23", len(tools))
	}
	names := map[string]bool{}
	for _, x := range tools {
		names[x.Name] = true
	}
	for _, x := range tools {
		d := x.Description
		for _, part := range []string{"\n\nWhen to use:\n- ", "\n\nWhen NOT to use:\n- ", "\n\nExamples:\n- " + x.Name + "("} {
			if !strings.Contains(d, part) {
				t.Errorf("%s: the description lacks %q:\n%s", x.Name, strings.TrimSpace(part), d)
			}
		}
		if brief, _, _ := strings.Cut(d, "\n"); brief == "" || strings.Contains(brief, "When to use") {
			t.Errorf("%s: no brief description first:\n%s", x.Name, d)
		}
		// Every alternative named is a tool of the profile.
		for _, line := range strings.Split(d, "\n") {
			if _, alt, ok := strings.Cut(line, "(use "); ok {
				// "(use a_tool ...)" or "(use a_tool or b_tool)".
				f := strings.FieldsFunc(alt, func(r rune) bool { return r == ' ' || r == ',' || r == ')' })
				for i, name := range f {
					if (i == 0 || f[i-1] == "or") && !names[name] {
						t.Errorf("%s: names %s, which the profile lacks", x.Name, name)
					}
				}
			}
		}
	}
	for name := range docs {
		if !names[name] {
			t.Errorf("docs document %s, which the profile lacks", name)
		}
	}
}
