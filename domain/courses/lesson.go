package courses

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// LessonType is how a lesson is delivered.
type LessonType string

// Lesson types.
const (
	Video    LessonType = "video"
	Text     LessonType = "text"
	Quiz     LessonType = "quiz"
	Live     LessonType = "live"
	Download LessonType = "download"
)

// LessonTypes lists the accepted types.
var LessonTypes = []LessonType{Video, Text, Quiz, Live, Download}

const maxLessonSeconds = 24 * 60 * 60

// Lesson is one unit of a module.
type Lesson struct {
	ID              string
	Title           string
	Type            LessonType
	DurationSeconds int
	Position        int
	CreatedAt       time.Time
}

// LessonDraft is what a caller gives to add a lesson.
type LessonDraft struct {
	ID              string
	Title           string
	Type            string
	DurationSeconds int
}

func (d LessonDraft) build(position int, now time.Time) (Lesson, error) {
	title, err := kernel.RequireText("title", d.Title, 200)
	if err != nil {
		return Lesson{}, err
	}
	t := LessonType(d.Type)
	known := false
	for _, lt := range LessonTypes {
		known = known || lt == t
	}
	if !known {
		return Lesson{}, kernel.Invalid("type", "type must be one of video, text, quiz, live, download")
	}
	if d.DurationSeconds < 0 || d.DurationSeconds > maxLessonSeconds {
		return Lesson{}, kernel.Invalid("durationSeconds", "durationSeconds must be between 0 and %d", maxLessonSeconds)
	}
	return Lesson{ID: d.ID, Title: title, Type: t, DurationSeconds: d.DurationSeconds, Position: position, CreatedAt: now}, nil
}
