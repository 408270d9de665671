//! Realistic `perf script --header` text with callchains, of any size, streamed to a writer: the
//! one generator behind `gen_bench_data perf <MiB>` and the `trace_parse` bench (both include this
//! file), so the throughput and memory benchmarks need no committed giant files.
//!
//! What it imitates: `perf record -a -g -F 1000 -e cpu-clock -e cycles -e power:cpu_frequency
//! -e sched:sched_switch` on an RK3588 board (CPUs 0-3 Cortex-A55, 4-7 Cortex-A76) while
//! `llama-cli -t 8` decodes: eight llama.cpp threads spread over both clusters (little cores
//! included) and migrating now and then, workers spinning in `ggml_barrier` while the main thread
//! samples a token, other processes (surfaceflinger, system_server binder threads, kworkers, perf
//! itself, short-lived threads with fresh tids) preempting them, the idle task, and schedutil
//! changing cluster clocks. Frames carry addresses, `symbol+0xoff` and DSO paths as perf prints
//! them. Deterministic: the same bytes for the same size, every run.

use std::io::{self, Write};

/// Deterministic pseudo-random numbers (no dependency, same bytes every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

const GGML_CPU: &str = "/home/orangepi/llama.cpp/build/bin/libggml-cpu.so";
const GGML_BASE: &str = "/home/orangepi/llama.cpp/build/bin/libggml-base.so";
const LLAMA: &str = "/home/orangepi/llama.cpp/build/bin/libllama.so";
const LLAMA_CLI: &str = "/home/orangepi/llama.cpp/build/bin/llama-cli";
const LIBC: &str = "/usr/lib/aarch64-linux-gnu/libc.so.6";
const KERNEL: &str = "[kernel.kallsyms]";

/// One function: where it lives (DSO load address + offset) and how long it is.
#[derive(Clone, Copy)]
struct Sym {
    name: &'static str,
    dso: &'static str,
    addr: u64,
    size: u64,
}

const fn sym(name: &'static str, dso: &'static str, addr: u64, size: u64) -> Sym {
    Sym {
        name,
        dso,
        addr,
        size,
    }
}

