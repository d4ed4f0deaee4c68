package main

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// roundRobin is a TCP proxy handing each new connection to the next backend in turn, as
// a load balancer in front of several instances would.
type roundRobin struct {
	ln       net.Listener
	backends []string
	next     atomic.Uint64
	wg       sync.WaitGroup
}

func startRoundRobin(backends ...string) (*roundRobin, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &roundRobin{ln: ln, backends: backends}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *roundRobin) addr() string { return p.ln.Addr().String() }

func (p *roundRobin) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		backend := p.backends[int(p.next.Add(1)-1)%len(p.backends)]
		go pipe(c, backend)
	}
}

func pipe(client net.Conn, backend string) {
	defer client.Close()
	server, err := net.Dial("tcp", backend)
	if err != nil {
		return
	}
	defer server.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(server, client); done <- struct{}{} }()
	go func() { _, _ = io.Copy(client, server); done <- struct{}{} }()
	<-done
}

func (p *roundRobin) stop() { _ = p.ln.Close(); p.wg.Wait() }
