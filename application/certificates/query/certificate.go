// Package query holds certificates as the API and certificate.issued show them.
package query

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/certificates"
)

// Certificate is the data of certificate.issued.
type Certificate struct {
	ID           string    `json:"id"`
	StudentID    string    `json:"studentId"`
	CourseID     string    `json:"courseId"`
	EnrollmentID string    `json:"enrollmentId"`
	IssuedAt     time.Time `json:"issuedAt"`
}

// View shows c.
func View(c *certificates.Certificate) Certificate {
	return Certificate{ID: c.ID, StudentID: c.StudentID, CourseID: c.CourseID, EnrollmentID: c.EnrollmentID, IssuedAt: c.IssuedAt}
}
