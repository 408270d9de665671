#!/bin/sh
# tokscope-record.sh: record an inference run for tokscope, on one clock.
#
#   sh tokscope-record.sh [options] -- COMMAND ARGS...   run COMMAND and record it
#   sh tokscope-record.sh [options] --pid PID            record a running process
#   sh tokscope-record.sh [options] --package NAME       record an Android app (waits for it)
#
# Every interval it samples, on the clock of /proc/uptime: per CPU the online state and the
# current / min / max frequency; every thermal zone; cooling devices; GPU and devfreq clocks;
# battery, USB and adapter supplies; /proc/stat; and per thread of the workload (its process and
# their children) the CPU it last ran on and its CPU time, and each process's RSS. Once it
# records /proc/cpuinfo, uname, a few Android properties, the command and its exit status. The
# workload's stdout and stderr go to the bundle, each line stamped with the sample time at which
# it was read. The result is one text file (docs/bundle.md) to drop into tokscope.
#
# Written for POSIX sh as Android (mksh + toybox), busybox ash and dash run it: builtins only in
# the sampling loop (read, case, set), so each tick costs one short `sleep` process and no more.
# Raw counters go to the bundle unchanged; the reader computes rates, so no shell arithmetic can
# overflow (mksh's is 32-bit).

VERSION=1
usage() {
	cat <<'EOF'
usage: sh tokscope-record.sh [options] -- COMMAND [ARGS...]
       sh tokscope-record.sh [options] --pid PID | --package NAME

  --seconds N     stop after N seconds (the command is then sent SIGTERM); default: until the
                  command or process ends
  --interval S    seconds between samples (default 1; fractions such as 0.5 work)
  --out FILE      the bundle to write (default tokscope-record-<time>.txt here)
  --gzip          gzip the bundle when done (FILE.gz)
  --quiet         do not echo the command's output while recording
  --sys DIR       read /sys from DIR (default /sys), for tests with a fixture tree
  --proc DIR      read /proc from DIR (default /proc); the workload's own /proc/<pid> entries
                  fall back to the real /proc
  --pid PID       record a process that is already running (no log is captured)
  --package NAME  record the Android app NAME, waiting for it to start (no log is captured)

Then drop the bundle into tokscope (the page at the address you got this script from).
EOF
}

SYS=/sys
PROC=/proc
SECONDS_MAX=
INTERVAL=1
OUT=
GZIP=
QUIET=
ATTACH_PID=
PACKAGE=

die() {
	echo "tokscope-record: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || die "--seconds needs a value"; SECONDS_MAX=$2; shift 2 ;;
	--interval) [ $# -ge 2 ] || die "--interval needs a value"; INTERVAL=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || die "--out needs a value"; OUT=$2; shift 2 ;;
	--sys) [ $# -ge 2 ] || die "--sys needs a value"; SYS=$2; shift 2 ;;
	--proc) [ $# -ge 2 ] || die "--proc needs a value"; PROC=$2; shift 2 ;;
	--pid) [ $# -ge 2 ] || die "--pid needs a value"; ATTACH_PID=$2; shift 2 ;;
	--package) [ $# -ge 2 ] || die "--package needs a value"; PACKAGE=$2; shift 2 ;;
	--gzip) GZIP=1; shift ;;
	--quiet) QUIET=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	*) usage >&2; die "unknown option: $1" ;;
	esac
done

if [ $# -eq 0 ] && [ -z "$ATTACH_PID" ] && [ -z "$PACKAGE" ]; then
	usage >&2
	die "nothing to record: give -- COMMAND, --pid or --package"
fi
if [ $# -gt 0 ] && { [ -n "$ATTACH_PID" ] || [ -n "$PACKAGE" ]; }; then
	die "give either -- COMMAND or --pid / --package, not both"
fi
case $ATTACH_PID in *[!0-9]*) die "--pid wants a number, not $ATTACH_PID" ;; esac
case $SECONDS_MAX in *[!0-9]*) die "--seconds wants whole seconds, not $SECONDS_MAX" ;; esac

