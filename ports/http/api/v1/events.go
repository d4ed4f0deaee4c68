package v1

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/feed"
	"github.com/creatorapi/creatorapi/application/feed/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// EventStreamPath is the server-sent events stream, relative to Prefix: its responses
// last (web.AllowLongWrites).
const EventStreamPath = "/events/stream"

// MaxEventWait is the longest long poll (?wait=, seconds).
const MaxEventWait = 25

// EventFeed is what the feed's endpoints need besides the application.
type EventFeed struct {
	App     feed.Application
	Cursors *Cursors
	Waits   *EventWaits
	Hangup  *web.Hangup
	Auth    Authenticator // a stream checks its key again at every ping: revoked, it ends
}

// EventEndpoints serves the events feed: the list (with long polls), the stream and one
// event. The stream comes before {id}, which would match "stream".
func EventEndpoints(f EventFeed) []Endpoint {
	h := eventHandlers{f}
	return []Endpoint{
		{Method: fiber.MethodGet, Path: "/events", Scope: keys.ReadEvents, Handler: h.list},
		{Method: fiber.MethodGet, Path: EventStreamPath, Scope: keys.ReadEvents, Handler: h.stream},
		{Method: fiber.MethodGet, Path: "/events/:id", Scope: keys.ReadEvents, Handler: h.get},
	}
}

type eventHandlers struct{ EventFeed }

func (h eventHandlers) list(c *fiber.Ctx) error {
	if err := OnlyParams(c, "cursor", "limit", "types", "since", "wait"); err != nil {
		return err
	}
	p := PrincipalOf(c)
	q, err := h.feedQuery(c, p.WorkspaceID, c.Query("cursor"), c.Context().QueryArgs().Has("cursor"))
	if err != nil {
		return err
	}
	if q.Limit, err = limitParam(c); err != nil {
		return err
	}
	if q.Wait, err = waitParam(c); err != nil {
		return err
	}
	if q.Wait > 0 {
		release, err := h.Waits.acquire(p.KeyID)
		if err != nil {
			return err
		}
		defer release()
		q.Stop = h.Hangup.Done()
	}
	page, err := h.App.Queries.ListEvents.Handle(c.UserContext(), q)
	if err != nil {
		return feedError(err)
	}
	out := ListEnvelope[json.RawMessage]{Data: make([]json.RawMessage, len(page.Items)), Pagination: Pagination{HasMore: page.HasMore}}
	for i, it := range page.Items {
		if out.Data[i], err = envelopeJSON(it.Envelope); err != nil {
			return err
		}
	}
	next := h.encodeCursor(p.WorkspaceID, page.Next)
	out.Pagination.Cursor = &next
	return c.JSON(out)
}

func (h eventHandlers) get(c *fiber.Ctx) error {
	if err := OnlyParams(c); err != nil {
		return err
	}
	env, err := h.App.Queries.GetEvent.Handle(c.UserContext(), query.GetEvent{WorkspaceID: PrincipalOf(c).WorkspaceID, EventID: c.Params("id")})
	if err != nil {
		return err
	}
	body, err := envelopeJSON(env)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}

// envelopeJSON renders an event exactly as a webhook delivery's body (json.Marshal of the
// envelope, HTML characters escaped as there), so that the bytes listen signs and a
// delivery carries are the same.
func envelopeJSON(env events.Envelope) (json.RawMessage, error) {
	b, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("render event %s: %w", env.ID, err)
	}
	return b, nil
}

// feedQuery reads what the list and the stream share: the cursor (rawCursor, when
// hasCursor), types and since.
func (h eventHandlers) feedQuery(c *fiber.Ctx, ws, rawCursor string, hasCursor bool) (query.ListEvents, error) {
	q := query.ListEvents{WorkspaceID: ws, Limit: DefaultLimit}
	if hasCursor {
		cur, err := h.decodeCursor(ws, rawCursor)
		if err != nil {
			return q, err
		}
		q.Cursor = &cur
	}
	if c.Context().QueryArgs().Has("types") {
		raw := c.Query("types")
		if strings.TrimSpace(raw) == "" {
			return q, web.Invalid("types", "types must not be empty; leave it out for every type")
		}
		for _, t := range strings.Split(raw, ",") {
			q.Types = append(q.Types, events.Type(strings.TrimSpace(t)))
		}
	}
	since, err := instantParam(c, "since")
	if err != nil {
		return q, err
	}
	q.Since = since
	return q, nil
}

func limitParam(c *fiber.Ctx) (int, error) {
	if !c.Context().QueryArgs().Has("limit") {
		return DefaultLimit, nil
	}
	n, err := strconv.Atoi(c.Query("limit"))
	if err != nil || n < 1 || n > MaxLimit {
		return 0, web.Invalid("limit", "limit must be an integer from 1 to %d", MaxLimit)
	}
	return n, nil
}

func waitParam(c *fiber.Ctx) (time.Duration, error) {
	if !c.Context().QueryArgs().Has("wait") {
		return 0, nil
	}
	n, err := strconv.Atoi(c.Query("wait"))
	if err != nil || n < 0 || n > MaxEventWait {
		return 0, web.Invalid("wait", "wait must be an integer number of seconds from 0 to %d", MaxEventWait)
	}
	return time.Duration(n) * time.Second, nil
}

// feedError maps the feed's own refusal: an expired cursor is 422 invalid_request on
// cursor with reason cursor_expired (docs/contract.md).
func feedError(err error) error {
	if errors.Is(err, query.ErrCursorExpired) {
		return &web.Problem{Status: http.StatusUnprocessableEntity, Code: web.CodeInvalidRequest, Param: "cursor", Reason: "cursor_expired",
			Message: "cursor is older than the events' retention (30 days by default): events after it may be gone; start again with since or without a cursor"}
	}
	return err
}

// The feed's cursor is sealed like every list's (web.Cursors: bound to the workspace),
// under its own list name and without filters: a position in the workspace's stream is
// good for any filter, so a reader may change its types and keep its place.
func (h eventHandlers) encodeCursor(ws string, c query.Cursor) string {
	id := strconv.FormatUint(c.Position.Tx, 10) + "." + strconv.FormatInt(c.Position.Offset, 10)
	return h.Cursors.Encode(Scope{List: "events", WorkspaceID: ws}, platform.Position{CreatedAt: c.Stamp, ID: id})
}

func (h eventHandlers) decodeCursor(ws, raw string) (query.Cursor, error) {
	p, err := h.Cursors.Decode(Scope{List: "events", WorkspaceID: ws}, raw)
	if err != nil {
		return query.Cursor{}, err
	}
	tx, off, ok := strings.Cut(p.ID, ".")
	txN, err1 := strconv.ParseUint(tx, 10, 64)
	offN, err2 := strconv.ParseInt(off, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return query.Cursor{}, web.Invalid("cursor", "cursor was not issued for this list; pass pagination.cursor of the previous page unchanged")
	}
	return query.Cursor{Position: query.Position{Tx: txN, Offset: offN}, Stamp: p.CreatedAt}, nil
}
