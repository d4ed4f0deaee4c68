// Package mail sends operational e-mail notices: through SMTP (CREATORAPI_SMTP_URL) or,
// when none is configured, into files in the data folder with a log line.
package mail

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	gomail "github.com/wneessen/go-mail"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// DefaultFrom is the sender address when the SMTP URL names none.
const DefaultFrom = "creatorapi <noreply@creatorapi.invalid>"

// SMTP sends through one SMTP server.
type SMTP struct {
	host string
	from string
	opts []gomail.Option
}

// NewSMTP parses smtp://[user:pass@]host[:port][?from=addr&tls=opportunistic|mandatory|none]
// or smtps://... (implicit TLS). Default ports: 587 (smtp), 465 (smtps).
func NewSMTP(rawURL string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("CREATORAPI_SMTP_URL must look like smtp://user:pass@host:587?from=noreply@example.com")
	}
	q := u.Query()
	s := &SMTP{host: u.Hostname(), from: q.Get("from")}
	if s.from == "" {
		s.from = DefaultFrom
	}
	port := 587
	switch u.Scheme {
	case "smtp":
		policy := gomail.TLSOpportunistic
		switch q.Get("tls") {
		case "", "opportunistic":
		case "mandatory":
			policy = gomail.TLSMandatory
		case "none":
			policy = gomail.NoTLS
		default:
			return nil, fmt.Errorf("CREATORAPI_SMTP_URL: tls must be opportunistic, mandatory or none")
		}
		s.opts = append(s.opts, gomail.WithTLSPolicy(policy))
	case "smtps":
		port = 465
		s.opts = append(s.opts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("CREATORAPI_SMTP_URL must start with smtp:// or smtps://")
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("CREATORAPI_SMTP_URL: bad port %q", p)
		}
	}
	s.opts = append(s.opts, gomail.WithPort(port))
	if u.User != nil {
		pass, _ := u.User.Password()
		s.opts = append(s.opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	return s, nil
}

// Send delivers n; the notice id is the Message-ID, so a resent notice can be recognised.
func (s *SMTP) Send(ctx context.Context, n webhooks.Notice) error {
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return fmt.Errorf("notice sender: %w", err)
	}
	if err := m.To(n.To); err != nil {
		return fmt.Errorf("notice recipient: %w", err)
	}
	m.Subject(n.Subject)
	m.SetMessageIDWithValue(n.ID + "@creatorapi")
	m.SetDate()
	m.SetBodyString(gomail.TypeTextPlain, n.Body)
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return fmt.Errorf("send notice %s: %w", n.ID, err)
	}
	return nil
}
