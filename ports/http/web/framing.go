package web

import (
	"bytes"
	"encoding/json"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// skipAmbiguousBody is the server's HeaderReceived hook: when the framing is ambiguous
// it sets the body's length to zero, so that fasthttp reads no body by either reading
// (it would wait for bytes that are the next request); rejectAmbiguousFraming then
// answers from the raw headers, which keep the fault.
func skipAmbiguousBody(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	if framingFault(h.RawHeaders()) != "" {
		h.SetContentLength(0)
	}
	return fasthttp.RequestConfig{}
}

// rejectAmbiguousFraming refuses requests whose body length two parsers could read
// differently (the root of request smuggling): several Content-Length headers, or
// Content-Length with Transfer-Encoding, or a Transfer-Encoding other than one
// "chunked". fasthttp would pick one reading silently; a proxy in front may pick the
// other. The answer is 400 and the connection is closed, so that nothing left on it
// is read as a next request.
func rejectAmbiguousFraming(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	return func(ctx *fasthttp.RequestCtx) {
		if msg := framingFault(ctx.Request.Header.RawHeaders()); msg != "" {
			body, _ := json.Marshal(Envelope{Error: &Problem{Code: CodeInvalidRequest, Param: "headers", Message: msg}})
			ctx.Response.Header.Set(HeaderRequestID, newRequestID())
			ctx.SetConnectionClose()
			ctx.SetContentType(fiber.MIMEApplicationJSON)
			ctx.SetStatusCode(fiber.StatusBadRequest)
			ctx.SetBody(body)
			return
		}
		next(ctx)
	}
}

// framingFault reads the raw header block (as received, duplicates kept) and says what
// makes the body's framing ambiguous, or "".
func framingFault(raw []byte) string {
	var lengths, encodings int
	var encoding []byte
	for rest := raw; len(rest) > 0; { // line by line, without allocating a slice of lines
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(bytes.TrimSpace(name), []byte(fiber.HeaderContentLength)):
			lengths++
		case bytes.EqualFold(bytes.TrimSpace(name), []byte(fiber.HeaderTransferEncoding)):
			encodings++
			encoding = value
		}
	}
	switch {
	case lengths > 1:
		return "more than one Content-Length header"
	case lengths > 0 && encodings > 0:
		return "Content-Length and Transfer-Encoding together"
	case encodings > 1:
		return "more than one Transfer-Encoding header"
	case encodings == 1 && !bytes.EqualFold(encoding, []byte("chunked")):
		return "Transfer-Encoding must be chunked"
	}
	return ""
}
