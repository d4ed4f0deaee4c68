// Package query holds certificates as the API and certificate.issued show them.
package query

import (
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Certificate is the API shape and the payload of certificate.issued (application/events).
type Certificate = events.Certificate

// View shows c.
func View(c *certificates.Certificate) Certificate {
	return Certificate{ID: c.ID, Livemode: kernel.Livemode(c.WorkspaceID), StudentID: c.StudentID, CourseID: c.CourseID, EnrollmentID: c.EnrollmentID, IssuedAt: c.IssuedAt}
}
