package query

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// History shows students with where they stand in their courses: the enrollments
// module's facts, turned into progress by the courses module's lesson counts. Two
// calls per page of students, whatever its size (never one per student or enrollment).
type History struct {
	Enrollments EnrollmentHistory
	Lessons     CourseLessons
}

// Show returns the students as the API shows them, in the order given.
func (h History) Show(ctx context.Context, workspaceID string, ss []*students.Student) ([]Student, error) {
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	history, err := h.Of(ctx, workspaceID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Student, len(ss))
	for i, s := range ss {
		out[i] = FromDomain(s, history[s.ID])
	}
	return out, nil
}

// ShowOne is Show for one student.
func (h History) ShowOne(ctx context.Context, workspaceID string, s *students.Student) (Student, error) {
	out, err := h.Show(ctx, workspaceID, []*students.Student{s})
	if err != nil {
		return Student{}, err
	}
	return out[0], nil
}

// Of returns the enrollments with progress of the students among ids, oldest first,
// by student id; students without any are absent.
func (h History) Of(ctx context.Context, workspaceID string, ids []string) (map[string][]Enrollment, error) {
	out := map[string][]Enrollment{}
	if len(ids) == 0 {
		return out, nil
	}
	byStudent, err := h.Enrollments.EnrolledCourses(ctx, workspaceID, ids)
	if err != nil {
		return nil, fmt.Errorf("enrollments of students: %w", err)
	}
	if len(byStudent) == 0 {
		return out, nil
	}
	var courseIDs []string
	seen := map[string]bool{}
	for _, ens := range byStudent {
		for _, e := range ens {
			if !seen[e.CourseID] {
				seen[e.CourseID] = true
				courseIDs = append(courseIDs, e.CourseID)
			}
		}
	}
	totals, err := h.Lessons.LessonCounts(ctx, workspaceID, courseIDs)
	if err != nil {
		return nil, fmt.Errorf("lesson counts of courses: %w", err)
	}
	for studentID, ens := range byStudent {
		for _, e := range ens {
			out[studentID] = append(out[studentID], Enrollment{
				ID: e.ID, CourseID: e.CourseID, Status: e.Status, CreatedAt: e.CreatedAt.UTC(),
				RevokedAt: platform.UTCPtr(e.RevokedAt), CompletedAt: platform.UTCPtr(e.CompletedAt),
				Progress: Progress{
					CompletedLessons: e.CompletedLessons, TotalLessons: totals[e.CourseID],
					Percent: kernel.Percent(e.CompletedLessons, totals[e.CourseID]),
				},
			})
		}
	}
	return out, nil
}