// Leaf functions of the compute threads, weighted by how often they show up in a real decode
// profile (the dot product dominates).
const LEAVES: &[(Sym, u64)] = &[
    (
        sym("ggml_vec_dot_q4_0_q8_0", GGML_CPU, 0xffff8c03fa00, 0x3c0),
        60,
    ),
    (sym("ggml_vec_dot_f16", GGML_CPU, 0xffff8c041200, 0x2a0), 6),
    (sym("quantize_row_q8_0", GGML_CPU, 0xffff8c05dc00, 0x180), 5),
    (
        sym("ggml_vec_soft_max_f32", GGML_CPU, 0xffff8c057000, 0x3a0),
        4,
    ),
    (
        sym(
            "ggml_compute_forward_rms_norm_f32",
            GGML_CPU,
            0xffff8c062400,
            0x2f0,
        ),
        3,
    ),
    (
        sym(
            "ggml_compute_forward_rope_f32",
            GGML_CPU,
            0xffff8c066800,
            0x6c0,
        ),
        3,
    ),
    (sym("ggml_vec_mad_f16", GGML_CPU, 0xffff8c0489c0, 0x200), 3),
    (sym("ggml_barrier", GGML_CPU, 0xffff8c03a700, 0x380), 16),
];
const MUL_MAT_CHUNK: Sym = sym(
    "ggml_compute_forward_mul_mat_one_chunk",
    GGML_CPU,
    0xffff8c04e000,
    0x800,
);
const MUL_MAT: Sym = sym(
    "ggml_compute_forward_mul_mat",
    GGML_CPU,
    0xffff8c040000,
    0x900,
);
const FORWARD: Sym = sym("ggml_compute_forward", GGML_CPU, 0xffff8c03c000, 0x600);
const COMPUTE_THREAD: Sym = sym("ggml_graph_compute_thread", GGML_CPU, 0xffff8c0585c0, 0x2c0);
const START_THREAD: Sym = sym("start_thread", LIBC, 0xffff8d1e5c50, 0x300);
const THREAD_START: Sym = sym("thread_start", LIBC, 0xffff8d24c8c0, 0x20);
/// The main thread computes too, under the decode call chain.
const MAIN_STACK: &[Sym] = &[
    sym("ggml_graph_compute", GGML_CPU, 0xffff8c05a100, 0x400),
    sym(
        "ggml_backend_cpu_graph_compute",
        GGML_CPU,
        0xffff8c0a2200,
        0x1c0,
    ),
    sym(
        "ggml_backend_sched_graph_compute_async",
        GGML_BASE,
        0xffff8bf3c400,
        0x900,
    ),
    sym("llama_context::graph_compute", LLAMA, 0xffff8d5a1800, 0x2a0),
    sym("llama_context::decode", LLAMA, 0xffff8d59e000, 0x1800),
    sym("llama_decode", LLAMA, 0xffff8d5b7300, 0x60),
    sym("main", LLAMA_CLI, 0xaaaab1c27000, 0x4400),
    sym("__libc_start_call_main", LIBC, 0xffff8d187300, 0xa0),
    sym("__libc_start_main_impl", LIBC, 0xffff8d187400, 0x120),
    sym("_start", LLAMA_CLI, 0xaaaab1c1d5c0, 0x40),
];
/// The main thread between graphs: picking the next token.
const SAMPLING: &[Sym] = &[
    sym("llama_sampler_top_k_impl", LLAMA, 0xffff8d613000, 0x700),
    sym("llama_sampler_apply", LLAMA, 0xffff8d60f200, 0x60),
    sym("common_sampler_sample", LLAMA_CLI, 0xaaaab1c6e000, 0x5c0),
    sym("main", LLAMA_CLI, 0xaaaab1c27000, 0x4400),
];
/// Kernel entry from user space on a timer interrupt: sits on top of a user stack now and then.
const IRQ_FROM_USER: &[Sym] = &[
    sym("arch_timer_handler_phys", KERNEL, 0xffffffc0089f1a40, 0x40),
    sym("handle_percpu_devid_irq", KERNEL, 0xffffffc008136c20, 0x140),
    sym(
        "generic_handle_domain_irq",
        KERNEL,
        0xffffffc00812f3a0,
        0x40,
    ),
    sym("gic_handle_irq", KERNEL, 0xffffffc008010f60, 0x100),
    sym("el0_interrupt", KERNEL, 0xffffffc008ce8a00, 0x90),
    sym("el0t_64_irq_handler", KERNEL, 0xffffffc008ce9100, 0x20),
    sym("el0t_64_irq", KERNEL, 0xffffffc008011820, 0x1a0),
];
const IDLE: &[Sym] = &[
    sym("cpuidle_enter_state", KERNEL, 0xffffffc008b2e4c0, 0x3a0),
    sym("cpuidle_enter", KERNEL, 0xffffffc008b2e8c0, 0x50),
    sym("do_idle", KERNEL, 0xffffffc008105f80, 0x260),
    sym("cpu_startup_entry", KERNEL, 0xffffffc0081062a0, 0x30),
    sym("secondary_start_kernel", KERNEL, 0xffffffc008029a20, 0x160),
];
const SWITCH_PREEMPT: &[Sym] = &[
    sym("__schedule", KERNEL, 0xffffffc008cec3a0, 0x800),
    sym("schedule", KERNEL, 0xffffffc008cecc00, 0xc0),
    sym("do_notify_resume", KERNEL, 0xffffffc00801f9c0, 0x180),
    sym("el0_interrupt", KERNEL, 0xffffffc008ce8a00, 0x90),
    sym("el0t_64_irq_handler", KERNEL, 0xffffffc008ce9100, 0x20),
    sym("el0t_64_irq", KERNEL, 0xffffffc008011820, 0x1a0),
];
const SWITCH_SLEEP: &[Sym] = &[
    sym("__schedule", KERNEL, 0xffffffc008cec3a0, 0x800),
    sym("schedule", KERNEL, 0xffffffc008cecc00, 0xc0),
    sym("futex_wait_queue", KERNEL, 0xffffffc0081a0d60, 0xa0),
    sym("futex_wait", KERNEL, 0xffffffc0081a1540, 0x1a0),
    sym("do_futex", KERNEL, 0xffffffc00819c6a0, 0x1a0),
    sym("__arm64_sys_futex", KERNEL, 0xffffffc00819cc20, 0x1c0),
    sym("invoke_syscall", KERNEL, 0xffffffc008029b60, 0x60),
    sym("el0_svc", KERNEL, 0xffffffc008ce8680, 0x40),
];
const CPUFREQ: &[Sym] = &[
    sym(
        "cpufreq_freq_transition_end",
        KERNEL,
        0xffffffc008b27d20,
        0x100,
    ),
    sym("__cpufreq_driver_target", KERNEL, 0xffffffc008b28be0, 0x160),
    sym("sugov_work", KERNEL, 0xffffffc008116a40, 0x80),
    sym("kthread_worker_fn", KERNEL, 0xffffffc0080d3c40, 0x140),
    sym("kthread", KERNEL, 0xffffffc0080cbe80, 0x120),
    sym("ret_from_fork", KERNEL, 0xffffffc008011f40, 0x10),
];

