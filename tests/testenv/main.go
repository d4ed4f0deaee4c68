package testenv

import (
	"flag"
	"runtime"
	"strconv"
	"testing"
)

// WaitingTestsPerCPU is how many parallel tests run per CPU by default. go test's
// default (-parallel = GOMAXPROCS) suits tests that compute; these mostly wait on the
// database, on event polling and on leases, so two cores stay idle at two tests.
const WaitingTestsPerCPU = 4

// Main runs a component test package: -parallel defaults to WaitingTestsPerCPU per
// CPU (an explicit -parallel wins), finished tests' PostgreSQL databases serve later
// tests (postgres_pool.go), and the binary Binary built and the pool are removed after
// the run. Use it as the package's TestMain:
// func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }.
func Main(m *testing.M) int {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		n := runtime.GOMAXPROCS(0) * WaitingTestsPerCPU
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic("testenv.Main: " + err.Error()) // the testing package renamed its flag
		}
	}
	defer removeBinary()
	defer removeSQLiteTemplate()
	enablePostgresPool() // and drop it at the end
	defer drainPostgresPool()
	return m.Run()
}
