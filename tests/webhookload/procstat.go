package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// clockTicks is USER_HZ, 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)).
const clockTicks = 100

// cpuOf returns the user+system CPU time a process has used, from /proc/PID/stat.
func cpuOf(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(b)
}

// parseStatCPU reads utime and stime (fields 14 and 15) after the command name, which
// may itself hold spaces and parentheses.
func parseStatCPU(stat []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("unexpected /proc stat line")
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("short /proc stat line")
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("parse /proc stat times")
	}
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

// postgresCPU sums the CPU time of the PostgreSQL server whose postmaster has that pid
// (itself and its children: backends, WAL writer, checkpointer), or of every process
// named postgres when postmaster is 0 (the server's files are not readable here).
// Backends that exited between two samples are lost, so connections are kept pooled by
// the service; the machine should be otherwise quiet during a run.
func postgresCPU(postmaster int) time.Duration {
	var total time.Duration
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		comm, err := os.ReadFile(filepath.Join(d, "comm"))
		if err != nil || strings.TrimSpace(string(comm)) != "postgres" {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		if postmaster != 0 && pid != postmaster && parentOf(pid) != postmaster {
			continue
		}
		if c, err := cpuOf(pid); err == nil {
			total += c
		}
	}
	return total
}

// parentOf is the process's parent pid (0 when unknown).
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// postmasterPID is the pid of the run's PostgreSQL server, read from postmaster.pid in its
// data directory; 0 when that file is not readable (another machine, another user), and
// then every postgres process counts.
func postmasterPID(ctx context.Context, db *sqlx.DB) int {
	var dir string
	if db == nil || db.GetContext(ctx, &dir, `SELECT current_setting('data_directory')`) != nil {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0]))
	return pid
}

// brokerCPU is the CPU time of the nats-servers with those pids (0s are none).
func brokerCPU(pids []int) time.Duration {
	var total time.Duration
	for _, pid := range pids {
		if pid != 0 {
			c, _ := cpuOf(pid)
			total += c
		}
	}
	return total
}

// peakRSS is the process's high-water resident set (VmHWM), in MiB.
func peakRSS(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// backendsCPU is the CPU time of the PostgreSQL backends serving the run's database
// (pg_stat_activity), by pid. Unlike postgresCPU it leaves out other databases' work, so
// it means something on a shared server; backends that exit between two samples are lost.
func backendsCPU(ctx context.Context, db *sqlx.DB) map[int]time.Duration {
	cpu := map[int]time.Duration{}
	if db == nil {
		return cpu
	}
	var pids []int
	if err := db.SelectContext(ctx, &pids, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`); err != nil {
		return cpu
	}
	for _, pid := range pids {
		if c, err := cpuOf(pid); err == nil {
			cpu[pid] = c
		}
	}
	return cpu
}

// backendsDelta is the CPU the backends of after used since before (all of it for a
// backend that started in between).
func backendsDelta(before, after map[int]time.Duration) time.Duration {
	var d time.Duration
	for pid, c := range after {
		d += c - before[pid]
	}
	return d
}
