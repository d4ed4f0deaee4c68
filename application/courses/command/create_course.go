// Package command changes courses and their curriculum.
package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// CreateCourse starts a draft. An empty Slug is derived from the title and made unique.
type CreateCourse struct {
	WorkspaceID string
	Title       string
	Slug        string
	Description string
}

// CreateCourse creates the draft; a given slug that is taken is refused, a derived one gets a suffix.
func (d Deps) CreateCourse(ctx context.Context, cmd CreateCourse) (out query.CourseDetail, err error) {
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	slug, err := d.slug(ctx, cmd)
	if err != nil {
		return out, err
	}
	c, err := courses.New(d.IDs.New(courses.IDPrefix), cmd.WorkspaceID, cmd.Title, slug, cmd.Description, d.Clock.Now())
	if err != nil {
		return out, err
	}
	if err := d.Repo.Add(ctx, c); err != nil {
		return out, err
	}
	return query.FromDomain(c), nil
}

func (d Deps) slug(ctx context.Context, cmd CreateCourse) (string, error) {
	if given := strings.TrimSpace(cmd.Slug); given != "" {
		if err := courses.ValidateSlug(given); err != nil {
			return "", err
		}
		taken, err := d.Repo.SlugTaken(ctx, cmd.WorkspaceID, given)
		if err != nil {
			return "", err
		}
		if taken {
			return "", kernel.Invalid("slug", "slug %q is already used by another course", given)
		}
		return given, nil
	}
	base := courses.SlugFromTitle(cmd.Title)
	for n := 1; n <= 1000; n++ {
		candidate := base
		if n > 1 {
			candidate = fmt.Sprintf("%s-%d", base, n)
		}
		taken, err := d.Repo.SlugTaken(ctx, cmd.WorkspaceID, candidate)
		if err != nil {
			return "", err
		}
		if !taken {
			return candidate, nil
		}
	}
	return "", kernel.Invalid("slug", "could not derive a free slug from the title; give one")
}
