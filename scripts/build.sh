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
cp target/wasm-pkg/tokscope.js "$out/pkg/"
wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals \
  target/wasm-pkg/tokscope_bg.wasm -o "$out/pkg/tokscope_bg.wasm"

cp -r www/. "$out/"
mkdir -p "$out/samples"
cp samples/demo/* "$out/samples/"
printf 'build: %s (%s bytes of wasm)\n' "$out/" "$(stat -c %s "$out/pkg/tokscope_bg.wasm")"
