package v1

import (
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/creatorapi/creatorapi/application/platform"
)

// PageCache keeps encoded list pages by workspace, data version, cursor and limit.
// The version is read on every request and moves in the same transaction as the data,
// so a cached page is served only while it is still exactly what the query would return.
type PageCache struct {
	pages *lru.Cache[pageKey, []byte]
}

type pageKey struct {
	list        string
	filters     string
	workspaceID string
	version     int64
	cursor      string
	limit       int
}

// NewPageCache keeps at most entries pages (about 10 KiB each for 25 courses).
func NewPageCache(entries int) (*PageCache, error) {
	pages, err := lru.New[pageKey, []byte](entries)
	if err != nil {
		return nil, fmt.Errorf("page cache: %w", err)
	}
	return &PageCache{pages: pages}, nil
}

// Serve answers from the cache, or loads the page, encodes it like SendPage and keeps it.
func ServeCachedPage[T any](c *fiber.Ctx, cache *PageCache, cursors *Cursors, s Scope, version int64, req platform.PageRequest,
	load func() (platform.Page[T], error)) error {
	// Fiber's strings alias the request buffer, which is reused: the key must own its bytes.
	key := pageKey{list: s.List, filters: s.Filters, workspaceID: s.WorkspaceID, version: version, cursor: strings.Clone(c.Query("cursor")), limit: req.Limit}
	if body, ok := cache.pages.Get(key); ok {
		return sendJSONBytes(c, body)
	}
	page, err := load()
	if err != nil {
		return err
	}
	body, err := c.App().Config().JSONEncoder(pageEnvelope(cursors, s, page))
	if err != nil {
		return fmt.Errorf("encode page: %w", err)
	}
	cache.pages.Add(key, body)
	return sendJSONBytes(c, body)
}

func sendJSONBytes(c *fiber.Ctx, body []byte) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(body)
}
