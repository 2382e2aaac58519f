package gittest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// CJKQueries are words to search the notes of CJKNotes for, by script:
// words that stand alone and inside longer runs (at the start, in the
// middle, at the end), words whose characters also occur apart, and
// single characters.
var CJKQueries = map[string][]string{
	"ja": {"プラグイン", "ノート", "無限キャンバス", "キャンバス", "同期", "検索", "キャンプ", "プラグ", "イン", "ノー",
		"設定画面", "の", "無", "ー"},
	"ko": {"노트", "동기화", "플러그인", "노트북", "기화", "무한캔버스", "검색", "노", "화"},
	"zh": {"插件", "笔记", "同步", "无限画布", "画布", "搜索", "数据", "笔", "记"},
}

// cjkWords are the words of each script's notes. Compounds hold the query
// words at their start, in their middle and at their end.
var cjkWords = map[string][]string{
	"ja": strings.Fields(`プラグイン コミュニティプラグイン プラグインマネージャー 公式プラグイン プラグ プラグイン一覧
		ノート デイリーノート ノートブック ノート術 ノーコード 無限キャンバス 無限キャンバスデータ キャンバス 無限ループ
		キャンプ 同期 同期設定 自動同期 検索 全文検索 検索結果 設定 設定画面 画面 保存 表示 機能 管理 ファイル
		フォルダ リンク バックリンク タグ テンプレート 日記 会議 資料 作成 編集 データ 今日 メモ 整理 共有 書き方
		使い方 インストール ログイン`),
	"ko": strings.Fields(`노트 노트북 데일리노트 노트앱 동기화 자동동기화 동기화된 동기 플러그인 커뮤니티플러그인
		플러그인관리자 검색 전체검색 검색결과 설정 화면 저장 표시 기능 관리 파일 폴더 링크 백링크 태그 템플릿 일기
		회의 자료 작성 편집 데이터 노래 기화 무한캔버스 캔버스 오늘 메모 정리 공유 사용법`),
	"zh": strings.Fields(`插件 社区插件 插件管理器 官方插件 笔记 每日笔记 笔记本 记笔记 同步 自动同步 同步设置 无限画布
		无限画布数据 画布 搜索 全文搜索 搜索结果 设置 界面 保存 显示 功能 管理 文件 文件夹 链接 反向链接 标签 模板
		日记 会议 资料 创建 编辑 数据 记录 今天 整理 共享 用法`),
}

// Particles and endings that join the words of a sentence.
var (
	jaJoins   = strings.Fields("の を に は で と が も から まで")
	jaEndings = []string{"する。", "です。", "した。", "。", "ます。"}
	koJoins   = strings.Fields("을 를 에서 의 는 이 가 로 와 도")
	koEndings = []string{"합니다.", "했습니다.", "입니다.", "."}
	zhJoins   = strings.Fields("的 和 在 把 与 也 了")
	zhEndings = []string{"。", "了。", "！", "。"}
	latin     = strings.Fields("Obsidian Markdown wiki Git sync plugin note")
)

// CJKNotes returns perScript notes in each of Japanese, Korean and Chinese,
// as files under ja/, ko/ and zh/: frontmatter with a title made of words of
// the script and ASCII tags, a heading, and lines of sentences, list items
// and links in which the words of the script run together as they do in
// those languages (Korean with spaces between words and particles attached).
// Nothing but the title and the body holds text of the script, and file
// names are ASCII, so a search of the title and body finds what git grep
// finds in the files. The notes are the same for the same perScript.
func CJKNotes(perScript int) map[string]string {
	files := map[string]string{}
	rng := rand.New(rand.NewPCG(11, uint64(perScript)))
	for _, script := range []string{"ja", "ko", "zh"} {
		all := cjkWords[script]
		for i := range perScript {
			// Each note is about a few of the words, so that each word is
			// in some of the notes only.
			g := cjkGen{rng: rng, script: script}
			for range 6 {
				g.words = append(g.words, all[rng.IntN(len(all))])
			}
			files[fmt.Sprintf("%s/note-%03d.md", script, i)] = g.note(i)
		}
	}
	return files
}

type cjkGen struct {
	rng    *rand.Rand
	script string
	words  []string // the words of the note
}

func (g *cjkGen) word() string { return g.words[g.rng.IntN(len(g.words))] }

func (g *cjkGen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

// note returns one note.
func (g *cjkGen) note(i int) string {
	var b strings.Builder
	title := g.word() + g.sep() + g.word()
	fmt.Fprintf(&b, "---\ntitle: %s\ntags: [%s, topic-%d]\n---\n\n# %s\n\n", title, g.script, i%7, title)
	for range 2 + g.rng.IntN(6) {
		switch g.rng.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "- %s\n", g.sentence())
		case 1:
			fmt.Fprintf(&b, "## %s\n", g.word())
		case 2:
			fmt.Fprintf(&b, "%s [[%s]]\n", g.sentence(), g.word())
		default:
			fmt.Fprintf(&b, "%s\n", g.sentence())
		}
		if g.rng.IntN(3) == 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// sep is what stands between two words of a title: nothing (a compound),
// or a space in Korean.
func (g *cjkGen) sep() string {
	if g.script == "ko" && g.rng.IntN(2) == 0 {
		return " "
	}
	return ""
}

// sentence returns a sentence of three to ten words.
func (g *cjkGen) sentence() string {
	var b strings.Builder
	n := 3 + g.rng.IntN(8)
	for k := range n {
		if g.rng.IntN(9) == 0 {
			// A Latin word, set off by spaces.
			if k > 0 {
				b.WriteString(" ")
			}
			b.WriteString(g.pick(latin) + " ")
		}
		b.WriteString(g.word())
		if k == n-1 {
			break
		}
		switch g.script {
		case "ja":
			switch g.rng.IntN(4) {
			case 0: // a compound
			case 1:
				b.WriteString("、")
			default:
				b.WriteString(g.pick(jaJoins))
			}
		case "ko":
			if g.rng.IntN(4) > 0 {
				b.WriteString(g.pick(koJoins))
			}
			if g.rng.IntN(5) > 0 {
				b.WriteString(" ")
			}
		case "zh":
			switch g.rng.IntN(4) {
			case 0:
			case 1:
				b.WriteString("，")
			default:
				b.WriteString(g.pick(zhJoins))
			}
		}
	}
	switch g.script {
	case "ja":
		b.WriteString(g.pick(jaEndings))
	case "ko":
		b.WriteString(" " + g.pick(koEndings))
	default:
		b.WriteString(g.pick(zhEndings))
	}
	return b.String()
}
