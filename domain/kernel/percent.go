package kernel

// Percent is progress as an integer from 0 to 100, rounded down so that 100 means
// every lesson is done; a course without lessons is at 0. It is the one progress rule:
// enrollments decides completion with it and students shows it on a student's page.
func Percent(completedLessons, totalLessons int) int {
	if totalLessons <= 0 || completedLessons <= 0 {
		return 0
	}
	return min(completedLessons*100/totalLessons, 100)
}
