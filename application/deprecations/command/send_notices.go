package command

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/domain/deprecations"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Notices are decided, stored, then sent: a notice is leased for noticeLease while it is
// sent, and marked sent afterwards. A crash in between sends it again after the lease (at
// least once); deciding again finds it stored (once per key, sunset and threshold).
const (
	noticeLease = 5 * time.Minute
	noticeBatch = 20
)

// SendSunsetNotices decides which owners to tell (a key that called, within the last 30
// days, routes whose sunset is 90, 30 or 7 days away at most), stores those notices once,
// and sends the unsent ones. It returns how many it sent.
func (d Deps) SendSunsetNotices(ctx context.Context, _ struct{}) (int, error) {
	now := d.Clock.Now()
	calls, err := d.Repo.CallingBefore(ctx, now, now.Add(-deprecations.StillCalling))
	if err != nil {
		return 0, fmt.Errorf("sunset notices: %w", err)
	}
	var errs []error
	for _, group := range byKeyAndSunset(calls) {
		days, due := deprecations.DueThreshold(group[0].Sunset, now)
		if !due {
			continue
		}
		to, err := d.Owners.OwnerEmail(ctx, group[0].WorkspaceID)
		if kernel.IsNotFound(err) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, err := d.Repo.AddNotice(ctx, d.notice(group, days, to, now)); err != nil {
			errs = append(errs, err)
		}
	}
	sent, err := d.sendDue(ctx, now)
	if err = errors.Join(append(errs, err)...); err != nil {
		return sent, fmt.Errorf("sunset notices: %w", err)
	}
	return sent, nil
}

func (d Deps) sendDue(ctx context.Context, now time.Time) (int, error) {
	due, err := d.Repo.ClaimNotices(ctx, now, now.Add(noticeLease), noticeBatch)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, n := range due {
		if err := d.Mailer.Send(ctx, n.To, n.Subject, n.Body); err != nil {
			errs = append(errs, fmt.Errorf("notice to %s about key %s: %w", n.To, n.KeyID, err))
			continue // tried again once its lease ends
		}
		if err := d.Repo.MarkSent(ctx, n, d.Clock.Now()); err != nil {
			errs = append(errs, err)
			continue
		}
		sent++
	}
	return sent, errors.Join(errs...)
}

// byKeyAndSunset groups the calls of one key whose routes end on the same day.
func byKeyAndSunset(calls []deprecations.Call) [][]deprecations.Call {
	index := map[string]int{}
	var out [][]deprecations.Call
	for _, c := range calls {
		k := c.WorkspaceID + " " + c.KeyID + " " + c.Sunset.Format(time.RFC3339Nano)
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], c)
	}
	return out
}

func (d Deps) notice(calls []deprecations.Call, days int, to string, now time.Time) deprecations.Notice {
	first := calls[0]
	slices.SortFunc(calls, func(a, b deprecations.Call) int { return strings.Compare(a.Route, b.Route) })
	var routes strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&routes, "  %s: %d calls, last on %s\n", c.Route, c.Calls, c.LastSeen.Format(time.RFC3339))
	}
	sunset := first.Sunset.Format(time.DateOnly)
	body := fmt.Sprintf(`API key %s of workspace %s still calls API routes that stop working on %s (in %d days or less):

%s
Each response of these routes carries Deprecation, Sunset and a Link to the page that tells
what replaces them. Move the integration that uses this key before the sunset; the
dashboard's API keys page shows, under "API health", which routes each key still calls:
%s/w/%s/keys
`, first.KeyID, first.WorkspaceID, sunset, days, routes.String(), d.DashboardURL, first.WorkspaceID)
	return deprecations.Notice{
		WorkspaceID: first.WorkspaceID, KeyID: first.KeyID, Sunset: first.Sunset, ThresholdDays: days, To: to,
		Subject: fmt.Sprintf("API key %s calls deprecated routes: sunset on %s", first.KeyID, sunset), Body: body, CreatedAt: now,
	}
}
