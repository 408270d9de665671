#!/bin/sh
# A fixture /sys and /proc of an 8-CPU big.LITTLE phone (CPUs 0-3 little at 1.8 GHz, 4-6 at
# 2.4 GHz, 7 at 3.0 GHz) for tokscope-record.sh, and a helper that changes its values while the
# recorder runs.
#
#   fixture.sh make DIR                 build the tree under DIR/sys and DIR/proc
#   fixture.sh step DIR K MODE          write step K of MODE into the tree
#   fixture.sh run DIR N PERIOD MODE    steps 1..N, PERIOD seconds apart; appends "K uptime"
#                                       to DIR/steps after each step, then creates DIR/done
#
# MODE `values`: every value encodes its file and the step, so a test can check each sampled
# value. MODE `thermal`: the die heats from 55 to 88 °C and the clocks are capped to 60 % of
# their maximum from 60 % of the way through N steps.
set -e
cmd=$1
dir=$2
sys=$dir/sys
cpu=$sys/devices/system/cpu

# Atomic, as a sysfs read is: a reader never sees a half-written file.
w() { printf '%s\n' "$2" >"$1.new" && mv "$1.new" "$1"; }

make() {
	for n in 0 1 2 3 4 5 6 7; do
		d=$cpu/cpu$n/cpufreq
		mkdir -p "$d"
		if [ "$n" -lt 4 ]; then max=1804800; rel="0-3"
		elif [ "$n" -lt 7 ]; then max=2419200; rel="4-6"
		else max=3014400; rel="7"; fi
		w "$d/cpuinfo_max_freq" "$max"
		w "$d/cpuinfo_min_freq" 300000
		w "$d/scaling_governor" schedutil
		w "$d/related_cpus" "$rel"
		[ "$n" -eq 0 ] || w "$cpu/cpu$n/online" 1
	done
	for z in 0 1 2 3; do
		d=$sys/class/thermal/thermal_zone$z
		mkdir -p "$d"
		w "$d/trip_point_0_temp" 95000
		w "$d/trip_point_0_type" passive
	done
	w "$sys/class/thermal/thermal_zone0/type" cpu-1-0-usr
	w "$sys/class/thermal/thermal_zone1/type" gpuss-0-usr
	w "$sys/class/thermal/thermal_zone2/type" xo-therm
	w "$sys/class/thermal/thermal_zone3/type" pm8550-tz
	# A sensor whose driver refuses reads: the recorder must say so.
	mkdir -p "$sys/class/thermal/thermal_zone3/temp"
	for c in 0 1; do
		d=$sys/class/thermal/cooling_device$c
		mkdir -p "$d"
		w "$d/max_state" 14
	done
	w "$sys/class/thermal/cooling_device0/type" thermal-cpufreq-0
	w "$sys/class/thermal/cooling_device1/type" thermal-cpufreq-7
	mkdir -p "$sys/class/kgsl/kgsl-3d0" "$sys/class/devfreq/3d00000.qcom,kgsl-3d0"
	w "$sys/class/kgsl/kgsl-3d0/max_gpuclk" 680000000
	w "$sys/class/devfreq/3d00000.qcom,kgsl-3d0/max_freq" 680000000
	w "$sys/class/devfreq/3d00000.qcom,kgsl-3d0/min_freq" 220000000
	w "$sys/class/devfreq/3d00000.qcom,kgsl-3d0/governor" msm-adreno-tz
	mkdir -p "$sys/class/power_supply/battery" "$sys/class/power_supply/usb"
	w "$sys/class/power_supply/battery/type" Battery
	w "$sys/class/power_supply/usb/type" USB
	mkdir -p "$dir/proc"
	: >"$dir/proc/cpuinfo"
	for n in 0 1 2 3 4 5 6 7; do
		if [ "$n" -lt 4 ]; then part=0xd46; elif [ "$n" -lt 7 ]; then part=0xd47; else part=0xd48; fi
		printf 'processor\t: %s\nBogoMIPS\t: 38.40\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: %s\nCPU revision\t: 0\n\n' "$n" "$part" >>"$dir/proc/cpuinfo"
	done
	printf 'Hardware\t: Qualcomm Technologies, Inc SM8450\n' >>"$dir/proc/cpuinfo"
	step 0 values
}

