package config

import (
	"fmt"
	"strings"
)

// Proposals names the clients in propose mode: their changes wait on
// proposal refs for the person instead of landing on the branch.
//
//	proposals:
//	  clients: [claude-code, cursor]   # these clients propose
//	  all_but: [claude-desktop]        # or every client but these
type Proposals struct {
	// Clients propose; a client is named as its clientInfo names it,
	// without the version ("claude-code").
	Clients []string `yaml:"clients"`
	// AllBut makes every client propose but these (and the command line,
	// "wikid-cli").
	AllBut []string `yaml:"all_but"`
}

// validate refuses a section that names clients both ways.
func (p *Proposals) validate() error {
	if p != nil && len(p.Clients) > 0 && len(p.AllBut) > 0 {
		return fmt.Errorf("proposals: give clients or all_but, not both")
	}
	return nil
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
