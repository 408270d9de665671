#!/usr/bin/env bash
# Writes the complete static site to dist/: the page, the wasm core and the example samples. Every
# path in it is relative, so dist/ works from any static host and sub-path.
#
# There is no feature test inside wasm: a module that uses an instruction the engine lacks fails to
# compile as a whole. So the core is built three times, and www/wasm-build.js picks the best one
# that WebAssembly.validate accepts:
#   dist/pkg-relaxed/  simd128 + relaxed-simd  (Chrome 114+, Edge; the fastest kernel)
#   dist/pkg/          simd128                 (Firefox, Safari 16.4+)
#   dist/pkg-scalar/   no SIMD                 (older engines; the page says so)
# Each build keeps its own target directory (target/wasm-<dir>-build/; absolute, since wasm-pack runs
# cargo from crate/), so switching RUSTFLAGS never forces a full rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

out=dist
rm -rf "$out"
mkdir -p "$out"

build() { # build <dist subdir> <target-features>
  local dir=$1 features=$2
  local flags=""
  [ -n "$features" ] && flags="-C target-feature=$features"
  local cmd=(wasm-pack build crate --release --target web --no-typescript --no-pack
    --out-dir "../target/wasm-$dir" --out-name tokscope)
  RUSTFLAGS="$flags" CARGO_TARGET_DIR="$PWD/target/wasm-$dir-build" "${cmd[@]}" >/dev/null 2>&1 || {
    # Re-run loudly so the error is visible.
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="$PWD/target/wasm-$dir-build" "${cmd[@]}"
    exit 1
  }
  mkdir -p "$out/$dir"
  # No wasm-opt pass: Debian's binaryen (version 108) predates the externref table that current
  # rustc + wasm-bindgen emit, and its output fails to instantiate. rustc's own -O3 + LTO is kept.
  cp "target/wasm-$dir/tokscope.js" "$out/$dir/"
  # The SIMD builds ship gzipped and the page inflates them (www/wasm-load.js): 3.1 MB -> 1.2 MB
  # on the wire whatever the host. The scalar build, for engines too old to inflate, ships plain.
  # -n: no name or time in the header, so the precache VERSION hash changes only with the code.
  if [ "$dir" = pkg-scalar ]; then
    cp "target/wasm-$dir/tokscope_bg.wasm" "$out/$dir/"
  else
    gzip -9 -n -c "target/wasm-$dir/tokscope_bg.wasm" > "$out/$dir/tokscope_bg.wasm.gz"
  fi
}

build pkg "+simd128"
build pkg-relaxed "+simd128,+relaxed-simd"
build pkg-scalar ""

cp -r www/. "$out/"
cp crate/src/catalogue.json "$out/catalogue.json"
mkdir -p "$out/samples"
cp samples/demo/* "$out/samples/"
# The recorder the "Record a run" section links to (precached like every file).
cp scripts/tokscope-record.sh "$out/tokscope-record.sh"
# Keep last: the service worker precaches whatever dist/ holds at this point.
scripts/precache.sh "$out"
for dir in pkg pkg-relaxed pkg-scalar; do
  shipped=$(find "$out/$dir" -name 'tokscope_bg.wasm*' -printf '%f %s bytes')
  printf 'build: %s (%s bytes of wasm; ships %s)\n' "$out/$dir/" "$(stat -c %s "target/wasm-$dir/tokscope_bg.wasm")" "$shipped"
done
