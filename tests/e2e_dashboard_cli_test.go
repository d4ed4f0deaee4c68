package tests

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// With the built binary: `dashboard link` prints {url, expiresAt}; `demo` prints a
// sign-in link that works and curl commands with real ids of the seeded data.
func TestDashboardLinkVerbAndDemoLink(t *testing.T) {
	testenv.Parallel(t)
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := testenv.Binary(t)
	apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
	env := append(os.Environ(),
		"CREATORAPI_DATA_DIR="+t.TempDir(),
		"CREATORAPI_DATABASE_URL="+testenv.NewSQLiteURL(t),
		"CREATORAPI_HTTP_ADDR="+apiAddr,
		"CREATORAPI_ADMIN_ADDR="+adminAddr,
		"CREATORAPI_PUBLIC_URL=https://creators.example.com/",
	)
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, &exitError{err, stderr.String()}
		}
		return out, nil
	}
	out, err := run("workspace", "create", "--name", "Verb", "--owner-email", "owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var ws struct{ ID string }
	mustJSON(t, out, &ws)
	before := time.Now()
	if out, err = run("dashboard", "link", "--workspace", ws.ID); err != nil {
		t.Fatal(err)
	}
	var link struct {
		URL       string    `json:"url"`
		ExpiresAt time.Time `json:"expiresAt"`
	}
	mustJSON(t, out, &link)
	if !regexp.MustCompile(`^https://creators\.example\.com/dashboard/sign-in/link\?token=[A-Za-z0-9_-]{43}$`).MatchString(link.URL) {
		t.Fatalf("url %q", link.URL)
	}
	if d := link.ExpiresAt.Sub(before); d < 14*time.Minute || d > 16*time.Minute {
		t.Fatalf("expiresAt %v is not 15 minutes away", link.ExpiresAt)
	}
	if _, err := run("dashboard", "link", "--workspace", ws.ID, "--email", "stranger@example.com"); err == nil {
		t.Fatal("a link for someone who is no member was printed")
	}
	if _, err := run("dashboard", "link"); err == nil {
		t.Fatal("--workspace is required")
	}

	// demo: the printed link signs in, the printed ids exist.
	env[len(env)-1] = "CREATORAPI_PUBLIC_URL=http://" + apiAddr
	demo := exec.Command(bin, "demo")
	demo.Env = env
	var logs bytes.Buffer
	demo.Stderr = &logs
	stdout, _ := demo.StdoutPipe()
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = demo.Process.Signal(os.Interrupt); _ = demo.Wait() })
	var printed strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		printed.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "dashboard link --workspace") {
			break
		}
	}
	text := printed.String()
	waitHealthy(t, "http://"+apiAddr+"/healthz", &logs)
	signIn := regexp.MustCompile(`http://\S+/dashboard/sign-in/link\?token=\S+`).FindString(text)
	courseID := regexp.MustCompile(`/api/v1/courses/(crs_[a-z0-9]+)`).FindStringSubmatch(text)
	enrol := regexp.MustCompile(`"studentId":"(stu_[a-z0-9]+)","courseId":"(crs_[a-z0-9]+)"`).FindStringSubmatch(text)
	secret := regexp.MustCompile(`export KEY=(svc_\S+)`).FindStringSubmatch(text)
	if signIn == "" || courseID == nil || enrol == nil || secret == nil || strings.Contains(text, "COURSE_ID") || strings.Contains(text, "STUDENT_ID") {
		t.Fatalf("demo output lacks a link, real ids or the key:\n%s", text)
	}
	get := func(path string) int {
		req, _ := http.NewRequest(http.MethodGet, "http://"+apiAddr+path, nil)
		req.Header.Set("Authorization", "Bearer "+secret[1])
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := get("/api/v1/courses/" + courseID[1]); s != http.StatusOK {
		t.Fatalf("printed course: %d", s)
	}
	if s := get("/api/v1/students?limit=100"); s != http.StatusOK {
		t.Fatalf("students: %d", s)
	}
	// Open the link like a browser without JavaScript, and press "Sign in".
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	res, err := client.Get(signIn)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	_, _ = page.ReadFrom(res.Body)
	res.Body.Close()
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page.String())
	u, _ := url.Parse(signIn)
	if csrf == nil {
		t.Fatalf("link page: %s", page.String())
	}
	res, err = client.PostForm("http://"+apiAddr+"/dashboard/sign-in/link", url.Values{"csrf": {csrf[1]}, "token": {u.Query().Get("token")}})
	if err != nil {
		t.Fatal(err)
	}
	page.Reset()
	_, _ = page.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(page.String(), "<h1>Overview</h1>") {
		t.Fatalf("demo link: %d %s", res.StatusCode, page.String())
	}
}

type exitError struct {
	err    error
	stderr string
}

func (e *exitError) Error() string { return e.err.Error() + ": " + e.stderr }
