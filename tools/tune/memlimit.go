package main

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/safefile"
)

// hostFS is the root the memory limits are read from; tests replace it.
var hostFS fs.FS = os.DirFS("/")

// procLimit bounds the small files of /proc and /sys read here.
var procLimit = safefile.Limit{Max: 1 << 20, Noun: "a /proc or /sys file", Text: "1 MiB"}

// memoryLimit is the most memory this process can expect to get: the
// smallest of the cgroup limit (v2 memory.max of the process's cgroup or the
// root, v1 memory.limit_in_bytes) and MemAvailable of /proc/meminfo, with
// what set it. ok is false when none of them could be read.
func memoryLimit(fsys fs.FS) (limit int64, what string, ok bool) {
	limit = math.MaxInt64
	take := func(v int64, w string) {
		if v > 0 && v < limit {
			limit, what, ok = v, w, true
		}
	}
	var cgroupPaths []string
	if data, err := safefile.ReadFS(fsys, "proc/self/cgroup", procLimit); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			// v2: "0::/path"; v1: "4:memory:/path".
			parts := strings.SplitN(line, ":", 3)
			if len(parts) == 3 && (parts[1] == "" || parts[1] == "memory") {
				cgroupPaths = append(cgroupPaths, strings.Trim(parts[2], "/"))
			}
		}
	}
	for _, f := range []string{"memory.max", "memory/memory.limit_in_bytes"} {
		for _, dir := range append(cgroupPaths, "") {
			name := "sys/fs/cgroup/" + f
			if dir != "" {
				sub, leaf, _ := strings.Cut(f, "/")
				if leaf == "" {
					name = "sys/fs/cgroup/" + dir + "/" + f
				} else {
					name = "sys/fs/cgroup/" + sub + "/" + dir + "/" + leaf
				}
			}
			if data, err := safefile.ReadFS(fsys, name, procLimit); err == nil {
				// "max" (v2) and a page-rounded MaxInt64 (v1) mean no limit.
				if v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && v < 1<<60 {
					take(v, "the cgroup memory limit (/"+name+")")
				}
			}
		}
	}
	if data, err := safefile.ReadFS(fsys, "proc/meminfo", procLimit); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, found := strings.CutPrefix(line, "MemAvailable:"); found {
				f := strings.Fields(rest)
				if len(f) == 2 && f[1] == "kB" {
					if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && kb < 1<<50 {
						take(kb<<10, "MemAvailable of /proc/meminfo")
					}
				}
			}
		}
	}
	return limit, what, ok
}

// memoryCapCheck declares the range of a memory cap flag: a positive
// number of bytes no larger than the memory this process can get, so that
// a cap that cannot be honoured is refused before anything is allocated
// (a cap above it lets a cell be allocated that the kernel then kills the
// process for).
func memoryCapCheck(fs *cmdFlags, name string, p *int64) {
	limit, what, ok := memoryLimit(hostFS)
	if !ok {
		fs.int64In(name, p, 1, math.MaxInt64, " bytes")
		return
	}
	fs.check(name, fmt.Sprintf("a number of bytes from 1 to %d (%s, %s)", limit, formatBytes(float64(limit)), what),
		func() bool { return *p >= 1 && *p <= limit })
}
