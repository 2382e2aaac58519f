package gitsync

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// syncProposals exchanges the proposals with the upstream's remote, unless
// the wiki keeps them local: it fetches the remote's proposal refs to
// refs/wikid/remotes/<remote>/, merges them into this side's
// (wiki.MergeProposals: closed wins, decisions of one side replayed on the
// changes of the other), and pushes what the remote lacks, each ref only
// if the remote still has what the fetch saw (another machine's push
// meanwhile is merged at the next round). A failure is reported, and
// leaves the branch's sync alone.
func (s *Syncer) syncProposals(ctx context.Context, u Upstream) ([]string, error) {
	if s.w.Options().ProposalsLocal {
		return nil, nil
	}
	tracking := "refs/wikid/remotes/" + u.Remote + "/"
	if _, err := git(ctx, s.opts.Dir, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--prune", u.Remote,
		"+"+wiki.ProposalsRef+"*:"+tracking+"proposals/*",
		"+"+wiki.ClosedProposalsRef+"*:"+tracking+"proposals-closed/*"); err != nil {
		return nil, err
	}
	out, err := git(ctx, s.opts.Dir, "for-each-ref", "--format=%(objectname) %(refname)", tracking)
	if err != nil {
		return nil, err
	}
	theirs := wiki.ProposalRefs{Open: map[string]string{}, Closed: map[string]string{}}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		id, ref, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if name, ok := strings.CutPrefix(ref, tracking+"proposals/"); ok {
			theirs.Open[name] = id
		} else if name, ok := strings.CutPrefix(ref, tracking+"proposals-closed/"); ok {
			theirs.Closed[name] = id
		}
	}
	merged, err := s.w.MergeProposals(ctx, theirs)
	if err != nil {
		return nil, err
	}
	for _, r := range merged.Report {
		s.opts.Logger.Info("proposals", "upstream", u.String(), "merged", r)
	}
	if len(merged.Push) == 0 {
		return merged.Report, nil
	}
	args := []string{"push", "--quiet", "--porcelain", u.Remote}
	var specs []string
	for _, ref := range slices.Sorted(maps.Keys(merged.Push)) {
		had := ""
		if id, ok := strings.CutPrefix(ref, wiki.ProposalsRef); ok {
			had = theirs.Open[id]
		} else if id, ok := strings.CutPrefix(ref, wiki.ClosedProposalsRef); ok {
			had = theirs.Closed[id]
		}
		args = append(args, "--force-with-lease="+ref+":"+had)
		specs = append(specs, merged.Push[ref]+":"+ref)
	}
	_, err = git(ctx, s.opts.Dir, append(args, specs...)...)
	return merged.Report, err
}
