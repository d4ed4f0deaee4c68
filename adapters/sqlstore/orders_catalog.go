package sqlstore

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// OrderCatalog tells the orders module which courses can be sold: the published
// courses of the workspace, with their current titles.
type OrderCatalog struct {
	db *sqldb.DB
}

// NewOrderCatalog builds the catalog on db.
func NewOrderCatalog(db *sqldb.DB) *OrderCatalog { return &OrderCatalog{db: db} }

// PublishedTitles maps each published course among ids to its title; other ids
// (drafts, archived, another workspace's, unknown) are absent.
func (c *OrderCatalog) PublishedTitles(ctx context.Context, workspaceID string, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	// IN (...) has as many placeholders as ids: expanded per call, then rebound.
	s, args, err := sqlx.In(`SELECT id, title FROM courses WHERE workspace_id = ? AND status = 'published' AND id IN (?)`, workspaceID, ids)
	if err != nil {
		return nil, fmt.Errorf("published titles: %w", err)
	}
	var rows []struct {
		ID    string `db:"id"`
		Title string `db:"title"`
	}
	if err := c.db.Read(ctx).SelectContext(ctx, &rows, c.db.Rebind(s), args...); err != nil {
		return nil, fmt.Errorf("published titles: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.Title
	}
	return out, nil
}
