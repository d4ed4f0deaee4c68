package webhooks

import (
	"net/url"
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

const maxURLLen = 2048

// ValidateURL accepts an absolute https URL (http too when allowHTTP) with a host and no
// credentials or fragment. Where the host points is checked when connecting, not here:
// DNS can change between now and then.
func ValidateURL(raw string, allowHTTP bool) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxURLLen {
		return "", kernel.Invalid("url", "url is required, at most %d characters", maxURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Hostname() == "" {
		return "", kernel.Invalid("url", "url must be an absolute https URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowHTTP:
	case u.Scheme == "http":
		return "", kernel.Invalid("url", "url must use https (http is allowed only with CREATORAPI_WEBHOOK_ALLOW_PRIVATE)")
	default:
		return "", kernel.Invalid("url", "url must use https")
	}
	if u.User != nil || u.Fragment != "" {
		return "", kernel.Invalid("url", "url must not carry credentials or a fragment")
	}
	return u.String(), nil
}
