#!/usr/bin/env python3
"""Writes the text trace samples of samples/traces/ (deterministic: a fixed seed).

Each sample follows its producer's real layout (perf script with --header, perf's right-aligned
thread names, atrace/systrace with its column legend and TGID column) and carries noise: other
processes, idle, kworkers, interrupts, a thread name with spaces. Each shows one problem:

  llama-little-cores.perf.txt    llama.cpp -t 8 on a 4+4 RK3588S board: half the threads on A55s
  affinity-subset.systrace.txt   an app's 4 inference threads confined to CPUs 4-5 and the littles
  rotating-throttle.perf.txt     the fast policies of an SM8550 board take turns at low frequency
  healthy.perf.txt               llama.cpp -t 4 pinned to the 4 big cores at full clock: no finding

Re-run after changing it, then review the golden diffs (UPDATE_GOLDEN=1 cargo test -p tokscope-tests).
"""
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "samples", "traces")
R = random.Random(20261129)

GGML_STACKS = [
    ["ggml_vec_dot_q4_0_q8_0+0x{o:x}", "ggml_compute_forward_mul_mat+0x{p:x}", "ggml_graph_compute_thread+0x{q:x}"],
    ["ggml_vec_dot_q4_0_q8_0+0x{o:x}", "ggml_compute_forward_mul_mat_one_chunk+0x{p:x}", "ggml_compute_forward_mul_mat+0x{q:x}", "ggml_graph_compute_thread+0x1a0"],
    ["quantize_row_q8_0+0x{o:x}", "ggml_compute_forward_mul_mat+0x{p:x}", "ggml_graph_compute_thread+0x{q:x}"],
    ["ggml_barrier+0x{o:x}", "ggml_graph_compute_thread+0x{q:x}"],
    ["ggml_vec_soft_max_f32+0x{o:x}", "ggml_compute_forward_soft_max+0x{p:x}", "ggml_graph_compute_thread+0x{q:x}"],
]
LIB = "/home/orangepi/llama.cpp/build/bin/libggml-cpu.so"


def perf_frames(stack, lib=LIB):
    out = []
    for i, f in enumerate(stack):
        addr = 0x3a000 + R.randrange(0, 0x40000)
        out.append("\t    ffff8c{:06x} {} ({})".format(addr, f.format(o=R.randrange(4, 0x3ff), p=R.randrange(4, 0x7ff), q=R.randrange(4, 0x2ff)), lib))
    out.append("\t    ffff8d1e5f1c start_thread+0x2cc (/usr/lib/aarch64-linux-gnu/libc.so.6)")
    out.append("\t    ffff8d24c8cc thread_start+0xc (/usr/lib/aarch64-linux-gnu/libc.so.6)")
    return out


def perf_head(comm, tid, cpu, t, event, period=None, pid=None):
    who = "{}/{}".format(pid, tid) if pid is not None else str(tid)
    per = " {:>10}".format(period) if period is not None else ""
    return "{:>16} {:>7} [{:03d}] {:12.6f}:{} {}:".format(comm, who, cpu, t, per, event)


def header(hostname, release, cmdline, events, first, last, ncpus=8, cpuid="0x00000000410fd050", pmus="armv8_cortex_a55 = 10, armv8_cortex_a76 = 11, software = 1, tracepoint = 2"):
    h = [
        "# ========",
        "# captured on    : Sat Nov 29 14:02:11 2026",
        "# header version : 1",
        "# data offset    : 328",
        "# data size      : 1184720",
        "# feat offset    : 1185048",
        "# hostname : " + hostname,
        "# os release : " + release,
        "# perf version : 6.1.43",
        "# arch : aarch64",
        "# nrcpus online : {}".format(ncpus),
        "# nrcpus avail : {}".format(ncpus),
        "# cpuid : " + cpuid,
        "# total memory : 16135368 kB",
        "# cmdline : " + cmdline + " ",
    ]
    for i, e in enumerate(events):
        h.append("# event : name = {}, , id = {{ {} }}, type = {}, size = 136, {}sample_type = IP|TID|TIME|CALLCHAIN|CPU|PERIOD|IDENTIFIER, read_format = ID, disabled = 1, inherit = 1, freq = 1, sample_id_all = 1, exclude_guest = 1".format(
            e, ", ".join(str(100 + 8 * i + c) for c in range(ncpus)), "1 (software)" if ":" not in e else "2 (tracepoint)", "{ sample_period, sample_freq } = 100, " if ":" not in e else ""))
    h += [
        "# CPU_TOPOLOGY info available, use -I to display",
        "# pmu mappings: " + pmus,
        "# time of first sample : {:.6f}".format(first),
        "# time of last sample : {:.6f}".format(last),
        "# sample duration : {:10.3f} ms".format((last - first) * 1000),
        "# missing features: TRACING_DATA BRANCH_STACK GROUP_DESC AUXTRACE STAT CLOCKID DIR_FORMAT COMPRESSED CLOCK_DATA ",
        "# ========",
        "#",
    ]
    return h


