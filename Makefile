# The project's commands. `make test` is the test command CI runs (.ci/run).
GO      ?= go
COV     := $(CURDIR)/.cov
# Race-checked tests: the concurrency tests of every package.
RACE    := Concurrent
# Flags of every go test pass of `make test`: -w leaves the DWARF debug
# information out of the test binaries, whose links (some seventy a pass)
# it makes about a sixth shorter, and -s the symbol table, another sixth
# of what is left (47 links of the ops and internal packages: 33.6 s of
# CPU with -w, 28.4 with both); no test reads either (stack traces use
# the runtime's own tables). -vet=off: go test's own subset of vet on
# every package of every pass cost the test command time on a cold build
# cache; go vet runs in `make vet` and `make lint`.
TESTFLAGS := -count=1 -ldflags='-s -w' -vet=off

.PHONY: test fmt vet unit novendor v3 race fuzz tablecheck docscheck coverage bench bench-peers tune tune-full docs lint

test: fmt unit novendor v3 race tablecheck docscheck coverage

fmt:
	@test -z "$$(gofmt -l . | tee /dev/stderr)" || (echo "gofmt needed on the files above" && exit 1)

# go vet, every check, on every package and its tests; `make lint` runs it
# in the portable and arm64 configurations too. Not part of `make test`:
# vetting the module there cost 25-30 s of a test command that must stay
# under CI's 10 minutes on a cold build cache (docs/decisions.md, "The
# test command's time, cut again"); run `make lint` before committing.
vet: fmt
	$(GO) vet ./...

# The whole suite with the coverage instrument on: every process writes its
# own shard under .cov/, merged by the coverage target.
unit:
	rm -rf $(COV) && mkdir -p $(COV)
	BATCHLAS_COVERAGE_OUT=$(COV)/cov $(GO) test $(TESTFLAGS) ./...

# The suite again on the portable build: no vendor library (novendor) and
# no assembly (purego), so both code paths of every kernel are tested here.
# The selection core, its instruments, the tools, and the layers on top
# of the ops (linalg, gonummat, the examples) hold no kernel code path of
# their own, so they are left out here (the unit run covers them): that
# keeps minutes out of the test command (docs/decisions.md, "The test
# command's time"). -short: what this pass adds is the kernels' Go twins,
# so the checks of what no build tag changes are thinned: the drivers'
# checks (allocation, interruption, worker count) run for float64 only,
# allocation on every worker only, interruption at fewer stops, and the
# largest orders of a few sweeps are left to the unit pass.
NOVENDOR_SKIP := /tools/|/select|/coverage|/trace|/linalg|/gonummat|/examples/

novendor:
	$(GO) test $(TESTFLAGS) -short -tags novendor,purego $$($(GO) list ./... | grep -Ev '$(NOVENDOR_SKIP)')

# The kernels with vector paths again as an x86-64-v3 machine runs them:
# presenting the process as x86-64-v3 turns the AVX-512 paths off, so an
# AVX-512 host runs its AVX2 paths here. A host without AVX-512 ran them
# in the unit pass already, and skips this one.
# -short as in the portable pass: the tile paths' sweeps run whole.
VECPKGS := ./ops/gemm/

v3:
	@if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then \
		echo BATCHLAS_DEVICE=x86-64-v3 $(GO) test $(TESTFLAGS) -short $(VECPKGS); \
		BATCHLAS_DEVICE=x86-64-v3 $(GO) test $(TESTFLAGS) -short $(VECPKGS); \
	else echo "v3: this CPU has no AVX-512: the unit pass ran its x86-64-v3 paths"; fi

# Only the packages that hold such tests are built with -race: building
# all of them cost minutes of the test command for no test run. The ops
# are raced together by internal/allops' TestConcurrentEveryCandidate
# (every candidate of every op at once, under parallelism caps of 0, 1
# and 2), one race-built test binary instead of one per op package and
# the root package's; their own concurrency tests, which compare results
# bit for bit, run in the unit and novendor passes.
RACEPKGS = $(shell grep -rl --include='*_test.go' -E 'func Test[A-Za-z0-9_]*$(RACE)' . | xargs -n1 dirname | grep -Ev '^\.$$|^\./ops/' | sort -u)

