package events

import "testing"

func TestPartitionOfIsFNV1aModCount(t *testing.T) {
	// FNV-1a 32 of "" is the offset basis 2166136261; of "a" it is 0xe40c292c.
	if got := PartitionKey(""); got != 2166136261 {
		t.Fatalf("PartitionKey(\"\") = %d", got)
	}
	if got := PartitionKey("a"); got != 0xe40c292c {
		t.Fatalf("PartitionKey(\"a\") = %#x", got)
	}
	if got, want := PartitionOf("a", 8), int(uint32(0xe40c292c)%8); got != want {
		t.Fatalf("PartitionOf(a, 8) = %d, want %d", got, want)
	}
	for _, n := range []int{0, 1, -3} {
		if got := PartitionOf("ws_x", n); got != 0 {
			t.Fatalf("PartitionOf(ws_x, %d) = %d, want 0", n, got)
		}
	}
	seen := map[int]int{}
	for i := range 800 {
		p := PartitionOf("ws_"+string(rune('a'+i%26))+string(rune('a'+i/26)), 8)
		if p < 0 || p >= 8 {
			t.Fatalf("partition %d out of range", p)
		}
		seen[p]++
	}
	if len(seen) != 8 {
		t.Fatalf("800 workspaces fell in %d of 8 partitions: %v", len(seen), seen)
	}
}
