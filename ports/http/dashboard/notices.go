package dashboard

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
)

// The banner after an action is chosen by a key in the redirect (?notice=revoked) from
// a page's fixed set, and a count (?recovered=3) is parsed as a number and written back
// by us: a link crafted by someone else cannot put words in the site's voice.

// noticeSet is a page's banners by key; any other ?notice= value shows none.
type noticeSet map[string]string

func (s noticeSet) of(c *fiber.Ctx) string { return s[c.Query("notice")] }

var keyNotices = noticeSet{"revoked": "The key is revoked: requests with it are refused from now on."}

var memberNotices = noticeSet{
	"invited": "Invitation sent: they join with the link in their e-mail.",
	"removed": "Removed: they no longer have access to this workspace.",
}

var webhookNotices = noticeSet{
	"updated":  "Saved.",
	"disabled": "Disabled: events wait, undelivered, until you enable the endpoint again.",
	"enabled":  "Enabled: waiting deliveries are being sent.",
	"paced":    "Saved: the endpoint's deliveries follow its new pace.",
	"receiver": "Saved: attempts carry the new headers and credentials within a second.",
	"backfill": "Backfill queued: the events are sent oldest first, then the live ones.",
}

var logNotices = noticeSet{
	"test":    "Test event queued: it is sent in a moment, to this endpoint only.",
	"resent":  "Queued to be sent again now, with the same delivery id and bytes.",
	"missing": "No delivery or event with that id in this endpoint's log.",
}

// recoveredNotice is the banner after Recover: the count, or nothing when ?recovered=
// is not a number.
func recoveredNotice(c *fiber.Ctx) string {
	n, err := strconv.Atoi(c.Query("recovered"))
	switch {
	case err != nil || n < 0:
		return ""
	case n == 1:
		return "1 failed delivery queued to be sent again."
	}
	return strconv.Itoa(n) + " failed deliveries queued to be sent again."
}
