# The three commands of the README. Each one sets up what it needs first (scripts/setup.sh is
# idempotent and quick when everything is present).
PORT ?= 8080
SHELL := /bin/bash

.PHONY: serve build test setup lint test-native test-wasm test-e2e bench fuzz

serve: build
	@echo "tokscope: serving dist/ at http://127.0.0.1:$(PORT)/"
	@python3 -m http.server "$(PORT)" --bind 127.0.0.1 --directory dist

build:
	@scripts/setup.sh build
	@scripts/build.sh

setup:
	@scripts/setup.sh all

test: setup lint test-native test-wasm build test-e2e fuzz
	@echo "make test: all suites passed"

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy -p tokscope --target wasm32-unknown-unknown --all-targets --locked -- -D warnings

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

# Native bench and the in-browser probe on the same machine, one JSON object (scripts/bench.mjs).
# BENCH_MIB sets the buffer (default 1024 MiB in all: at least 4x the last-level cache here).
bench: setup build
	cargo build --release --locked -p tokscope --bin tokscope
	node scripts/bench.mjs
