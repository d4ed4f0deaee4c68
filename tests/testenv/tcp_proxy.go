package testenv

import (
	"io"
	"net"
	"sync"
	"testing"
)

// TCPProxy forwards connections from a loopback port to a target (Redis, PostgreSQL),
// so that a test can take the target away without stopping the machine's server: Cut
// closes every open connection and closes new ones at once (the client sees the
// connection reset, as when the server dies), Restore forwards again.
type TCPProxy struct {
	Addr   string // host:port to dial instead of the target
	target string
	ln     net.Listener

	mu        sync.Mutex
	cut       bool
	blackhole bool
	conns     map[net.Conn]struct{}
}

// NewTCPProxy listens on a free loopback port; closed at cleanup.
func NewTCPProxy(t testing.TB, target string) *TCPProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("proxy listen: %v", err)
	}
	p := &TCPProxy{Addr: ln.Addr().String(), target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	go p.accept()
	t.Cleanup(func() {
		ln.Close()
		p.Cut()
	})
	return p
}

// Cut drops every connection and refuses new ones until Restore.
func (p *TCPProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Blackhole stops forwarding in both directions on open connections and holds new ones
// unanswered, as a server behind a network partition looks: nothing is closed, only the
// client's own timeouts end its wait.
func (p *TCPProxy) Blackhole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.blackhole = true
}

// Restore forwards new connections again (and closes the held ones).
func (p *TCPProxy) Restore() {
	p.Cut()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut, p.blackhole = false, false
}

func (p *TCPProxy) accept() {
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		go p.forward(client)
	}
}

func (p *TCPProxy) forward(client net.Conn) {
	if p.hold(client) {
		return
	}
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(client, server) {
		client.Close()
		server.Close()
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 && !p.silent() {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		done <- struct{}{}
	}
	go pipe(server, client)
	go pipe(client, server)
	<-done
	client.Close()
	server.Close()
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}

func (p *TCPProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut {
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// hold keeps a blackholed connection open, reading and discarding, until Cut or Restore
// closes it.
func (p *TCPProxy) hold(client net.Conn) bool {
	p.mu.Lock()
	if !p.blackhole {
		p.mu.Unlock()
		return false
	}
	p.conns[client] = struct{}{}
	p.mu.Unlock()
	_, _ = io.Copy(io.Discard, client)
	client.Close()
	return true
}

func (p *TCPProxy) silent() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.blackhole
}
