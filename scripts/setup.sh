#!/usr/bin/env bash
# Installs everything the build and the tests need, and nothing twice: each step first checks
# whether its tool is already present at the right version.
#   - the wasm32 target;   - wasm-bindgen-cli at the version locked in Cargo.lock;   - wasm-pack
#   - cargo-fuzz (for `make fuzz`); each cargo install falls back to an unlocked install of the same
#     version when its lock file does not resolve against the registry
#   - dash, busybox, mksh and shellcheck (recorder tests), fonts-noto-cjk (screenshots)
#   - Debian's chromium and chromium-driver (and python3, nodejs, npm where missing)
#   - the npm packages of tests/e2e (package-lock.json)
# Pass "build" to skip the browser and npm parts (enough for `make build` / `make serve`).
# binaryen is not installed: see scripts/build.sh for why no wasm-opt pass runs.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-all}
say() { printf 'setup: %s\n' "$*"; }

# cargo and rustup may live only in ~/.cargo/bin; add it only when cargo is not already on PATH,
# so a caller's PATH (the set-up test's, which holds no tools) decides where tools are found.
command -v cargo >/dev/null 2>&1 || export PATH="$HOME/.cargo/bin:$PATH"
# Tools go to CARGO_INSTALL_ROOT when it is set (the set-up test installs into an empty one).
if [ -n "${CARGO_INSTALL_ROOT:-}" ]; then
  mkdir -p "$CARGO_INSTALL_ROOT/bin"
  export PATH="$CARGO_INSTALL_ROOT/bin:$PATH"
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# Pinned, so a locked install and its unlocked retry build the same release, and the version
# check below means something.
wasm_pack_version=0.15.1
cargo_fuzz_version=0.13.2

# cargo_install CRATE VERSION: the tool's own lock file first. That file can name a dependency
# version the registry does not serve (wasm-bindgen-cli 0.2.130 locks webpki-roots 1.0.11), and
# then resolution fails; only in that case, install the same version without --locked.
cargo_install() {
  local crate=$1 version=$2 log
  log=$(mktemp)
  say "installing $crate $version"
  if cargo install --quiet --locked --force "$crate" --version "$version" 2>"$log"; then
    rm -f "$log"
    return
  fi
  if grep -qE 'failed to select a version|failed to parse lock file|lock file .* needs to be updated|could not find .* in registry' "$log"; then
    say "the locked install of $crate $version cannot resolve against this registry:"
    grep -m3 -E 'failed to select|lock file|could not find|required by|candidate versions' "$log" | sed 's/^/setup:   /'
    say "installing $crate $version without --locked (the newest compatible dependencies)"
    rm -f "$log"
    cargo install --quiet --force "$crate" --version "$version"
  else
    cat "$log" >&2
    rm -f "$log"
    echo "setup: cargo install $crate $version failed (not a resolution failure; see above)" >&2
    exit 1
  fi
}

# version_of CMD...: the second word of the tool's --version line ("wasm-pack 0.15.1" -> 0.15.1).
version_of() { "$@" --version 2>/dev/null | awk 'NR==1 {print $2}'; }

# check_version NAME WANT GOT: a tool that installed but reports another version would produce
# glue or builds that do not match; stop here rather than later with a confusing error.
check_version() {
  if [ "$3" != "$2" ]; then
    echo "setup: $1 is at version '${3:-missing}' after installing, expected $2 ($(command -v "$1" || echo 'not on PATH'))" >&2
    exit 1
  fi
}

# The CLI must match the wasm-bindgen crate exactly, or the generated glue will not load.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$bindgen_version" ]; then
  echo "setup: cannot find wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
if [ "$(version_of wasm-bindgen)" != "$bindgen_version" ]; then
  cargo_install wasm-bindgen-cli "$bindgen_version"
  check_version wasm-bindgen "$bindgen_version" "$(version_of wasm-bindgen)"
fi
if [ "$(version_of wasm-pack)" != "$wasm_pack_version" ]; then
  cargo_install wasm-pack "$wasm_pack_version"
  check_version wasm-pack "$wasm_pack_version" "$(version_of wasm-pack)"
fi
# `make fuzz` (part of `make test`); it runs on stable Rust through RUSTC_BOOTSTRAP.
if [ "$want" = all ] && [ "$(version_of cargo fuzz)" != "$cargo_fuzz_version" ]; then
  cargo_install cargo-fuzz "$cargo_fuzz_version"
  check_version cargo-fuzz "$cargo_fuzz_version" "$(version_of cargo fuzz)"
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
  # The recorder script's tests run it under each shell it promises, and lint shellchecks it.
  command -v dash >/dev/null 2>&1 || needed+=(dash)
  command -v busybox >/dev/null 2>&1 || needed+=(busybox)
  command -v mksh >/dev/null 2>&1 || needed+=(mksh)
  command -v shellcheck >/dev/null 2>&1 || needed+=(shellcheck)
  # Chinese text in the e2e screenshots.
  [ -d /usr/share/fonts/opentype/noto ] || needed+=(fonts-noto-cjk)
fi
[ ${#needed[@]} -eq 0 ] || apt_install "${needed[@]}"

if [ "$want" = all ] && [ ! -d tests/e2e/node_modules/playwright-core ]; then
  say "installing the npm test packages"
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
say "ready"
