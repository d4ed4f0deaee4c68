package events

import "time"

// Course is the list shape of a course.
type Course struct {
	ID          string     `json:"id"`
	Livemode    bool       `json:"livemode"` // false in a sandbox
	Slug        string     `json:"slug"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Status      string     `json:"status"`
	PublishedAt *time.Time `json:"publishedAt"`
	ArchivedAt  *time.Time `json:"archivedAt"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	ModuleCount int        `json:"moduleCount"`
	LessonCount int        `json:"lessonCount"`
}

// CourseDetail is a course with its curriculum: the data of course.published and
// course.archived, and the API's single course.
type CourseDetail struct {
	Course
	Modules []Module `json:"modules"`
}

// Module is a section of a course, in position order.
type Module struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Position int      `json:"position"`
	Lessons  []Lesson `json:"lessons"`
}

// Lesson is the metadata of one lesson.
type Lesson struct {
	ID              string `json:"id"`
	Title           string `json:"title"`
	Position        int    `json:"position"`
	Type            string `json:"type"`
	DurationSeconds int    `json:"durationSeconds"`
}
