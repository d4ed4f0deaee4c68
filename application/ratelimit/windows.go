package ratelimit

import "time"

// WindowsAt returns the windows that hold instant now: the minute resets at second 0,
// the day at 00:00 UTC.
func WindowsAt(now time.Time) Windows {
	now = now.UTC()
	return Windows{
		Minute: now.Truncate(time.Minute),
		Day:    time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC),
	}
}

// MinuteReset is when the minute window ends.
func (w Windows) MinuteReset() time.Time { return w.Minute.Add(time.Minute) }

// DayReset is when the day window ends.
func (w Windows) DayReset() time.Time { return w.Day.AddDate(0, 0, 1) }
