package web

import (
	"encoding/json"
	"fmt"
	"net"
	"sync"
	"time"
)

// LimitConns wraps ln so that one client address holds at most perAddress open
// connections (IPv6 addresses count per /64, what one client usually controls) and
// all clients together at most total. A connection over a cap gets 429 (per address)
// or 503 (in total) in the envelope and is closed. fasthttp's own MaxConnsPerIP is not
// used: it counts IPv4 only and lets every IPv6 client through.
func LimitConns(ln net.Listener, perAddress, total int) net.Listener {
	return &limitedListener{Listener: ln, perAddress: perAddress, total: total, open: map[string]int{}}
}

type limitedListener struct {
	net.Listener
	perAddress, total int
	mu                sync.Mutex
	open              map[string]int
	openTotal         int
}

func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr())
		l.mu.Lock()
		perAddressFull := l.perAddress > 0 && l.open[key] >= l.perAddress
		totalFull := l.total > 0 && l.openTotal >= l.total
		if !perAddressFull && !totalFull {
			l.open[key]++
			l.openTotal++
		}
		l.mu.Unlock()
		switch {
		case perAddressFull:
			go refuseConn(c, "429 Too Many Requests", CodeRateLimited,
				fmt.Sprintf("too many open connections from your address (at most %d); reuse or close some", l.perAddress))
		case totalFull:
			go refuseConn(c, "503 Service Unavailable", CodeInternal, "the server is at its connection limit; retry with exponential backoff")
		default:
			return &countedConn{Conn: c, release: func() { l.release(key) }}, nil
		}
	}
}

func (l *limitedListener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.openTotal--
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// clientKey is the address a client is counted by.
func clientKey(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return addr.String()
	}
	if ip4 := tcp.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return tcp.IP.Mask(net.CIDRMask(64, 128)).String()
}

// refuseConn answers status without reading the request, within a second, and closes.
func refuseConn(c net.Conn, status, code, message string) {
	defer c.Close()
	body, _ := json.Marshal(Envelope{Error: &Problem{Code: code, Message: message}})
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n%s: %s\r\n\r\n%s",
		status, len(body), HeaderRequestID, newRequestID(), body)
}

// countedConn gives its slot back once, however often it is closed.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
