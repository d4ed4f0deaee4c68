package creatorapi

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"strings"
)

// MaxBatchItems is how many students one POST /api/v1/students/batch takes.
const MaxBatchItems = 100

// API is the generated client (every operation, typed) over a Transport, plus
// iterators over the lists and a batch upsert of any number of students.
type API struct {
	*ClientWithResponses
	Transport *Transport
}

// New returns a client of the service at baseURL (e.g. https://api.example.com; the paths
// carry /api/v1) that authenticates with apiKey.
func New(baseURL, apiKey string, o TransportOptions) (*API, error) {
	t := NewTransport(o)
	c, err := NewClientWithResponses(strings.TrimRight(baseURL, "/"),
		WithHTTPClient(&http.Client{Transport: t}),
		WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("Authorization", "Bearer "+apiKey)
			return nil
		}))
	if err != nil {
		return nil, fmt.Errorf("creatorapi: new client: %w", err)
	}
	return &API{ClientWithResponses: c, Transport: t}, nil
}

// APIError is an answer that was not a success, with the envelope's code and message.
type APIError struct {
	Status    int
	Code      string
	Message   string
	Param     string
	RequestID string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("creatorapi: %d %s: %s", e.Status, e.Code, e.Message)
	if e.Param != "" {
		msg += " (param " + e.Param + ")"
	}
	return msg + " [" + e.RequestID + "]"
}

func apiError(res *http.Response, body []byte) error {
	e := &APIError{Status: res.StatusCode, RequestID: res.Header.Get("X-Request-Id")}
	var envelope struct {
		Error struct{ Code, Message, Param string } `json:"error"`
	}
	if json.Unmarshal(body, &envelope) == nil {
		e.Code, e.Message, e.Param = envelope.Error.Code, envelope.Error.Message, envelope.Error.Param
	}
	return e
}

// pages yields each item of a list; page fetches one page for a cursor (nil: the first).
func pages[T any](page func(cursor *string) ([]T, Pagination, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var cursor *string
		for {
			items, p, err := page(cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if !p.HasMore || p.Cursor == nil {
				return
			}
			cursor = p.Cursor
		}
	}
}

func pageSize(l *Limit) *Limit {
	if l != nil {
		return l
	}
	n := Limit(100)
	return &n
}

// Students yields every student matching params (Cursor is set by the iterator).
func (c *API) Students(ctx context.Context, params ListStudentsParams) iter.Seq2[Student, error] {
	params.Limit = pageSize(params.Limit)
	return pages(func(cursor *string) ([]Student, Pagination, error) {
		params.Cursor = cursor
		r, err := c.ListStudentsWithResponse(ctx, &params)
		if err != nil {
			return nil, Pagination{}, fmt.Errorf("creatorapi: list students: %w", err)
		}
		if r.JSON200 == nil {
			return nil, Pagination{}, apiError(r.HTTPResponse, r.Body)
		}
		return r.JSON200.Data, r.JSON200.Pagination, nil
	})
}

// Courses yields every course matching params.
func (c *API) Courses(ctx context.Context, params ListCoursesParams) iter.Seq2[Course, error] {
	params.Limit = pageSize(params.Limit)
	return pages(func(cursor *string) ([]Course, Pagination, error) {
		params.Cursor = cursor
		r, err := c.ListCoursesWithResponse(ctx, &params)
		if err != nil {
			return nil, Pagination{}, fmt.Errorf("creatorapi: list courses: %w", err)
		}
		if r.JSON200 == nil {
			return nil, Pagination{}, apiError(r.HTTPResponse, r.Body)
		}
		return r.JSON200.Data, r.JSON200.Pagination, nil
	})
}

// Orders yields every order matching params.
func (c *API) Orders(ctx context.Context, params ListOrdersParams) iter.Seq2[Order, error] {
	params.Limit = pageSize(params.Limit)
	return pages(func(cursor *string) ([]Order, Pagination, error) {
		params.Cursor = cursor
		r, err := c.ListOrdersWithResponse(ctx, &params)
		if err != nil {
			return nil, Pagination{}, fmt.Errorf("creatorapi: list orders: %w", err)
		}
		if r.JSON200 == nil {
			return nil, Pagination{}, apiError(r.HTTPResponse, r.Body)
		}
		return r.JSON200.Data, r.JSON200.Pagination, nil
	})
}

// UpsertStudents creates or updates items (any number) in batches of MaxBatchItems: one
// request and one Idempotency-Key each, reused by that batch's retries. The results keep
// the input order; an item that failed has Status "failed" and its Error.
func (c *API) UpsertStudents(ctx context.Context, items []StudentChanges) ([]StudentBatchResult, error) {
	var out []StudentBatchResult
	for i := 0; i < len(items); i += MaxBatchItems {
		batch := items[i:min(i+MaxBatchItems, len(items))]
		r, err := c.UpsertStudentsWithResponse(ctx, &UpsertStudentsParams{}, UpsertStudentsJSONRequestBody{Items: batch})
		if err != nil {
			return out, fmt.Errorf("creatorapi: upsert students %d..%d: %w", i, i+len(batch)-1, err)
		}
		if r.JSON200 == nil {
			return out, apiError(r.HTTPResponse, r.Body)
		}
		out = append(out, r.JSON200.Results...)
	}
	return out, nil
}
