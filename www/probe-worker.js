// One worker of the bandwidth probe: its own wasm instance and its own buffer (so no
// SharedArrayBuffer and no special headers). The page sends commands; the worker times them.
//
// Timing follows design notes §5: engines do not swap a running call to optimized code, and the
// clock may be coarsened to 100 µs, so a measurement is many short calls (about 1 MiB each),
// counted in windows of at least `windowMs`; a warm-up window comes first and is dropped, and the
// figure is the median of the windows.
let probe = null;
let sink = 0;

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  if (!n) return 0;
  return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

function windowRate(call, windowMs) {
  const start = performance.now();
  let bytes = 0;
  let elapsed = 0;
  do {
    bytes += call();
    elapsed = performance.now() - start;
  } while (elapsed < windowMs);
  return bytes / (elapsed / 1000) / 1e9;
}

// V8 first runs wasm from its baseline compiler and swaps in optimized code between calls once a
// background compile finishes — later on a busy machine. So a warm-up runs windows until the rate
// stops rising (or 2 s pass): otherwise the first job measured would be timed on baseline code.
function warm(call, windowMs) {
  const start = performance.now();
  let best = windowRate(call, windowMs);
  while (performance.now() - start < 2000) {
    const r = windowRate(call, windowMs);
    if (r < best * 1.03) break;
    best = r;
  }
}

// `jobs` ([{ kind: 'read' | 'q4', path }]) are measured side by side: one window of each in turn,
// round after round, so that a change in the machine's load between rounds hits every job alike
// and their ratios stay fair. Returns the median GB/s of each job.
function run({ jobs, workingSet, windows, windowMs, warmup }) {
  const calls = jobs.map(({ kind, path }) => {
    const call = kind === 'read' ? () => probe.read(workingSet) : () => probe.q4(path, workingSet);
    if (call() === 0) throw new Error(`this build has no ${path} path`);
    return call;
  });
  if (warmup) for (const call of calls) warm(call, windowMs);
  const rates = calls.map(() => []);
  for (let i = 0; i < windows; i += 1) {
    calls.forEach((call, j) => rates[j].push(windowRate(call, windowMs)));
  }
  sink ^= probe.sink();
  return { gbps: rates.map(median), rates };
}

self.onmessage = async ({ data }) => {
  try {
    if (data.cmd === 'init') {
      const core = await import(new URL(`./${data.dir}/tokscope.js`, self.location.href).href);
      // The page's compiled module (wasm-load.js): each worker instantiates it, none downloads it.
      await core.default({ module_or_path: data.module });
      probe = new core.Probe(data.bytes, data.seed);
      self.postMessage({ id: data.id, bytes: probe.bytes(), paths: core.kernel_paths().split(',') });
    } else if (data.cmd === 'run') {
      self.postMessage({ id: data.id, ...run(data), sink });
    }
  } catch (err) {
    self.postMessage({ id: data.id, error: String(err?.message ?? err) });
  }
};
