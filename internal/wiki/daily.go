package wiki

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// DailyRequest reads or writes the daily note of a date.
type DailyRequest struct {
	// Date is YYYY-MM-DD; empty means today in the wiki's time zone.
	Date string
	// Op is one of read, append, prepend, append_section, prepend_section.
	Op      string
	Content string
	Section string
	Mutation
}

// DailyResult is the outcome of a daily-note request: Note for a read,
// Result for a write.
type DailyResult struct {
	Path    string
	Date    string
	Created bool
	Note    *ReadResult
	Result  *Result
}

// Daily reads or changes the daily note of a date. The first write of a
// date creates the note from the configured template (or a minimal
// frontmatter) in the same commit. It returns INVALID_PARAMS for a bad date
// or op, NOT_FOUND when reading a daily note that does not exist yet or
// when a section op names a missing section, and the errors of Edit.
func (w *Wiki) Daily(ctx context.Context, req DailyRequest) (*DailyResult, error) {
	date, err := w.DailyDate(req.Date)
	if err != nil {
		return nil, err
	}
	path := w.dailyPath(date)
	out := &DailyResult{Path: path, Date: date}
	switch req.Op {
	case "read", "":
		n, err := w.Read(ctx, ReadRequest{Path: path})
		if errors.Is(err, ErrNotFound) {
			return nil, Errorf(CodeNotFound, "no daily note for %s yet", date).
				WithHint("append to it with {daily} op append to create it")
		}
		out.Note = n
		return out, err
	case note.OpAppend, note.OpPrepend, note.OpAppendSection, note.OpPrependSection:
	default:
		return nil, Errorf(CodeInvalidParams, "unknown op %q for {daily}", req.Op).
			WithHint("use read, append, prepend, append_section or prepend_section")
	}
	edit := note.Edit{Op: req.Op, Content: req.Content, Section: req.Section}
	out.Result, err = w.mutate(ctx, "daily", req.Mutation, func(ctx context.Context, t *txn) error {
		s, err := t.stage(ctx, path)
		if err != nil {
			return err
		}
		out.Created = s.content == nil
		if out.Created {
			if err := t.put(s, t.dailyTemplate(ctx, date)); err != nil {
				return err
			}
		} else if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
			return err
		}
		content, err := note.ApplyEdits(s.content, []note.Edit{edit})
		if err != nil {
			return err
		}
		t.verb("daily")
		return t.put(s, content)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// dailyPath returns the note path of the daily note of date.
func (w *Wiki) dailyPath(date string) string {
	if w.opts.Daily.Folder == "/" {
		return date
	}
	return w.opts.Daily.Folder + "/" + date
}

// DailyDate returns the date of a daily note as its name spells it: date
// itself when it is a day as a note's frontmatter writes one (YYYY-MM-DD,
// read by note.ParseDate), today in the wiki's time zone when it is empty.
// It returns INVALID_PARAMS for anything else.
func (w *Wiki) DailyDate(date string) (string, error) {
	if date == "" {
		return w.opts.Now().In(w.opts.Location).Format(time.DateOnly), nil
	}
	// A daily note's date is a date as a note writes one, the day alone.
	if d, ok := note.ParseDate(date, w.opts.Location); !ok || d.Format(time.DateOnly) != date {
		return "", Errorf(CodeInvalidParams, "bad date %q", date).WithHint("give the date as YYYY-MM-DD")
	}
	return date, nil
}

// dailyTemplate returns the content of a new daily note: the template note
// with {{date}} and {{title}} filled in, or a minimal frontmatter.
func (t *txn) dailyTemplate(ctx context.Context, date string) []byte {
	if tpl := t.w.opts.Daily.Template; tpl != "" {
		_, n, err := t.w.readNote(ctx, t.snap, strings.TrimSuffix(tpl, ".md"), "")
		if err == nil {
			r := strings.NewReplacer("{{date}}", date, "{{title}}", date)
			return []byte(r.Replace(string(n.Raw)))
		}
		t.w.log.Warn("daily template unreadable; using a minimal note", "template", tpl, "err", err)
	}
	return []byte("---\ntitle: " + date + "\ntype: daily\ntags: [daily]\n---\n")
}
