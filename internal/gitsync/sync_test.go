package gitsync_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// machine is one clone of a shared wiki with wikid serving it.
type machine struct {
	dir string
	w   *wiki.Wiki
	s   *gitsync.Syncer
}

// remoteWith returns a bare repository holding one commit of files, as the
// URL a clone takes.
func remoteWith(t *testing.T, files map[string]string) string {
	t.Helper()
	seed := gittest.Init(t)
	gittest.Commit(t, seed, "seed", files)
	bare := gittest.InitBare(t)
	gittest.Git(t, seed, "push", "-q", bare, "HEAD:refs/heads/main")
	return bare
}

// cloneOf clones url and opens a wiki with a syncer over the clone.
func cloneOf(t *testing.T, url string) *machine {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", "-b", "main", url, dir)
	return openMachine(t, dir)
}

// openMachine opens a wiki with a syncer over the clone at dir.
func openMachine(t *testing.T, dir string) *machine {
	t.Helper()
	return openMachineWith(t, dir, nil)
}

// openMachineWith is openMachine with the wiki's options changed by set.
func openMachineWith(t *testing.T, dir string, set func(*wiki.Options)) *machine {
	t.Helper()
	gittest.Git(t, dir, "config", "user.name", "Clone User")
	gittest.Git(t, dir, "config", "user.email", "clone@example.com")
	ctx := context.Background()
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts := wiki.Options{
		Author:    wiki.Identity{Name: "Ada", Email: "ada@example.com"},
		Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if set != nil {
		set(&opts)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	now := func() time.Time { return time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC) }
	s := gitsync.New(w, gitsync.Options{Dir: dir, Now: now})
	w.SetSyncReporter(s)
	return &machine{dir: dir, w: w, s: s}
}

func (m *machine) write(t *testing.T, path, content string) {
	t.Helper()
	if _, err := m.w.Write(context.Background(), wiki.WriteRequest{Path: path, Content: content, Overwrite: true}); err != nil {
		t.Fatalf("write %s: %v", path, err)
	}
}

func (m *machine) round(t *testing.T) *gitsync.Result {
	t.Helper()
	res, err := m.s.Round(context.Background())
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return res
}

// pushFrom commits files in a plain git clone of url (a person on another
// machine) and pushes them.
func pushFrom(t *testing.T, url string, message string, files map[string]string, deleted ...string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "other")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", "-b", "main", url, dir)
	for _, d := range deleted {
		gittest.Git(t, dir, "rm", "-q", d)
	}
	gittest.Commit(t, dir, message, files)
	gittest.Git(t, dir, "push", "-q", "origin", "HEAD:main")
}

func head(t *testing.T, dir string) string {
	t.Helper()
	return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
}

func show(t *testing.T, dir, rev, file string) string {
	t.Helper()
	return gittest.Git(t, dir, "show", rev+":"+file)
}

// checkInSync fails unless the clone is clean, fsck-clean and at the
// remote's branch.
func checkInSync(t *testing.T, m *machine, remote string) {
	t.Helper()
	gittest.Fsck(t, m.dir)
	if st := gittest.Status(t, m.dir); st != "" {
		t.Errorf("the clone is not clean:\n%s", st)
	}
	if got, want := head(t, m.dir), strings.TrimSpace(gittest.Git(t, remote, "rev-parse", "main")); got != want {
		t.Errorf("HEAD %s, the remote's main %s", got, want)
	}
}

