#!/usr/bin/env bash
# Tests scripts/setup.sh itself, the way a fresh machine meets it (issue 12: a green CI once hid a
# broken install step, because the tools were already installed where CI ran).
#
#   scripts/test-setup.sh fallback   fast, no network: a stand-in cargo whose locked install fails
#                                    to resolve; setup must retry the same version unlocked, verify
#                                    it, and stop when an install is not a resolution failure.
#   scripts/test-setup.sh cold       real installs from nothing: an empty CARGO_HOME and
#                                    CARGO_INSTALL_ROOT, and a PATH holding only the Rust toolchain
#                                    and the system, so no wasm-bindgen / wasm-pack / cargo-fuzz;
#                                    then checks each tool came out at its pinned version.
#                                    Several minutes (it compiles the three tools).
#   scripts/test-setup.sh            both.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
say() { printf 'test-setup: %s\n' "$*"; }
fail() { printf 'test-setup: FAIL: %s\n' "$*" >&2; exit 1; }

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
pinned() { sed -n "s/^$1=//p" scripts/setup.sh; }
wasm_pack_version=$(pinned wasm_pack_version)
cargo_fuzz_version=$(pinned cargo_fuzz_version)
if [ -z "$bindgen_version" ] || [ -z "$wasm_pack_version" ] || [ -z "$cargo_fuzz_version" ]; then
  fail "cannot read the pinned versions (Cargo.lock, scripts/setup.sh)"
fi

# A directory of the few commands setup.sh may use that are not tools it installs, so the PATH it
# runs with holds no copy of those tools from this machine.
toolchain_path() {
  local dir=$1 real
  mkdir -p "$dir"
  for cmd in cargo rustc rustup rustdoc; do
    real=$(command -v "$cmd") || fail "$cmd is not on PATH"
    ln -sf "$real" "$dir/$cmd"
  done
}

fallback() {
  local root=$repo/target/setup-test/fallback
  rm -rf "$root"
  mkdir -p "$root/bin" "$root/install/bin"
  toolchain_path "$root/toolchain"
  # The stand-in cargo: `cargo install` records its arguments, fails "locked" installs with the
  # registry's resolution error, and otherwise writes a tool that prints the asked-for version
  # (or, for FAKE_WRONG_VERSION, another one). Everything else goes to the real cargo.
  cat >"$root/bin/cargo" <<EOF
#!/usr/bin/env bash
if [ "\$1" = install ]; then
  echo "\$*" >>"$root/installs.log"
  crate="" version=""
  prev=""
  for a in "\$@"; do
    case "\$prev" in --version) version=\$a ;; esac
    case "\$a" in -*|install) ;; *) [ "\$prev" = --version ] || crate=\$a ;; esac
    prev=\$a
  done
  case " \$* " in *" --locked "*)
    if [ "\${FAKE_FAIL:-resolve}" = resolve ]; then
      echo "error: failed to select a version for the requirement \\\`webpki-roots = \"^1.0.10\"\\\` (locked to 1.0.11)" >&2
    else
      echo "error: linking with \\\`cc\\\` failed: exit status: 1" >&2
    fi
    exit 101 ;;
  esac
  [ "\$crate" = "\${FAKE_WRONG_VERSION:-}" ] && version=0.0.0
  case "\$crate" in
    wasm-bindgen-cli) bin=wasm-bindgen; line="wasm-bindgen \$version" ;;
    wasm-pack) bin=wasm-pack; line="wasm-pack \$version" ;;
    cargo-fuzz) bin=cargo-fuzz; line="cargo-fuzz \$version" ;;
  esac
  printf '#!/bin/sh\necho "%s"\n' "\$line" >"\$CARGO_INSTALL_ROOT/bin/\$bin"
  chmod +x "\$CARGO_INSTALL_ROOT/bin/\$bin"
  exit 0
fi
if [ "\$1" = fuzz ]; then
  shift
  exec "\$CARGO_INSTALL_ROOT/bin/cargo-fuzz" "\$@"
