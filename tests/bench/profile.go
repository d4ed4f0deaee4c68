package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// profiler captures, during a target's measured run, a CPU profile and the allocations
// made in it (the allocs profile as a delta) from the service's /debug/pprof on the
// operator listener (CREATORAPI_PPROF=true), into dir as NAME.cpu.pprof and
// NAME.allocs.pprof: `go tool pprof -top -cum FILE`.
type profiler struct {
	dir string
}

// during starts both captures for about d on the operator listener opAddr and returns
// a function that waits for them and reports the first failure.
func (p profiler) during(name, opAddr string, d time.Duration) func() error {
	seconds := max(int((d-time.Second)/time.Second), 1)
	base := strings.NewReplacer(" ", "-", ",", "", "(", "", ")", "").Replace(name)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, kind := range []string{"profile", "allocs"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			file := filepath.Join(p.dir, base+map[string]string{"profile": ".cpu.pprof", "allocs": ".allocs.pprof"}[kind])
			errs[i] = fetchProfile(fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", opAddr, kind, seconds), file)
		}()
	}
	return func() error {
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
}

func fetchProfile(url, file string) error {
	req, err := http.NewRequest(http.MethodGet, url, http.NoBody)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("profile %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("profile %s: %s: %s", url, resp.Status, body)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return fmt.Errorf("profile %s: %w", url, err)
	}
	return f.Close()
}
