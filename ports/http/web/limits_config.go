package web

import (
	"fmt"
	"strconv"
	"time"
)

// LoadLimits reads the listeners' resource bounds (CREATORAPI_HTTP_*); every one
// has a safe default (DefaultLimits).
func LoadLimits(get func(name, def string) string) (Limits, error) {
	l := DefaultLimits()
	ints := []struct {
		name string
		dst  *int
	}{
		{"CREATORAPI_HTTP_MAX_CONNS_PER_IP", &l.MaxConnsPerIP},
		{"CREATORAPI_HTTP_MAX_CONNS", &l.MaxConns},
		{"CREATORAPI_HTTP_MAX_HEADER_BYTES", &l.MaxHeaderBytes},
	}
	for _, v := range ints {
		n, err := strconv.Atoi(get(v.name, strconv.Itoa(*v.dst)))
		if err != nil || n < 1 {
			return l, fmt.Errorf("%s must be a positive integer", v.name)
		}
		*v.dst = n
	}
	if l.MaxHeaderBytes < 4096 {
		return l, fmt.Errorf("CREATORAPI_HTTP_MAX_HEADER_BYTES must be at least 4096")
	}
	durations := []struct {
		name string
		dst  *time.Duration
	}{
		{"CREATORAPI_HTTP_IDLE_TIMEOUT", &l.IdleTimeout},
		{"CREATORAPI_HTTP_READ_TIMEOUT", &l.ReadTimeout},
	}
	for _, v := range durations {
		d, err := time.ParseDuration(get(v.name, v.dst.String()))
		if err != nil || d <= 0 {
			return l, fmt.Errorf("%s must be a positive duration such as 60s", v.name)
		}
		*v.dst = d
	}
	return l, nil
}
