#!/bin/sh
# A stand-in for a llama.cpp benchmark loop, to record samples/bundles/ against the fixture:
# two busy threads (busy.sh) until the file $1 exists, and every $3 seconds one llama-cli run's
# log, whose decode speed follows the fixture's CPU 0 clock under $2 (so it falls with the cap).
stop=$1
sys=$2
period=${3:-5}
sh "${0%/*}/busy.sh" "$stop" 600 &
cat <<'HEAD'
build: 4589 (2b8525d5) with Android (12285214, +pgo, +bolt, +lto, +mlgo, based on r522817b) clang version 18.0.2 for aarch64-unknown-linux-android28
llama_model_loader: loaded meta data with 26 key-value pairs and 339 tensors from qwen2.5-1.5b-instruct-q4_0.gguf (version GGUF V3 (latest))
print_info: file format = GGUF V3 (latest)
print_info: file type   = Q4_0
print_info: file size   = 1.04 GiB (5.03 BPW)
print_info: model params = 1.78 B
load_tensors:   CPU_Mapped model buffer size =  1065.35 MiB
system_info: n_threads = 2 (n_threads_batch = 2) / 8 | CPU : NEON = 1 | ARM_FMA = 1 | FP16_VA = 1 | DOTPROD = 1 | LLAMAFILE = 1 | OPENMP = 1 | AARCH64_REPACK = 1 |
HEAD
i=0
while [ ! -e "$stop" ]; do
	sleep "$period"
	read -r khz <"$sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq"
	i=$((i + 1))
	# 12.0 tok/s at 1.8 GHz, in proportion to the clock.
	tenths=$((khz * 120 / 1804800))
	ms=$((1280000 / tenths))
	printf 'llama_perf_context_print:        load time =     812.40 ms\n'
	printf 'llama_perf_context_print: prompt eval time =     402.15 ms /    12 tokens (   33.51 ms per token,    29.84 tokens per second)\n'
	printf 'llama_perf_context_print:        eval time =   %s.00 ms /   127 runs   (  %s.00 ms per token,    %s.%s tokens per second)\n' \
		$((ms * 127 / 10)) $((ms / 10)) $((tenths / 10)) $((tenths % 10))
	printf 'llama_perf_context_print:       total time =   %s.00 ms /   139 tokens\n' $((ms * 127 / 10 + 402))
done
wait