/// A process other than llama.cpp and its typical call stack (innermost first).
struct Other {
    comm: &'static str,
    pid: u32,
    tid: u32,
    stack: &'static [Sym],
}

const SF: &str = "/system/lib64/libsurfaceflinger.so";
const BINDER: &str = "/system/lib64/libbinder.so";
const OTHERS: &[Other] = &[
    Other {
        comm: "surfaceflinger",
        pid: 612,
        tid: 650,
        stack: &[
            sym(
                "android::SurfaceFlinger::composite",
                SF,
                0x7f9a31c400,
                0x900,
            ),
            sym(
                "android::SurfaceFlinger::onMessageInvalidate",
                SF,
                0x7f9a31a000,
                0x600,
            ),
            sym(
                "android::impl::MessageQueue::Handler::handleMessage",
                SF,
                0x7f9a2e8200,
                0x100,
            ),
            sym(
                "android::Looper::pollOnce",
                "/system/lib64/libutils.so",
                0x7f9d2a6300,
                0x3c0,
            ),
            sym("android::SurfaceFlinger::run", SF, 0x7f9a315800, 0x80),
            sym("main", "/system/bin/surfaceflinger", 0x5c3b01a400, 0x500),
        ],
    },
    Other {
        comm: "binder:1489_3",
        pid: 1489,
        tid: 1530,
        stack: &[
            sym("android::Parcel::readInt32", BINDER, 0x7a41e05100, 0x40),
            sym("android::BBinder::transact", BINDER, 0x7a41dea300, 0x120),
            sym(
                "android::IPCThreadState::executeCommand",
                BINDER,
                0x7a41df5c00,
                0x700,
            ),
            sym(
                "android::IPCThreadState::getAndExecuteCommand",
                BINDER,
                0x7a41df5600,
                0x180,
            ),
            sym(
                "android::IPCThreadState::joinThreadPool",
                BINDER,
                0x7a41df6400,
                0x140,
            ),
            sym(
                "android::PoolThread::threadLoop",
                BINDER,
                0x7a41e12200,
                0x40,
            ),
            sym(
                "android::Thread::_threadLoop",
                "/system/lib64/libutils.so",
                0x7f9d2b0100,
                0x180,
            ),
            sym(
                "__pthread_start",
                "/apex/com.android.runtime/lib64/bionic/libc.so",
                0x7f9c1a3500,
                0x60,
            ),
        ],
    },
    Other {
        comm: "kworker/u16:2",
        pid: 87,
        tid: 87,
        stack: &[
            sym("__memcpy", KERNEL, 0xffffffc0085d1200, 0x200),
            sym("ext4_bio_write_page", KERNEL, 0xffffffc00839c6a0, 0x3c0),
            sym("mpage_submit_page", KERNEL, 0xffffffc00838a1c0, 0x90),
            sym("ext4_do_writepages", KERNEL, 0xffffffc00838f4e0, 0x6c0),
            sym("do_writepages", KERNEL, 0xffffffc00824c100, 0xe0),
            sym("wb_workfn", KERNEL, 0xffffffc008300a40, 0x2c0),
            sym("process_one_work", KERNEL, 0xffffffc0080c3e60, 0x1e0),
            sym("worker_thread", KERNEL, 0xffffffc0080c4580, 0x250),
            sym("kthread", KERNEL, 0xffffffc0080cbe80, 0x120),
            sym("ret_from_fork", KERNEL, 0xffffffc008011f40, 0x10),
        ],
    },
    Other {
        comm: "perf",
        pid: 2230,
        tid: 2230,
        stack: &[
            sym("__arch_copy_to_user", KERNEL, 0xffffffc0085d0e40, 0x240),
            sym("perf_read", KERNEL, 0xffffffc008218d20, 0x2e0),
            sym("vfs_read", KERNEL, 0xffffffc0082a8be0, 0x1a0),
            sym("ksys_read", KERNEL, 0xffffffc0082a9140, 0xc0),
            sym("__arm64_sys_read", KERNEL, 0xffffffc0082a9220, 0x20),
            sym("invoke_syscall", KERNEL, 0xffffffc008029b60, 0x60),
            sym("el0_svc", KERNEL, 0xffffffc008ce8680, 0x40),
            sym("__read", LIBC, 0xffff9e6d1f80, 0x80),
            sym("perf_mmap__push", "/usr/bin/perf", 0xaaaad2b4c200, 0x180),
            sym("cmd_record", "/usr/bin/perf", 0xaaaad2a71000, 0x2000),
            sym("main", "/usr/bin/perf", 0xaaaad2a40a00, 0x600),
        ],
    },
];
/// Short-lived helpers (a shell running `dumpsys`, a fresh kworker) get new tids as time goes.
const SHORT_LIVED: &[Sym] = &[
    sym("clear_page", KERNEL, 0xffffffc0085cf100, 0x40),
    sym("do_anonymous_page", KERNEL, 0xffffffc008263b20, 0x380),
    sym("handle_mm_fault", KERNEL, 0xffffffc00826a2e0, 0x3a0),
    sym("do_page_fault", KERNEL, 0xffffffc00803a4c0, 0x460),
    sym("el0_da", KERNEL, 0xffffffc008ce8400, 0x80),
    sym(
        "__memset_aarch64",
        "/apex/com.android.runtime/lib64/bionic/libc.so",
        0x7f9c176000,
        0x180,
    ),
    sym("main", "/system/bin/dumpsys", 0x5e71a03200, 0x400),
];

