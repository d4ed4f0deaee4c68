package events

// Internal types of the learning modules: recorded in the outbox for projections and
// other modules, never offered to webhook receivers (they are not in PublicTypes).
const (
	// LessonCompleted: a student completed a lesson; data is the lesson progress.
	LessonCompleted Type = "lesson.completed"
	// EnrollmentCompleted: the last lesson of the course was completed; data is the enrollment.
	EnrollmentCompleted Type = "enrollment.completed"
)
