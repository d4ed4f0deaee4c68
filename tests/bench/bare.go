package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime/metrics"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
)

// serveBare serves the baseline in this process: a bare fiber app answering a small
// JSON object, with no middleware, database or authentication, and its heap
// allocations so far at /mallocs (not measured: read before and after a run).
func serveBare(addr string) error {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/bare", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok", "service": "bare"})
	})
	app.Get("/mallocs", func(c *fiber.Ctx) error {
		s := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}
		metrics.Read(s)
		return c.SendString("go_memstats_mallocs_total " + strconv.FormatUint(s[0].Value.Uint64(), 10) + "\n")
	})
	return app.Listen(addr)
}

// bareProcess is the baseline started the way the service is: a process of its own
// (this program, re-run with -serve-bare).
type bareProcess struct {
	cmd  *exec.Cmd
	addr string
}

func startBare() (*bareProcess, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve-bare", addr)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start bare: %w", err)
	}
	for range 200 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return &bareProcess{cmd: cmd, addr: addr}, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	return nil, fmt.Errorf("bare handler did not listen on %s", addr)
}

func (b *bareProcess) mallocs() (float64, error) {
	return scrape("http://"+b.addr+"/mallocs", "go_memstats_mallocs_total")
}

func (b *bareProcess) stop() { _ = b.cmd.Process.Kill(); _ = b.cmd.Wait() }
