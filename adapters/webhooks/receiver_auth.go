package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// ReceiverSource reads an endpoint's receiver (adapters/sql/webhooks.Receivers).
type ReceiverSource interface {
	Receiver(ctx context.Context, workspaceID, id string) (webhooks.Receiver, error)
}

// receiverTTL is how long an endpoint's receiver is kept in memory: a change reaches
// every instance's attempts within it.
const receiverTTL = time.Second

// ReceiverAuth adds what an endpoint's receiver asks for to each attempt: its static
// headers, and an OAuth2 client-credentials token, fetched through the sender's guarded
// client (the SSRF guard, no redirects, no proxy), cached per endpoint until it expires
// and shared by every attempt of the process.
type ReceiverAuth struct {
	src    ReceiverSource
	client *http.Client
	now    func() time.Time

	mu        sync.Mutex
	receivers map[string]cachedReceiver
	tokens    map[string]*endpointToken
}

type cachedReceiver struct {
	rcv webhooks.Receiver
	at  time.Time
}

// endpointToken is one endpoint's token; mu makes concurrent attempts wait for one fetch.
type endpointToken struct {
	mu    sync.Mutex
	grant webhooks.OAuth2
	token *oauth2.Token
}

// NewReceiverAuth builds the authenticator over the sender's client.
func NewReceiverAuth(src ReceiverSource, sender *Sender) *ReceiverAuth {
	return &ReceiverAuth{src: src, client: sender.client, now: time.Now,
		receivers: map[string]cachedReceiver{}, tokens: map[string]*endpointToken{}}
}

func (a *ReceiverAuth) receiver(ctx context.Context, ep *webhooks.Subscription) (webhooks.Receiver, error) {
	a.mu.Lock()
	c, ok := a.receivers[ep.ID]
	a.mu.Unlock()
	if ok && a.now().Sub(c.at) < receiverTTL {
		return c.rcv, nil
	}
	rcv, err := a.src.Receiver(ctx, ep.WorkspaceID, ep.ID)
	if err != nil {
		return webhooks.Receiver{}, err
	}
	a.mu.Lock()
	a.receivers[ep.ID] = cachedReceiver{rcv: rcv, at: a.now()}
	a.mu.Unlock()
	return rcv, nil
}

// apply adds the endpoint's headers and bearer token to m; a failure is the attempt's
// result (ok false): nothing is sent.
func (a *ReceiverAuth) apply(ctx context.Context, ep *webhooks.Subscription, m *Message) (webhooks.Result, bool) {
	rcv, err := a.receiver(ctx, ep)
	if err != nil {
		return webhooks.Result{Transport: webhooks.TransportNetwork,
			Error: "receiver headers and credentials cannot be read: " + withoutAddresses(err.Error())}, false
	}
	if rcv.Empty() {
		return webhooks.Result{}, true
	}
	m.Extra = http.Header{}
	for _, h := range rcv.Headers {
		m.Extra.Set(h.Name, h.Value)
	}
	if rcv.Auth != nil {
		token, res, ok := a.token(ctx, ep.ID, *rcv.Auth)
		if !ok {
			return res, false
		}
		m.Extra.Set("Authorization", "Bearer "+token)
	}
	return webhooks.Result{}, true
}

// token returns the endpoint's cached token, fetching one when there is none, it expires
// within 10 s (oauth2's margin) or the grant changed.
func (a *ReceiverAuth) token(ctx context.Context, endpointID string, grant webhooks.OAuth2) (string, webhooks.Result, bool) {
	a.mu.Lock()
	t, ok := a.tokens[endpointID]
	if !ok {
		t = &endpointToken{}
		a.tokens[endpointID] = t
	}
	a.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.grant != grant {
		t.grant, t.token = grant, nil
	}
	if t.token.Valid() {
		return t.token.AccessToken, webhooks.Result{}, true
	}
	cfg := clientcredentials.Config{ClientID: grant.ClientID, ClientSecret: grant.ClientSecret, TokenURL: grant.TokenURL,
		Scopes: strings.Fields(grant.Scope)}
	token, err := cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, a.client))
	if err != nil {
		return "", tokenFailure(err), false
	}
	t.token = token
	return token.AccessToken, webhooks.Result{}, true
}

// sent forgets the endpoint's token when the receiver refused it (401): the next attempt
// fetches a new one.
func (a *ReceiverAuth) sent(endpointID string, res webhooks.Result) {
	if res.StatusCode != http.StatusUnauthorized {
		return
	}
	a.mu.Lock()
	t := a.tokens[endpointID]
	a.mu.Unlock()
	if t != nil {
		t.mu.Lock()
		t.token = nil
		t.mu.Unlock()
	}
}

// tokenFailure is a token fetch that failed: retried on the schedule like a receiver's
// 5xx, unless the guard refused the token URL (never retried, as for a target). The text
// names the token endpoint's answer (status and OAuth2 error code), never its body or an
// address.
func tokenFailure(err error) webhooks.Result {
	var re *oauth2.RetrieveError
	switch {
	case errors.Is(err, ErrRefusedAddress):
		return webhooks.Result{Transport: webhooks.TransportRefused, Error: "OAuth2 token URL refused: " + refusedReason(err)}
	case errors.As(err, &re) && re.Response != nil:
		msg := fmt.Sprintf("OAuth2 token endpoint answered %d", re.Response.StatusCode)
		if re.ErrorCode != "" {
			msg += " (" + printable(re.ErrorCode) + ")"
		}
		return webhooks.Result{Transport: webhooks.TransportNetwork, Error: msg}
	case errors.Is(err, context.DeadlineExceeded):
		return webhooks.Result{Transport: webhooks.TransportTimeout, Error: "OAuth2 token endpoint: timeout"}
	default:
		return webhooks.Result{Transport: webhooks.TransportNetwork, Error: "OAuth2 token endpoint: " + networkError(err)}
	}
}