func TestSyncer_Round(t *testing.T) {
	note := "---\ntitle: Plan\ntags: [project]\nstatus: draft\n---\n# Plan\n\nOne.\n\nTwo.\n\nThree.\n\nFour.\n"

	t.Run("nothing to do", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		res := a.round(t)
		if res.Integrated != wiki.IntegratedAlready || res.Pushed || res.Upstream != "origin/main" {
			t.Errorf("%+v", res)
		}
		checkInSync(t, a, remote)
	})

	t.Run("a local change is pushed", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		a.write(t, "ideas", "# Ideas\n")
		res := a.round(t)
		if !res.Pushed || res.Commit != head(t, a.dir) {
			t.Errorf("%+v", res)
		}
		if got := show(t, remote, "main", "ideas.md"); got != "# Ideas\n" {
			t.Errorf("the remote has %q", got)
		}
		checkInSync(t, a, remote)
	})

	t.Run("a remote change fast-forwards, and search follows", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		pushFrom(t, remote, "from the laptop", map[string]string{"laptop.md": "# Laptop\n\nzeppelin\n"})
		res := a.round(t)
		if res.Integrated != wiki.IntegratedFastForward || res.Pushed {
			t.Errorf("%+v", res)
		}
		if b, err := os.ReadFile(filepath.Join(a.dir, "laptop.md")); err != nil || string(b) != "# Laptop\n\nzeppelin\n" {
			t.Errorf("the checkout has %q, %v", b, err)
		}
		found, err := a.w.Search(context.Background(), wiki.SearchParams{Query: "zeppelin"})
		if err != nil || found.Total != 1 {
			t.Errorf("search zeppelin: %+v, %v", found, err)
		}
		checkInSync(t, a, remote)
	})

	t.Run("both sides change different lines of a note", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		a.write(t, "plan", strings.Replace(note, "One.", "One, from here.", 1))
		pushFrom(t, remote, "laptop edit", map[string]string{"plan.md": strings.Replace(note, "Four.", "Four, from the laptop.", 1)})
		res := a.round(t)
		if res.Integrated != wiki.IntegratedMerge || !res.Pushed || len(res.Merged) != 1 || len(res.Conflicts) != 0 {
			t.Fatalf("%+v", res)
		}
		got := show(t, remote, "main", "plan.md")
		if !strings.Contains(got, "One, from here.") || !strings.Contains(got, "Four, from the laptop.") {
			t.Errorf("merged note:\n%s", got)
		}
		if parents := strings.Fields(gittest.Git(t, a.dir, "show", "-s", "--format=%P", "HEAD")); len(parents) != 2 {
			t.Errorf("HEAD has parents %v, want a merge commit", parents)
		}
		checkInSync(t, a, remote)
	})

	t.Run("the same line changed on both sides gives a conflict copy", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		a.write(t, "plan", strings.Replace(note, "Two.", "Two, said here.", 1))
		pushFrom(t, remote, "laptop edit", map[string]string{"plan.md": strings.Replace(note, "Two.", "Two, said there.", 1)})
		res := a.round(t)
		if len(res.Conflicts) != 1 || res.Conflicts[0].Copy != "plan (conflict 2026-11-23 origin).md" {
			t.Fatalf("%+v", res)
		}
		if got := show(t, remote, "main", "plan.md"); !strings.Contains(got, "Two, said here.") || strings.Contains(got, "<<<<<<<") {
			t.Errorf("the note:\n%s", got)
		}
		if got := show(t, remote, "main", res.Conflicts[0].Copy); !strings.Contains(got, "Two, said there.") {
			t.Errorf("the conflict copy:\n%s", got)
		}
		msg := gittest.Git(t, a.dir, "log", "-1", "--format=%B")
		if !strings.Contains(msg, "plan (conflict 2026-11-23 origin).md") {
			t.Errorf("the merge message does not name the copy:\n%s", msg)
		}
		checkInSync(t, a, remote)
	})

	t.Run("a second conflict on the same note keeps the first copy", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		for i, word := range []string{"first", "second"} {
			current := show(t, remote, "main", "plan.md")
			a.write(t, "plan", current+"- here "+word+"\n")
			pushFrom(t, remote, "laptop edit", map[string]string{"plan.md": current + "- there " + word + "\n"})
			res := a.round(t)
			want := "plan (conflict 2026-11-23 origin).md"
			if i == 1 {
				want = "plan (conflict 2026-11-23 origin 2).md"
			}
			if len(res.Conflicts) != 1 || res.Conflicts[0].Copy != want {
				t.Fatalf("round %d: %+v", i+1, res)
			}
		}
		for copyPath, want := range map[string]string{
			"plan (conflict 2026-11-23 origin).md":   "- there first",
			"plan (conflict 2026-11-23 origin 2).md": "- there second",
		} {
			if got := show(t, remote, "main", copyPath); !strings.Contains(got, want) {
				t.Errorf("%s:\n%s", copyPath, got)
			}
		}
	})

	t.Run("frontmatter merges key by key, tags as a set", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		a.write(t, "plan", strings.Replace(note, "tags: [project]", "tags: [project, here]", 1))
		pushFrom(t, remote, "laptop edit", map[string]string{"plan.md": strings.NewReplacer("tags: [project]", "tags: [there]", "status: draft", "status: done").Replace(note)})
		res := a.round(t)
		if len(res.Merged) != 1 || len(res.Conflicts) != 0 {
			t.Fatalf("%+v", res)
		}
		got := show(t, remote, "main", "plan.md")
		if !strings.Contains(got, "tags: [here, there]") || !strings.Contains(got, "status: done") || strings.Contains(got, "project") {
			t.Errorf("merged frontmatter:\n%s", got)
		}
	})

	t.Run("a rename there, an edit here: the edit lands on the renamed note", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		a.write(t, "plan", strings.Replace(note, "Three.", "Three, edited here.", 1))
		pushFrom(t, remote, "rename", map[string]string{"projects/plan.md": note}, "plan.md")
		a.round(t)
		if got := show(t, remote, "main", "projects/plan.md"); !strings.Contains(got, "Three, edited here.") {
			t.Errorf("the renamed note:\n%s", got)
		}
		if _, err := gittest.TryGit(remote, "cat-file", "-e", "main:plan.md"); err == nil {
			t.Error("the old path is back")
		}
		checkInSync(t, a, remote)
	})

	t.Run("an edit here, a delete there: the edit is kept", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note, "other.md": "# Other\n"})
		a := cloneOf(t, remote)
		a.write(t, "plan", strings.Replace(note, "One.", "One, kept.", 1))
		pushFrom(t, remote, "delete", nil, "plan.md")
		res := a.round(t)
		if got := show(t, remote, "main", "plan.md"); !strings.Contains(got, "One, kept.") || len(res.Conflicts) != 1 {
			t.Errorf("%+v:\n%s", res, got)
		}
	})

	t.Run("an add on both sides, and an attachment changed on both", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note, "assets/chart.png": "\x89PNG one"})
		a := cloneOf(t, remote)
		a.write(t, "inbox/idea", "# Idea\n\nFrom here.\n")
		gittest.Commit(t, a.dir, "chart here", map[string]string{"assets/chart.png": "\x89PNG here"})
		pushFrom(t, remote, "there", map[string]string{"inbox/idea.md": "# Idea\n\nFrom there.\n", "assets/chart.png": "\x89PNG there"})
		res := a.round(t)
		if len(res.Conflicts) != 2 {
			t.Fatalf("%+v", res)
		}
		for file, want := range map[string]string{
			"inbox/idea.md": "# Idea\n\nFrom here.\n",
			"inbox/idea (conflict 2026-11-23 origin).md":    "# Idea\n\nFrom there.\n",
			"assets/chart.png":                              "\x89PNG here",
			"assets/chart (conflict 2026-11-23 origin).png": "\x89PNG there",
		} {
			if got := show(t, remote, "main", file); got != want {
				t.Errorf("%s: %q, want %q", file, got, want)
			}
		}
		checkInSync(t, a, remote)
	})

	t.Run("a file:// remote", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, "file://"+remote)
		a.write(t, "ideas", "# Ideas\n")
		if res := a.round(t); !res.Pushed {
			t.Errorf("%+v", res)
		}
		checkInSync(t, a, remote)
	})

	t.Run("a rewritten remote history is refused", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		pushFrom(t, remote, "one more", map[string]string{"more.md": "# More\n"})
		a.round(t)
		// Someone force-pushes a history without that commit.
		other := filepath.Join(t.TempDir(), "rewrite")
		gittest.Git(t, filepath.Dir(other), "clone", "-q", "-b", "main", remote, other)
		gittest.Git(t, other, "reset", "-q", "--hard", "HEAD~1")
		gittest.Commit(t, other, "rewritten", map[string]string{"else.md": "# Else\n"})
		gittest.Git(t, other, "push", "-q", "--force", "origin", "HEAD:main")
		before := head(t, a.dir)
		_, err := a.s.Round(context.Background())
		if wiki.CodeOf(err) != wiki.CodeConflict || !strings.Contains(err.Error(), "rewritten") {
			t.Fatalf("err %v, want CONFLICT saying the history was rewritten", err)
		}
		if head(t, a.dir) != before {
			t.Error("HEAD moved")
		}
		if _, err := a.s.Round(context.Background()); wiki.CodeOf(err) != wiki.CodeConflict {
			t.Errorf("the second round: %v", err)
		}
	})

	t.Run("an unreachable remote fails without secrets, changing nothing", func(t *testing.T) {
		remote := remoteWith(t, map[string]string{"plan.md": note})
		a := cloneOf(t, remote)
		gittest.Git(t, a.dir, "remote", "set-url", "origin", "https://ada:s3cret-token@127.0.0.1:1/wiki.git")
		a.write(t, "ideas", "# Ideas\n")
		before := head(t, a.dir)
		_, err := a.s.Round(context.Background())
		if err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Fatalf("err %v", err)
		}
		if head(t, a.dir) != before {
			t.Error("HEAD moved")
		}
	})

	t.Run("an empty remote gets the branch", func(t *testing.T) {
		bare := gittest.InitBare(t)
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{"plan.md": note})
		gittest.Git(t, dir, "remote", "add", "origin", bare)
		gittest.Git(t, dir, "config", "branch.main.remote", "origin")
		gittest.Git(t, dir, "config", "branch.main.merge", "refs/heads/main")
		a := openMachine(t, dir)
		res := a.round(t)
		if res.Remote != "" || !res.Pushed || res.Integrated != wiki.IntegratedAlready {
			t.Errorf("%+v", res)
		}
		checkInSync(t, a, bare)
	})

	t.Run("no upstream", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
		store, err := gitstore.Open(context.Background(), dir, gitstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		idx, err := index.Open(context.Background(), filepath.Join(store.Dir(), "index"), index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		hist, err := history.Open(context.Background(), store, history.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := wiki.Open(context.Background(), wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}, wiki.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close(context.Background())
		_, err = gitsync.New(w, gitsync.Options{Dir: dir}).Round(context.Background())
		if wiki.CodeOf(err) != wiki.CodeInvalidParams {
			t.Errorf("err %v, want INVALID_PARAMS", err)
		}
	})
}

func TestRedact(t *testing.T) {
	in := "fatal: unable to access 'https://ada:tok3n@example.com/wiki.git/': and http://u@h/x"
	if got := gitsync.Redact(in); strings.Contains(got, "tok3n") || strings.Contains(got, "ada") || strings.Contains(got, "u@") {
		t.Errorf("Redact = %q", got)
	}
}

// smartHTTP serves the bare repositories under root with git http-backend
// on loopback, behind basic authentication as user:password, and returns
// the base URL.
func smartHTTP(t *testing.T, root, user, password string) string {
	t.Helper()
	backend := &cgi.Handler{
		Path: gitPath(t),
		Args: []string{"http-backend"},
		Env:  []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="wiki"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func gitPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	return p
}

// TestSyncer_SmartHTTP syncs over git's smart HTTP protocol with the
// credentials a credential helper gives, and fails cleanly, without the
// password in any message, when they are wrong.
func TestSyncer_SmartHTTP(t *testing.T) {
	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	gittest.Git(t, remote, "config", "http.receivepack", "true")
	url := smartHTTP(t, filepath.Dir(remote), "ada", "s3cret-pass") + "/" + filepath.Base(remote)

	helper := func(password string) string {
		return "!f() { test \"$1\" = get && echo username=ada && echo password=" + password + "; }; f"
	}
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "-c", "credential.helper="+helper("s3cret-pass"), "clone", "-q", "-b", "main", url, dir)
	gittest.Git(t, dir, "config", "credential.helper", helper("s3cret-pass"))
	a := openMachine(t, dir)

	a.write(t, "ideas", "# Ideas\n")
	pushFrom(t, remote, "from the laptop", map[string]string{"laptop.md": "# Laptop\n"})
	res := a.round(t)
	if res.Integrated != wiki.IntegratedMerge || !res.Pushed {
		t.Fatalf("%+v", res)
	}
	checkInSync(t, a, remote)

	gittest.Git(t, dir, "config", "credential.helper", helper("wrong-pass"))
	a.write(t, "more", "# More\n")
	before := head(t, a.dir)
	_, err := a.s.Round(context.Background())
	if err == nil || strings.Contains(err.Error(), "pass") {
		t.Fatalf("err %v, want a failure without the password", err)
	}
	t.Logf("wrong credentials: %v", err)
	if head(t, a.dir) != before {
		t.Error("HEAD moved")
	}
}

// TestSyncer_Run syncs by itself: a local change reaches the remote soon
// after it is made, a remote change arrives within the interval, and the
// status says so.
func TestSyncer_Run(t *testing.T) {
	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	a := cloneOf(t, remote)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.s.Run(ctx, 300*time.Millisecond, 100*time.Millisecond)
	}()
	defer func() { cancel(); <-done }()

	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	a.write(t, "local", "# Local\n")
	waitFor("the local change on the remote", func() bool {
		_, err := gittest.TryGit(remote, "cat-file", "-e", "main:local.md")
		return err == nil
	})
	pushFrom(t, remote, "from the laptop", map[string]string{"laptop.md": "# Laptop\n"})
	waitFor("the remote change in the checkout", func() bool {
		_, err := os.Stat(filepath.Join(a.dir, "laptop.md"))
		return err == nil
	})
	waitFor("the status to say in sync", func() bool {
		st := a.s.SyncStatus(context.Background())
		return st.Ahead == 0 && st.Behind == 0 && st.LastSuccess != nil && st.Auto
	})
	st, err := a.w.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !st.Sync.Configured || st.Sync.Upstream != "origin/main" || !strings.Contains(st.Sync.Message, "synced with origin/main") {
		t.Errorf("status %+v", st.Sync)
	}
}