# Centiseconds of a decimal such as 1, 0.5 or 2.25 (no shell floats anywhere).
to_cs() {
	cs_whole=${1%%.*}
	case $1 in *.*) cs_frac=${1#*.} ;; *) cs_frac= ;; esac
	cs_frac="${cs_frac}00"
	cs_frac=${cs_frac%"${cs_frac#??}"}
	cs_frac=${cs_frac#0}
	cs_whole=${cs_whole:-0}
	case $cs_whole$cs_frac in *[!0-9]*) return 1 ;; esac
	CS=$((cs_whole * 100 + ${cs_frac:-0}))
}
to_cs "$INTERVAL" || die "--interval wants seconds, such as 1 or 0.5, not $INTERVAL"
INTERVAL_CS=$CS
[ "$INTERVAL_CS" -ge 5 ] || die "--interval must be at least 0.05 s"

# One output line, verbatim: mksh's printf is not a builtin (toybox's, a process per line), its
# print is; echo would expand backslashes in dash and mksh.
if [ "$(command -v print 2>/dev/null)" = print ]; then
	say() { print -r -- "$1"; }
else
	say() { printf '%s\n' "$1"; }
fi
note() { [ -n "$QUIET" ] || say "tokscope-record: $*" >&2; }

# The clock: seconds since boot, always from the real /proc (monotonic; a fixture has none).
now() {
	read -r NOW _ </proc/uptime
}
# Centiseconds from the start of NOW (both from /proc/uptime: two decimals).
rel_cs() {
	rc_s=${NOW%.*}
	rc_c=${NOW#*.}
	rc_c=${rc_c#0}
	REL=$(((rc_s - START_S) * 100 + ${rc_c:-0} - START_C))
}

if [ -z "$OUT" ]; then
	# Here, or (adb shell starts in the read-only /) next to the script, or in /data/local/tmp.
	OUT="tokscope-record-$(date +%Y%m%d-%H%M%S 2>/dev/null || echo run).txt"
	for dir in . "${0%/*}" /data/local/tmp /tmp; do
		if [ -d "$dir" ] && [ -w "$dir" ]; then OUT="$dir/$OUT"; break; fi
	done
fi
: >"$OUT" 2>/dev/null || die "cannot write $OUT"
LOG="$OUT.log.tmp"
MISS="$OUT.missing.tmp"
: >"$MISS"

# Things that could not be read, with why: once each, into the bundle's `missing` section.
miss() {
	say "$1	$2" >>"$MISS"
}
# Reads the first line of file $1 into V; false (V empty) when it cannot.
rd() {
	V=
	{ read -r V <"$1"; } 2>/dev/null || [ -n "$V" ]
}
# Like rd, but says why a file that should be there could not be read.
rd_or_miss() {
	if rd "$1"; then return 0; fi
	if [ ! -e "$1" ]; then
		miss "$1" absent
	elif [ ! -r "$1" ]; then
		miss "$1" "permission denied (needs root on this device)"
	else
		miss "$1" "read error (the driver refused it)"
	fi
	return 1
}

# Sleeps CS centiseconds. An old toolbox `sleep` takes whole seconds only; that is found once,
# so that a refused fraction can never turn the loop into a busy one.
FRACTIONAL_SLEEP=
sleep 0.01 2>/dev/null && FRACTIONAL_SLEEP=1
nap() {
	if [ -n "$FRACTIONAL_SLEEP" ]; then
		nap_c=$(($1 % 100))
		[ "$nap_c" -ge 10 ] || nap_c=0$nap_c
		sleep "$(($1 / 100)).$nap_c" 2>/dev/null || sleep 1
	else
		sleep $((($1 + 99) / 100))
	fi
}

# ---- what to sample, decided once --------------------------------------------------------------

CPU_DIR="$SYS/devices/system/cpu"
CPUS=
for d in "$CPU_DIR"/cpu[0-9]*; do
	[ -d "$d" ] || continue
	CPUS="$CPUS ${d##*/cpu}"
done
[ -n "$CPUS" ] || miss "$CPU_DIR/cpu*" absent
CPUFREQ=
for c in $CPUS; do
	if [ -d "$CPU_DIR/cpu$c/cpufreq" ]; then CPUFREQ=1; fi
done

ZONES=
for d in "$SYS"/class/thermal/thermal_zone[0-9]*; do
	[ -e "$d/temp" ] || continue
	if rd_or_miss "$d/temp"; then ZONES="$ZONES ${d##*/thermal_zone}"; fi
done
[ -n "$ZONES" ] || [ -d "$SYS/class/thermal" ] || miss "$SYS/class/thermal" absent

CDEVS=
for d in "$SYS"/class/thermal/cooling_device[0-9]*; do
	[ -e "$d/cur_state" ] || continue
	if rd_or_miss "$d/cur_state"; then CDEVS="$CDEVS ${d##*/cooling_device}"; fi
done

# GPU clocks: Adreno kgsl (Hz), and every devfreq device (Mali, Jetson, Adreno, memory buses).
KGSL=
for f in "$SYS"/class/kgsl/kgsl-3d0/gpuclk "$SYS"/class/kgsl/kgsl-3d0/devfreq/cur_freq; do
	if [ -e "$f" ]; then
		if rd_or_miss "$f"; then KGSL=$f; break; fi
	fi
done
DEVFREQS=
for d in "$SYS"/class/devfreq/*; do
	[ -e "$d/cur_freq" ] || continue
	if rd_or_miss "$d/cur_freq"; then DEVFREQS="$DEVFREQS ${d##*/}"; fi
done
[ -n "$KGSL$DEVFREQS" ] || miss "GPU clock" "no kgsl or devfreq node under $SYS/class"

SUPPLIES=
for d in "$SYS"/class/power_supply/*; do
	[ -d "$d" ] || continue
	SUPPLIES="$SUPPLIES ${d##*/}"
