package testenv

import (
	"net"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// RawClient hands requests to an app's fasthttp handler as bytes, without the Go
// net/http client, which escapes paths and refuses control characters: the fuzzers
// and the text tests need to send what a hostile client can put on the wire.
type RawClient struct {
	handler fasthttp.RequestHandler
	bearer  string
}

// NewRawClient prepares app's routes and returns a client sending bearer (empty: none).
func NewRawClient(app *fiber.App, bearer string) RawClient {
	_ = app.Handler()                                               // builds the route tree once
	return RawClient{handler: app.Server().Handler, bearer: bearer} // the server's handler: its wrappers included
}

// Do sends method and the raw request URI (path and query, bytes as given) with body
// (nil: none), contentType (empty: none) and header's name and value pairs.
func (c RawClient) Do(method, uri string, body []byte, contentType string, header ...string) Response {
	var req fasthttp.Request
	req.Header.SetMethod(method)
	req.SetRequestURI(uri)
	req.Header.DisableNormalizing()
	if contentType != "" {
		req.Header.SetContentType(contentType)
	}
	if c.bearer != "" {
		req.Header.Set(fiber.HeaderAuthorization, "Bearer "+c.bearer)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if body != nil {
		req.SetBody(body)
	}
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}, nil)
	c.handler(&ctx)
	got := map[string][]string{}
	ctx.Response.Header.VisitAll(func(k, v []byte) { got[string(k)] = append(got[string(k)], string(v)) })
	return Response{Status: ctx.Response.StatusCode(), Header: got, Body: append([]byte(nil), ctx.Response.Body()...)}
}
