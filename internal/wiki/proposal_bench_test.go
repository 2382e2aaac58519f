package wiki_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// proposalBench returns a wiki over a repository of 1,000 notes, and the
// id of a proposal that changes the first 100 of them, one commit each.
func proposalBench(b *testing.B) (*wiki.Wiki, string) {
	b.Helper()
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("n/%04d.md", i)] = fmt.Sprintf("# Note %d\n\nline one\nline two\nline three\n", i)
	}
	w := openWiki(b, seeded(b, files), func(o *wiki.Options) { o.Now = nil })
	id := ""
	for i := range 100 {
		id = mustWrite(b, w, proposer("bench"), fmt.Sprintf("n/%04d.md", i), fmt.Sprintf("# Note %d\n\nline one\nline 2\nline three\n", i), true).Proposal
	}
	return w, id
}

// BenchmarkProposal_Show opens a proposal of 100 notes, each merged with
// the branch and diffed, as wikid proposals show does.
func BenchmarkProposal_Show(b *testing.B) {
	w, id := proposalBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		p, err := w.Proposal(ctx, id)
		if err != nil || len(p.Notes) != 100 {
			b.Fatalf("show = %v, %v", p, err)
		}
	}
}

// BenchmarkProposal_AcceptVsWrite accepts one note of a proposal, then
// writes one note plainly, in turns on one repository, and reports both
// medians and their ratio.
func BenchmarkProposal_AcceptVsWrite(b *testing.B) {
	w, _ := proposalBench(b)
	ctx := context.Background()
	var accept, write durations
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		id := mustWrite(b, w, proposer(fmt.Sprintf("s%d", i)), "n/0500.md", fmt.Sprintf("# Note\n\nrun %d\n", i), true).Proposal
		b.StartTimer()
		accept.time(func() {
			if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id}); err != nil {
				b.Fatal(err)
			}
		})
		write.time(func() {
			if _, err := w.Write(ctx, wiki.WriteRequest{Path: "n/0600.md", Content: fmt.Sprintf("# W\n\nrun %d\n", i), Overwrite: true}); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.StopTimer()
	am, wm := median(accept), median(write)
	b.ReportMetric(float64(am.Microseconds())/1000, "accept-ms")
	b.ReportMetric(float64(wm.Microseconds())/1000, "write-ms")
	b.ReportMetric(float64(am)/float64(wm), "accept/write")
}

func median(d durations) (m time.Duration) {
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkProposal_SearchAsProposer searches, in turns, as the session
// whose proposal changes 100 of the 1,000 notes and as another session,
// and reports both medians and their ratio: the cost of laying the
// proposal over the index's answer.
func BenchmarkProposal_SearchAsProposer(b *testing.B) {
	w, _ := proposalBench(b)
	mine, theirs := w.ForCaller(context.Background(), proposer("bench")), context.Background()
	var asMe, asOther durations
	search := func(ctx context.Context) {
		if _, err := w.Search(ctx, wiki.SearchParams{Query: "line"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		asMe.time(func() { search(mine) })
		asOther.time(func() { search(theirs) })
	}
	b.StopTimer()
	m, o := median(asMe), median(asOther)
	b.ReportMetric(float64(m.Microseconds())/1000, "proposer-ms")
	b.ReportMetric(float64(o.Microseconds())/1000, "other-ms")
	b.ReportMetric(float64(m)/float64(o), "proposer/other")
}