const LLAMA_PID: u32 = 2231;
const N_CPUS: usize = 8;
const BIG_FIRST: usize = 4;
/// Cluster clocks schedutil picks from, kHz (little, big).
const LITTLE_KHZ: &[u64] = &[408_000, 1_008_000, 1_416_000, 1_800_000];
const BIG_KHZ: &[u64] = &[408_000, 1_200_000, 1_800_000, 2_208_000, 2_400_000];
/// One decoded token every this many ticks (ms); the first few of them the main thread samples.
const TOKEN_TICKS: u64 = 86;
const SAMPLING_TICKS: u64 = 3;

/// What runs on one CPU during one tick.
#[derive(Clone, Copy, PartialEq)]
enum Task {
    Llama(u32),
    Other(usize),
    ShortLived(u32),
    Idle,
}

struct Gen {
    r: Lcg,
    tick: u64,
    /// Which llama.cpp thread each CPU runs.
    llama_on: [u32; N_CPUS],
    /// Whom each CPU ran last tick, for `sched_switch`.
    last: [Task; N_CPUS],
    khz: [u64; 2],
    next_short_tid: u32,
    short_lived: Option<(u32, u64)>,
    line: Vec<u8>,
}

/// Writes the header and then sample blocks until at least `target` bytes are out (the last
/// block is whole). Returns the bytes written. Memory use is a few KiB whatever the size.
pub fn write(target: u64, out: &mut impl Write) -> io::Result<u64> {
    let mut g = Gen {
        r: Lcg(42),
        tick: 0,
        // Threads 0-3 on the big cores, 4-7 on the little ones: `-t 8` on a 4+4 SoC.
        llama_on: [2235, 2236, 2237, 2238, 2231, 2232, 2233, 2234],
        last: [Task::Idle; N_CPUS],
        khz: [1_800_000, 2_400_000],
        next_short_tid: 3100,
        short_lived: None,
        line: Vec::with_capacity(64 << 10),
    };
    g.header();
    let mut written = 0u64;
    while written < target {
        g.tick()?;
        out.write_all(&g.line)?;
        written += g.line.len() as u64;
        g.line.clear();
    }
    Ok(written)
}

