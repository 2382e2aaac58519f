package staticembed_test

import "testing"

func TestBuiltin_Reads(t *testing.T) {
	m := builtin(t)
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"How to link notes together with internal links and backlinks.", true},
		{"Sync your notes across devices; keep a folder from syncing.", true},
		{"Verknüpfe Notizen miteinander, indem du interne Links verwendest.", false},
		{"Sincroniza tus notas entre dispositivos y elige qué carpetas se excluyen.", false},
		{"ភ្ជាប់កំណត់ត្រារបស់អ្នកជាមួយគ្នា Obsidian Sync", false},
		{"同步你的笔记", false},
		{"", false},
	} {
		if got := m.Reads(tt.text); got != tt.want {
			t.Errorf("Reads(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
