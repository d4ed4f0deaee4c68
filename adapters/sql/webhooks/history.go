package webhooks

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/eventbus/feed"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	feedquery "github.com/creatorapi/creatorapi/application/feed/query"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// History reads the outbox for backfills through the events feed's reader (the events
// module owns the outbox): stream order, nothing an open older transaction can still
// precede, and the stream's tail.
type History struct{ log *feed.Log }

// NewHistory builds the reader over db's outbox.
func NewHistory(db *sqldb.DB) *History { return &History{log: feed.NewLog(db)} }

// Tail is the stream's end now (feed.Log.Tail).
func (h *History) Tail(ctx context.Context) (webhooks.Position, error) {
	p, err := h.log.Tail(ctx)
	return webhooks.Position(p), err
}

// Read returns a page of the workspace's events of the types since r.Since.
func (h *History) Read(ctx context.Context, r command.HistoryRead) (command.HistoryPage, error) {
	types := make([]events.Type, len(r.Types))
	for i, t := range r.Types {
		types[i] = events.Type(t)
	}
	since := r.Since
	b, err := h.log.Read(ctx, feedquery.Read{WorkspaceID: r.WorkspaceID, After: feedquery.Position(r.After), Types: types,
		Since: &since, Limit: r.Limit})
	if err != nil {
		return command.HistoryPage{}, err
	}
	out := command.HistoryPage{More: b.More, Horizon: webhooks.Position(b.Horizon), Events: make([]command.HistoryEvent, len(b.Items))}
	for i, it := range b.Items {
		out.Events[i] = command.HistoryEvent{Position: webhooks.Position(it.Position), Envelope: it.Envelope}
	}
	return out, nil
}
