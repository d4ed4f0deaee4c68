package courses

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Reads answers course queries from the course tables.
type Reads struct {
	db                           *sqldb.DB
	firstPage, nextPage, version string
	bySlug                       string
	detail                       curriculum
	versions                     *sqldb.Cache[int64]
}

// VersionCache names the cache of catalogue versions (by workspace id): every course
// change invalidates its workspace's entry in its transaction (Repository.bump).
const VersionCache = "catalog_versions"

// NewReads prepares the statements for db's dialect.
func NewReads(db *sqldb.DB) *Reads {
	const published = `SELECT ` + courseColumns + ` FROM courses WHERE workspace_id = ? AND status = 'published'`
	const order = ` ORDER BY created_at DESC, id DESC LIMIT ?`
	return &Reads{
		db:        db,
		versions:  sqldb.NewCache[int64](db, VersionCache, 100_000),
		firstPage: db.Rebind(published + order),
		nextPage:  db.Rebind(published + ` AND (created_at < ? OR (created_at = ? AND id < ?))` + order),
		version:   db.Rebind(`SELECT version FROM catalog_versions WHERE workspace_id = ?`),
		bySlug:    db.Rebind(published + ` AND slug = ?`), // the (workspace_id, slug) unique key
		detail: curriculum{
			course:  db.Rebind(`SELECT ` + courseColumns + ` FROM courses WHERE workspace_id = ? AND id = ?`),
			modules: db.Rebind(`SELECT ` + moduleColumns + ` FROM course_modules WHERE course_id = ? ORDER BY position`),
			lessons: db.Rebind(`SELECT ` + lessonColumns + ` FROM lessons WHERE course_id = ? ORDER BY position`),
		},
	}
}

// ListPublished returns one keyset page of published courses, newest first.
func (r *Reads) ListPublished(ctx context.Context, workspaceID string, page platform.PageRequest) (platform.Page[query.Course], error) {
	stmt, args := r.firstPage, []any{workspaceID, page.Fetch()}
	if page.After != nil {
		stmt, args = r.nextPage, []any{workspaceID, page.After.CreatedAt, page.After.CreatedAt, page.After.ID, page.Fetch()}
	}
	rows, err := sqldb.All[listedRow](ctx, r.db.Read(ctx), stmt, args...)
	if err != nil {
		return platform.Page[query.Course]{}, err
	}
	cut := platform.CutPage(rows, page, func(row listedRow) platform.Position {
		return platform.Position{CreatedAt: row.CreatedAt, ID: row.ID}
	})
	return platform.MapPage(cut, func(rows []listedRow) ([]query.Course, error) {
		out := make([]query.Course, len(rows))
		for i, row := range rows {
			out[i] = row.Course
			out[i].Livemode = kernel.Livemode(workspaceID)
		}
		return out, nil
	})
}

// PublishedBySlug returns the published course with this slug, or NotFound.
func (r *Reads) PublishedBySlug(ctx context.Context, workspaceID, slug string) (query.Course, error) {
	var row listedRow
	if err := sqldb.One(ctx, r.db.Read(ctx), &row, kernel.NotFound("course with slug %q not found", slug), r.bySlug, workspaceID, slug); err != nil {
		return query.Course{}, err
	}
	row.Livemode = kernel.Livemode(workspaceID)
	return row.Course, nil
}

// Get returns the course with its curriculum, any status, or NotFound.
func (r *Reads) Get(ctx context.Context, workspaceID, id string) (query.CourseDetail, error) {
	c, err := r.detail.load(ctx, r.db.Read(ctx), workspaceID, id)
	if err != nil {
		return query.CourseDetail{}, err
	}
	return query.FromDomain(c), nil
}

// CatalogVersion returns the workspace's catalogue version (0 before any course exists).
// Served from memory while the database's caches are trusted (sqldb.Caches).
func (r *Reads) CatalogVersion(ctx context.Context, workspaceID string) (int64, error) {
	return r.versions.Get(ctx, workspaceID, func(ctx context.Context) (int64, error) {
		var v int64
		err := sqldb.One(ctx, r.db.Read(ctx), &v, nil, r.version, workspaceID)
		return v, err
	})
}
