package web

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// propertyText renders a frontmatter value as text: lists joined with
// commas, dates as dates.
func propertyText(v any) string {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = propertyText(x)
		}
		return strings.Join(parts, ", ")
	case time.Time:
		if v.Hour() == 0 && v.Minute() == 0 && v.Second() == 0 {
			return v.Format(time.DateOnly)
		}
		return v.Format(time.RFC3339)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}
