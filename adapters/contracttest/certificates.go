package contracttest

import (
	"context"
	"fmt"
	"testing"

	"github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// CertificateAdapters is one implementation of the certificates module's store.
type CertificateAdapters struct {
	Store command.Store
	// NewWorkspace returns the id of a fresh workspace the store accepts.
	NewWorkspace func(t *testing.T) string
	// NewCompletion returns a student, a course and the student's enrollment in it that
	// the store accepts as references (real rows of their modules).
	NewCompletion func(t *testing.T, workspaceID string) (studentID, courseID, enrollmentID string)
}

// CertificateFactory opens a store once per suite; each case works in its own workspace.
type CertificateFactory func(t *testing.T) CertificateAdapters

// newCertificate is a certificate issued by the domain for a completed enrollment.
func newCertificate(t *testing.T, ws, student, course, enrollment string, n int) *certificates.Certificate {
	t.Helper()
	c, err := certificates.Issue(fmt.Sprintf("crt_%s_%d", enrollment, n), ws, student, course,
		&certificates.Completion{EnrollmentID: enrollment, Status: "completed"}, at(n))
	if err != nil {
		t.Fatalf("issue: %v", err)
	}
	return c
}

// CertificateStore is the contract of certificates/command.Store.
func CertificateStore(t *testing.T, open CertificateFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("an issued certificate is found by its student and course", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		student, course, enrollment := a.NewCompletion(t, ws)
		c := newCertificate(t, ws, student, course, enrollment, 0)
		added, err := a.Store.Add(ctx, c)
		if err != nil || !added {
			t.Fatalf("Add = %v, %v", added, err)
		}
		got, err := a.Store.Find(ctx, ws, student, course)
		if err != nil {
			t.Fatalf("Find = %+v, %v; want %+v", got, err, c)
		}
		mustMatch(t, "Find", c, got)
	})

	t.Run("a second certificate of the pair is not added; the first stays", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		student, course, enrollment := a.NewCompletion(t, ws)
		first := newCertificate(t, ws, student, course, enrollment, 0)
		if added, err := a.Store.Add(ctx, first); err != nil || !added {
			t.Fatalf("first Add = %v, %v", added, err)
		}
		added, err := a.Store.Add(ctx, newCertificate(t, ws, student, course, enrollment, 1))
		if err != nil || added {
			t.Fatalf("second Add = %v, %v; want false, nil", added, err)
		}
		got, err := a.Store.Find(ctx, ws, student, course)
		if err != nil {
			t.Fatalf("Find = %+v, %v; want the first %+v", got, err, first)
		}
		mustMatch(t, "Find", first, got)
	})

	t.Run("another workspace's certificate is not found, nor a pair without one", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		student, course, enrollment := a.NewCompletion(t, ws)
		_, err := a.Store.Find(ctx, ws, student, course)
		wantKind(t, err, kernel.KindNotFound, "")
		if added, err := a.Store.Add(ctx, newCertificate(t, ws, student, course, enrollment, 0)); err != nil || !added {
			t.Fatalf("Add = %v, %v", added, err)
		}
		_, err = a.Store.Find(ctx, other, student, course)
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("concurrent first issues of the pair: exactly one is added", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		student, course, enrollment := a.NewCompletion(t, ws)
		const n = 8
		candidates := make([]*certificates.Certificate, n)
		for i := range candidates {
			candidates[i] = newCertificate(t, ws, student, course, enrollment, i)
		}
		won := oneWinner(t, n, func(i int) (bool, error) { return a.Store.Add(ctx, candidates[i]) })
		got, err := a.Store.Find(ctx, ws, student, course)
		if err != nil {
			t.Fatalf("Find = %+v, %v; want the winner %+v", got, err, candidates[won])
		}
		mustMatch(t, "Find", candidates[won], got)
	})
}
