package v1

import (
	"bufio"
	"context"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/feed/query"
)

// Stream timings: a comment every PingEvery of silence keeps proxies from closing the
// connection and finds clients that left; a stream ends after StreamLifetime (the client
// resumes with Last-Event-ID: a day costs 24 requests of the 1,000), so that no response
// outlives its write deadline (StreamWriteTimeout, web.AllowLongWrites).
const (
	PingEvery          = 15 * time.Second
	StreamLifetime     = time.Hour
	StreamWriteTimeout = StreamLifetime + 2*PingEvery
	streamPage         = MaxLimit
)

// stream serves server-sent events: "id:" a cursor that resumes right after the event,
// "event:" its type, "data:" the envelope. It resumes from Last-Event-ID (what an
// EventSource sends when it reconnects), else from cursor, else from since or the
// oldest retained event. The first read happens before the answer, so that a bad cursor
// is a 422 in the envelope, not a broken stream.
func (h eventHandlers) stream(c *fiber.Ctx) error {
	if err := OnlyParams(c, "cursor", "types", "since"); err != nil {
		return err
	}
	p := PrincipalOf(c)
	raw, has := c.Query("cursor"), c.Context().QueryArgs().Has("cursor")
	if last := c.Get("Last-Event-ID"); last != "" {
		raw, has = last, true
	}
	q, err := h.feedQuery(c, p.WorkspaceID, raw, has)
	if err != nil {
		return err
	}
	q.Limit = streamPage
	release, err := h.Waits.acquire(p.KeyID)
	if err != nil {
		return err
	}
	// The response is written after the handler returns, by fasthttp, when the request's
	// fiber context is recycled: nothing below may touch c.
	ctx := context.WithoutCancel(c.UserContext())
	first, err := h.App.Queries.ListEvents.Handle(ctx, q)
	if err != nil {
		release()
		return feedError(err)
	}
	bearer := c.Get(fiber.HeaderAuthorization)
	c.Set(fiber.HeaderContentType, "text/event-stream; charset=utf-8")
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("X-Accel-Buffering", "no") // nginx: pass each event on at once
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer release()
		s := sseWriter{w: w, encode: func(cur query.Cursor) string { return h.encodeCursor(p.WorkspaceID, cur) }}
		s.comment("creatorapi events stream")
		if s.items(first.Items) != nil {
			return
		}
		q.Cursor, q.Wait, q.Stop = &first.Next, PingEvery, h.Hangup.Done()
		end := time.Now().Add(StreamLifetime)
		for time.Now().Before(end) {
			select {
			case <-h.Hangup.Done():
				return
			default:
			}
			page, err := h.App.Queries.ListEvents.Handle(ctx, q)
			if err != nil {
				return // the client reconnects and resumes from its last id
			}
			if len(page.Items) == 0 {
				if s.comment("ping") != nil || h.revoked(ctx, bearer) {
					return
				}
			} else if s.items(page.Items) != nil {
				return
			}
			q.Cursor = &page.Next
		}
	})
	return nil
}

// revoked tells whether the stream's key no longer authenticates (revoked since it
// opened): the stream ends within a ping.
func (h eventHandlers) revoked(ctx context.Context, authorization string) bool {
	_, token, _ := strings.Cut(authorization, " ")
	_, err := h.Auth.Handle(ctx, strings.TrimSpace(token))
	return err != nil
}

// sseWriter writes server-sent events and flushes each batch; a failed flush means the
// client left.
type sseWriter struct {
	w      *bufio.Writer
	encode func(query.Cursor) string
}

func (s sseWriter) comment(text string) error {
	_, _ = s.w.WriteString(": " + text + "\n\n")
	return s.w.Flush()
}

func (s sseWriter) items(items []query.PageItem) error {
	for _, it := range items {
		body, err := envelopeJSON(it.Envelope)
		if err != nil {
			return err
		}
		// JSON has no raw line breaks, so the envelope is one data line.
		_, _ = s.w.WriteString("id: " + s.encode(it.Cursor) + "\nevent: " + string(it.Envelope.Type) + "\ndata: ")
		_, _ = s.w.Write(body)
		_, _ = s.w.WriteString("\n\n")
	}
	return s.w.Flush()
}