impl Gen {
    fn header(&mut self) {
        let l = &mut self.line;
        let _ = l.write_all(b"# ========\n# captured on    : Sat Nov 29 14:02:11 2026\n# header version : 1\n# data offset    : 928\n# hostname : orangepi5\n# os release : 6.1.43-rockchip-rk3588\n# perf version : 6.1.43\n# arch : aarch64\n# nrcpus online : 8\n# nrcpus avail : 8\n# cpuid : 0x00000000410fd050\n# total memory : 16135368 kB\n# cmdline : /usr/bin/perf record -a -g -F 1000 -e cpu-clock -e cycles -e power:cpu_frequency -e sched:sched_switch -o llama.data -- ./build/bin/llama-cli -m qwen2.5-1.5b-instruct-q4_0.gguf -t 8 -n 4096 -p Hello \n");
        for (name, kind) in [
            ("cpu-clock", "1 (software)"),
            ("cycles", "0 (PERF_TYPE_HARDWARE)"),
            ("power:cpu_frequency", "2 (tracepoint)"),
            ("sched:sched_switch", "2 (tracepoint)"),
        ] {
            let _ = writeln!(l, "# event : name = {name}, , id = {{ 100, 101, 102, 103, 104, 105, 106, 107 }}, type = {kind}, size = 136, {{ sample_period, sample_freq }} = 1000, sample_type = IP|TID|TIME|CALLCHAIN|CPU|PERIOD|IDENTIFIER, read_format = ID, disabled = 1, inherit = 1, freq = 1, sample_id_all = 1, exclude_guest = 1");
        }
        let _ = l.write_all(b"# CPU_TOPOLOGY info available, use -I to display\n# pmu mappings: armv8_cortex_a55 = 10, armv8_cortex_a76 = 11, software = 1, tracepoint = 2\n# missing features: TRACING_DATA BRANCH_STACK GROUP_DESC AUXTRACE STAT CLOCKID DIR_FORMAT COMPRESSED CLOCK_DATA \n# ========\n#\n");
    }

    /// Time of `tick` plus `us` microseconds, as perf prints it (seconds since boot).
    fn time(&self, us: u64) -> (u64, u64) {
        let t = 8_123_411_002 + self.tick * 1000 + us;
        (t / 1_000_000, t % 1_000_000)
    }

