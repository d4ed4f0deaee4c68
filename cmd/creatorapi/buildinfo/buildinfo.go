// Package buildinfo says which build is running, from what the linker stamped or Go
// recorded.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Stamped at build time (make build, make image):
//
//	-ldflags "-X github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo.version=v1.2.3
//	          -X github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo.revision=abc123"
//
// Link-time variables are the one way to stamp a binary; nothing else writes them.
var version, revision string

// Info says which build is running: `creatorapi version` and creatorapi_build_info.
type Info struct {
	Version   string `json:"version"`
	Revision  string `json:"revision"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// Read returns the stamped version, or "dev" and the VCS revision Go recorded when the
// binary was built without stamping (go run, go build).
func Read() Info {
	b := Info{Version: version, Revision: revision, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if b.Version == "" {
		b.Version = "dev"
	}
	if b.Revision == "" {
		b.Revision = "unknown"
		if info, ok := debug.ReadBuildInfo(); ok {
			for _, s := range info.Settings {
				if s.Key == "vcs.revision" {
					b.Revision = s.Value
				}
			}
		}
	}
	return b
}
