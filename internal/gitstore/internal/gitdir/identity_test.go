package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestUserIdentity(t *testing.T) {
	home := t.TempDir()
	xdg := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return name
	}
	write(filepath.Join(home, ".gitconfig"), "[user]\n\tname = Home Hal\n\temail = hal@example.com\n")
	write(filepath.Join(home, ".config", "git", "config"), "[user]\n\tname = Dot Config Dee\n\temail = dee@example.com\n")
	write(filepath.Join(xdg, "git", "config"), "[user]\n\tname = Xdg Xia\n\temail = xia@example.com\n[author]\n\temail = xia-author@example.com\n")
	system := write(filepath.Join(t.TempDir(), "gitconfig"), "[user]\n\tname = System Sam\n\temail = sam@example.com\n")
	global := write(filepath.Join(t.TempDir(), "global"), "[user]\n\temail = only-email@example.com\n")
	bad := write(filepath.Join(t.TempDir(), "bad"), "[user\nname = x\n")

	tests := []struct {
		name    string
		local   map[string]string
		env     map[string]string
		want    Identity
		wantErr bool
	}{
		{"nothing", nil, map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}, Identity{}, false},
		{"the system", nil, map[string]string{"GIT_CONFIG_SYSTEM": system}, Identity{Name: "System Sam", Email: "sam@example.com"}, false},
		{"GIT_CONFIG_NOSYSTEM", nil, map[string]string{"GIT_CONFIG_SYSTEM": system, "GIT_CONFIG_NOSYSTEM": "true"}, Identity{}, false},
		{"~/.gitconfig wins over ~/.config/git/config", nil, map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "HOME": home},
			Identity{Name: "Home Hal", Email: "hal@example.com"}, false},
		{"XDG_CONFIG_HOME replaces ~/.config; author.email wins", nil,
			map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": xdg},
			Identity{Name: "Xdg Xia", Email: "xia-author@example.com"}, false},
		{"GIT_CONFIG_GLOBAL replaces the global files; the system fills in", nil,
			map[string]string{"GIT_CONFIG_SYSTEM": system, "HOME": home, "GIT_CONFIG_GLOBAL": global},
			Identity{Name: "System Sam", Email: "only-email@example.com"}, false},
		{"the repository wins", map[string]string{"user.name": "Local Lu", "user.email": "lu@example.com"},
			map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "HOME": home}, Identity{Name: "Local Lu", Email: "lu@example.com"}, false},
		{"the environment wins", map[string]string{"user.name": "Local Lu", "user.email": "lu@example.com"},
			map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Env Eve", "GIT_AUTHOR_EMAIL": "eve@example.com"},
			Identity{Name: "Env Eve", Email: "eve@example.com"}, false},
		{"EMAIL fills in the email", map[string]string{"user.name": "Local Lu"},
			map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "EMAIL": "mail@example.com"},
			Identity{Name: "Local Lu", Email: "mail@example.com"}, false},
		{"a file that does not parse", nil, map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": bad}, Identity{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.Init(t)
			for k, v := range tt.local {
				gittest.Git(t, dir, "config", k, v)
			}
			got, err := UserIdentity(filepath.Join(dir, ".git"), func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("identity %+v, want %+v", got, tt.want)
			}
			// git itself agrees.
			if tt.wantErr || tt.want.Name == "" || tt.env["EMAIL"] != "" {
				return
			}
			env := []string{"HOME=" + tt.env["HOME"], "XDG_CONFIG_HOME=" + tt.env["XDG_CONFIG_HOME"]}
			for _, k := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL"} {
				if v := tt.env[k]; v != "" {
					env = append(env, k+"="+v)
				}
			}
			if want := tt.want.Name + " <" + tt.want.Email + ">"; gitIdent(t, dir, env) != want {
				t.Errorf("git var GIT_AUTHOR_IDENT = %q, want %q", gitIdent(t, dir, env), want)
			}
		})
	}
}

// gitIdent returns "Name <email>" of `git var GIT_AUTHOR_IDENT` in dir with
// exactly env (and PATH).
func gitIdent(tb testing.TB, dir string, env []string) string {
	tb.Helper()
	cmd := exec.Command("git", "var", "GIT_AUTHOR_IDENT")
	cmd.Dir = dir
	cmd.Env = append(env, "PATH="+os.Getenv("PATH"))
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("git var GIT_AUTHOR_IDENT: %v", err)
	}
	f := strings.Fields(string(out))
	return strings.Join(f[:len(f)-2], " ")
}
