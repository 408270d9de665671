#!/usr/bin/env bash
# Fills the service worker's precache list with every file of the built site, and its cache
# VERSION with a hash of their contents. build.sh runs it last, after every file is in place, so
# files other steps add (wasm builds, workers, modules, samples) are precached without a list to
# keep by hand.
set -euo pipefail
out=${1:-dist}
sw="$out/sw.js"
[ -f "$sw" ] || { echo "precache: $sw is missing" >&2; exit 1; }

mapfile -t files < <(cd "$out" && find . -type f ! -path ./sw.js -printf '%P\n' | LC_ALL=C sort)
list=""
for f in "${files[@]}"; do
  # Names go into a JS string literal: refuse anything that would need escaping.
  case "$f" in *[\"\'\\\`]* | *$'\n'*) echo "precache: unsupported file name: $f" >&2; exit 1 ;; esac
  list+="'${f}', "
done
version=$(cd "$out" && sha256sum "${files[@]}" | sha256sum | cut -c1-16)

grep -q "^const PRECACHE = \[\]; // filled by scripts/build.sh$" "$sw" || { echo "precache: PRECACHE line not found in $sw" >&2; exit 1; }
grep -q "^const VERSION = 'dev'; // filled by scripts/build.sh$" "$sw" || { echo "precache: VERSION line not found in $sw" >&2; exit 1; }
tmp=$(mktemp)
while IFS= read -r line; do
  case "$line" in
    "const PRECACHE = []; // filled by scripts/build.sh") printf 'const PRECACHE = [%s];\n' "${list%, }" ;;
    "const VERSION = 'dev'; // filled by scripts/build.sh") printf "const VERSION = '%s';\n" "$version" ;;
    *) printf '%s\n' "$line" ;;
  esac
done < "$sw" > "$tmp"
mv "$tmp" "$sw"
chmod 644 "$sw"
printf 'precache: %d files, version %s\n' "${#files[@]}" "$version"
