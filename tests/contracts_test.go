package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Every module's ports meet one contract each, with identical expectations on SQLite and
// PostgreSQL (adapters/contracttest; testenv.Contract runs a suite on both databases with
// the module's factory).

func TestContractWorkspaces(t *testing.T) {
	testenv.Contract(t, testenv.WorkspaceAdapters, contracttest.Workspaces)
}

func TestContractCourseRepository(t *testing.T) {
	testenv.Contract(t, testenv.CourseAdapters, contracttest.CourseRepository)
}

func TestContractCourseReadModel(t *testing.T) {
	testenv.Contract(t, testenv.CourseAdapters, contracttest.CourseReadModel)
}

func TestContractCourseCatalog(t *testing.T) {
	testenv.Contract(t, testenv.CourseAdapters, contracttest.CourseCatalog)
}

func TestContractEnrollmentRepository(t *testing.T) {
	testenv.Contract(t, testenv.EnrollmentAdapters, contracttest.EnrollmentRepository)
}

func TestContractEnrollmentProgress(t *testing.T) {
	testenv.Contract(t, testenv.EnrollmentAdapters, contracttest.EnrollmentProgress)
}

func TestContractEnrollmentReads(t *testing.T) {
	testenv.Contract(t, testenv.EnrollmentAdapters, contracttest.EnrollmentReads)
}

func TestContractLiveSessionRepository(t *testing.T) {
	testenv.Contract(t, testenv.LiveSessionAdapters, contracttest.LiveSessionRepository)
}

func TestContractLiveSessionRecordings(t *testing.T) {
	testenv.Contract(t, testenv.LiveSessionAdapters, contracttest.LiveSessionRecordings)
}

func TestContractCertificateStore(t *testing.T) {
	testenv.Contract(t, testenv.CertificateAdapters, contracttest.CertificateStore)
}

func TestContractKeyRepository(t *testing.T) {
	testenv.Contract(t, testenv.KeyAdapters, contracttest.KeyRepository)
}

func TestContractKeyUsage(t *testing.T) {
	testenv.Contract(t, testenv.KeyAdapters, contracttest.KeyUsage)
}

func TestContractMemberRows(t *testing.T) {
	testenv.Contract(t, testenv.MemberAdapters, contracttest.MemberRows)
}

func TestContractSignInState(t *testing.T) {
	testenv.Contract(t, testenv.MemberAdapters, contracttest.SignInState)
}

func TestContractAuditLog(t *testing.T) {
	testenv.Contract(t, testenv.AuditAdapters, contracttest.Audit)
}

func TestContractWebhookSubscriptions(t *testing.T) {
	testenv.Contract(t, testenv.WebhookAdapters, contracttest.WebhookSubscriptions)
}

func TestContractWebhookDeliveries(t *testing.T) {
	testenv.Contract(t, testenv.WebhookAdapters, contracttest.WebhookDeliveries)
}

func TestContractWebhookDeliveryLog(t *testing.T) {
	testenv.Contract(t, testenv.WebhookAdapters, contracttest.WebhookDeliveryLog)
}

func TestContractWebhookDispatch(t *testing.T) {
	testenv.Contract(t, testenv.WebhookAdapters, contracttest.WebhookDispatch)
}

func TestContractWebhookNotices(t *testing.T) {
	testenv.Contract(t, testenv.WebhookAdapters, contracttest.WebhookNotices)
}

func TestContractWebhookRetention(t *testing.T) {
	testenv.Contract(t, testenv.WebhookAdapters, contracttest.WebhookRetention)
}

func TestContractAnalyticsProjection(t *testing.T) {
	testenv.Contract(t, testenv.AnalyticsAdapters, contracttest.AnalyticsProjection)
}

func TestContractAnalyticsSummary(t *testing.T) {
	testenv.Contract(t, testenv.AnalyticsAdapters, contracttest.AnalyticsSummary)
}

func TestContractAnalyticsDaily(t *testing.T) {
	testenv.Contract(t, testenv.AnalyticsAdapters, contracttest.AnalyticsDaily)
}

func TestContractIdempotencyStore(t *testing.T) {
	testenv.Contract(t, testenv.IdempotencyAdapters, contracttest.IdempotencyStore)
}
