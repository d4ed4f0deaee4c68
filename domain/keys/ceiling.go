package keys

import "github.com/creatorapi/creatorapi/domain/kernel"

// MaxActivePerWorkspace is the ceiling of a workspace's active keys. Every key has its
// own quota, so keys without end would multiply the workspace's allowance; 50 leaves
// room for one key per integration and rotation overlaps. Revoked keys do not count.
const MaxActivePerWorkspace = 50

// RoomForAnother refuses a new key when the workspace's active keys are at the ceiling.
func RoomForAnother(existing []*Key) error {
	active := 0
	for _, k := range existing {
		if k.Active() {
			active++
		}
	}
	if active >= MaxActivePerWorkspace {
		return kernel.Invalid("keys", "this workspace has %d active API keys, the most it may have: revoke one before creating another", active)
	}
	return nil
}
