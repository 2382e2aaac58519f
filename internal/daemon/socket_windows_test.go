//go:build windows

package daemon

import (
	"bufio"
	"context"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// TestPipe_Exchange: a client and the daemon's pipe listener exchange
// lines; each side's CloseWrite is the other's io.EOF, as on a unix
// socket, and an empty write is nothing; a second listener of the same name is refused, a dial with no
// listener says nobody listens, and Close ends a waiting Accept.
func TestPipe_Exchange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.sock")
	ln, err := listenSocket(path)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := listenSocket(path); err == nil {
		second.Close()
		if underWine() {
			t.Log("Wine lets a second listener make the pipe (FILE_FLAG_FIRST_PIPE_INSTANCE is not enforced)")
		} else {
			t.Error("a second listener of the same pipe was made")
		}
	}
	served := make(chan error, 1)
	go func() {
		for i := 0; i < 3; i++ {
			c, err := ln.Accept()
			if err != nil {
				served <- err
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				got, err := io.ReadAll(c) // to the client's CloseWrite
				if err != nil {
					t.Errorf("the daemon read %q: %v", got, err)
				}
				c.Write(append([]byte("got "), got...))
				c.(interface{ CloseWrite() error }).CloseWrite()
				io.Copy(io.Discard, c)
			}(c)
		}
		served <- nil
	}()
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := dialSocket(ctx, path)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		// An empty write (a frame without payload) is not the end.
		for _, w := range []string{"hel", "", "lo\n"} {
			if _, err := io.WriteString(c, w); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.(interface{ CloseWrite() error }).CloseWrite(); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(bufio.NewReader(c))
		if err != nil || string(got) != "got hello\n" {
			t.Errorf("client %d read %q, %v", i, got, err)
		}
		c.Close()
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	accepted := make(chan error, 1)
	go func() {
		_, err := ln.Accept()
		accepted <- err
	}()
	time.Sleep(100 * time.Millisecond)
	ln.Close()
	select {
	case err := <-accepted:
		if err != net.ErrClosed {
			t.Errorf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a waiting Accept")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := dialSocket(ctx, path); err == nil || !notListening(err) {
		t.Errorf("a dial with no listener: %v, want one that says nobody listens", err)
	}
}

// underWine reports whether the test runs under Wine, whose ntdll says so.
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
