#!/usr/bin/env bash
# A bounded fuzz run of every cargo-fuzz target in fuzz/ (or those named as arguments), one after
# the other: FUZZ_SECONDS each (default 30). Fails, naming the input, on any panic, hang (an input
# running over 10 s), or allocation over 512 MB at once / 2 GB in all.
#
# Seeds come from fuzz/corpus/<target>/ and are never written to; what the fuzzer adds goes to
# fuzz/target/corpus/<target>/ (kept between local runs, not committed). A crashing input lands in
# fuzz/artifacts/<target>/; replay it with
#   cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a <target> artifacts/<target>/crash-...
# and add it as a regression test next to the fixed code.
#
# Stable Rust is enough: RUSTC_BOOTSTRAP lets cargo-fuzz pass its -Z flags (sanitizer, coverage).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
export PATH="$HOME/.cargo/bin:$PATH" RUSTC_BOOTSTRAP=1
seconds=${FUZZ_SECONDS:-30}
say() { printf 'fuzz: %s\n' "$*"; }

if ! cargo fuzz --version >/dev/null 2>&1; then
  say "cargo-fuzz is missing: run scripts/setup.sh (make fuzz does)" >&2
  exit 1
fi

# Release code with debug assertions and overflow checks: the fuzzers also catch arithmetic that
# would silently wrap in the shipped build. 16 codegen units build twice as fast on 2 cores as
# cargo-fuzz's default of 1, for a few percent fewer executions per second.
flags=(-O -a --codegen-units 16)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)

start=$(date +%s)
cargo fuzz build "${flags[@]}"
say "built ${#targets[@]} targets in $(($(date +%s) - start)) s"

failed=()
for t in "${targets[@]}"; do
  mkdir -p "target/corpus/$t" "artifacts/$t"
  log="target/fuzz-$t.log"
  say "$t: ${seconds} s"
  if cargo fuzz run "${flags[@]}" "$t" "target/corpus/$t" "corpus/$t" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
    -print_final_stats=1 >"$log" 2>&1; then
    execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
    corpus=$(find "target/corpus/$t" -type f | wc -l)
    say "$t: ok, ${execs:-?} executions, ${corpus} inputs in the working corpus"
  else
    # The panic or the sanitizer's verdict, and where the input was written (not the input's
    # byte dump, which follows in the log).
    grep -E -A12 'panicked at|ERROR: (libFuzzer|AddressSanitizer)' "$log" | head -n 40 >&2 || true
    grep -E 'SUMMARY|Test unit written' "$log" >&2 || true
    say "$t: FAILED (full log: fuzz/$log; the input is in fuzz/artifacts/$t/)" >&2
    failed+=("$t")
  fi
done

say "$(( $(date +%s) - start )) s in all (build and runs)"
if [ ${#failed[@]} -gt 0 ]; then
  say "failing targets: ${failed[*]}" >&2
  exit 1
fi
