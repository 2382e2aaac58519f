package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Proposals names the clients in propose mode: their changes wait on
// proposal refs for the person instead of landing on the branch.
//
//	proposals:
//	  clients: [claude-code, cursor]   # these clients propose
//	  all_but: [claude-desktop]        # or every client but these
//	  local: true                      # sync leaves proposals on this machine
//	  keep_closed: 30d                 # closed proposals pruned after 30 days
type Proposals struct {
	// Clients propose; a client is named as its clientInfo names it,
	// without the version ("claude-code").
	Clients []string `yaml:"clients"`
	// AllBut makes every client propose but these (and the command line,
	// "wikid-cli").
	AllBut []string `yaml:"all_but"`
	// Local keeps proposals on this machine: sync neither pushes nor
	// fetches them. By default they travel with the notes.
	Local bool `yaml:"local"`
	// KeepClosed is how long a closed proposal is kept before it is
	// pruned: days ("90d") or a Go duration ("36h"), or "forever";
	// default 90d.
	KeepClosed string `yaml:"keep_closed"`
}

// validate refuses a section that names clients both ways.
func (p *Proposals) validate() error {
	if p != nil && len(p.Clients) > 0 && len(p.AllBut) > 0 {
		return fmt.Errorf("proposals: give clients or all_but, not both")
	}
	if _, err := p.keepClosed(); err != nil {
		return err
	}
	return nil
}

// keepClosed returns how long closed proposals are kept: 0 for the
// default, a negative duration for forever.
func (p *Proposals) keepClosed() (time.Duration, error) {
	if p == nil || p.KeepClosed == "" {
		return 0, nil
	}
	v := strings.TrimSpace(p.KeepClosed)
	if v == "forever" {
		return -1, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err == nil && n > 0 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	} else if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d, nil
	}
	return 0, fmt.Errorf("proposals: keep_closed %q: want days (90d), a duration (36h) or forever", p.KeepClosed)
}

// Proposing returns whether a client ("name/version") is in propose mode,
// nil when no client is.
func (p *Proposals) Proposing() func(client string) bool {
	if p == nil || len(p.Clients) == 0 && len(p.AllBut) == 0 {
		return nil
	}
	has := func(list []string, client string) bool {
		name, _, _ := strings.Cut(client, "/")
		for _, c := range list {
			if strings.EqualFold(strings.TrimSpace(c), name) {
				return true
			}
		}
		return false
	}
	return func(client string) bool {
		if len(p.Clients) > 0 {
			return has(p.Clients, client)
		}
		return !has(p.AllBut, client) && !has([]string{"wikid-cli", "wikid"}, client)
	}
}
