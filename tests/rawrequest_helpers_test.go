package tests

import (
	"net"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// rawClient hands requests to an app's fasthttp handler as bytes, without the Go
// net/http client, which escapes paths and refuses control characters: the fuzzers
// and the text tests need to send what a hostile client can put on the wire.
type rawClient struct {
	handler fasthttp.RequestHandler
	bearer  string
}

// newRawClient prepares app's routes and returns a client sending bearer (empty: none).
func newRawClient(app *fiber.App, bearer string) rawClient {
	_ = app.Handler()                                               // builds the route tree once
	return rawClient{handler: app.Server().Handler, bearer: bearer} // the server's handler: its wrappers included
}

var rawRemote = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 40000}

// do sends method and the raw request URI (path and query, bytes as given) with body
// (nil: none) and contentType (empty: none).
func (c rawClient) do(method, uri string, body []byte, contentType string) testenv.Response {
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
	if body != nil {
		req.SetBody(body)
	}
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, rawRemote, nil)
	c.handler(&ctx)
	header := map[string][]string{}
	ctx.Response.Header.VisitAll(func(k, v []byte) { header[string(k)] = append(header[string(k)], string(v)) })
	return testenv.Response{Status: ctx.Response.StatusCode(), Header: header, Body: append([]byte(nil), ctx.Response.Body()...)}
}