    fn task_of(&mut self, cpu: usize) -> Task {
        if let Some((tid, until)) = self.short_lived {
            if self.tick < until && cpu == 2 {
                return Task::ShortLived(tid);
            }
        }
        match self.r.below(100) {
            0..=3 => Task::Idle,
            4..=5 => Task::Other(0),
            6 => Task::Other(1),
            7 => Task::Other(2),
            8 if cpu < BIG_FIRST => Task::Other(3),
            _ => Task::Llama(self.llama_on[cpu]),
        }
    }

    fn tick(&mut self) -> io::Result<()> {
        // Every ~250 ms two threads trade CPUs (now and then across clusters); every ~2 s a
        // short-lived process with a fresh tid runs for ~40 ms; schedutil moves the clocks.
        if self.tick % 250 == 249 {
            let a = self.r.below(N_CPUS as u64) as usize;
            let b = self.r.below(N_CPUS as u64) as usize;
            self.llama_on.swap(a, b);
        }
        if self.tick % 2000 == 1000 {
            self.short_lived = Some((self.next_short_tid, self.tick + 40));
            self.next_short_tid += 3 + self.r.below(20) as u32;
        }
        let in_token = self.tick % TOKEN_TICKS;
        for cpu in 0..N_CPUS {
            let task = self.task_of(cpu);
            let prev = self.last[cpu];
            // Within the tick, CPU by CPU, so the lines are in time order as perf script prints them.
            let offset = cpu as u64 * 120 + self.r.below(50);
            if prev != task && prev != Task::Idle && task != Task::Idle {
                self.switch(cpu, prev, task, offset)?;
            }
            self.last[cpu] = task;
            let sampling = in_token < SAMPLING_TICKS;
            self.sample(cpu, task, offset + 3, "cpu-clock", 1_001_001, sampling)?;
            let khz = self.khz[usize::from(cpu >= BIG_FIRST)];
            let cycles = khz + self.r.below(khz / 50);
            self.sample(cpu, task, offset + 61, "cycles", cycles, sampling)?;
        }
        if self.tick % 50 == 7 {
            self.freq_change()?;
        }
        self.tick += 1;
        Ok(())
    }

    fn head(&mut self, comm: &str, pid: u32, tid: u32, cpu: usize, us: u64) -> io::Result<()> {
        let (s, frac) = self.time(us);
        write!(
            self.line,
            "{comm:>16} {pid:>5}/{tid:<5} [{cpu:03}] {s}.{frac:06}: "
        )
    }

    fn frame(&mut self, f: &Sym) -> io::Result<()> {
        let off = self.r.below(f.size);
        writeln!(
            self.line,
            "\t{:>16x} {}+0x{off:x} ({})",
            f.addr + off,
            f.name,
            f.dso
        )
    }

    fn frames(&mut self, stack: &[Sym]) -> io::Result<()> {
        for f in stack {
            self.frame(f)?;
        }
        Ok(())
    }

    fn sample(
        &mut self,
        cpu: usize,
        task: Task,
        us: u64,
        event: &str,
        period: u64,
        sampling: bool,
    ) -> io::Result<()> {
        match task {
            Task::Idle => {
                self.head("swapper", 0, 0, cpu, us)?;
                writeln!(self.line, "{period:>10} {event}: ")?;
                self.frames(IDLE)?;
            }
            Task::Other(i) => {
                let o = &OTHERS[i];
                self.head(o.comm, o.pid, o.tid, cpu, us)?;
                writeln!(self.line, "{period:>10} {event}: ")?;
                self.frames(o.stack)?;
            }
            Task::ShortLived(tid) => {
                self.head("dumpsys", tid, tid, cpu, us)?;
                writeln!(self.line, "{period:>10} {event}: ")?;
                self.frames(SHORT_LIVED)?;
            }
            Task::Llama(tid) => {
                self.head("llama-cli", LLAMA_PID, tid, cpu, us)?;
                writeln!(self.line, "{period:>10} {event}: ")?;
                if self.r.below(40) == 0 {
                    self.frames(IRQ_FROM_USER)?;
                }
                let main = tid == LLAMA_PID;
                if sampling && main {
                    self.frames(SAMPLING)?;
                } else if sampling {
                    // Workers wait for the next graph.
                    self.frame(&LEAVES[LEAVES.len() - 1].0)?;
                    self.frame(&COMPUTE_THREAD)?;
                } else {
                    let leaf = self.leaf();
                    self.frame(&leaf)?;
                    if leaf.name.starts_with("ggml_vec_dot") || leaf.name == "quantize_row_q8_0" {
                        self.frame(&MUL_MAT_CHUNK)?;
                        self.frame(&MUL_MAT)?;
                        self.frame(&FORWARD)?;
                    } else if leaf.name != "ggml_barrier" {
                        self.frame(&FORWARD)?;
                    }
                    self.frame(&COMPUTE_THREAD)?;
                }
                if main {
                    if !sampling {
                        self.frames(MAIN_STACK)?;
                    } else {
                        self.frames(&MAIN_STACK[7..])?;
                    }
                } else {
                    self.frame(&START_THREAD)?;
                    self.frame(&THREAD_START)?;
                }
            }
        }
        self.line.push(b'\n');
        Ok(())
    }

