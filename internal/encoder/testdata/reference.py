"""Makes the reference fixture of the encoder's tests.

It embeds the sentences below with the model's float32 ONNX export under
onnxruntime and tokenizes them with HF tokenizers, from the model's own
tokenizer.json: the way the model's authors run it. The Go tests compare
their token ids and vectors with these.

    python3 -m venv venv && venv/bin/pip install onnxruntime tokenizers numpy
    venv/bin/python reference.py MODEL.onnx TOKENIZER.json POOLING MAXTOKENS \
        QUERYPREFIX PASSAGEPREFIX OUT.json

POOLING is cls or mean. OUT.json holds, for each sentence, its text, its
kind (passage or query), the token ids and the vector (float32, little
endian, base64).
"""

import base64
import json
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

LONG = (
    "Git is a distributed version control system that tracks versions of files. "
    "It is often used to control source code by programmers who are developing software collaboratively. "
    "Design goals of Git include speed, data integrity, and support for distributed, non-linear workflows. "
) * 12

SENTENCES = [
    # short
    "hello", "Hello, world!", "a", "OK", "yes.", "Why?", "git", "wikid", "notes", "TODO",
    "meeting notes", "read later", "the cat sat on the mat", "Paris is the capital of France.",
    "How do I revert a commit?", "Where are my daily notes?",
    # sentences
    "The quick brown fox jumps over the lazy dog.",
    "Every change to the wiki is one git commit, so git log shows what an assistant did.",
    "Semantic search finds notes by meaning rather than by their exact words.",
    "A backlink is a link from another note to this one.",
    "We decided to move the weekly review to Friday afternoons starting next month.",
    "The experiment failed because the sample was contaminated during transport.",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "She sells sea shells by the sea shore.",
    "In 1969, Apollo 11 landed on the Moon; Neil Armstrong stepped out first.",
    "Interest rates rose by 0.25% to 5.50% on 26 July 2023.",
    "Call me at +1 (555) 010-9999 or write to jane.doe@example.com.",
    "See https://example.com/path?q=1&r=2#frag for details.",
    "Don't panic: it's only a test, isn't it?",
    "UPPER CASE TEXT SHOULD BE LOWERED BY THE TOKENIZER",
    "MiXeD CaSe WoRdS aNd NuMbErS 123abc456",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "pneumonoultramicroscopicsilicovolcanoconiosis is a long word",
    "x" * 120,
    "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    "1 2 3 4 5 6 7 8 9 10 100 1000 10000 3.14159 2.71828 -42 1e10",
    # markdown
    "# Project plan\n\n- [ ] write the spec\n- [x] review the design\n",
    "## Meeting 2024-01-15\n\n**Attendees:** Ana, Bo, Chen\n\n> Decision: ship on Monday.",
    "See [[Daily Notes/2024-03-01]] and [[Projects/wikid|the wiki]] for context.",
    "---\ntitle: Reading list\ntags: [books, to-read]\n---\n\n1. *Dune*\n2. _Neuromancer_",
    "| name | value |\n|------|-------|\n| alpha | 1 |\n| beta | 2 |",
    "![diagram](images/arch.png) The architecture, layer by layer.",
    "#tag #another-tag #nested/tag text after tags",
    "> [!note] Callout\n> Obsidian callouts start with a bang.",
    "Footnote here[^1].\n\n[^1]: The footnote text.",
    "~~struck~~ ==highlighted== `inline code` **bold** *italic*",
    # code
    "func main() {\n\tfmt.Println(\"hello, world\")\n}",
    "def add(a, b):\n    return a + b\n\nprint(add(2, 3))",
    "SELECT id, name FROM users WHERE age >= 18 ORDER BY name;",
    "const x = arr.map((v) => v * 2).filter(Boolean);",
    "if (a && b || !c) { return x->y; } else { i += 1; }",
    "git rebase -i HEAD~3 && git push --force-with-lease origin main",
    "<div class=\"note\"><p>Hello</p></div>",
    "{\"key\": [1, 2, 3], \"nested\": {\"a\": null, \"b\": true}}",
    "for i in $(seq 1 10); do echo \"$i\"; done | sort -n > out.txt",
    "std::vector<int> v{1, 2, 3}; auto it = std::find(v.begin(), v.end(), 2);",
    "regex: ^[a-z0-9_.+-]+@[a-z0-9-]+\\.[a-z]{2,}$",
    "C:\\Users\\ana\\Documents\\notes\\todo.md",
    # accents
    "café crème brûlée à la carte",
    "Ångström, Ørsted, Øresund, Ærø",
    "naïve façade résumé coöperate",
    "São Paulo, Bogotá, Córdoba, Zürich, Kraków, İstanbul",
    "Müller über Straße schön Größe",
    "Dvořák, Škoda, Łódź, Gdańsk, Brașov",
    "Ελληνικά: Καλημέρα κόσμε",
    "Русский текст: Привет, мир! Ёжик в тумане.",
    "Tiếng Việt có dấu: Xin chào thế giới",
    "Ça va? Où est la bibliothèque? Très bien!",
    "ǅemal ǈubljana ǋegoš Ǳ ǲ",
    "ﬁne ﬂour ﬀ ligatures and Ⅻ ² ½ ™",
    # CJK and other scripts
    "你好，世界！",
    "我喜欢在周末读书和写笔记。",
    "東京は日本の首都です。",
    "ひらがなとカタカナとKanjiの混在テキスト",
    "한국어 문장도 토큰화해야 합니다.",
    "中文English混合text测试123",
    "𠀀𠀁 rare CJK extension B 𪜀 and 𫠠𫤠",
    "العربية: مرحبا بالعالم",
    "עברית: שלום עולם",
    "हिन्दी: नमस्ते दुनिया",
    "ภาษาไทย สวัสดีครับ",
    "ქართული ენა და Հայերեն",
    # emoji and symbols
    "I love this 😀👍🎉",
    "🥰 new emoji 🫠 and flags 🇫🇷🇯🇵",
    "family emoji 👨‍👩‍👧‍👦 with joiners",
    "heart ❤️ with variation selector",
    "arrows → ← ↑ ↓ ⇒ and math ∑ ∫ √ ∞ ≠ ≤",
    "currency: $5, €10, £7, ¥300, ₹99, ₿1",
    "«guillemets» „quotes“ ‘single’ “double” — em dash – en dash …",
    "bullet • point · middle ‧ dot",
    # whitespace, control and special tokens
    "tabs\tand\nnewlines\r\nand   spaces",
    "  leading and trailing spaces  ",
    "zero\u200bwidth\u200dspace and soft\u00adhyphen",
    "non\u00a0breaking\u2003em\u3000ideographic",
    "null\u0000byte and bell\u0007char",
    "private \ue000 use and unassigned \u0378 chars",
    "replacement \ufffd char",
    "text with [SEP] and [CLS] inside and [MASK] too",
    "[UNK] [PAD] lower [sep] [mask]",
    "",
    " ",
    "...",
    "!!!???",
    "a-b_c.d,e;f:g",
    "hyphen-ated well-known state-of-the-art",
    "e.g. i.e. etc. vs. Mr. Dr. U.S.A.",
    # mixed and long
    "TODO(ana): fix the #42 bug before v1.2.3 — see PR #108 🐛",
    "Résumé of 東京 trip: 3 days, ¥45,000, 😀 would go again!",
    "Σίσυφος and ΣΊΣΥΦΟΣ: final sigma ς and Σ",
    "Quarterly OKRs: grow MAU 20%, cut p95 latency < 200ms, ship v2.",
    "The wiki's graph has 10,000 notes and 45,000 links; 73 are broken.",
    LONG,
    "word " * 600,
    ("漢字" * 300),
    ("mixed 語 text, " * 80),
    "# Long markdown\n\n" + "\n".join(f"- item {i}: some text about topic {i}" for i in range(60)),
]

