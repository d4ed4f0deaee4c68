package main

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// exactAcrossInstances uses a fresh key of 30 a minute 40 times through the proxy, one
// connection per request, so that the requests alternate between the two instances,
// and checks that exactly 30 are admitted and that X-RateLimit-Remaining is exact below 5.
func exactAcrossInstances(s *service, proxyAddr string) (string, error) {
	ws, err := s.workspace()
	if err != nil {
		return "", err
	}
	key, err := s.key(ws, 30)
	if err != nil {
		return "", err
	}
	// All 40 in one clock minute.
	if now := time.Now(); now.Second() > 45 {
		time.Sleep(now.Truncate(time.Minute).Add(time.Minute).Sub(now))
	}
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	admitted, inexact := 0, 0
	start := time.Now()
	for range 40 {
		req, _ := http.NewRequest(http.MethodGet, "http://"+proxyAddr+"/api/v1/courses?limit=1", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			admitted++
		case http.StatusTooManyRequests:
		default:
			return "", fmt.Errorf("exactness check: status %d", resp.StatusCode)
		}
		remaining, _ := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
		if truth := 30 - admitted; remaining < truth || (truth < 5 && remaining != truth) {
			inexact++
		}
	}
	verdict := "exact"
	if admitted != 30 || inexact > 0 {
		verdict = "NOT EXACT"
	}
	return fmt.Sprintf("2 instances, a key of 30/min used alternately 40 times: %d admitted, %d answers with X-RateLimit-Remaining below the truth or inexact under 5; %s (%s)",
		admitted, inexact, verdict, time.Since(start).Round(time.Millisecond)), nil
}
