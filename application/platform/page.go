package platform

import "time"

// Position is a keyset position in a list ordered newest first, ties broken by id.
type Position struct {
	CreatedAt time.Time
	ID        string
}

// Page is one slice of a keyset-paginated list. Next is set when HasMore.
type Page[T any] struct {
	Items   []T
	HasMore bool
	Next    *Position
}

// PageRequest asks for Limit items strictly after After (nil: from the newest).
type PageRequest struct {
	After *Position
	Limit int
}
