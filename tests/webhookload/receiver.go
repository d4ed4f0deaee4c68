package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// receiver verifies every delivery's X-SVC-Signature from the raw bytes, dedupes on the
// event id and notes, per producing request (its seq), when its webhook first arrived
// and how long after the request was sent.
type receiver struct {
	secrets map[string]string // endpoint path -> signing secret

	mu        sync.Mutex
	seen      map[string]bool // event ids
	arrivals  map[int64]arrival
	bad       int
	dups      int // deliveries of an event id seen before
	requests  int
	lastAtAll time.Time
}

type arrival struct {
	at      time.Time
	latency time.Duration
	sent    time.Time // the request's send time (its metadata)
	eventID string
}

func newReceiver() *receiver {
	return &receiver{seen: map[string]bool{}, arrivals: map[int64]arrival{}}
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	now := time.Now()
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	if !verify(r.secrets[req.URL.Path], req.Header.Get("X-SVC-Signature"), body) {
		r.bad++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var env struct {
		ID   string `json:"id"`
		Data struct {
			Metadata map[string]string `json:"metadata"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &env) != nil {
		r.bad++
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusNoContent)
	if r.seen[env.ID] {
		r.dups++
		return
	}
	r.seen[env.ID] = true
	seq, err1 := strconv.ParseInt(env.Data.Metadata["seq"], 10, 64)
	sent, err2 := strconv.ParseInt(env.Data.Metadata["sentAt"], 10, 64)
	if err1 != nil || err2 != nil {
		return // not one of ours (the template event of the aged load)
	}
	r.arrivals[seq] = arrival{at: now, latency: now.Sub(time.Unix(0, sent)), sent: time.Unix(0, sent), eventID: env.ID}
	r.lastAtAll = now
}

// verify checks t=<unix>,v1=<hex> (one or more v1) against HMAC-SHA256("t.body").
func verify(secret, header string, body []byte) bool {
	var t string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			t = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if t == "" {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, s := range sigs {
		got, err := hex.DecodeString(s)
		if err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

// collect returns the arrivals of seqs [from, to) seen so far.
func (r *receiver) collect(from, to int64) []arrival {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]arrival, 0, to-from)
	for s := from; s < to; s++ {
		if a, ok := r.arrivals[s]; ok {
			out = append(out, a)
		}
	}
	return out
}

// collectBySeq returns the arrivals of seqs [from, to) seen so far, by seq.
func (r *receiver) collectBySeq(from, to int64) map[int64]arrival {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[int64]arrival, to-from)
	for s := from; s < to; s++ {
		if a, ok := r.arrivals[s]; ok {
			out[s] = a
		}
	}
	return out
}

func (r *receiver) dupCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dups
}

func (r *receiver) badCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bad
}
