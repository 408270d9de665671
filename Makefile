# The three commands of the README. Each one sets up what it needs first (scripts/setup.sh is
# idempotent and quick when everything is present).
PORT ?= 8080
SHELL := /bin/bash

.PHONY: serve build test setup lint test-native test-wasm test-e2e

serve: build
	@echo "tokscope: serving dist/ at http://127.0.0.1:$(PORT)/"
	@python3 -m http.server "$(PORT)" --bind 127.0.0.1 --directory dist

build:
	@scripts/setup.sh build
	@scripts/build.sh

setup:
	@scripts/setup.sh all

test: setup lint test-native test-wasm build test-e2e
	@echo "make test: all suites passed"

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	cargo clippy -p tokscope --target wasm32-unknown-unknown --all-targets --locked -- -D warnings

test-native:
	cargo test --workspace --locked

test-wasm:
	CHROMEDRIVER=$${CHROMEDRIVER:-/usr/bin/chromedriver} WASM_BINDGEN_TEST_TIMEOUT=120 \
	  wasm-pack test --headless --chrome crate

test-e2e:
	node --test tests/e2e/
