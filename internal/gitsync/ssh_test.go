package gitsync_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// sshServer starts OpenSSH's sshd on loopback, serving the repositories of
// the machine to the current user with the public key in pubKey, and
// returns its port and the known_hosts line of its host key. Without sshd
// the test is skipped, or fails under CI, which installs it.
func sshServer(t *testing.T, pubKey string) (port int, knownHost string) {
	t.Helper()
	sshd := "/usr/sbin/sshd"
	if _, err := os.Stat(sshd); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("sshd is missing (.ci/run installs openssh-server): %v", err)
		}
		t.Skip("no sshd on this machine (apt-get install openssh-server)")
	}
	if os.Geteuid() == 0 {
		// sshd run by root separates privileges into this folder.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	hostKey := filepath.Join(dir, "host_ed25519")
	run(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey)
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), []byte(pubKey), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	config := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PidFile %s
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
`, port, hostKey, filepath.Join(dir, "authorized_keys"), filepath.Join(dir, "sshd.pid"))
	configFile := filepath.Join(dir, "sshd_config")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sshd, "-D", "-e", "-f", configFile)
	var log strings.Builder
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("sshd:\n%s", log.String())
		}
	})
	for end := time.Now().Add(10 * time.Second); ; {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(end) {
			t.Fatalf("sshd does not listen:\n%s", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	pub, err := os.ReadFile(hostKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return port, fmt.Sprintf("[127.0.0.1]:%d %s", port, pub)
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// TestSyncer_SSH syncs with a remote over SSH as git users reach one: the
// repository's own core.sshCommand names the key and the known_hosts
// file. An unknown host key, a key the server does not accept, and a key
// with a passphrase and no agent to unlock it each fail at once with a
// reason, changing nothing and accepting no host key.
func TestSyncer_SSH(t *testing.T) {
	keys := t.TempDir()
	key := filepath.Join(keys, "id_ed25519")
	run(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key)
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	port, knownHost := sshServer(t, string(pub))
	known := filepath.Join(keys, "known_hosts")
	if err := os.WriteFile(known, []byte(knownHost), 0o600); err != nil {
		t.Fatal(err)
	}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}

	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	url := fmt.Sprintf("ssh://%s@127.0.0.1:%d%s", me.Username, port, remote)
	sshCommand := func(key, known string) string {
		return fmt.Sprintf("ssh -i %s -o IdentitiesOnly=yes -o IdentityAgent=none -o UserKnownHostsFile=%s", key, known)
	}
	a := cloneOf(t, remote)
	gittest.Git(t, a.dir, "remote", "set-url", "origin", url)
	gittest.Git(t, a.dir, "config", "core.sshCommand", sshCommand(key, known))

	a.write(t, "ideas", "# Ideas\n")
	id := a.propose(t, "proposed", "# Proposed over SSH\n")
	pushFrom(t, remote, "from the laptop", map[string]string{"laptop.md": "# Laptop\n"})
	res := a.round(t)
	if res.Integrated != wiki.IntegratedMerge || !res.Pushed {
		t.Fatalf("%+v", res)
	}
	checkInSync(t, a, remote)
	if got := refOf(t, remote, wiki.ProposalsRef+id); got == "" || got != refOf(t, a.dir, wiki.ProposalsRef+id) {
		t.Errorf("the proposal is not on the remote: %q", got)
	}

	t.Run("a key from the agent", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "agent.sock")
		agent := exec.Command("ssh-agent", "-D", "-a", sock)
		if err := agent.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { agent.Process.Kill(); agent.Wait() }()
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(sock); err == nil {
				break
			} else if time.Now().After(end) {
				t.Fatal("ssh-agent does not listen")
			}
		}
		add := exec.Command("ssh-add", "-q", key)
		add.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
		if out, err := add.CombinedOutput(); err != nil {
			t.Fatalf("ssh-add: %v\n%s", err, out)
		}
		// No key file named: the agent, found through SSH_AUTH_SOCK as a
		// person's shell has it, signs in.
		t.Setenv("SSH_AUTH_SOCK", sock)
		gittest.Git(t, a.dir, "config", "core.sshCommand", "ssh -o IdentityFile=/dev/null -o UserKnownHostsFile="+known)
		a.write(t, "agent", "# Through the agent\n")
		if res := a.round(t); !res.Pushed {
			t.Fatalf("%+v", res)
		}
		checkInSync(t, a, remote)
	})

	fails := func(t *testing.T, hint string) {
		t.Helper()
		a.write(t, "more", fmt.Sprintf("# More\n\n%s\n", t.Name()))
		before := head(t, a.dir)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := a.s.Round(ctx)
		if ctx.Err() != nil {
			t.Fatal("the round waited for a prompt")
		}
		var e *wiki.Error
		if !errors.As(err, &e) || !strings.Contains(e.Hint, hint) {
			t.Fatalf("err %v, want a failure with a hint about %q", err, hint)
		}
		t.Logf("%v (hint: %s)", err, e.Hint)
		if head(t, a.dir) != before {
			t.Error("HEAD moved")
		}
	}
	t.Run("an unknown host key is refused, not accepted", func(t *testing.T) {
		empty := filepath.Join(t.TempDir(), "known_hosts")
		os.WriteFile(empty, nil, 0o600)
		gittest.Git(t, a.dir, "config", "core.sshCommand", sshCommand(key, empty))
		fails(t, "known_hosts")
		if b, _ := os.ReadFile(empty); len(b) != 0 {
			t.Errorf("the host key was accepted:\n%s", b)
		}
	})
	t.Run("a key the server does not accept", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "id_ed25519")
		run(t, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other)
		gittest.Git(t, a.dir, "config", "core.sshCommand", sshCommand(other, known))
		fails(t, "could not sign in")
	})
	t.Run("a key with a passphrase and no agent", func(t *testing.T) {
		locked := filepath.Join(t.TempDir(), "id_ed25519")
		run(t, "cp", key, locked)
		run(t, "ssh-keygen", "-q", "-p", "-N", "a passphrase", "-P", "", "-f", locked)
		gittest.Git(t, a.dir, "config", "core.sshCommand", sshCommand(locked, known))
		fails(t, "could not sign in")
	})
}
