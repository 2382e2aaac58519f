package index

import (
	"testing"

	"github.com/wikid/wikid/internal/index/analysis"
)

func TestDominantScript(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"How do I sync my notes?", "latin"},
		{"Synchronisiere deine Notizen über Geräte", "latin"},
		{"ដំឡើង Obsidian Sync ដើម្បីធ្វើសមកាលកម្មកំណត់ត្រា", "khmer"},
		{"ตั้งค่า Obsidian Sync เพื่อซิงค์โน้ต", "thai"},
		{"Obsidian Sync を設定して、ノートをデバイス間で同期する", "cjk"},
		{"同步你的笔记", "cjk"},
		{"Синхронизация заметок между устройствами", "cyrillic"},
		{"노트 동기화", "hangul"},
		{"123 !!", ""},
	} {
		if got := analysis.DominantScript(tt.text); got != tt.want {
			t.Errorf("analysis.DominantScript(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
