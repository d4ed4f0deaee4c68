package courses

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// The course tables' columns, shared by the repository and the read model.
const (
	courseColumns = `id, workspace_id, slug, title, description, status, module_count, lesson_count, published_at, archived_at, created_at, updated_at`
	moduleColumns = `id, title, position, created_at`
	lessonColumns = `id, module_id, title, type, duration_seconds, position, created_at`
)

// courseRow is a course row: the aggregate's fields and the counts the row keeps for lists.
type courseRow struct {
	courses.Course
	ModuleCount, LessonCount int
}

// listedRow is a course row as the API lists it.
type listedRow struct {
	query.Course
	WorkspaceID string
}

// lessonRow is a lesson with the module it belongs to.
type lessonRow struct {
	courses.Lesson
	ModuleID string
}

// curriculum holds the statements that load a course with its modules and lessons.
type curriculum struct{ course, modules, lessons string }

// load reads the course with its curriculum, or NotFound. The repository and the read
// model share it, so a read shows what a command would see.
func (c curriculum) load(ctx context.Context, q sqldb.Querier, workspaceID, id string) (*courses.Course, error) {
	var row courseRow
	if err := sqldb.One(ctx, q, &row, kernel.NotFound("course %s not found", id), c.course, workspaceID, id); err != nil {
		return nil, err
	}
	mods, err := sqldb.All[courses.Module](ctx, q, c.modules, id)
	if err != nil {
		return nil, err
	}
	lessons, err := sqldb.All[lessonRow](ctx, q, c.lessons, id)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, m := range mods {
		index[m.ID] = i
	}
	for _, l := range lessons {
		m := &mods[index[l.ModuleID]]
		m.Lessons = append(m.Lessons, l.Lesson)
	}
	row.Modules = nil
	if len(mods) > 0 {
		row.Modules = mods
	}
	return &row.Course, nil
}
