// Package students holds a workspace's learner: a profile unique by e-mail address
// (case-insensitively) within the workspace, editable and deletable by operators.
package students

import (
	"context"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes student ids (stu_...).
const IDPrefix = "stu"

// Limits of a profile, the contract's numbers.
const (
	MaxName          = 100
	MaxExternalID    = 255
	MaxMetadataKeys  = 50
	MaxMetadataKey   = 40
	MaxMetadataValue = 500
)

// Student is the aggregate. A deleted student keeps its row (enrollment history stays
// consistent) but no longer resolves, and its e-mail address becomes free again.
type Student struct {
	ID          string
	WorkspaceID string
	Email       string
	FirstName   string
	LastName    string
	ExternalID  string
	Metadata    map[string]string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	DeletedAt   *time.Time
}

// Profile is what a caller gives to create a student.
type Profile struct {
	Email      string
	FirstName  string
	LastName   string
	ExternalID string
	Metadata   map[string]string
}

// New validates p and builds a student.
func New(id, workspaceID string, p Profile, now time.Time) (*Student, error) {
	email, err := kernel.NormalizeEmail("email", p.Email)
	if err != nil {
		return nil, err
	}
	s := &Student{ID: id, WorkspaceID: workspaceID, Email: email, CreatedAt: now, UpdatedAt: now}
	if s.FirstName, err = name("firstName", p.FirstName); err != nil {
		return nil, err
	}
	if s.LastName, err = name("lastName", p.LastName); err != nil {
		return nil, err
	}
	s.ExternalID = strings.TrimSpace(p.ExternalID)
	if err := kernel.MaxLength("externalId", s.ExternalID, MaxExternalID); err != nil {
		return nil, err
	}
	if s.Metadata, err = metadata(p.Metadata); err != nil {
		return nil, err
	}
	return s, nil
}

// Patch changes some fields of a profile; nil leaves a field as it is. Metadata, when
// given, replaces the whole map (the operator API); MetadataChanges then merges into it
// (the public API's merge patch): a value sets its key, nil removes it.
type Patch struct {
	Email           *string
	FirstName       *string
	LastName        *string
	ExternalID      *string
	Metadata        *map[string]string
	MetadataChanges map[string]*string
}

// Apply validates and applies p; changed is false when p changes nothing, so that a
// no-op edit neither moves updatedAt nor emits an event.
func (s *Student) Apply(p Patch, now time.Time) (changed bool, err error) {
	next := *s
	if p.Email != nil {
		if next.Email, err = kernel.NormalizeEmail("email", *p.Email); err != nil {
			return false, err
		}
	}
	if p.FirstName != nil {
		if next.FirstName, err = name("firstName", *p.FirstName); err != nil {
			return false, err
		}
	}
	if p.LastName != nil {
		if next.LastName, err = name("lastName", *p.LastName); err != nil {
			return false, err
		}
	}
	if p.ExternalID != nil {
		next.ExternalID = strings.TrimSpace(*p.ExternalID)
		if err := kernel.MaxLength("externalId", next.ExternalID, MaxExternalID); err != nil {
			return false, err
		}
	}
	if p.Metadata != nil || p.MetadataChanges != nil {
		merged := s.Metadata
		if p.Metadata != nil {
			merged = *p.Metadata
		}
		if next.Metadata, err = metadata(mergeMetadata(merged, p.MetadataChanges)); err != nil {
			return false, err
		}
	}
	changed = next.Email != s.Email || next.FirstName != s.FirstName || next.LastName != s.LastName ||
		next.ExternalID != s.ExternalID || !sameMetadata(next.Metadata, s.Metadata)
	if changed {
		next.UpdatedAt = now
		*s = next
	}
	return changed, nil
}

// mergeMetadata is base with changes applied (a copy: base is the stored map).
func mergeMetadata(base map[string]string, changes map[string]*string) map[string]string {
	out := make(map[string]string, len(base)+len(changes))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range changes {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = *v
	}
	return out
}

// Delete removes the student from lists and lookups.
func (s *Student) Delete(now time.Time) error {
	if s.DeletedAt != nil {
		return kernel.NotFound("student %s not found", s.ID)
	}
	s.DeletedAt = &now
	s.UpdatedAt = now
	return nil
}

// EmailKey is the form under which addresses are unique in a workspace: ASCII case
// folded, nothing else (kernel.EmailKey). It is computed here, not by the database, so
// that both engines fold case the same way.
func EmailKey(email string) string { return kernel.EmailKey(email) }

// name refuses invisible format characters besides the length: a right-to-left
// override in a name reorders what the dashboard and exports show.
func name(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if err := kernel.RefuseFormatControls(field, s); err != nil {
		return "", err
	}
	return s, kernel.MaxLength(field, s, MaxName)
}

func metadata(m map[string]string) (map[string]string, error) {
	if len(m) > MaxMetadataKeys {
		return nil, kernel.Invalid("metadata", "metadata must have at most %d keys", MaxMetadataKeys)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if strings.TrimSpace(k) == "" {
			return nil, kernel.Invalid("metadata", "metadata keys must not be empty")
		}
		if err := kernel.MaxLength("metadata", k, MaxMetadataKey); err != nil {
			return nil, kernel.Invalid("metadata", "metadata key %q must be at most %d characters", k, MaxMetadataKey)
		}
		if err := kernel.MaxLength("metadata", v, MaxMetadataValue); err != nil {
			return nil, kernel.Invalid("metadata", "metadata value of %q must be at most %d characters", k, MaxMetadataValue)
		}
		out[k] = v
	}
	return out, nil
}

func sameMetadata(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Repository stores students. Get returns NotFound for a deleted student or one of
// another workspace.
type Repository interface {
	// Add stores s unless a live student of the workspace has the same e-mail address
	// (case-insensitively); added tells which. Concurrent calls rely on a unique index.
	Add(ctx context.Context, s *Student) (added bool, err error)
	// Get loads the student, locked for the caller's transaction.
	Get(ctx context.Context, workspaceID, id string) (*Student, error)
	// Update saves s; an address another live student uses is kernel.Invalid("email").
	Update(ctx context.Context, s *Student) error
	// Touch moves the student's updatedAt forward to at, never back: the student
	// embeds its enrollments, so a change to them is a change to the student. It
	// touches a deleted student too (its history still changes) and leaves a missing
	// one alone (no error).
	Touch(ctx context.Context, workspaceID, id string, at time.Time) error
}
