// Package demo seeds a realistic workspace through the application's own commands,
// so that the demo exercises exactly what integrators will.
package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	coursequery "github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/keys"
	keycmd "github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/workspaces"
	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
)

// Marker remembers which workspace the demo seeded, so that it is seeded once.
type Marker interface {
	Get(ctx context.Context, name string) (string, bool, error)
	Set(ctx context.Context, name, value string, now time.Time) error
}

const markerName = "demo.workspace"

// Seeder builds the demo workspace.
type Seeder struct {
	Workspaces   workspaces.Application
	Keys         keys.Application
	Courses      courses.Application
	Students     students.Application
	Enrollments  enrollments.Application
	Orders       orders.Application
	LiveSessions livesessions.Application
	Certificates certificates.Application
	Marker       Marker
	Now          func() time.Time
}

// Result is what the demo prints.
type Result struct {
	WorkspaceID string
	Seeded      bool // false when an earlier run had seeded it
	Key         keycmd.CreatedKey
	CourseID    string // a published course of the workspace
	StudentID   string // a student of the workspace
}

// Run seeds the workspace on first use, then issues a fresh key with every scope and
// the default limits.
func (s Seeder) Run(ctx context.Context) (Result, error) {
	wsID, found, err := s.Marker.Get(ctx, markerName)
	if err != nil {
		return Result{}, err
	}
	if found {
		if _, err := s.Workspaces.Queries.GetWorkspace.Handle(ctx, wsID); kernel.IsNotFound(err) {
			found = false
		} else if err != nil {
			return Result{}, err
		}
	}
	res := Result{WorkspaceID: wsID}
	if !found {
		if res.WorkspaceID, err = s.seed(ctx); err != nil {
			return Result{}, fmt.Errorf("seed demo: %w", err)
		}
		res.Seeded = true
		if err := s.Marker.Set(ctx, markerName, res.WorkspaceID, s.Now()); err != nil {
			return Result{}, err
		}
	}
	res.Key, err = s.Keys.Commands.CreateKey.Handle(ctx, keycmd.CreateKey{
		// No quota given: the documented defaults (60 a minute, 1,000 a day), so that the
		// demo meets the limits an integrator will.
		WorkspaceID: res.WorkspaceID, Name: "demo " + s.Now().Format(time.RFC3339), Scopes: domainkeys.ScopeNames(domainkeys.AllScopes),
	})
	if err != nil {
		return Result{}, fmt.Errorf("demo key: %w", err)
	}
	if res.CourseID, res.StudentID, err = s.sampleIDs(ctx, res.WorkspaceID); err != nil {
		return Result{}, err
	}
	return res, nil
}

type lessonSpec struct {
	title    string
	kind     string
	duration int
}

type courseSpec struct {
	title, description string
	modules            map[string][]lessonSpec
	order              []string
	final              string // "published", "archived" or "" (draft)
}

var catalogue = []courseSpec{
	{
		title: "Watercolor Foundations", description: "Brushes, washes and color mixing from zero.", final: "published",
		order: []string{"Getting started", "Washes", "Color"},
		modules: map[string][]lessonSpec{
			"Getting started": {{"Welcome", "video", 180}, {"Materials list", "download", 0}},
			"Washes":          {{"Flat wash", "video", 720}, {"Graded wash", "video", 840}, {"Wash quiz", "quiz", 300}},
			"Color":           {{"Mixing greens", "video", 900}, {"Color theory notes", "text", 600}},
		},
	},
	{
		title: "Portrait Photography Masterclass", description: "Light, posing and retouching for portraits.", final: "published",
		order: []string{"Light", "Posing", "Live critique"},
		modules: map[string][]lessonSpec{
			"Light":         {{"Window light", "video", 1200}, {"Reflectors", "video", 780}},
			"Posing":        {{"Hands and shoulders", "video", 960}, {"Posing checklist", "download", 0}},
			"Live critique": {{"Monthly portfolio review", "live", 3600}},
		},
	},
	{
		title: "Sourdough at Home", description: "Starter to crumb shot in four weeks.", final: "published",
		order: []string{"Starter", "Bake"},
		modules: map[string][]lessonSpec{
			"Starter": {{"Feeding schedule", "text", 420}, {"Reading your starter", "video", 540}},
			"Bake":    {{"Shaping", "video", 1020}, {"Scoring", "video", 600}, {"Bake day quiz", "quiz", 240}},
		},
	},
	{
		title: "Oil Painting (2019 edition)", description: "Superseded by the new edition.", final: "archived",
		order:   []string{"Basics"},
		modules: map[string][]lessonSpec{"Basics": {{"Palette setup", "video", 600}}},
	},
	{
		title: "Advanced Glazing (coming soon)", description: "Draft: not visible to integrators.",
		order:   []string{"Glazes"},
		modules: map[string][]lessonSpec{"Glazes": {{"Fat over lean", "video", 900}}},
	},
}

func (s Seeder) seed(ctx context.Context) (string, error) {
	ws, err := s.Workspaces.Commands.CreateWorkspace.Handle(ctx, wscmd.CreateWorkspace{Name: "Demo Academy", OwnerEmail: "owner@demo-academy.example"})
	if err != nil {
		return "", err
	}
	var published []coursequery.CourseDetail
	for _, spec := range catalogue {
		course, err := s.seedCourse(ctx, ws.ID, spec)
		if err != nil {
			return "", fmt.Errorf("course %q: %w", spec.title, err)
		}
		if course.Status == "published" {
			published = append(published, course)
		}
	}
	if err := s.seedLearning(ctx, ws.ID, published); err != nil {
		return "", err
	}
	return ws.ID, nil
}

// seedCourse builds one course of the catalogue and returns it as finally shown.
func (s Seeder) seedCourse(ctx context.Context, wsID string, spec courseSpec) (coursequery.CourseDetail, error) {
	c := s.Courses.Commands
	course, err := c.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: wsID, Title: spec.title, Description: spec.description})
	if err != nil {
		return coursequery.CourseDetail{}, err
	}
	for _, title := range spec.order {
		m, err := c.AddModule.Handle(ctx, coursecmd.AddModule{WorkspaceID: wsID, CourseID: course.ID, Title: title})
		if err != nil {
			return coursequery.CourseDetail{}, err
		}
		for _, l := range spec.modules[title] {
			if _, err := c.AddLesson.Handle(ctx, coursecmd.AddLesson{WorkspaceID: wsID, ModuleID: m.ID, Title: l.title, Type: l.kind, DurationSeconds: l.duration}); err != nil {
				return coursequery.CourseDetail{}, err
			}
		}
	}
	if spec.final == "" {
		return course, nil
	}
	if course, err = c.PublishCourse.Handle(ctx, coursecmd.PublishCourse{WorkspaceID: wsID, CourseID: course.ID}); err != nil {
		return coursequery.CourseDetail{}, err
	}
	if spec.final == "archived" {
		course, err = c.ArchiveCourse.Handle(ctx, coursecmd.ArchiveCourse{WorkspaceID: wsID, CourseID: course.ID})
	}
	return course, err
}