# 1 once step $1 is 60 % of the way through the N steps of a thermal run.
capped() {
	if [ $(($1 * 10)) -lt $((6 * ${N:-50})) ]; then echo 0; else echo 1; fi
}

step() {
	k=$1
	mode=$2
	for n in 0 1 2 3 4 5 6 7; do
		d=$cpu/cpu$n/cpufreq
		read -r max <"$d/cpuinfo_max_freq"
		if [ "$mode" = values ]; then
			cur=$((100000 * (n + 1) + k)); lo=$((1000 * (n + 1) + k)); hi=$((3000000 + 100 * n + k))
			[ "$n" -eq 0 ] || w "$cpu/cpu$n/online" $(((k + n) % 2))
		else
			hi=$max
			# Capped to 60 % from 60 % of the way through the run.
			[ "$(capped "$k")" = 0 ] || hi=$((max * 6 / 10))
			cur=$hi; lo=300000
			[ "$n" -eq 0 ] || w "$cpu/cpu$n/online" 1
		fi
		w "$d/scaling_cur_freq" "$cur"
		w "$d/scaling_min_freq" "$lo"
		w "$d/scaling_max_freq" "$hi"
	done
	t=$sys/class/thermal
	for z in 0 1 2; do
		if [ "$mode" = values ]; then v=$((30000 + 1000 * z + k))
		else v=$((55000 + 33000 * k / ${N:-50} - 15000 * z)); fi
		w "$t/thermal_zone$z/temp" "$v"
	done
	for c in 0 1; do
		if [ "$mode" = values ]; then v=$((k % 5 + c)); else v=$((3 * $(capped "$k"))); fi
		w "$t/cooling_device$c/cur_state" "$v"
	done
	w "$sys/class/kgsl/kgsl-3d0/gpuclk" $((300000000 + k))
	w "$sys/class/devfreq/3d00000.qcom,kgsl-3d0/cur_freq" $((400000000 + k))
	b=$sys/class/power_supply/battery
	w "$b/capacity" $((100 - k % 100))
	w "$b/current_now" $((-100000 - k))
	w "$b/voltage_now" $((4000000 - k))
	w "$b/temp" $((300 + k))
	if [ $((k % 2)) -eq 0 ]; then w "$b/status" Charging; else w "$b/status" "Not charging"; fi
	u=$sys/class/power_supply/usb
	w "$u/online" $((k % 2))
	w "$u/current_now" $((500000 + k))
	w "$u/voltage_now" $((5000000 + k))
	: >"$dir/proc/stat.new"
	printf 'cpu  %s 0 %s 1000 0 0 0 0 0 0\n' $((k * 80)) $((k * 8)) >>"$dir/proc/stat.new"
	for n in 0 1 2 3 4 5 6 7; do
		printf 'cpu%s %s 0 %s %s 0 0 0 0 0 0\n' "$n" $((k * 10 + n)) $((k + n)) $((1000 + k)) >>"$dir/proc/stat.new"
	done
	printf 'intr 12345 0 0 0\nctxt 999\nbtime 1700000000\n' >>"$dir/proc/stat.new"
	mv "$dir/proc/stat.new" "$dir/proc/stat"
}

case $cmd in
make) make ;;
step) step "$3" "$4" ;;
run)
	N=$3
	k=1
	while [ "$k" -le "$N" ]; do
		step "$k" "$5"
		read -r up _ </proc/uptime
		echo "$k $up" >>"$dir/steps"
		sleep "$4"
		k=$((k + 1))
	done
	: >"$dir/done"
	;;
*) echo "usage: fixture.sh make|step|run DIR ..." >&2; exit 2 ;;
esac
