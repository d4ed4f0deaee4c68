package v1

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// StudentBatchEndpoints serves POST /students/batch: a CRM sync's create-or-update of up
// to 100 students in one request (one request against the key's limits).
func StudentBatchEndpoints(app students.Application, dec *web.Decoder) []Endpoint {
	h := studentBatchHandler{app: app, dec: dec}
	return []Endpoint{{Method: fiber.MethodPost, Path: "/students/batch", Scope: keys.WriteStudents, Handler: h.upsert}}
}

type studentBatchHandler struct {
	app students.Application
	dec *web.Decoder
}

// batchRequest keeps each item raw, so that an item that fails decoding is that item's
// error (items[3].email), not the request's.
type batchRequest struct {
	Items []jsontext.Value `json:"items"`
}

// batchItemResult is one item's outcome: its status and student, or its error in the
// error envelope's shape.
type batchItemResult struct {
	Index   int             `json:"index"`
	Status  string          `json:"status"` // created, updated, unchanged or failed
	ID      string          `json:"id,omitempty"`
	Student *events.Student `json:"student,omitempty"`
	Error   *web.Problem    `json:"error,omitempty"`
}

type batchResponse struct {
	Results []batchItemResult `json:"results"`
	Counts  map[string]int    `json:"counts"`
}

// failed is the status of an item that changed nothing because of its error.
const failed = "failed"

// upsert answers 200 with one result per item in input order, whatever each item's fate;
// a request that is not a batch (no items, more than 100, malformed JSON) is 422.
func (h studentBatchHandler) upsert(c *fiber.Ctx) error {
	if err := OnlyParams(c); err != nil {
		return err
	}
	var req batchRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	if len(req.Items) == 0 || len(req.Items) > command.MaxBatch {
		return web.Invalid("items", "items must hold 1 to %d students (it holds %d)", command.MaxBatch, len(req.Items))
	}
	for i, raw := range req.Items {
		// The batch's shape is the request's: an item that is not an object is a broken
		// request, not a contact with bad data.
		if raw.Kind() != '{' {
			return web.Invalid(fmt.Sprintf("items[%d]", i), "items[%d] must be a JSON object (a student's fields)", i)
		}
	}
	p := PrincipalOf(c)
	results := make([]batchItemResult, len(req.Items))
	var cmd command.UpsertStudents
	var decoded []int // the index of each item of cmd
	for i, raw := range req.Items {
		results[i].Index = i
		changes, err := decodeStudentChanges(h.dec, raw)
		if err != nil {
			results[i].Status, results[i].Error = failed, itemProblem(err, i)
			continue
		}
		cmd.Items = append(cmd.Items, changes.upsert(p.WorkspaceID))
		decoded = append(decoded, i)
	}
	out, err := h.app.Commands.UpsertStudents.Handle(c.UserContext(), cmd)
	if err != nil {
		return err
	}
	readable := p.Allows(keys.ReadStudents)
	for j, r := range out {
		res := &results[decoded[j]]
		if r.Err != nil {
			res.Status, res.Error = failed, itemProblem(r.Err, decoded[j])
			continue
		}
		res.Status, res.ID = r.Outcome, r.Student.ID
		// As POST /students: a write-only key sees the record it created, only the id
		// of one that existed.
		if readable || r.Outcome == command.Created {
			res.Student = &r.Student
		}
	}
	counts := map[string]int{command.Created: 0, command.Updated: 0, command.Unchanged: 0, failed: 0}
	for _, r := range results {
		counts[r.Status]++
	}
	return c.JSON(batchResponse{Results: results, Counts: counts})
}

// itemProblem is an item's error as the envelope shows it, its param placed in the item.
func itemProblem(err error, i int) *web.Problem {
	p, ok := web.ProblemOf(err)
	if !ok { // UpsertStudents returns faults as the request's error: never here
		p = web.Internal()
	}
	return web.Place(p, fmt.Sprintf("items[%d]", i))
}
