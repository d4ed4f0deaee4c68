// Package livesessions is the application service of live sessions and their recordings.
package livesessions

import "github.com/creatorapi/creatorapi/application/livesessions/command"

// Application groups the module's use cases.
type Application struct {
	Commands Commands
}

// Commands change state.
type Commands struct {
	ScheduleSession command.ScheduleSessionHandler
	StartSession    command.StartSessionHandler
	EndSession      command.EndSessionHandler
	AddRecording    command.AddRecordingHandler
}

// New wires the use cases to their ports.
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			ScheduleSession: command.NewScheduleSessionHandler(d),
			StartSession:    command.NewStartSessionHandler(d),
			EndSession:      command.NewEndSessionHandler(d),
			AddRecording:    command.NewAddRecordingHandler(d),
		},
	}
}
