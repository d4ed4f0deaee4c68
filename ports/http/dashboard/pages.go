package dashboard

import (
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

type membersData struct {
	Email   string
	Members []members.Member
	Pending bool
}

func (h *Dashboard) membersPage(c *fiber.Ctx) error {
	return h.renderMembers(c, fiber.StatusOK, "", "")
}

func (h *Dashboard) renderMembers(c *fiber.Ctx, status int, errText, email string) error {
	list, err := h.d.Members.Queries.ListMembers.Handle(c.UserContext(), membershipOf(c).WorkspaceID)
	if err != nil {
		return err
	}
	d := membersData{Email: email, Members: list}
	for _, m := range list {
		d.Pending = d.Pending || m.Pending()
	}
	return h.render(c, status, "members", view{Title: "Members", Nav: "members", Error: errText,
		Notice: memberNotices.of(c), Data: d})
}

func (h *Dashboard) invite(c *fiber.Ctx) error {
	m := membershipOf(c)
	email := formValue(c, "email")
	_, err := h.d.Members.Commands.Invite.Handle(c.UserContext(), command.Invite{WorkspaceID: m.WorkspaceID, Email: email, Role: formValue(c, "role")})
	if msg, ok := formError(err); ok {
		return h.renderMembers(c, fiber.StatusUnprocessableEntity, msg, email)
	}
	if err != nil {
		return err
	}
	return c.Redirect(Prefix+"/w/"+m.WorkspaceID+"/members?notice=invited", fiber.StatusSeeOther)
}

func (h *Dashboard) confirmRemove(c *fiber.Ctx) error {
	list, err := h.d.Members.Queries.ListMembers.Handle(c.UserContext(), membershipOf(c).WorkspaceID)
	if err != nil {
		return err
	}
	email := strings.ToLower(c.Query("email"))
	for _, m := range list[1:] { // the founder cannot be removed
		if m.Email == email {
			return h.render(c, fiber.StatusOK, "member_remove", view{Title: "Remove member", Nav: "members", Data: m})
		}
	}
	return notFound
}

func (h *Dashboard) removeMember(c *fiber.Ctx) error {
	m := membershipOf(c)
	_, err := h.d.Members.Commands.RemoveMember.Handle(c.UserContext(), command.RemoveMember{WorkspaceID: m.WorkspaceID, Email: formValue(c, "email")})
	if msg, ok := formError(err); ok {
		return h.renderMembers(c, fiber.StatusUnprocessableEntity, msg, "")
	}
	if err != nil {
		return err
	}
	return c.Redirect(Prefix+"/w/"+m.WorkspaceID+"/members?notice=removed", fiber.StatusSeeOther)
}

type auditData struct {
	Entries []audit.Entry
	Next    string
}

func (h *Dashboard) auditPage(c *fiber.Ctx) error {
	req := platform.PageRequest{Limit: audit.DefaultPageSize, After: parsePosition(c.Query("before"))}
	p, err := h.d.Audit.Queries.ListEntries.Handle(c.UserContext(), audit.ListEntries{WorkspaceID: membershipOf(c).WorkspaceID, Page: req})
	if err != nil {
		return err
	}
	d := auditData{Entries: p.Items, Next: formatPosition(p.Next)}
	return h.render(c, fiber.StatusOK, "audit", view{Title: "Audit log", Nav: "audit", Data: d})
}

// formatPosition writes a keyset position for a "before" parameter ("" for none).
func formatPosition(p *platform.Position) string {
	if p == nil {
		return ""
	}
	return strconv.FormatInt(p.CreatedAt.UnixMicro(), 10) + "." + p.ID
}

// parsePosition reads "<unix microseconds>.<id>"; anything else starts from the newest.
func parsePosition(s string) *platform.Position {
	micros, id, ok := strings.Cut(s, ".")
	n, err := strconv.ParseInt(micros, 10, 64)
	if !ok || err != nil || id == "" {
		return nil
	}
	return &platform.Position{CreatedAt: time.UnixMicro(n).UTC(), ID: id}
}
