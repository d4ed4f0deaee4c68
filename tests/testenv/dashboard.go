package testenv

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// Person drives the dashboard through the public fiber app like a browser without
// JavaScript: it keeps cookies and repeats the CSRF token of the last page.
type Person struct {
	env     *Env
	cookies map[string]string
	Last    Response
}

// Person returns a fresh visitor with no cookies.
func (e *Env) Person() *Person { return &Person{env: e, cookies: map[string]string{}} }

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// CSRF is the token of the last page shown ("" when it had none).
func (p *Person) CSRF() string {
	m := csrfField.FindSubmatch(p.Last.Body)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// Cookie returns the value the visitor holds for name.
func (p *Person) Cookie(name string) string { return p.cookies[name] }

// Get fetches path without following redirects.
func (p *Person) Get(t testing.TB, path string) Response {
	t.Helper()
	return p.do(t, httptest.NewRequest(http.MethodGet, path, nil))
}

// Post submits form to path; csrf is added from the last page unless form has one.
func (p *Person) Post(t testing.TB, path string, form url.Values) Response {
	t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", p.CSRF())
	}
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return p.do(t, req)
}

func (p *Person) do(t testing.TB, req *http.Request) Response {
	t.Helper()
	names := make([]string, 0, len(p.cookies))
	for n := range p.cookies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		req.AddCookie(&http.Cookie{Name: n, Value: p.cookies[n]})
	}
	res, err := p.env.Public.Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, c := range res.Cookies() {
		if c.Value == "" || c.MaxAge < 0 {
			delete(p.cookies, c.Name)
		} else {
			p.cookies[c.Name] = c.Value
		}
	}
	r := Response{Status: res.StatusCode, Header: res.Header, Body: body}
	if res.StatusCode < 300 || res.StatusCode >= 400 {
		p.Last = r
	}
	return r
}

// SignIn opens a sign-in link's page and presses "Sign in".
func (p *Person) SignIn(t testing.TB, link string) Response {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	p.Get(t, u.RequestURI()).Expect(t, http.StatusOK)
	return p.Post(t, "/dashboard/sign-in/link", url.Values{"token": {u.Query().Get("token")}})
}

var mailLink = regexp.MustCompile(`https?://\S+/dashboard/sign-in/link\?token=[A-Za-z0-9_-]+`)

// MailedLinks returns the sign-in links written to the data folder's mail (the
// fallback without SMTP) for to, oldest first, once the sign-in page's queued
// requests are answered (as the mailer worker does every second).
func (e *Env) MailedLinks(t testing.TB, to string) []string {
	t.Helper()
	for {
		n, err := e.members.Commands.SendLinks.Handle(context.Background(), struct{}{})
		if err != nil {
			t.Fatalf("send sign-in links: %v", err)
		}
		if n == 0 {
			break
		}
	}
	return MailedLinksIn(t, e.Config.DataDir, to)
}

// WaitMailedLinks waits (up to 10 s) until at least n links were mailed to to by a
// service running apart (its mailer answers the sign-in page within a second).
func WaitMailedLinks(t testing.TB, dataDir, to string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		links := MailedLinksIn(t, dataDir, to)
		if len(links) >= n || time.Now().After(deadline) {
			return links
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// MailedLinksIn reads the sign-in links mailed to to from dataDir's mail folder.
func MailedLinksIn(t testing.TB, dataDir, to string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dataDir, "mail", "*.eml"))
	sort.Strings(files) // ids sort by time
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "To: "+to+"\r\n") {
			out = append(out, mailLink.FindAllString(string(b), -1)...)
		}
	}
	return out
}
