package web

import "testing"

func TestPublicURL(t *testing.T) {
	for _, c := range []struct{ raw, addr, want string }{
		{"", ":8080", "http://localhost:8080"},
		{"", "127.0.0.1:9000", "http://localhost:9000"},
		{"https://creators.example.com/", ":8080", "https://creators.example.com"},
		{"http://10.0.0.5:8080/base", ":8080", "http://10.0.0.5:8080/base"},
	} {
		if got, err := PublicURL(c.raw, c.addr); err != nil || got != c.want {
			t.Errorf("PublicURL(%q, %q) = %q, %v; want %q", c.raw, c.addr, got, err, c.want)
		}
	}
	for _, bad := range []string{"creators.example.com", "ftp://x.example.com", "https://", "https://x.example.com/?a=1"} {
		if _, err := PublicURL(bad, ":8080"); err == nil {
			t.Errorf("PublicURL(%q) accepted", bad)
		}
	}
}
