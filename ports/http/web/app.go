package web

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/valyala/fasthttp"
)

// BodyLimit is the largest request body accepted (1 MiB); a larger one is 422.
const BodyLimit = 1 << 20

// ResponseBufferSize is the write buffer of each connection: a response up to this size,
// head included, is written in one system call.
const ResponseBufferSize = 16 * 1024

// NewApp builds a fiber app with the defaults a public API needs: timeouts, a body
// limit, case-sensitive routing, a central error handler writing the envelope, panic
// recovery and request ids. Fiber's own defaults have none of these.
func NewApp(name string, logger *slog.Logger) *fiber.App {
	app := fiber.New(fiber.Config{
		AppName:               name,
		DisableStartupMessage: true,
		CaseSensitive:         true,
		StrictRouting:         false,
		BodyLimit:             BodyLimit,
		ReadTimeout:           15 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           120 * time.Second,
		ReadBufferSize:        16 * 1024,
		// A response's head and body leave in one write when they fit: with fasthttp's
		// 4 KiB default, a 25-course page (8.5 KiB) took two system calls, a third of the
		// CPU of GET /courses. Held per open connection, like the read buffer.
		WriteBufferSize: ResponseBufferSize,
		JSONEncoder:     marshalJSON,
		JSONDecoder:     json.Unmarshal,
		ErrorHandler:    ErrorHandler(logger),
		// Values handed to the application (path parameters, headers, query values) are
		// copies: fiber's zero-copy strings are rewritten by the connection's next
		// request, and anything that keeps one (a memory adapter, a cache, a goroutine)
		// would see another request's value (TestRequestValuesOutliveTheirRequest).
		Immutable: true,
	})
	server := app.Server()
	server.Handler = rejectAmbiguousFraming(rejectUnknownMethods(server.Handler))
	server.HeaderReceived = skipAmbiguousBody
	app.Use(RequestID())
	app.Use(Deadline())
	app.Use(recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, p any) {
			c.Locals(panicLoggedKey{}, true)
			logger.Error("panic in handler", append(requestAttrs(c), "method", c.Method(), "path", c.Path(),
				"panic", p, "stack", string(debug.Stack()))...)
		},
	}))
	return app
}

// panicLoggedKey marks a request whose panic was already logged with its stack.
type panicLoggedKey struct{}

// marshalJSON is json.Marshal without HTML escaping: messages quote <API_KEY> literally.
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ErrorHandler writes every error in the envelope; faults are logged, never shown.
func ErrorHandler(logger *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		p, ok := ProblemOf(err)
		if logged, _ := c.Locals(panicLoggedKey{}).(bool); !ok && !logged {
			logger.Error("request failed", append(requestAttrs(c), "method", c.Method(), "path", c.Path(), "error", err)...)
		}
		return WriteProblem(c, p)
	}
}

// requestAttrs names the request in a log line: its id, and its trace id when it has one.
func requestAttrs(c *fiber.Ctx) []any {
	attrs := []any{"request_id", RequestIDOf(c)}
	if id := TraceIDOf(c.UserContext()); id != "" {
		attrs = append(attrs, "trace_id", id)
	}
	return attrs
}

// WriteProblem sends p in the envelope.
func WriteProblem(c *fiber.Ctx, p *Problem) error {
	if p.RetryAfterSeconds != nil {
		c.Set(fiber.HeaderRetryAfter, itoa(*p.RetryAfterSeconds))
	} else if p.retryAfterHeader > 0 {
		c.Set(fiber.HeaderRetryAfter, itoa(p.retryAfterHeader))
	}
	return c.Status(p.Status).JSON(Envelope{Error: p})
}

// rejectUnknownMethods answers methods fiber does not know (including lowercase ones:
// methods are case-sensitive) in the envelope, where fiber would answer plain text.
func rejectUnknownMethods(next fasthttp.RequestHandler) fasthttp.RequestHandler {
	known := map[string]bool{}
	for _, m := range fiber.DefaultMethods {
		known[m] = true
	}
	body, _ := json.Marshal(Envelope{Error: &Problem{Code: CodeMethodNotAllowed, Message: "unsupported method; methods are case-sensitive"}})
	return func(ctx *fasthttp.RequestCtx) {
		if known[string(ctx.Method())] {
			next(ctx)
			return
		}
		ctx.Response.Header.Set(HeaderRequestID, newRequestID())
		ctx.SetContentType(fiber.MIMEApplicationJSON)
		ctx.SetStatusCode(fiber.StatusMethodNotAllowed)
		ctx.SetBody(body)
	}
}
