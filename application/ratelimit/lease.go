package ratelimit

// ExactZone is how many requests at the end of each window are counted one by one in
// the shared store, with every other instance's block handed back first: below it,
// X-RateLimit-Remaining is exact (the spec tells clients to back off there).
const ExactZone = 5

// Claimed is a subject's state in the shared store as one claimant sees it, its own
// earlier block already settled: what was claimed in each window (admitted one by one,
// plus blocks granted), and how much of that is blocks other instances still hold.
type Claimed struct {
	Minute, Day             int
	MinuteLeased, DayLeased int
}

// GrantKind says what a claim gets.
type GrantKind int

// The outcomes of a claim.
const (
	// Refused: a window is full and no other instance holds a block of it.
	Refused GrantKind = iota
	// Single: one request admitted and counted at once.
	Single
	// Block: N requests leased to the claimant, counted now, used from memory.
	Block
	// WaitForBlocks: the request falls in the exact zone (or past the limit) while other
	// instances hold blocks; the claimant waits for them to come back and asks again.
	WaitForBlocks
)

// Grant decides a claim of up to want requests under q. Blocks are cut only from
// below the exact zone, and at most half of what is left there, so that they shrink to
// single requests as the window fills and another instance always finds some.
func Grant(c Claimed, q Quota, want int) (GrantKind, int) {
	n := min(want, (q.PerMinute-ExactZone-c.Minute)/2, (q.PerDay-ExactZone-c.Day)/2)
	if n >= 2 {
		return Block, n
	}
	minuteFull, dayFull := c.Minute >= q.PerMinute, c.Day >= q.PerDay
	if (minuteFull && c.MinuteLeased == 0) || (dayFull && c.DayLeased == 0) {
		return Refused, 0
	}
	// Blocks outstanding elsewhere hide how many of them were used: in the exact zone
	// they must come back before a request is counted.
	if (c.Minute+1 > q.PerMinute-ExactZone && c.MinuteLeased > 0) || (c.Day+1 > q.PerDay-ExactZone && c.DayLeased > 0) {
		return WaitForBlocks, 0
	}
	return Single, 1
}

// Known is the usage a claimant can vouch for: what was claimed less the blocks other
// instances hold (the part of them already used is unknown here). Remaining computed from
// it is never lower than the truth, and exact when no other instance holds a block.
func (c Claimed) Known() Usage {
	return Usage{Minute: c.Minute - c.MinuteLeased, Day: c.Day - c.DayLeased}
}
