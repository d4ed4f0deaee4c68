// Command feedbench measures the events feed from the built binary on PostgreSQL: GET
// /api/v1/events?limit=100 (a full page of 100 envelopes) under open-loop load at rising
// rates, with the healthz floor at the same rates (docs/performance.md, "The events feed").
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/tests/benchkit"
)

func main() {
	bin := flag.String("bin", "", "the built binary (go build -o /tmp/creatorapi ./cmd/creatorapi)")
	rates := flag.String("rates", "100,200,400,800", "requests per second, one phase each")
	phase := flag.Duration("phase", 5*time.Second, "length of a phase")
	events := flag.Int("events", 300, "events written before measuring")
	flag.Parse()
	dsn, drop, err := benchkit.FreshSchema(os.Getenv("CREATORAPI_TEST_POSTGRES_URL"))
	if err != nil {
		log.Fatal(err)
	}
	defer drop()
	addr, admin := freeAddr(), freeAddr()
	env := append(os.Environ(), "CREATORAPI_DATA_DIR="+os.TempDir()+"/feedbench", "CREATORAPI_DATABASE_URL="+dsn,
		"CREATORAPI_HTTP_ADDR="+addr, "CREATORAPI_ADMIN_ADDR="+admin, "CREATORAPI_ADMIN_TOKEN=feedbench-token-0123456789abcdef01", "CREATORAPI_LOG_LEVEL=error")
	run := func(args ...string) []byte {
		cmd := exec.Command(*bin, args...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			log.Fatalf("%v: %v", args, err)
		}
		return out
	}
	var ws, key struct{ ID, Secret string }
	must(json.Unmarshal(run("workspace", "create", "--name", "Bench", "--owner-email", "o@example.com"), &ws))
	must(json.Unmarshal(run("key", "create", "--workspace", ws.ID, "--name", "b", "--scopes", "read:events,write:students", "--per-minute", "1000000000", "--per-day", "1000000000"), &key))
	server := exec.Command(*bin, "serve")
	server.Env = env
	must(server.Start())
	defer func() { _ = server.Process.Signal(os.Interrupt); _ = server.Wait() }()
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/readyz"); err == nil && resp.StatusCode == 200 {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			must(fmt.Errorf("the service at %s is not ready after 30 s", base))
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 60, MaxConnsPerHost: 60}} // the listener allows 64 per address
	do := func(method, path, body string) (int, time.Duration) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key.Secret)
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, time.Since(start)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, time.Since(start)
	}
	for i := range *events {
		if s, _ := do(http.MethodPost, "/api/v1/students", fmt.Sprintf(`{"email":"b%d@example.com"}`, i)); s != 201 {
			log.Fatalf("create student: %d", s)
		}
	}
	time.Sleep(2 * time.Second)
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/events?limit=100", nil)
	req.Header.Set("Authorization", "Bearer "+key.Secret)
	resp, err := client.Do(req)
	must(err)
	var page struct{ Data []json.RawMessage }
	raw, _ := io.ReadAll(resp.Body)
	must(json.NewDecoder(bytes.NewReader(raw)).Decode(&page))
	fmt.Printf("page: %d events, %d bytes\n", len(page.Data), len(raw))
	fmt.Println("path                      rate/s  done/s   ok%   p50      p99")
	for _, r := range strings.Split(*rates, ",") {
		var rate int
		fmt.Sscan(r, &rate)
		for _, path := range []string{"/healthz", "/api/v1/events?limit=100"} {
			var mu sync.Mutex
			var lat []time.Duration
			ok := 0
			var wg sync.WaitGroup
			tick := time.NewTicker(time.Second / time.Duration(rate))
			end := time.Now().Add(*phase)
			start := time.Now()
			for time.Now().Before(end) {
				<-tick.C
				wg.Add(1)
				go func() {
					defer wg.Done()
					s, d := do(http.MethodGet, path, "")
					mu.Lock()
					lat = append(lat, d)
					if s == 200 {
						ok++
					}
					mu.Unlock()
				}()
			}
			tick.Stop()
			wg.Wait()
			el := time.Since(start).Seconds()
			fmt.Printf("%-25s %6d %7.0f %5.1f %8v %8v\n", path, rate, float64(ok)/el, 100*float64(ok)/float64(len(lat)),
				benchkit.Percentile(lat, 50), benchkit.Percentile(lat, 99))
		}
	}
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	defer l.Close()
	return l.Addr().String()
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
