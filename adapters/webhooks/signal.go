package webhooks

// Signal wakes the dispatcher: new deliveries were written, or room was freed. It is a
// hint that coalesces; the dispatcher polls as well.
type Signal struct {
	c chan struct{}
}

// NewSignal builds a signal.
func NewSignal() *Signal { return &Signal{c: make(chan struct{}, 1)} }

// Wake never blocks.
func (s *Signal) Wake() {
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// C delivers wake-ups.
func (s *Signal) C() <-chan struct{} { return s.c }
