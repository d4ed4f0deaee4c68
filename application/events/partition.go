package events

import "hash/fnv"

// PartitionKey is the FNV-1a 32-bit hash of a workspace id: the outbox stores it with every
// event (watermill_events.partition_key), so that any partition count can be applied to
// events already written (partition = key mod count).
func PartitionKey(workspaceID string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(workspaceID))
	return h.Sum32()
}

// PartitionOf returns the partition, in [0, count), of a workspace's events: FNV-1a 32 of
// the workspace id modulo count. One workspace's events all fall in one partition, which
// one instance consumes at a time per consumer group, so they keep their order for every
// consumer. count < 1 counts as 1.
func PartitionOf(workspaceID string, count int) int {
	if count <= 1 {
		return 0
	}
	return int(PartitionKey(workspaceID) % uint32(count))
}
