package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The master key's port to the webhooks module (SealedSecrets) behaves alike on SQLite
// and PostgreSQL.
func TestContractWebhookSealedSecrets(t *testing.T) {
	testenv.Contract(t, testenv.SealedSecretAdapters, contracttest.WebhookSealedSecrets)
}
