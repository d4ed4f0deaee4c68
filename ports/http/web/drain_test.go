package web

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// A connection that never sent a request does not hold the stop until fasthttp's read
// timeout; a request in flight still finishes.
func TestStopClosesConnectionsThatSentNothing(t *testing.T) {
	app := fiber.New(fiber.Config{ReadTimeout: 15 * time.Second, DisableStartupMessage: true})
	release := make(chan struct{})
	app.Get("/slow", func(c *fiber.Ctx) error { <-release; return c.SendString("done") })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newDrainListener(l)
	go func() { _ = app.Listener(ln) }()

	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	busy, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	if _, err := busy.Write([]byte("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	stopped := make(chan error, 1)
	start := time.Now()
	go func() { stopped <- ln.shutdown(ctx, app) }()
	time.Sleep(200 * time.Millisecond)
	close(release) // the request in flight finishes during the stop
	buf := make([]byte, 512)
	n, _ := busy.Read(buf)
	if got := string(buf[:n]); len(got) < 12 || got[:12] != "HTTP/1.1 200" {
		t.Fatalf("in-flight request answered %q", got)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stop took %s: the silent connection held it", d)
	}
}

// A connection accepted a moment before the stop whose request the server has not read
// yet is not closed under it: the request is answered.
func TestStopAnswersARequestOnAConnectionJustAccepted(t *testing.T) {
	app := fiber.New(fiber.Config{ReadTimeout: 15 * time.Second, DisableStartupMessage: true})
	app.Get("/", func(c *fiber.Ctx) error { return c.SendString("done") })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newDrainListener(l)
	go func() { _ = app.Listener(ln) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	// The stop's first sweep, as if it came before fasthttp read the request.
	deadline := time.Now().Add(2 * time.Second)
	for {
		ln.mu.Lock()
		n := len(ln.unused)
		ln.mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	ln.closeUnused()
	buf := make([]byte, 512)
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, err := conn.Read(buf)
	if got := string(buf[:n]); len(got) < 12 || got[:12] != "HTTP/1.1 200" {
		t.Fatalf("request on a just-accepted connection: %q, %v", got, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ln.shutdown(ctx, app); err != nil {
		t.Fatal(err)
	}
}
