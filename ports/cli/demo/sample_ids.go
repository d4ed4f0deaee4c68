package demo

import (
	"context"
	"fmt"

	coursequery "github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	studentquery "github.com/creatorapi/creatorapi/application/students/query"
)

// sampleIDs finds a published course and a student of the workspace, so that the
// printed curl commands run as they are.
func (s Seeder) sampleIDs(ctx context.Context, wsID string) (courseID, studentID string, err error) {
	courses, err := s.Courses.Queries.ListPublished.Handle(ctx, coursequery.ListPublishedCourses{WorkspaceID: wsID, Page: platform.PageRequest{Limit: 1}})
	if err != nil {
		return "", "", fmt.Errorf("demo course: %w", err)
	}
	students, err := s.Students.Queries.ListStudents.Handle(ctx, studentquery.ListStudents{WorkspaceID: wsID, Page: platform.PageRequest{Limit: 1}})
	if err != nil {
		return "", "", fmt.Errorf("demo student: %w", err)
	}
	if len(courses.Items) > 0 {
		courseID = courses.Items[0].ID
	}
	if len(students.Items) > 0 {
		studentID = students.Items[0].ID
	}
	return courseID, studentID, nil
}