done
[ -n "$SUPPLIES" ] || miss "$SYS/class/power_supply" "absent (no battery or supply driver)"
SUPPLY_FIELDS="online status capacity current_now voltage_now temp charge_counter"

HAVE_STAT=
rd_or_miss "$PROC/stat" && HAVE_STAT=1

# ---- the bundle ---------------------------------------------------------------------------------

now
START_UP=$NOW
START_S=${NOW%.*}
START_C=${NOW#*.}
START_C=${START_C#0}
START_C=${START_C:-0}
CLK_TCK=$(getconf CLK_TCK 2>/dev/null) || CLK_TCK=
PAGE_SIZE=$(getconf PAGESIZE 2>/dev/null) || PAGE_SIZE=

# The one-time part goes straight to the bundle.
{
	say "tokscope-record $VERSION"
	say "# Recorded by tokscope-record.sh for tokscope: drop this file into the page. Format: docs/bundle.md"
	say "@meta"
	say "clock /proc/uptime"
	say "start $START_UP"
	say "epoch $(date +%s 2>/dev/null)"
	say "interval $INTERVAL"
	say "clk_tck ${CLK_TCK:-100}"
	say "page_size ${PAGE_SIZE:-4096}"
	say "sys $SYS"
	say "proc $PROC"
	if [ -n "$ATTACH_PID" ]; then say "attach pid $ATTACH_PID"; fi
	if [ -n "$PACKAGE" ]; then say "attach package $PACKAGE"; fi
	if [ $# -gt 0 ]; then say "command $*"; fi
	say "@uname"
	say "|$(uname -a 2>/dev/null)"
	say "@cpuinfo"
	if [ -r "$PROC/cpuinfo" ]; then
		while IFS= read -r l; do say "|$l"; done <"$PROC/cpuinfo"
	else
		miss "$PROC/cpuinfo" unreadable
	fi
	if command -v getprop >/dev/null 2>&1; then
		say "@props"
		getprop >"$OUT.props.tmp" 2>/dev/null
		while IFS= read -r l; do
			case $l in
			"[ro.product.model]"* | "[ro.product.manufacturer]"* | "[ro.product.brand]"* | \
				"[ro.product.device]"* | "[ro.product.board]"* | "[ro.soc."* | \
				"[ro.board.platform]"* | "[ro.hardware]"* | "[ro.hardware.chipname]"* | \
				"[ro.build.version.release]"* | "[ro.build.version.sdk]"* | \
				"[ro.product.cpu.abi]"* | *thermal* | *power_profile* | *powerhal* | \
				*perf_mode* | *power.mode* | *lowpower*)
				say "|$l"
				;;
			esac
		done <"$OUT.props.tmp"
		rm -f "$OUT.props.tmp"
	fi
	say "@static"
	for c in $CPUS; do
		d="$CPU_DIR/cpu$c/cpufreq"
		for f in cpuinfo_max_freq cpuinfo_min_freq scaling_governor related_cpus; do
			if rd "$d/$f"; then say "cpu $c $f $V"; fi
		done
		[ -d "$d" ] || miss "$d" "absent (offline CPU, or no cpufreq driver)"
	done
	for z in $ZONES; do
		d="$SYS/class/thermal/thermal_zone$z"
		rd "$d/type" && say "zone $z type $V"
		for t in "$d"/trip_point_[0-9]*_temp; do
			[ -e "$t" ] || continue
			n=${t##*/trip_point_}
			n=${n%_temp}
			rd "$t" || continue
			tt=$V
			rd "$d/trip_point_${n}_type" || V='?'
			say "zone $z trip $n $V $tt"
		done
	done
	for c in $CDEVS; do
		d="$SYS/class/thermal/cooling_device$c"
		rd "$d/type" && say "cdev $c type $V"
		rd "$d/max_state" && say "cdev $c max_state $V"
	done
	if [ -n "$KGSL" ]; then
		say "kgsl path ${KGSL#"$SYS"}"
		rd "$SYS/class/kgsl/kgsl-3d0/max_gpuclk" && say "kgsl max_gpuclk $V"
	fi
	for n in $DEVFREQS; do
		d="$SYS/class/devfreq/$n"
		for f in max_freq min_freq governor; do
			if rd "$d/$f"; then say "devfreq $n $f $V"; fi
		done
	done
	for s in $SUPPLIES; do
		rd "$SYS/class/power_supply/$s/type" && say "supply $s type $V"
	done
	say "cols cpu $CPUS"
	say "cols zone $ZONES"
	say "cols cdev $CDEVS"
	say "cols devfreq $DEVFREQS"
} >>"$OUT"

# ---- the workload -------------------------------------------------------------------------------

ROOT_PID=
OWN_CHILD=
EXIT_STATUS=
if [ $# -gt 0 ]; then
	: >"$LOG"
	exec 4<"$LOG"
	"$@" >>"$LOG" 2>&1 4<&- &
	ROOT_PID=$!
	OWN_CHILD=1
	note "recording '$*' (pid $ROOT_PID) into $OUT"
elif [ -n "$ATTACH_PID" ]; then
	ROOT_PID=$ATTACH_PID
	kill -0 "$ROOT_PID" 2>/dev/null || [ -d "/proc/$ROOT_PID" ] || die "no process $ROOT_PID"
	note "recording pid $ROOT_PID into $OUT"
else
	note "waiting for $PACKAGE to start; recording into $OUT"
fi

# Whether the workload still runs. An Android app belongs to another user, so `kill -0` is refused
# there; its /proc entry tells. The own command is checked with kill -0, as the shell reaps it.
alive() {
	if [ -n "$OWN_CHILD" ]; then kill -0 "$1" 2>/dev/null; else [ -d "/proc/$1" ]; fi
}

# The /proc directory of a process: the fixture's when it has one, else the real one.
piddir() {
	if [ -d "$PROC/$1" ]; then PD="$PROC/$1"; else PD="/proc/$1"; fi
}

# Finds a running Android app by its process name.
find_package() {
	FOUND=
	if command -v pidof >/dev/null 2>&1; then
		FOUND=$(pidof "$PACKAGE" 2>/dev/null)
		FOUND=${FOUND%% *}
	fi
	[ -n "$FOUND" ] && return 0
	for d in /proc/[0-9]*; do
		{ read -r fp_c <"$d/cmdline"; } 2>/dev/null
		case $fp_c in "$PACKAGE" | "$PACKAGE"?*) ;; *) continue ;; esac
		case ${fp_c#"$PACKAGE"} in "" | [!a-zA-Z0-9._:]*) FOUND=${d##*/}; return 0 ;; esac
	done
	return 1
}

# ---- sampling -----------------------------------------------------------------------------------

# The new lines of the command's output since the last tick (a partial last line waits).
PARTIAL=
drain_log() {
	[ -n "$OWN_CHILD" ] || return 0
	dl_head=
	while IFS= read -r l <&4 || { PARTIAL="$PARTIAL$l"; false; }; do
		if [ -z "$dl_head" ]; then say "@log $NOW"; dl_head=1; fi
		l="$PARTIAL$l"
		PARTIAL=
		say "|$l"
		[ -n "$QUIET" ] || say "$l" >&2
	done
	if [ -n "$1" ] && [ -n "$PARTIAL" ]; then
		[ -n "$dl_head" ] || say "@log $NOW"
		say "|$PARTIAL"
		PARTIAL=
	fi
}

# One line of values, in the order `cols` declared; `-` for a value that could not be read.
row() {
	row_name=$1
	row_dir=$2
	row_file=$3
	shift 3
	row_line=$row_name
	for row_id in "$@"; do
		if rd "$row_dir$row_id$row_file"; then row_line="$row_line $V"; else row_line="$row_line -"; fi
	done
	say "$row_line"
}

# Threads of pid $1 (tid, the CPU it last ran on = field 39, utime, stime, comm) and its RSS.
sample_pid() {
	sp_pid=$1
	piddir "$sp_pid"
	for t in "$PD"/task/[0-9]*; do
		rd "$t/stat" || continue
		sp_comm=${V#*\(}
		sp_comm=${sp_comm%\)*}
		set -f
		# shellcheck disable=SC2086 # the fields are split on purpose
		set -- ${V##*\) }
		set +f
		[ $# -ge 37 ] || continue
		say "task $sp_pid ${t##*/} ${37} ${12} ${13} $sp_comm"
	done
	if rd "$PD/statm"; then
		set -f
		# shellcheck disable=SC2086
		set -- $V
		set +f
		say "rss $sp_pid $2"
	fi
}

# Pids of the workload: the root and, through task/*/children, its descendants.
PIDS=
collect_pids() {
	PIDS=
	cp_queue=$ROOT_PID
	cp_n=0
	while [ -n "$cp_queue" ] && [ $cp_n -lt 64 ]; do
		cp_p=${cp_queue%% *}
		case $cp_queue in *" "*) cp_queue=${cp_queue#* } ;; *) cp_queue= ;; esac
		PIDS="$PIDS $cp_p"
		cp_n=$((cp_n + 1))
		piddir "$cp_p"
		for t in "$PD"/task/[0-9]*; do
			if rd "$t/children" && [ -n "$V" ]; then
				cp_queue="${cp_queue:+$cp_queue }$V"
				cp_queue=${cp_queue% }
			fi
		done
	done
}

# The id lists (numbers, device names) are split into arguments on purpose.
# shellcheck disable=SC2086
sample() {
	say "@t $NOW"
	if [ -n "$CPUS" ]; then
		row online "$CPU_DIR/cpu" /online $CPUS
	fi
	if [ -n "$CPUFREQ" ]; then
		row cur "$CPU_DIR/cpu" /cpufreq/scaling_cur_freq $CPUS
		row min "$CPU_DIR/cpu" /cpufreq/scaling_min_freq $CPUS
		row max "$CPU_DIR/cpu" /cpufreq/scaling_max_freq $CPUS
	fi
	[ -z "$ZONES" ] || row temp "$SYS/class/thermal/thermal_zone" /temp $ZONES
	[ -z "$CDEVS" ] || row cdev "$SYS/class/thermal/cooling_device" /cur_state $CDEVS
	[ -z "$DEVFREQS" ] || row devfreq "$SYS/class/devfreq/" /cur_freq $DEVFREQS
	if [ -n "$KGSL" ] && rd "$KGSL"; then say "kgsl $V"; fi
	for s in $SUPPLIES; do
		for f in $SUPPLY_FIELDS; do
			if rd "$SYS/class/power_supply/$s/$f"; then say "supply $s $f $V"; fi
		done
	done
	if [ -n "$HAVE_STAT" ]; then
		# Per CPU, the eight counters up to steal (guest time is already in user).
		while read -r sa_name s1 s2 s3 s4 s5 s6 s7 s8 _; do
			case $sa_name in
			cpu) ;;
			cpu*) say "stat $sa_name $s1 $s2 $s3 $s4 $s5 $s6 $s7 $s8" ;;
			*) break ;;
			esac
		done <"$PROC/stat"
	fi
	if [ -n "$ROOT_PID" ]; then
		collect_pids
		for p in $PIDS; do sample_pid "$p"; done
	fi
}

STOP=
trap 'STOP=1' INT TERM HUP
END_CS=
[ -z "$SECONDS_MAX" ] || END_CS=$((SECONDS_MAX * 100))
NEXT=0
TICKS=0
{
	while :; do
		now
		rel_cs
		if [ -z "$ROOT_PID" ] && [ -n "$PACKAGE" ] && find_package; then
			ROOT_PID=$FOUND
			say "@attach $NOW pid $ROOT_PID"
			note "$PACKAGE is pid $ROOT_PID"
		fi
		drain_log
		sample
		TICKS=$((TICKS + 1))
		[ -z "$STOP" ] || break
		if [ -n "$ROOT_PID" ] && ! alive "$ROOT_PID"; then break; fi
		if [ -n "$END_CS" ] && [ "$REL" -ge "$END_CS" ]; then break; fi
		# Drift-free: the next tick is due at a multiple of the interval from the start.
		while [ "$NEXT" -le "$REL" ]; do NEXT=$((NEXT + INTERVAL_CS)); done
		WAIT=$((NEXT - REL))
		[ -z "$END_CS" ] || [ "$NEXT" -le "$END_CS" ] || WAIT=$((END_CS - REL))
		[ "$WAIT" -gt 0 ] || WAIT=1
		nap "$WAIT"
		[ -z "$STOP" ] || break
	done
	if [ -n "$OWN_CHILD" ]; then
		if kill -0 "$ROOT_PID" 2>/dev/null; then
			kill -TERM "$ROOT_PID" 2>/dev/null
			ENDED_BY="recorder"
		else
			ENDED_BY="exit"
		fi
		wait "$ROOT_PID"
		EXIT_STATUS=$?
		now
		drain_log final
		exec 4<&-
	elif [ -n "$ROOT_PID" ] && alive "$ROOT_PID"; then
		ENDED_BY="recorder"
	else
		ENDED_BY="exit"
	fi
	[ -n "$ROOT_PID" ] || miss "$PACKAGE" "the app did not start while recording"
	say "@missing"
	while IFS= read -r l; do
		say "|$l"
		note "could not read $l"
	done <"$MISS"
	now
	rd /proc/$$/stat && SELF=${V##*\) }
	set -f
	# shellcheck disable=SC2086
	set -- $SELF
	set +f
	say "@end $NOW"
	say "ticks $TICKS"
	say "ended_by $ENDED_BY"
	[ -z "$EXIT_STATUS" ] || say "exit $EXIT_STATUS"
	# The recorder's own CPU time (clock ticks): itself, and its waited-for children (sleep,
	# and the command, whose own time is in its task lines).
	[ $# -lt 15 ] || say "self_ticks ${12} ${13} ${14} ${15}"
} >>"$OUT"

rm -f "$LOG" "$MISS"
if [ -s "$OUT" ] && [ -n "$GZIP" ]; then
	gzip -f "$OUT" && OUT="$OUT.gz"
fi
note "wrote $OUT ($TICKS samples); drop it into tokscope"
if [ -n "$EXIT_STATUS" ]; then exit "$EXIT_STATUS"; fi
exit 0
