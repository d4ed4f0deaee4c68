package platform

import "time"

// UTCPtr is *t in UTC, or nil: optional instants as the API and the events show them.
func UTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
