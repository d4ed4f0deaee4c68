package webhooks

import (
	"strings"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// deliveryStatuses are every value webhook_deliveries.status can hold (its CHECK).
var deliveryStatuses = []webhooks.DeliveryStatus{webhooks.Pending, webhooks.DeliverySucceeded, webhooks.DeliveryFailed}

// anyStatusPage is the statement of a page of an endpoint's deliveries whatever their
// status, newest first: the merge of one range of webhook_deliveries_log_status per status,
// each read newest first and cut at the page's length. There is no index on (workspace_id,
// subscription_id, created_at) for an ordered range of its own (migration 00033: its entry
// was written twice per delivered event, at the insert and again at the finish, which
// cannot be a HOT update). seek is " AND (created_at, id) < (?, ?)" or ""; the
// arguments are, per status, the workspace, the endpoint, seekArgs and limit, then limit.
func anyStatusPage(seek string, workspaceID, subscriptionID string, seekArgs []any, limit int) (string, []any) {
	var sb strings.Builder
	args := make([]any, 0, len(deliveryStatuses)*(3+len(seekArgs))+1)
	for i, s := range deliveryStatuses {
		if i > 0 {
			sb.WriteString(` UNION ALL `)
		}
		// A subquery per status: ORDER BY and LIMIT of a UNION member need one on SQLite.
		sb.WriteString(`SELECT * FROM (SELECT ` + deliveryColumns + ` FROM webhook_deliveries
			WHERE workspace_id = ? AND subscription_id = ? AND status = '` + string(s) + `'` + seek + `
			ORDER BY created_at DESC, id DESC LIMIT ?) AS s` + string(rune('0'+i)))
		args = append(args, workspaceID, subscriptionID)
		args = append(args, seekArgs...)
		args = append(args, limit)
	}
	sb.WriteString(` ORDER BY created_at DESC, id DESC LIMIT ?`)
	return sb.String(), append(args, limit)
}
