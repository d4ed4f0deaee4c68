package query

import "context"

// ListWebhooks returns every endpoint of the workspace, disabled ones included.
func (r Reads) ListWebhooks(ctx context.Context, workspaceID string) ([]Webhook, error) {
	list, err := r.Subs.List(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	out := make([]Webhook, 0, len(list))
	for _, s := range list {
		out = append(out, View(s))
	}
	return out, nil
}
