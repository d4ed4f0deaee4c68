package web

import (
	"bufio"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestClientKey(t *testing.T) {
	key := func(ip string) string { return clientKey(&net.TCPAddr{IP: net.ParseIP(ip), Port: 1}) }
	if key("2001:db8:1:2::1") != key("2001:db8:1:2:ffff::9") {
		t.Fatal("two addresses of one /64 counted apart")
	}
	if key("2001:db8:1:2::1") == key("2001:db8:1:3::1") {
		t.Fatal("two /64s counted together")
	}
	if key("::ffff:192.0.2.1") != key("192.0.2.1") || key("192.0.2.1") == key("192.0.2.2") {
		t.Fatal("IPv4 addresses not counted one by one")
	}
}

// fasthttp's own MaxConnsPerIP lets every IPv6 client through; LimitConns must not.
func TestLimitConnsCapsIPv6Clients(t *testing.T) {
	inner, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Fatalf("IPv6 loopback: %v", err)
	}
	ln := LimitConns(inner, 2, 100)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // admitted connections stay open until the test ends
		}
	}()
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp6", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close() // held open until the test ends
	}
	time.Sleep(50 * time.Millisecond) // both accepted and counted
	c, err := net.Dial("tcp6", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("third IPv6 connection not refused: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("third IPv6 connection: status %d, want 429", resp.StatusCode)
	}
}
