package listen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// SignOptions are sign's flags.
type SignOptions struct {
	Secret, Type string
	DataFile     string // the data object; empty: the catalogue's example
	At           int64  // unix seconds of the signature and created_at; 0: now
}

// Sign prints one signed delivery of a type as an HTTP/1.1 request (request line,
// headers, blank line, body), signed as the service signs: a receiver's tests feed it to
// their handler fresh (--at now), stale (--at an hour ago) or tampered (edit the body).
func Sign(o SignOptions, sign Signer, now time.Time, out io.Writer) error {
	secret, err := domainwebhooks.ParseSecret(o.Secret)
	if err != nil {
		return errors.New("--secret must be a signing secret (whsec_ and base64)")
	}
	entry, ok := catalog.Find(o.Type)
	if !ok {
		return fmt.Errorf("--type: unknown event type %q", o.Type)
	}
	if o.DataFile != "" {
		data, err := os.ReadFile(o.DataFile)
		if err != nil {
			return fmt.Errorf("--data: %w", err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil || !bytes.HasPrefix(compact.Bytes(), []byte("{")) {
			return fmt.Errorf("--data %s: not a JSON object", o.DataFile)
		}
		entry.Data = compact.Bytes()
	}
	at := now
	if o.At != 0 {
		at = time.Unix(o.At, 0)
	}
	eventID := "evt_sign" + deliveryID(o.Type + strconv.FormatInt(at.UnixNano(), 10))[4:]
	body, err := json.Marshal(entry.Envelope(eventID, "org_example", at.Truncate(time.Second)))
	if err != nil {
		return err
	}
	h := sign(secret, Delivery{EventID: eventID, EventType: o.Type, DeliveryID: deliveryID(eventID), Body: body, At: at})
	h.Set("Content-Length", strconv.Itoa(len(body)))
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("POST / HTTP/1.1\r\nHost: localhost\r\n")
	for _, name := range names {
		for _, v := range h[name] {
			fmt.Fprintf(&b, "%s: %s\r\n", name, v)
		}
	}
	b.WriteString("\r\n")
	b.Write(body)
	b.WriteString("\n")
	_, err = out.Write(b.Bytes())
	return err
}