def write(name, lines):
    with open(os.path.join(OUT, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def freq_line(t, cpu, khz, comm="swapper", tid=0, fmt="perf"):
    if fmt == "perf":
        return perf_head(comm, tid, cpu, t, "power:cpu_frequency") + " state={} cpu_id={}".format(khz, cpu)
    return ftrace_line(comm, tid, None, cpu, "d..2", t, "cpu_frequency", "state={} cpu_id={}".format(khz, cpu))


def ftrace_line(comm, tid, tgid, cpu, flags, t, event, payload):
    task = "{}-{}".format(comm, tid)
    tg = "(-----)" if tgid is None else "({:>5})".format(tgid)
    return "{:>16}  {} [{:03d}] {} {:12.6f}: {}: {}".format(task, tg, cpu, flags, t, event, payload)


def little_cores():
    """llama.cpp -t 8 on RK3588S (0-3 A55 1.8 GHz, 4-7 A76 2.4 GHz), cpu-clock at 100 Hz + callchains."""
    t0 = 8123.411002
    dur = 1.6
    events = []  # (t, lines)
    # Governor settles at the start of the run.
    for cpu in range(8):
        khz = 1800000 if cpu < 4 else 2400000
        events.append((t0 + 0.0004 * cpu, [freq_line(t0 + 0.0004 * cpu, cpu, khz)]))
    pid = 2231
    homes = {2231: 4, 2232: 5, 2233: 6, 2234: 7, 2235: 0, 2236: 1, 2237: 2, 2238: 3}
    for tid, home in homes.items():
        t = t0 + 0.004 + R.random() * 0.01
        cpu = home
        while t < t0 + dur:
            # Mostly at home; now and then a thread is moved within or across clusters.
            r = R.random()
            if r < 0.04:
                cpu = R.choice([0, 1, 2, 3]) if home >= 4 else R.choice([4, 5, 6, 7])
            elif r < 0.30:
                cpu = home
            lines = [perf_head("llama-cli", tid, cpu, t, "cpu-clock", 10000000, pid)]
            lines += perf_frames(R.choice(GGML_STACKS))
            events.append((t, lines))
            t += 0.01 + R.uniform(-0.0004, 0.0004)
    # Noise: a shell, the X server, a kworker, sshd, a thread name with spaces, perf itself.
    noise = [("bash", 1190, 1190), ("Xorg", 902, 902), ("kworker/4:1", 88, 88), ("sshd", 1102, 1102),
             ("gdbus", 1311, 1300), ("Chrome_ChildIOT", 1402, 1400), ("perf", 2229, 2229), ("pool-spawner", 1305, 1300)]
    for _ in range(60):
        comm, tid, pid2 = R.choice(noise)
        t = t0 + R.random() * dur
        cpu = R.randrange(8)
        lines = [perf_head(comm, tid, cpu, t, "cpu-clock", 10000000, pid2)]
        lines += ["\t    ffffffc0080{:05x} {}+0x{:x} ([kernel.kallsyms])".format(R.randrange(0x10000, 0xfffff), R.choice(["el0_svc", "__arm64_sys_ppoll", "do_sys_poll", "schedule"]), R.randrange(8, 0x200))]
        events.append((t, lines))
    # A frequency step on the little cluster mid-run (schedutil), CPU ids 0-3 change together.
    for cpu in range(4):
        tt = t0 + 0.8 + 0.00002 * cpu
        events.append((tt, [freq_line(tt, cpu, 1608000)]))
        tt = t0 + 0.95 + 0.00002 * cpu
        events.append((tt, [freq_line(tt, cpu, 1800000)]))
    events.sort(key=lambda e: e[0])
    out = header("orangepi5", "6.1.43-rockchip-rk3588", "/usr/bin/perf record -a -g -F 100 -e cpu-clock -e power:cpu_frequency -o llama.data -- ./build/bin/llama-cli -m qwen2.5-1.5b-instruct-q4_0.gguf -t 8 -n 64 -p Hello",
                 ["cpu-clock", "power:cpu_frequency"], events[0][0], events[-1][0])
    for _, lines in events:
        out += lines
        out.append("")
    write("llama-little-cores.perf.txt", out)


def affinity_subset():
    """atrace of an Android app whose 4 inference threads are confined to CPUs 4-5 and the littles.
    SM7475-like: 0-3 A510 1.8 GHz, 4-6 A710 2.5 GHz, 7 X2 2.9 GHz."""
    t0 = 5301.200000
    dur = 2.0
    out = [
        "# tracer: nop",
        "#",
        "# entries-in-buffer/entries-written: 41822/41822   #P:8",
        "#",
        "#                                      _-----=> irqs-off",
        "#                                     / _----=> need-resched",
        "#                                    | / _---=> hardirq/softirq",
        "#                                    || / _--=> preempt-depth",
        "#                                    ||| /     delay",
        "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION",
        "#              | |        |      |   ||||       |         |",
    ]
    ev = []
    maxes = {0: 1804800, 1: 1804800, 2: 1804800, 3: 1804800, 4: 2496000, 5: 2496000, 6: 2496000, 7: 2918400}
    for cpu, khz in maxes.items():
        ev.append((t0 + 0.0001 * cpu, ftrace_line("<idle>", 0, None, cpu, "d..2", t0 + 0.0001 * cpu, "cpu_frequency", "state={} cpu_id={}".format(khz, cpu))))
    app = 12873
    workers = [12901, 12902, 12903, 12904]
    allowed = [4, 5, 0, 1, 2, 3]  # the framework's default CPU group
    # Each CPU runs a sequence of slices; workers rotate among allowed CPUs.
    cpu_free = {c: t0 + 0.002 for c in range(8)}
    state = {w: None for w in workers}
    t = t0 + 0.002
    last_cpu = {}
    w_free = {w: t0 for w in workers}
    while t < t0 + dur:
        for w in workers:
            # Pick a CPU of the group; the two fast ones are contended.
            cpu = R.choice(allowed if R.random() < 0.6 else [4, 5])
            start = max(cpu_free[cpu], w_free[w] + 0.0001, t + R.uniform(0, 0.001))
            if start > t0 + dur:
                continue
            run = R.uniform(0.002, 0.006)
            if w in last_cpu and last_cpu[w] != cpu:
                ev.append((start - 0.00003, ftrace_line("llm-infer", w, app, last_cpu[w], "d..4", start - 0.00003, "sched_migrate_task",
                                                         "comm=llm-infer pid={} prio=120 orig_cpu={} dest_cpu={}".format(w, last_cpu[w], cpu))))
            ev.append((start - 0.00001, ftrace_line("llm-infer", workers[0], app, cpu, "dn.4", start - 0.00001, "sched_wakeup",
                                                     "comm=llm-infer pid={} prio=120 target_cpu={:03d}".format(w, cpu))))
            ev.append((start, ftrace_line("<idle>", 0, None, cpu, "d..3", start, "sched_switch",
                                          "prev_comm=swapper/{} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=llm-infer next_pid={} next_prio=120".format(cpu, w))))
            end = start + run
            pre = R.random() < 0.3
            ev.append((end, ftrace_line("llm-infer", w, app, cpu, "d..3", end, "sched_switch",
                                        "prev_comm=llm-infer prev_pid={} prev_prio=120 prev_state={} ==> next_comm=swapper/{} next_pid=0 next_prio=120".format(w, "R+" if pre else "S", cpu))))
            cpu_free[cpu] = end + 0.0002
            w_free[w] = end
            last_cpu[w] = cpu
        t += 0.006
    # Noise on the untouched fast cores and elsewhere: UI threads, binder, a name with spaces.
    noise = [("RenderThread", 9921, 9800), ("surfaceflinger", 702, 702), ("binder:702_3", 1511, 702), ("HeapTaskDaemon", 9810, 9800), ("Jit thread pool", 9812, 9800)]
    for _ in range(50):
        comm, tid, tgid = R.choice(noise)
        cpu = R.choice([6, 7, 6, 7, 0, 2])
        s = t0 + R.random() * dur
        e = s + R.uniform(0.0001, 0.0006)
        ev.append((s, ftrace_line("<idle>", 0, None, cpu, "d..3", s, "sched_switch", "prev_comm=swapper/{} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm={} next_pid={} next_prio=112".format(cpu, comm, tid))))
        ev.append((e, ftrace_line(comm, tid, tgid, cpu, "d..3", e, "sched_switch", "prev_comm={} prev_pid={} prev_prio=112 prev_state=S ==> next_comm=swapper/{} next_pid=0 next_prio=120".format(comm, tid, cpu))))
        ev.append((s - 0.00002, ftrace_line("<idle>", 0, None, cpu, "d.h3", s - 0.00002, "tracing_mark_write", "B|{}|drawFrame".format(tgid))))
    for i in range(30):
        s = t0 + i * dur / 30
        cpu = R.randrange(8)
        ev.append((s, ftrace_line("<idle>", 0, None, cpu, "d..2", s, "cpu_idle", "state=4294967295 cpu_id={}".format(cpu))))
    # Overlapping slices on one CPU are not possible: keep per-CPU order consistent by time.
    ev.sort(key=lambda e: e[0])
    out += [l for _, l in ev]
    write("affinity-subset.systrace.txt", out)


def rotating_throttle():
    """perf script -F comm,tid,cpu,time,period,event,ip,sym,dso,trace of llama.cpp -t 5 pinned to
    CPUs 3-7 of an SM8550 board (0-2 A510 2.0, 3-4 A715 2.8, 5-6 A710 2.8, 7 X3 3.2 GHz).
    The three fast policies (3-4, 5-6, 7) take turns at ~1.3-1.5 GHz, one second each."""
    t0 = 22170.500000
    dur = 6.0
    ev = []
    policies = {3: [3, 4], 5: [5, 6], 7: [7]}
    top = {3: 2803200, 5: 2803200, 7: 3187200}
    low = {3: 1401600, 5: 1497600, 7: 1344000}
    for cpu in range(3):
        tt = t0 + 0.0002 * cpu
        ev.append((tt, [freq_line(tt, cpu, 2016000)]))
    order = [3, 5, 7, 3, 5, 7]
    for k, p in enumerate(order):
        ts = t0 + k * 1.0 + 0.003
        for q, cpus in policies.items():
            khz = low[q] if q == p else top[q]
            for c in cpus:
                tt = ts + 0.00003 * c
                ev.append((tt, [freq_line(tt, c, khz, "kworker/u16:2", 311)]))
    for i in range(6):
        tt = t0 + i + 0.5
        temp = 61000 + 1500 * i + R.randrange(0, 400)
        ev.append((tt, [perf_head("kworker/0:1", 41, 0, tt, "thermal:thermal_temperature") + " thermal_zone=cpu-1-0-usr id=17 temp_prev={} temp={}".format(temp - 300, temp)]))
    pid = 4410
    for i, tid in enumerate(range(4410, 4415)):
        cpu = 3 + i
        t = t0 + 0.002 + R.random() * 0.01
        while t < t0 + dur:
            sym = R.choice(["ggml_vec_dot_q4_0_q8_0", "ggml_compute_forward_mul_mat", "ggml_barrier", "quantize_row_q8_0"])
            ev.append((t, [perf_head("llama-cli", tid, cpu, t, "cpu-clock", 10000000, pid) + "  {:>16x} {}+0x{:x} (/data/local/tmp/llama/libggml-cpu.so)".format(0x7a3c000000 + R.randrange(0, 0xfffff), sym, R.randrange(4, 0x400))]))
            t += 0.01 + R.uniform(-0.0003, 0.0003)
    for _ in range(40):
        t = t0 + R.random() * dur
        cpu = R.randrange(3)
        comm, tid = R.choice([("adbd", 612), ("logd", 388), ("irq/215-dwc3", 290), ("kworker/u16:2", 311)])
        ev.append((t, [perf_head(comm, tid, cpu, t, "cpu-clock", 10000000, tid) + "  ffffffc0081{:05x} {}+0x{:x} ([kernel.kallsyms])".format(R.randrange(0x10000, 0xfffff), R.choice(["_raw_spin_unlock_irqrestore", "el0_svc_common", "__schedule"]), R.randrange(8, 0x200))]))
    ev.sort(key=lambda e: e[0])
    out = header("qcs8550-dev", "5.15.104-qki", "/usr/bin/perf record -a -F 100 -e cpu-clock -e power:cpu_frequency -e thermal:thermal_temperature -o rot.data -- taskset -c 3-7 ./llama-cli -m llama-3.2-3b-q4_0.gguf -t 5 -n 256",
                 ["cpu-clock", "power:cpu_frequency", "thermal:thermal_temperature"], ev[0][0], ev[-1][0],
                 cpuid="0x00000000410fd460", pmus="armv8_pmuv3 = 8, software = 1, tracepoint = 2")
    for _, lines in ev:
        out += lines
    write("rotating-throttle.perf.txt", out)


def healthy():
    """llama.cpp -t 4 under taskset -c 4-7 on RK3588S, sched_switch + cpu_frequency: all good."""
    t0 = 9100.250000
    dur = 2.0
    ev = []
    for cpu in range(8):
        khz = 1800000 if cpu < 4 else 2400000
        tt = t0 + 0.0001 * cpu
        ev.append((tt, perf_head("swapper", 0, cpu, tt, "power:cpu_frequency") + " state={} cpu_id={}".format(khz, cpu)))
    pid = 3310
    for i, tid in enumerate(range(3310, 3314)):
        cpu = 4 + i
        t = t0 + 0.001 + i * 0.0003
        ev.append((t, perf_head("swapper/{}".format(cpu), 0, cpu, t, "sched:sched_switch") + " prev_comm=swapper/{} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=llama-cli next_pid={} next_prio=120".format(cpu, tid)))
        while t < t0 + dur - 0.05:
            run = R.uniform(0.08, 0.2)
            t_out = t + run
            # A kworker preempts briefly, then the worker resumes on the same core.
            kw = "kworker/{}:1".format(cpu)
            kt = 60 + cpu
            ev.append((t_out, perf_head("llama-cli", tid, cpu, t_out, "sched:sched_switch") + " prev_comm=llama-cli prev_pid={} prev_prio=120 prev_state=R+ ==> next_comm={} next_pid={} next_prio=120".format(tid, kw, kt)))
            back = t_out + R.uniform(0.00002, 0.00008)
            ev.append((back, perf_head(kw, kt, cpu, back, "sched:sched_switch") + " prev_comm={} prev_pid={} prev_prio=120 prev_state=I ==> next_comm=llama-cli next_pid={} next_prio=120".format(kw, kt, tid)))
            t = back
        ev.append((t0 + dur, perf_head("llama-cli", tid, cpu, t0 + dur, "sched:sched_switch") + " prev_comm=llama-cli prev_pid={} prev_prio=120 prev_state=S ==> next_comm=swapper/{} next_pid=0 next_prio=120".format(tid, cpu)))
    # The little cores serve the rest of the system.
    for _ in range(120):
        cpu = R.randrange(4)
        comm, tid = R.choice([("sshd", 1102), ("systemd-journal", 301), ("rs:main Q:Reg", 640), ("Xorg", 902)])
        s = t0 + R.random() * dur
        e = s + R.uniform(0.0002, 0.003)
        ev.append((s, perf_head("swapper/{}".format(cpu), 0, cpu, s, "sched:sched_switch") + " prev_comm=swapper/{} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm={} next_pid={} next_prio=120".format(cpu, comm, tid)))
        ev.append((e, perf_head(comm, tid, cpu, e, "sched:sched_switch") + " prev_comm={} prev_pid={} prev_prio=120 prev_state=S ==> next_comm=swapper/{} next_pid=0 next_prio=120".format(comm, tid, cpu)))
    for k in range(6):
        tt = t0 + 0.3 * k + 0.1
        # The four little CPUs share one cpufreq policy: they change together.
        khz = R.choice([1008000, 1416000, 1800000])
        for cpu in range(4):
            ev.append((tt + cpu * 1e-5, perf_head("swapper", 0, cpu, tt + cpu * 1e-5, "power:cpu_frequency") + " state={} cpu_id={}".format(khz, cpu)))
    ev.sort(key=lambda e: e[0])
    out = header("orangepi5", "6.1.43-rockchip-rk3588", "/usr/bin/perf record -a -e sched:sched_switch -e power:cpu_frequency -o ok.data -- taskset -c 4-7 ./build/bin/llama-cli -m qwen2.5-1.5b-instruct-q4_0.gguf -t 4 -n 64 -p Hello",
                 ["sched:sched_switch", "power:cpu_frequency"], ev[0][0], ev[-1][0])
    out += [l for _, l in ev]
    write("healthy.perf.txt", out)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    little_cores()
    affinity_subset()
    rotating_throttle()
    healthy()