race:
	$(GO) test $(TESTFLAGS) -race -run '$(RACE)' $(RACEPKGS)

# Every fuzz target of the selection core and the coverage reader, for
# FUZZTIME each (go test fuzzes one target per run; the targets are listed
# with -list, so a new one is fuzzed here without editing this file).
# Not part of `make test`: fuzzing builds the packages and the standard
# library once more with coverage instrumentation, 70-80 s of a test
# command that must stay under CI's 10 minutes on a cold build cache, for
# 1000 executions a target; the seeds of every target run in `unit`.
# FUZZTIME counts executions, not seconds: with a duration, Go 1.26's fuzz
# coordinator can report its own deadline as a failure of the target
# ("context deadline exceeded", no failing input written) when a worker is
# busy as time runs out, which happened once in CI here. A count has no
# deadline to race. 1000 executions take 0.1 to 6 seconds per target here.
FUZZTIME ?= 1000x
FUZZPKGS := ./select/ ./coverage/

fuzz:
	@for pkg in $(FUZZPKGS); do \
		targets=$$($(GO) test -list '^Fuzz' $$pkg) || exit 1; \
		for f in $$(echo "$$targets" | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

tablecheck:
	$(GO) run ./tools/tune check --dir tuned

# docs/tables.md and every plot in docs/plots/ match the candidate lists
# and the tuned/ tables, byte for byte.
docscheck:
	$(GO) run ./tools/tune docs --check

# R7's evidence: every linked candidate was reached by the suite.
coverage:
	$(GO) run ./tools/tune coverage --require-reached $(COV)/cov.*.csv

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x ./ops/...

# numpy (OpenBLAS) against batchlas on the same call shapes, with the copy
# floor: `tools/tune peers` on its default list (PEERS_FLAGS adds flags,
# e.g. --markdown). numpy comes from Debian's python3-numpy: installed here
# when running as root, else the command to install it is printed.
PYTHON      ?= /usr/bin/python3
PEERS_FLAGS ?=

bench-peers:
	@$(PYTHON) -c 'import numpy' 2>/dev/null || { \
		if [ "$$(id -u)" = 0 ] && [ "$(PYTHON)" = /usr/bin/python3 ]; then \
			apt-get install -y python3-numpy python3-scipy || \
			{ apt-get update && apt-get install -y python3-numpy python3-scipy; } || exit 1; \
		else \
			echo "numpy not found for $(PYTHON): apt-get install python3-numpy python3-scipy"; exit 1; \
		fi; }
	$(GO) run ./tools/tune peers --python $(PYTHON) $(PEERS_FLAGS)

# Measure this machine and write its tables to out/tuned: the express
# profile, 6m03s for twenty-two ops on the 2-core Intel Xeon guest (2026-12-05), starting from the
# tables the machine would otherwise borrow; `tune run ... --plan` gives
# the estimate for this machine. tune-full times every candidate at every
# cell with a light protocol (about 40 minutes; docs/tuning.md gives the
# shipping command).
tune:
	$(GO) run ./tools/tune run --op all --profile express --out out/tuned --ledger out/ledger

tune-full:
	$(GO) run ./tools/tune run --op all --dtype float64,float32 --grid quick \
		--reps 3 --max-cell-flops 1e8 --refine-max 0.25 --out out/tuned --ledger out/ledger

# Regenerate docs/tables.md and its plots (docs/plots/*.svg) from the
# candidate lists and the tuned/ tables.
docs:
	$(GO) run ./tools/tune docs

# vet on the portable build (no gonum, no assembly) and on arm64 as well.
# Not part of `make test`: each is a build of every package in another
# configuration (vet on the portable build took 141 s on a cold cache on
# the 2-core Zen 5 guest, where the whole test command must stay under
# CI's 10 minutes), and the portable pass of `make test` runs go test's
# vet checks on the same files. Run it before committing a change to a
# kernel's Go twin or to tagged files.
lint: vet
	$(GO) vet -tags novendor,purego ./...
	GOARCH=arm64 $(GO) vet ./...