// TestSyncer_RoundWhileWriting runs sync rounds that merge conflicting
// remote changes while writers change the same notes on this machine:
// every round succeeds or is retried, every acknowledged line survives
// (merged, or in a conflict copy), and the clone ends in sync and clean.
func TestSyncer_RoundWhileWriting(t *testing.T) {
	seed := map[string]string{}
	for i := range 4 {
		seed[fmt.Sprintf("n%d.md", i)] = fmt.Sprintf("# Note %d\n\nBody.\n", i)
	}
	remote := remoteWith(t, seed)
	a := cloneOf(t, remote)
	other := filepath.Join(t.TempDir(), "other")
	gittest.Git(t, filepath.Dir(other), "clone", "-q", "-b", "main", remote, other)
	ctx := context.Background()

	var mu sync.Mutex
	var acked []string
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 15 {
				line := fmt.Sprintf("- local w%d k%d", w, k)
				if _, err := a.w.Edit(ctx, wiki.EditRequest{Path: fmt.Sprintf("n%d", (w+k)%4), Edits: []note.Edit{{Op: "append", Content: line}}}); err != nil {
					t.Errorf("edit: %v", err)
					return
				}
				mu.Lock()
				acked = append(acked, line)
				mu.Unlock()
			}
		}()
	}
	for r := range 6 {
		// The other machine appends to the same notes, then this one syncs.
		gittest.Git(t, other, "pull", "-q", "--no-rebase", "origin", "main")
		changes := map[string]string{}
		for i := range 4 {
			b, _ := os.ReadFile(filepath.Join(other, fmt.Sprintf("n%d.md", i)))
			line := fmt.Sprintf("- remote r%d n%d", r, i)
			changes[fmt.Sprintf("n%d.md", i)] = string(b) + line + "\n"
			mu.Lock()
			acked = append(acked, line)
			mu.Unlock()
		}
		gittest.Commit(t, other, fmt.Sprintf("remote %d", r), changes)
		gittest.Git(t, other, "push", "-q", "origin", "HEAD:main")
		if _, err := a.s.Round(ctx); err != nil && !errors.Is(err, gitsync.ErrRejected) {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	wg.Wait()
	a.round(t)
	checkInSync(t, a, remote)
	all := ""
	for _, c := range readTree(t, a.dir) {
		all += c
	}
	for _, line := range acked {
		if !strings.Contains(all, line) {
			t.Errorf("%q is lost", line)
		}
	}
	if strings.Contains(all, "<<<<<<<") {
		t.Error("conflict markers")
	}
}

// TestSyncer_TokenFromEnvironment syncs over smart HTTP with the token of
// WIKID_SYNC_TOKEN and no credential helper.
func TestSyncer_TokenFromEnvironment(t *testing.T) {
	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	gittest.Git(t, remote, "config", "http.receivepack", "true")
	url := smartHTTP(t, filepath.Dir(remote), "x-access-token", "tok-123") + "/" + filepath.Base(remote)
	t.Setenv(gitsync.TokenEnv, "tok-123")
	dir := filepath.Join(t.TempDir(), "clone")
	auth := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:tok-123"))
	gittest.Git(t, filepath.Dir(dir), "-c", "http.extraHeader="+auth, "clone", "-q", "-b", "main", url, dir)
	a := openMachine(t, dir)
	a.write(t, "ideas", "# Ideas\n")
	if res := a.round(t); !res.Pushed {
		t.Errorf("%+v", res)
	}
	checkInSync(t, a, remote)
	t.Setenv(gitsync.TokenEnv, "wrong")
	a.write(t, "more", "# More\n")
	if _, err := a.s.Round(context.Background()); err == nil || strings.Contains(err.Error(), "wrong") {
		t.Errorf("err %v", err)
	}
}