    fn leaf(&mut self) -> Sym {
        let total: u64 = LEAVES.iter().map(|(_, w)| w).sum();
        let mut pick = self.r.below(total);
        for (s, w) in LEAVES {
            if pick < *w {
                return *s;
            }
            pick -= w;
        }
        LEAVES[0].0
    }

    /// `sched:sched_switch` on `cpu` from `prev` to `next`, with the kernel callchain.
    fn switch(&mut self, cpu: usize, prev: Task, next: Task, us: u64) -> io::Result<()> {
        let who = |t: Task| -> (&'static str, u32, u32, i32) {
            match t {
                Task::Llama(tid) => ("llama-cli", LLAMA_PID, tid, 120),
                Task::Other(i) => (
                    OTHERS[i].comm,
                    OTHERS[i].pid,
                    OTHERS[i].tid,
                    98 + i as i32 * 10,
                ),
                Task::ShortLived(tid) => ("dumpsys", tid, tid, 120),
                Task::Idle => ("swapper/0", 0, 0, 120),
            }
        };
        let (pc, ppid, ptid, pprio) = who(prev);
        let (nc, _, ntid, nprio) = who(next);
        // Preempted (R+) most of the time; a llama worker sometimes sleeps on its futex.
        let sleeps = matches!(prev, Task::Llama(_)) && self.r.below(4) == 0;
        let state = if sleeps { "S" } else { "R+" };
        self.head(pc, ppid, ptid, cpu, us)?;
        writeln!(
            self.line,
            "         1 sched:sched_switch: prev_comm={pc} prev_pid={ptid} prev_prio={pprio} prev_state={state} ==> next_comm={nc} next_pid={ntid} next_prio={nprio}"
        )?;
        self.frames(if sleeps { SWITCH_SLEEP } else { SWITCH_PREEMPT })?;
        self.line.push(b'\n');
        Ok(())
    }

    /// schedutil picks a new clock for one cluster: one `cpu_frequency` event per CPU of it.
    fn freq_change(&mut self) -> io::Result<()> {
        let big = self.r.below(2) == 1;
        let table = if big { BIG_KHZ } else { LITTLE_KHZ };
        let khz = table[self.r.below(table.len() as u64) as usize];
        self.khz[usize::from(big)] = khz;
        let first = if big { BIG_FIRST } else { 0 };
        let kthread = if big { 302 } else { 301 };
        let comm = if big { "sugov:4" } else { "sugov:0" };
        for cpu in first..first + 4 {
            self.head(comm, kthread, kthread, first, 960 + cpu as u64)?;
            writeln!(
                self.line,
                "         1 power:cpu_frequency: state={khz} cpu_id={cpu}"
            )?;
            self.frames(CPUFREQ)?;
            self.line.push(b'\n');
        }
        Ok(())
    }
}
