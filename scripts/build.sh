#!/usr/bin/env bash
# Writes the complete static site to dist/: the page, the wasm core (built with simd128) and the
# example samples. Every path in it is relative, so dist/ works from any static host and sub-path.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

out=dist
rm -rf "$out"
mkdir -p "$out"

RUSTFLAGS="-C target-feature=+simd128" \
  wasm-pack build crate --release --target web --no-typescript --no-pack \
  --out-dir ../target/wasm-pkg --out-name tokscope >/dev/null 2>&1 || {
  # Re-run loudly so the error is visible.
  RUSTFLAGS="-C target-feature=+simd128" \
    wasm-pack build crate --release --target web --no-typescript --no-pack \
    --out-dir ../target/wasm-pkg --out-name tokscope
  exit 1
}
mkdir -p "$out/pkg"
# No wasm-opt pass: Debian's binaryen (version 108) predates the externref table that current
# rustc + wasm-bindgen emit, and its output fails to instantiate. rustc's own -O3 + LTO is kept.
cp target/wasm-pkg/tokscope.js target/wasm-pkg/tokscope_bg.wasm "$out/pkg/"

cp -r www/. "$out/"
cp crate/src/catalogue.json "$out/catalogue.json"
mkdir -p "$out/samples"
cp samples/demo/* "$out/samples/"
# Keep last: the service worker precaches whatever dist/ holds at this point.
scripts/precache.sh "$out"
printf 'build: %s (%s bytes of wasm)\n' "$out/" "$(stat -c %s "$out/pkg/tokscope_bg.wasm")"
