// Package livesessions is the application service of live sessions and their recordings.
package livesessions

import (
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/application/livesessions/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
}

// Commands change state.
type Commands struct {
	ScheduleSession platform.Handler[command.ScheduleSession, query.LiveSession]
	StartSession    platform.Handler[command.StartSession, query.LiveSession]
	EndSession      platform.Handler[command.EndSession, query.LiveSession]
	AddRecording    platform.Handler[command.AddRecording, query.Recording]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction, observation, error wrapping).
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			ScheduleSession: platform.Command("schedule session", d.Tx, d.Observer, d.ScheduleSession),
			StartSession:    platform.Command("start session", d.Tx, d.Observer, d.StartSession),
			EndSession:      platform.Command("end session", d.Tx, d.Observer, d.EndSession),
			AddRecording:    platform.Command("add recording", d.Tx, d.Observer, d.AddRecording),
		},
	}
}
