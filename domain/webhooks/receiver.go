package webhooks

import (
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// MaxHeaders bounds an endpoint's static headers.
const MaxHeaders = 10

// maxHeaderValue bounds one header value (an API key, a token).
const maxHeaderValue = 1024

// Mask stands for a stored secret value wherever an endpoint is shown after its
// creation. Sent back unchanged in an update, it keeps the stored value.
const Mask = "********"

// OAuth2ClientCredentials is the one authentication type besides static headers.
const OAuth2ClientCredentials = "oauth2_client_credentials"

// Header is one static header sent on every attempt; its value is a secret.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// OAuth2 is an OAuth2 client-credentials grant: a token fetched from TokenURL, cached
// until it expires, sent as Authorization: Bearer. ClientSecret is a secret.
type OAuth2 struct {
	TokenURL     string `json:"tokenUrl"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	Scope        string `json:"scope,omitempty"` // space-separated
}

// Receiver is what an endpoint's receiver asks for beyond the signature. Sealed at rest
// like the signing secret, shown masked.
type Receiver struct {
	Headers []Header `json:"headers,omitempty"`
	Auth    *OAuth2  `json:"auth,omitempty"`
}

// Empty tells whether the receiver asks for nothing.
func (r Receiver) Empty() bool { return len(r.Headers) == 0 && r.Auth == nil }

// hopByHop are the headers of one connection (RFC 9110 7.6.1) and those the sender
// sets itself: a receiver's static header may not replace them.
var hopByHop = map[string]bool{
	"connection": true, "keep-alive": true, "proxy-authenticate": true, "proxy-authorization": true,
	"proxy-connection": true, "te": true, "trailer": true, "transfer-encoding": true, "upgrade": true,
	"host": true, "user-agent": true,
}

// reservedPrefixes name the headers the signature scheme and the body own.
var reservedPrefixes = []string{"x-svc-", "webhook-", "content-"}

// ValidateReceiver checks r against the rules (docs/webhook-receivers.md): at most
// MaxHeaders headers with token names, not reserved, not repeated, values of printable
// characters; an OAuth2 grant with a token URL a target could have, a client id and secret.
// Values equal to Mask are refused: the caller resolves them first (KeepMasked).
func ValidateReceiver(r Receiver, allowHTTP bool) (Receiver, error) {
	if len(r.Headers) > MaxHeaders {
		return Receiver{}, kernel.Invalid("headers", "headers: at most %d", MaxHeaders)
	}
	seen := map[string]bool{}
	out := Receiver{}
	for _, h := range r.Headers {
		name := strings.TrimSpace(h.Name)
		lower := strings.ToLower(name)
		switch {
		case !isToken(name):
			return Receiver{}, kernel.Invalid("headers", "headers: %q is not a header name", name)
		case hopByHop[lower]:
			return Receiver{}, kernel.Invalid("headers", "headers: %s belongs to the connection or the sender and cannot be set", name)
		case hasReservedPrefix(lower):
			return Receiver{}, kernel.Invalid("headers", "headers: %s is reserved (X-SVC-*, webhook-* and Content-* are the signature's and the body's)", name)
		case lower == "authorization" && r.Auth != nil:
			return Receiver{}, kernel.Invalid("headers", "headers: Authorization is the OAuth2 token's on this endpoint")
		case seen[lower]:
			return Receiver{}, kernel.Invalid("headers", "headers: %s is given twice", name)
		case h.Value == Mask:
			return Receiver{}, kernel.Invalid("headers", "headers: %s has no stored value to keep", name)
		case h.Value == "" || len(h.Value) > maxHeaderValue || !isFieldValue(h.Value):
			return Receiver{}, kernel.Invalid("headers", "headers: the value of %s must be 1 to %d printable characters", name, maxHeaderValue)
		}
		seen[lower] = true
		out.Headers = append(out.Headers, Header{Name: name, Value: h.Value})
	}
	if r.Auth != nil {
		a := *r.Auth
		if err := validateOAuth2(&a, allowHTTP); err != nil {
			return Receiver{}, err
		}
		out.Auth = &a
	}
	return out, nil
}

func validateOAuth2(a *OAuth2, allowHTTP bool) error {
	u, err := ValidateURL(a.TokenURL, allowHTTP)
	if err != nil {
		return kernel.Invalid("auth.tokenUrl", "auth.tokenUrl must be an absolute https URL without credentials or fragment")
	}
	a.TokenURL = u
	a.ClientID, a.Scope = strings.TrimSpace(a.ClientID), strings.Join(strings.Fields(a.Scope), " ")
	switch {
	case a.ClientID == "" || len(a.ClientID) > 256 || !isFieldValue(a.ClientID):
		return kernel.Invalid("auth.clientId", "auth.clientId: 1 to 256 printable characters")
	case a.ClientSecret == Mask:
		return kernel.Invalid("auth.clientSecret", "auth.clientSecret: no stored secret to keep")
	case a.ClientSecret == "" || len(a.ClientSecret) > maxHeaderValue || !isFieldValue(a.ClientSecret):
		return kernel.Invalid("auth.clientSecret", "auth.clientSecret: 1 to %d printable characters", maxHeaderValue)
	case len(a.Scope) > 1024 || !isFieldValue(a.Scope+"x"):
		return kernel.Invalid("auth.scope", "auth.scope: at most 1024 printable characters")
	}
	return nil
}

// KeepMasked resolves values sent back as Mask to the stored ones of old (same header
// name; the same token URL and client id for the client secret), so that a form showing
// masked values can be submitted unchanged.
func KeepMasked(next, old Receiver) Receiver {
	stored := map[string]string{}
	for _, h := range old.Headers {
		stored[strings.ToLower(h.Name)] = h.Value
	}
	out := Receiver{Headers: make([]Header, len(next.Headers))}
	for i, h := range next.Headers {
		if v, ok := stored[strings.ToLower(strings.TrimSpace(h.Name))]; ok && h.Value == Mask {
			h.Value = v
		}
		out.Headers[i] = h
	}
	if next.Auth != nil {
		a := *next.Auth
		if a.ClientSecret == Mask && old.Auth != nil && old.Auth.TokenURL == a.TokenURL && old.Auth.ClientID == a.ClientID {
			a.ClientSecret = old.Auth.ClientSecret
		}
		out.Auth = &a
	}
	return out
}

// Masked is r as shown: header names and the grant's URL, client id and scope; every
// secret value replaced by Mask.
func (r Receiver) Masked() Receiver {
	out := Receiver{}
	for _, h := range r.Headers {
		out.Headers = append(out.Headers, Header{Name: h.Name, Value: Mask})
	}
	if r.Auth != nil {
		a := *r.Auth
		a.ClientSecret = Mask
		out.Auth = &a
	}
	return out
}

// ParseHeaderLine reads "Name: value" (the CLI's --header, the dashboard's lines).
func ParseHeaderLine(line string) (Header, error) {
	name, value, ok := strings.Cut(line, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return Header{}, kernel.Invalid("headers", "headers: a line is not 'Name: value'") // the line may hold a secret: not echoed
	}
	return Header{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)}, nil
}

func hasReservedPrefix(lower string) bool {
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// isToken: RFC 9110 token characters, 1 to 64 of them.
func isToken(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// isFieldValue: visible ASCII and spaces/tabs (no CR, LF or NUL that could split a request).
func isFieldValue(s string) bool {
	for _, c := range []byte(s) {
		if c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}
