package procid

import (
	"os/exec"
	"runtime"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ID
		ok   bool
	}{
		{"12-34", ID{PID: 12, Start: 34}, true},
		{"12-0", ID{PID: 12}, true},
		{"12", ID{}, false},
		{"12-", ID{}, false},
		{"-34", ID{}, false},
		{"0-34", ID{}, false},
		{"x-34", ID{}, false},
		{"12-34-56", ID{}, false},
		{"12-90x", ID{}, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("Parse(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add("12-34")
	f.Add("1-18446744073709551615")
	f.Fuzz(func(t *testing.T, s string) {
		id, err := Parse(s)
		if err != nil {
			return
		}
		if back, err := Parse(id.String()); err != nil || back != id {
			t.Errorf("Parse(%q) = %v; its String %q parses as %v, %v", s, id, id.String(), back, err)
		}
	})
}

func TestID_Alive(t *testing.T) {
	t.Run("self", func(t *testing.T) {
		if !Self().Alive() {
			t.Error("this process is not alive")
		}
	})
	t.Run("exited", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no process is known to be gone outside Unix")
		}
		cmd := exec.Command("true")
		if err := cmd.Run(); err != nil {
			t.Skip(err)
		}
		if id := (ID{PID: cmd.Process.Pid}); id.Alive() {
			t.Errorf("process %v, which exited, is alive", id)
		}
	})
	t.Run("pid reused", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("tells a reused pid by its start time in /proc")
		}
		id := Self()
		if id.Start == 0 {
			t.Fatal("no start time read from /proc")
		}
		id.Start++
		if id.Alive() {
			t.Errorf("%v, this pid with another start time, is alive", id)
		}
	})
}
