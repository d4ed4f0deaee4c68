package testenv

// WithRepeatedHeader returns a client that sends name once per value (two
// Authorization headers, say), after its own bearer token is replaced by them.
func (c Client) WithRepeatedHeader(name string, values ...string) Client {
	c = c.WithHeader(name, values[0])
	c.header[name] = append([]string(nil), values...)
	return c
}
