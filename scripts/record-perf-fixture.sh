#!/usr/bin/env bash
# Records the binary perf.data fixture samples/traces/python-4-threads-on-2-cpus.perf.data with
# Debian's linux-perf: four busy threads named "llama-cli" (scripts/perf-fixture-workload.py),
# cpu-clock samples with their CPU, and the scheduler tracepoints tokscope reads.
# Needs perf_event_paranoid <= 2 and tracefs (run as root in a container). The result depends on
# the machine: review the golden report diff after re-recording.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-samples/traces/python-4-threads-on-2-cpus.perf.data}
perf record --sample-cpu -e cpu-clock -e sched:sched_switch -e sched:sched_wakeup \
  -e sched:sched_migrate_task -F 250 -o "$out" -- python3 scripts/perf-fixture-workload.py
