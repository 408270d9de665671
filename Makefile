# The three commands of the README. Each one sets up what it needs first (scripts/setup.sh is
# idempotent and quick when everything is present).
PORT ?= 8080
SHELL := /bin/bash

# `make formats`: per producer, the census rows, the rows read and tested, and the versions they span
# (scripts/formats.py); it fails when a census names a test or sample that is not in the tree.
.PHONY: check formats serve build test setup test-setup lint test-native test-wasm test-e2e bench bench-data bench-big fuzz fuzz-long

serve: build
	@echo "tokscope: serving dist/ at http://127.0.0.1:$(PORT)/"
	@python3 -m http.server "$(PORT)" --bind 127.0.0.1 --directory dist

build:
	@scripts/setup.sh build
	@scripts/build.sh

setup:
	@scripts/setup.sh all

formats:
	@python3 scripts/formats.py

# The day-to-day loop: lint (fmt, clippy on both targets, the import-cycle check, the census) and
# the native tests with the goldens, without the browser, wasm and fuzz suites of `make test`.
check:
	@rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	python3 scripts/check-imports.py crate/src
	python3 scripts/formats.py >/dev/null
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy -p tokscope --target wasm32-unknown-unknown --all-targets --locked -- -D warnings
	cargo test --workspace --locked
	@echo "make check: passed"

test: setup test-setup lint test-native test-wasm build test-e2e fuzz
	@echo "make test: all suites passed"

# scripts/setup.sh itself: its locked-then-unlocked fallback against a stand-in cargo, then a real
# install of every tool from nothing (empty CARGO_HOME and install root, no tools on PATH).
test-setup:
	scripts/test-setup.sh

lint:
	shellcheck -s sh scripts/tokscope-record.sh tests/record/*.sh
	python3 scripts/check-imports.py --self-test
	python3 scripts/check-imports.py crate/src
	python3 scripts/formats.py --self-test
	python3 scripts/formats.py >/dev/null
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy -p tokscope --target wasm32-unknown-unknown --all-targets --locked -- -D warnings
	# Every doc link must resolve, private items' too (they are documented for the developers).
	for target in "" wasm32-unknown-unknown; do \
	  RUSTDOCFLAGS="-D rustdoc::broken_intra_doc_links -A rustdoc::private_intra_doc_links" \
	    cargo doc -p tokscope --no-deps --document-private-items --locked $${target:+--target $$target} || exit 1; \
	done

test-native:
	cargo test --workspace --locked

# The browser tests run once per wasm build, so every kernel path (scalar, simd128, relaxed) meets
# the browser's engine; each build keeps its own target directory (the same ones build.sh uses).
test-wasm:
	for features in "" "+simd128" "+simd128,+relaxed-simd"; do \
	  case "$$features" in "") dir=pkg-scalar;; *relaxed*) dir=pkg-relaxed;; *) dir=pkg;; esac; \
	  echo "test-wasm: target-feature=$${features:-none}"; \
	  RUSTFLAGS="$${features:+-C target-feature=$$features}" CARGO_TARGET_DIR="$(CURDIR)/target/wasm-$$dir-build" \
	  CHROMEDRIVER=$${CHROMEDRIVER:-/usr/bin/chromedriver} WASM_BINDGEN_TEST_TIMEOUT=120 \
	    wasm-pack test --headless --chrome crate || exit 1; \
	done

test-e2e:
	node --test tests/e2e/

# Every cargo-fuzz target for FUZZ_SECONDS each (scripts/fuzz.sh); any crash fails the run.
FUZZ_SECONDS ?= 30
fuzz: setup
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# Ten minutes a target (the bounded run in `make test` is too short to grow deep inputs): run it
# before resolving an issue that touches a parser, and give its figures in the closing note.
fuzz-long: setup
	FUZZ_SECONDS=600 scripts/fuzz.sh

# Native bench and the in-browser probe on the same machine, one JSON object (scripts/bench.mjs),
# then the page's time to ready on a 9 Mbps and a 1.6 Mbps link, empty cache (scripts/bench-load.mjs).
# BENCH_MIB sets the buffer (default 1024 MiB in all: at least 4x the last-level cache here).
# Then read + analyze MB/s per kind of input, native CLI and wasm in headless Chromium on the same
# bytes, with the ratio (scripts/bench-inputs.mjs; inputs from bench-data, BENCH_ROUNDS rounds).
bench: setup build bench-data
	cargo build --release --locked -p tokscope --bin tokscope
	node scripts/bench.mjs
	node scripts/bench-load.mjs
	node scripts/bench-inputs.mjs log=$(BENCH_DIR)/logcat-$(LOG_MIB)MiB.log \
	  log-dense=$(BENCH_DIR)/llamalog-$(LOG_MIB)MiB.log perf-script=$(BENCH_DIR)/perf-script-$(PERF_MIB)MiB.txt telemetry=$(BENCH_DIR)/telemetry-$(TELEMETRY_H)h.csv

# Large generated inputs for the benchmarks (nothing this size is committed): perf script text with
# callchains, a phone's logcat with an llama.cpp app in it and the app's lines alone (llamalog:
# every line one the framework parsers read), sizes in MiB, and a 1 Hz, 64-column telemetry CSV of
# TELEMETRY_H hours. Regenerated only when missing or when the size
# changes (the size is in the name) or the generator does.
BENCH_DIR ?= target/bench
PERF_MIB ?= 256
LOG_MIB ?= 256
BIG_MIB ?= 2048
TELEMETRY_H ?= 24
bench-data: $(BENCH_DIR)/perf-script-$(PERF_MIB)MiB.txt $(BENCH_DIR)/logcat-$(LOG_MIB)MiB.log \
  $(BENCH_DIR)/llamalog-$(LOG_MIB)MiB.log \
  $(BENCH_DIR)/telemetry-$(TELEMETRY_H)h.csv

$(BENCH_DIR)/perf-script-%MiB.txt: crate/benches/support/perf_script.rs
	cargo build --release --locked -p tokscope --example gen_bench_data
	@mkdir -p $(BENCH_DIR)
	target/release/examples/gen_bench_data perf $* > $@.part && mv $@.part $@

$(BENCH_DIR)/logcat-%MiB.log: crate/examples/gen_bench_data.rs
	cargo build --release --locked -p tokscope --example gen_bench_data
	@mkdir -p $(BENCH_DIR)
	target/release/examples/gen_bench_data log $* > $@.part && mv $@.part $@

$(BENCH_DIR)/llamalog-%MiB.log: crate/examples/gen_bench_data.rs
	cargo build --release --locked -p tokscope --example gen_bench_data
	@mkdir -p $(BENCH_DIR)
	target/release/examples/gen_bench_data log-dense $* > $@.part && mv $@.part $@

$(BENCH_DIR)/telemetry-%h.csv: crate/examples/gen_telemetry_csv.rs
	cargo build --release --locked -p tokscope --example gen_telemetry_csv
	@mkdir -p $(BENCH_DIR)
	target/release/examples/gen_telemetry_csv $* $@.part && mv $@.part $@

# The 2 GiB run in the browser (issue 8): a generated perf script with callchains chosen in the real
# page; prints the progress timeline, MB/s and peak memory. Too slow for `make test`.
bench-big: setup build $(BENCH_DIR)/perf-script-$(BIG_MIB)MiB.txt
	node tests/e2e/bench-big.mjs $(BENCH_DIR)/perf-script-$(BIG_MIB)MiB.txt