QUERIES = [
    "how do I undo a change?",
    "notes about the trip to Tokyo",
    "what is semantic search",
    "git commit history of a note",
    "café recommendations",
    "当前项目的进度",
]


def main():
    model, tok_path, pooling, max_tokens, query_prefix, passage_prefix, out = sys.argv[1:8]
    max_tokens = int(max_tokens)
    tok = Tokenizer.from_file(tok_path)
    tok.no_padding()
    tok.enable_truncation(max_length=max_tokens)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    items = [(s, "passage") for s in SENTENCES] + [(q, "query") for q in QUERIES]
    records = []
    for text, kind in items:
        prefix = query_prefix if kind == "query" else passage_prefix
        enc = tok.encode(prefix + text)
        ids = np.array([enc.ids], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }
        hidden = sess.run(None, feeds)[0][0]
        vec = hidden[0] if pooling == "cls" else hidden.mean(axis=0)
        vec = (vec / np.linalg.norm(vec)).astype("<f4")
        records.append({
            "text": text,
            "kind": kind,
            "ids": enc.ids,
            "vector": base64.b64encode(vec.tobytes()).decode(),
        })
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"model": model.rsplit("/", 1)[-1], "pooling": pooling, "max_tokens": max_tokens,
                   "sentences": records}, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"{out}: {len(records)} sentences")


if __name__ == "__main__":
    main()
