package contract

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	liberrors "github.com/pb33f/libopenapi-validator/errors"
)

// CheckDelivery returns what is wrong with a webhook delivery: the body must validate
// against the requestBody of its type's entry in the webhooks section, and each
// documented header must be present and match its schema (X-SVC-Event naming the type).
func (c *Contract) CheckDelivery(header http.Header, body []byte) []string {
	var env struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return []string{fmt.Sprintf("delivery body is not JSON: %v", err)}
	}
	item, ok := c.Model.Webhooks.Get(env.Type)
	if !ok || item.Post == nil {
		return []string{fmt.Sprintf("event type %q has no entry in the document's webhooks", env.Type)}
	}
	media, ok := item.Post.RequestBody.Content.Get("application/json")
	if !ok {
		return []string{"webhook " + env.Type + " documents no application/json body"}
	}
	problems := c.checkAgainst(media.Schema.Schema(), body)
	if got := header.Get("X-SVC-Event"); got != env.Type {
		problems = append(problems, fmt.Sprintf("X-SVC-Event %q, body type %q", got, env.Type))
	}
	for _, p := range item.Post.Parameters {
		if p.In != "header" {
			continue
		}
		value := header.Get(p.Name)
		if value == "" {
			if p.Required != nil && *p.Required {
				problems = append(problems, "delivery lacks header "+p.Name)
			}
			continue
		}
		raw, _ := json.Marshal(value)
		for _, msg := range c.checkAgainst(p.Schema.Schema(), raw) {
			problems = append(problems, "header "+p.Name+": "+msg)
		}
	}
	return problems
}

// WebhookTypes lists the event types the document describes.
func (c *Contract) WebhookTypes() []string {
	var out []string
	for name := range c.Model.Webhooks.KeysFromOldest() {
		out = append(out, name)
	}
	return out
}

func describe(message, reason string, failures []*liberrors.SchemaValidationFailure) string {
	parts := []string{message}
	if reason != "" && reason != message {
		parts = append(parts, reason)
	}
	for _, f := range failures {
		parts = append(parts, f.FieldPath+": "+f.Reason)
	}
	return strings.Join(parts, "; ")
}