fi
exec "$root/toolchain/cargo" "\$@"
EOF
  chmod +x "$root/bin/cargo"
  local path="$root/bin:$root/toolchain:/usr/bin:/bin"

  say "fallback: a locked install that cannot resolve is retried unlocked, at the same version"
  PATH=$path CARGO_INSTALL_ROOT=$root/install scripts/setup.sh build >"$root/out.log" 2>&1 ||
    { cat "$root/out.log" >&2; fail "setup.sh build failed with the stand-in cargo"; }
  grep -q "installing wasm-bindgen-cli $bindgen_version without --locked" "$root/out.log" ||
    { cat "$root/out.log" >&2; fail "setup did not say it fell back to an unlocked install"; }
  grep -q "failed to select a version" "$root/out.log" ||
    fail "setup did not quote the registry's resolution error"
  grep -qx "install --quiet --locked --force wasm-bindgen-cli --version $bindgen_version" "$root/installs.log" ||
    fail "setup did not try the locked install first: $(cat "$root/installs.log")"
  grep -qx "install --quiet --force wasm-bindgen-cli --version $bindgen_version" "$root/installs.log" ||
    fail "the unlocked retry is not the same version: $(cat "$root/installs.log")"
  grep -qx "install --quiet --force wasm-pack --version $wasm_pack_version" "$root/installs.log" ||
    fail "wasm-pack was not retried unlocked at $wasm_pack_version: $(cat "$root/installs.log")"
  [ "$("$root/install/bin/wasm-bindgen" --version)" = "wasm-bindgen $bindgen_version" ] ||
    fail "wasm-bindgen is not at $bindgen_version"

  say "fallback: a second run installs nothing (the tools are there at their versions)"
  : >"$root/installs.log"
  PATH=$path CARGO_INSTALL_ROOT=$root/install scripts/setup.sh build >"$root/out2.log" 2>&1 ||
    { cat "$root/out2.log" >&2; fail "the second setup run failed"; }
  [ ! -s "$root/installs.log" ] || fail "the second run installed again: $(cat "$root/installs.log")"

  say "fallback: a tool that installs at another version stops setup, naming both versions"
  rm -f "$root/install/bin/"*
  if PATH=$path CARGO_INSTALL_ROOT=$root/install FAKE_WRONG_VERSION=wasm-bindgen-cli \
    scripts/setup.sh build >"$root/out3.log" 2>&1; then
    fail "setup passed although wasm-bindgen installed at the wrong version"
  fi
  grep -q "wasm-bindgen is at version '0.0.0' after installing, expected $bindgen_version" "$root/out3.log" ||
    { cat "$root/out3.log" >&2; fail "the version mismatch was not named"; }

  say "fallback: an install that fails for another reason is not retried and stops setup"
  rm -f "$root/install/bin/"*
  : >"$root/installs.log"
  if PATH=$path CARGO_INSTALL_ROOT=$root/install FAKE_FAIL=link \
    scripts/setup.sh build >"$root/out4.log" 2>&1; then
    fail "setup passed although the install failed to link"
  fi
  grep -q "linking with" "$root/out4.log" || fail "the install's own error was not shown"
  [ "$(wc -l <"$root/installs.log")" -eq 1 ] ||
    fail "a non-resolution failure was retried: $(cat "$root/installs.log")"
  say "fallback: ok"
}

cold() {
  local root=$repo/target/setup-test/cold start
  rm -rf "$root"
  mkdir -p "$root/cargo-home" "$root/install"
  toolchain_path "$root/toolchain"
  local path="$root/toolchain:/usr/bin:/bin"
  for tool in wasm-bindgen wasm-pack cargo-fuzz; do
    ! PATH=$path command -v "$tool" >/dev/null 2>&1 || fail "the test PATH already holds $tool"
  done
  say "cold: setup.sh all with an empty CARGO_HOME and CARGO_INSTALL_ROOT (several minutes)"
  start=$(date +%s)
  # An empty CARGO_HOME too: cargo also finds subcommands (cargo-fuzz) in CARGO_HOME/bin.
  PATH=$path CARGO_HOME=$root/cargo-home CARGO_INSTALL_ROOT=$root/install \
    scripts/setup.sh all 2>&1 | tee "$root/out.log" | sed 's/^/test-setup:   /'
  [ "${PIPESTATUS[0]}" -eq 0 ] || fail "setup.sh all failed from nothing"
  say "cold: set-up took $(($(date +%s) - start)) s"
  local got
  got=$("$root/install/bin/wasm-bindgen" --version) || fail "no wasm-bindgen in the install root"
  [ "$got" = "wasm-bindgen $bindgen_version" ] || fail "wasm-bindgen: '$got', expected $bindgen_version (Cargo.lock)"
  got=$("$root/install/bin/wasm-pack" --version) || fail "no wasm-pack in the install root"
  [ "$got" = "wasm-pack $wasm_pack_version" ] || fail "wasm-pack: '$got', expected $wasm_pack_version"
  got=$(PATH=$root/install/bin:$path CARGO_HOME=$root/cargo-home cargo fuzz --version) ||
    fail "cargo fuzz does not run from the install root"
  [ "$got" = "cargo-fuzz $cargo_fuzz_version" ] || fail "cargo-fuzz: '$got', expected $cargo_fuzz_version"
  say "cold: ok (wasm-bindgen $bindgen_version, wasm-pack $wasm_pack_version, cargo-fuzz $cargo_fuzz_version)"
}

case "${1:-both}" in
  fallback) fallback ;;
  cold) cold ;;
  both) fallback; cold ;;
  *) fail "usage: $0 [fallback|cold|both]" ;;
esac
