package index

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// udhr is the first article of the Universal Declaration of Human Rights,
// and the start of the second, in the languages of their official and
// common translations: real prose, a few dozen words long, as a short
// note is.
var udhr = map[string]string{
	"en": `All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.
Everyone is entitled to all the rights and freedoms set forth in this Declaration, without distinction of any kind.`,
	"de": `Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.
Jeder hat Anspruch auf alle in dieser Erklärung verkündeten Rechte und Freiheiten ohne irgendeinen Unterschied.`,
	"fr": `Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.
Chacun peut se prévaloir de tous les droits et de toutes les libertés proclamés dans la présente Déclaration, sans distinction aucune.`,
	"es": `Todos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como están de razón y conciencia, deben comportarse fraternalmente los unos con los otros.
Toda persona tiene todos los derechos y libertades proclamados en esta Declaración, sin distinción alguna.`,
	"it": `Tutti gli esseri umani nascono liberi ed eguali in dignità e diritti. Essi sono dotati di ragione e di coscienza e devono agire gli uni verso gli altri in spirito di fratellanza.
Ad ogni individuo spettano tutti i diritti e tutte le libertà enunciate nella presente Dichiarazione, senza distinzione alcuna.`,
	"pt": `Todos os seres humanos nascem livres e iguais em dignidade e em direitos. Dotados de razão e de consciência, devem agir uns para com os outros em espírito de fraternidade.
Todos os seres humanos podem invocar os direitos e as liberdades proclamados na presente Declaração, sem distinção alguma.`,
	"nl": `Alle mensen worden vrij en gelijk in waardigheid en rechten geboren. Zij zijn begiftigd met verstand en geweten, en behoren zich jegens elkander in een geest van broederschap te gedragen.
Een ieder heeft aanspraak op alle rechten en vrijheden, in deze Verklaring opgesomd, zonder enig onderscheid.`,
	"sv": `Alla människor är födda fria och lika i värde och rättigheter. De har utrustats med förnuft och samvete och bör handla gentemot varandra i en anda av broderskap.
Var och en är berättigad till alla de fri- och rättigheter som uttalas i denna förklaring utan åtskillnad av något slag.`,
	"da": `Alle mennesker er født frie og lige i værdighed og rettigheder. De er udstyret med fornuft og samvittighed, og de bør handle mod hverandre i en broderskabets ånd.
Enhver har krav på alle de rettigheder og friheder, som nævnes i denne erklæring, uden forskel af nogen art.`,
	"no": `Alle mennesker er født frie og med samme menneskeverd og menneskerettigheter. De er utstyrt med fornuft og samvittighet og bør handle mot hverandre i brorskapets ånd.
Enhver har krav på alle de rettigheter og friheter som er nevnt i denne erklæringen, uten forskjell av noen art.`,
	"ru": `Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства.
Каждый человек должен обладать всеми правами и всеми свободами, провозглашенными настоящей Декларацией, без какого бы то ни было различия.`,
	"uk": `Всі люди народжуються вільними і рівними у своїй гідності та правах. Вони наділені розумом і совістю і повинні діяти у відношенні один до одного в дусі братерства.
Кожна людина повинна мати всі права і всі свободи, проголошені цією Декларацією, незалежно від раси, кольору шкіри, статі, мови, релігії.`,
	"pl": `Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem i sumieniem i powinni postępować wobec innych w duchu braterstwa.
Każdy człowiek posiada wszystkie prawa i wolności zawarte w niniejszej Deklaracji bez względu na jakiekolwiek różnice.`,
}

func TestDetectLanguage(t *testing.T) {
	for lang, text := range udhr {
		t.Run(lang, func(t *testing.T) {
			if got := analysis.Detect("", text); got != lang {
				t.Errorf("detectLanguage = %q, want %q", got, lang)
			}
		})
	}
	none := map[string]string{
		"Japanese": `すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。`,
		"Chinese":  `人人生而自由,在尊严和权利上一律平等。他们赋有理性和良心,并应以兄弟关系的精神相对待。`,
		// Mostly Japanese, with a few English words: still none.
		"Japanese with English": `Obsidian のプラグインを使うと、保管庫のノートを Markdown のまま公開できます。設定は「Settings」の中にあります。同期は Sync で行います。ノートは自分のデバイスに保存されます。`,
		"too short":             `Grep was enough.`,
		"code":                  "```go\nfunc main() {\n\tfmt.Println(x)\n}\n```\n",
		"names":                 "- Ann\n- Bob Smith\n- Carol\n- [[Projects/Alpha]]\n",
		"empty":                 "",
		// Danish and Norwegian alike: "er", "og", "til", "det".
		"ambiguous": `Det er godt, og det er til.`,
	}
	for name, text := range none {
		t.Run(name, func(t *testing.T) {
			if got := analysis.Detect("", text); got != "" {
				t.Errorf("detectLanguage = %q, want none", got)
			}
		})
	}
	t.Run("title counts", func(t *testing.T) {
		if got := analysis.Detect("Was ist das und wie geht es", "- [[a]]"); got != "de" {
			t.Errorf("detectLanguage = %q, want de", got)
		}
	})
}

func TestNoteLanguage(t *testing.T) {
	tests := []struct {
		name  string
		props map[string][]string
		body  string
		want  string
	}{
		{"detected", nil, udhr["en"], "en"},
		{"lang wins", map[string][]string{"lang": {"de"}}, udhr["en"], "de"},
		{"language, a name", map[string][]string{"language": {"German"}}, udhr["en"], "de"},
		{"a region", map[string][]string{"lang": {"pt-BR"}}, "", "pt"},
		{"Bokmål", map[string][]string{"lang": {"nb"}}, "", "no"},
		{"a language without stop words", map[string][]string{"lang": {"ja"}}, udhr["en"], ""},
		{"not a language", map[string][]string{"language": {"python"}}, udhr["fr"], "fr"},
		{"too short to tell", nil, "Grep was enough.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &wiki.Document{Title: "T", Body: tt.body, Properties: tt.props}
			if got := noteLanguage(d); got != tt.want {
				t.Errorf("noteLanguage = %q, want %q", got, tt.want)
			}
		})
	}
}

// BenchmarkDetectLanguage measures detection on a note of about 2 KB of
// prose, the size of a typical note, and on one of Japanese.
func BenchmarkDetectLanguage(b *testing.B) {
	en := strings.Repeat(udhr["en"]+"\n\n", 8)
	ja := strings.Repeat(`すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。`, 20)
	for _, bb := range []struct{ name, text string }{{"English 2KB", en}, {"Japanese 2KB", ja}} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(bb.text)))
			for b.Loop() {
				analysis.Detect("", bb.text)
			}
		})
	}
}
