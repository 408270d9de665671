#!/usr/bin/env bash
# Installs everything the build and the tests need, and nothing twice: each step first checks
# whether its tool is already present at the right version.
#   - the wasm32 target;   - wasm-bindgen-cli at the version locked in Cargo.lock;   - wasm-pack
#   - cargo-fuzz (for `make fuzz`)
#   - Debian's chromium and chromium-driver (and python3, nodejs, npm where missing)
#   - the npm packages of tests/e2e (package-lock.json)
# Pass "build" to skip the browser and npm parts (enough for `make build` / `make serve`).
# binaryen is not installed: see scripts/build.sh for why no wasm-opt pass runs.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-all}
say() { printf 'setup: %s\n' "$*"; }

export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the wasm-bindgen crate exactly, or the generated glue will not load.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  echo "setup: cannot find wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$bindgen_version" ]; then
  say "installing wasm-bindgen-cli $bindgen_version"
  cargo install --quiet --locked --force wasm-bindgen-cli --version "$bindgen_version"
fi
if ! command -v wasm-pack >/dev/null 2>&1; then
  say "installing wasm-pack"
  cargo install --quiet --locked wasm-pack
fi
# `make fuzz` (part of `make test`); it runs on stable Rust through RUSTC_BOOTSTRAP.
if [ "$want" = all ] && ! cargo fuzz --version >/dev/null 2>&1; then
  say "installing cargo-fuzz"
  cargo install --quiet --locked cargo-fuzz
fi

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "installing Debian packages: $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

needed=()
command -v python3 >/dev/null 2>&1 || needed+=(python3)   # `make serve` serves dist/ with it
if [ "$want" = all ]; then
  [ -x /usr/bin/chromium ] || needed+=(chromium)
  [ -x /usr/bin/chromedriver ] || needed+=(chromium-driver)
  command -v node >/dev/null 2>&1 || needed+=(nodejs)
  command -v npm >/dev/null 2>&1 || needed+=(npm)
  command -v c++ >/dev/null 2>&1 || needed+=(g++)         # libFuzzer, for `make fuzz`
fi
[ ${#needed[@]} -eq 0 ] || apt_install "${needed[@]}"

if [ "$want" = all ] && [ ! -d tests/e2e/node_modules/playwright-core ]; then
  say "installing the npm test packages"
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
say "ready"
