// The 2 GiB run (issue 8): a generated `perf script` with callchains, on disk, chosen in the real
// page with #file-input (so the browser reads it with File.slice, never as one string), analyzed
// by the worker to the report. Prints the progress bar as it moved, MB/s, and the peak memory:
// the page's and the worker's JS heap (CDP Runtime.getHeapUsage), the worker's wasm memory (its
// progress messages carry it) and the renderer process's RSS from /proc (VmHWM: the kernel's own
// peak, which the page, the worker and their wasm all live in). Not a test (too slow for CI):
//   make bench-big                      (BIG_MIB=2048 by default)
//   node tests/e2e/bench-big.mjs [FILE] (after scripts/build.sh; generates FILE if missing)
// Speed and memory goals are reported, never asserted; a run that does not complete fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ROOT, serve, launch, openPage } from './harness.mjs';

const MIB = Number(process.env.BIG_MIB ?? 2048);
const file = process.argv[2] ?? join(ROOT, `target/bench/perf-script-${MIB}MiB.txt`);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 500);
const mb = (n) => (n / 1e6).toFixed(1);

async function generate(path, mib) {
  console.log(`generating ${path} (${mib} MiB of perf script with callchains)`);
  execFileSync('cargo', ['build', '--release', '--locked', '-p', 'tokscope', '--example', 'gen_bench_data'],
    { cwd: ROOT, stdio: 'inherit' });
  await mkdir(dirname(path), { recursive: true });
  const out = createWriteStream(`${path}.part`);
  await new Promise((ok, fail) => out.on('open', ok).on('error', fail));
  const r = spawnSync(join(ROOT, 'target/release/examples/gen_bench_data'), ['perf', String(mib)],
    { stdio: ['ignore', out.fd, 'inherit'] });
  out.close();
  if (r.status !== 0) throw new Error(`gen_bench_data failed: ${r.status}`);
  await rename(`${path}.part`, path);
}

/** Chromium's renderer processes: descendants of this node process with --type=renderer. */
async function renderers() {
  const parent = new Map();
  for (const d of await readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = await readFile(`/proc/${d}/stat`, 'utf8');
      // Field 4 (ppid) follows the ")" that closes the command name.
      parent.set(Number(d), Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const mine = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parent.get(p), hops += 1) if (p === process.pid) return true;
    return false;
  };
  const out = [];
  for (const pid of parent.keys()) {
    if (pid === process.pid || !mine(pid)) continue;
    try {
      if ((await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('--type=renderer')) out.push(pid);
    } catch { /* gone */ }
  }
  return out;
}

/**
 * Memory of a process, bytes: VmRSS, VmHWM (the kernel's peak RSS), and the RSS split into
 * anonymous (heaps, wasm memory, ArrayBuffers), shared memory (IPC buffers, e.g. file data
 * handed over by the browser process) and file-backed pages (Chromium's own code, shared).
 */
async function rss(pid) {
  try {
    const s = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0) * 1024;
    return { pid, rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), shmem: kb('RssShmem'), file: kb('RssFile') };
  } catch {
    return { pid, rss: 0, hwm: 0, anon: 0, shmem: 0, file: 0 };
  }
}

/** A CDP channel to the worker (a browser-level session, messages relayed through the target). */
async function workerChannel(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const target = targetInfos.find((t) => t.type === 'worker' && t.url.endsWith('analyzer.worker.js'));
  if (!target) return null;
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
  const pending = new Map();
  let id = 0;
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message);
    pending.get(m.id)?.(m.result);
    pending.delete(m.id);
  });
  return (method, params = {}) => new Promise((ok) => {
    id += 1;
    pending.set(id, ok);
    cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => ok(null));
  });
}

if (!existsSync(file)) await generate(file, MIB);
const { size } = await stat(file);
const name = basename(file);
const server = await serve();
const browser = await launch();
try {
  const { page, context, errors } = await openPage(browser, server.url);
  const pageCdp = await context.newCDPSession(page);
  const workerCdp = await workerChannel(browser);
  if (!workerCdp) throw new Error('the analyzer worker target was not found');
  // The page's renderer (the worker runs in it too): the biggest one; the others are spare or
  // browser-UI renderers of a few MB.
  const all = await Promise.all((await renderers()).map(rss));
  if (!all.length) throw new Error('no renderer process found under this process');
  const pid = all.reduce((a, b) => (b.rss > a.rss ? b : a)).pid;
  const heap = async () => ({
    page: (await pageCdp.send('Runtime.getHeapUsage')).usedSize,
    worker: (await workerCdp('Runtime.getHeapUsage'))?.usedSize ?? 0,
  });
  const before = { ...(await heap()), ...(await rss(pid)) };

  const samples = [];
  const peak = { page: 0, worker: 0, wasm: 0, rss: 0, anon: 0, shmem: 0, private: 0 };
  let done = false;
  const started = Date.now();
  const sampler = (async () => {
    while (!done) {
      const t = (Date.now() - started) / 1000;
      const [h, bar, m] = await Promise.all([
        heap(),
        page.evaluate(() => {
          const p = document.querySelector('.file-progress progress');
          return {
            value: p ? Number(p.value) : null,
            max: p ? Number(p.max) : null,
            text: document.querySelector('.file-progress .progress-text')?.textContent ?? null,
            wasm: Number(document.body.dataset.workerWasmBytes ?? 0),
          };
        }),
        rss(pid),
      ]);
      peak.page = Math.max(peak.page, h.page);
      peak.worker = Math.max(peak.worker, h.worker);
      peak.wasm = Math.max(peak.wasm, bar.wasm);
      peak.rss = Math.max(peak.rss, m.rss);
      peak.anon = Math.max(peak.anon, m.anon);
      peak.shmem = Math.max(peak.shmem, m.shmem);
      peak.private = Math.max(peak.private, m.anon + m.shmem);
      samples.push({ t, ...bar, heapPage: h.page, heapWorker: h.worker, ...m });
      await new Promise((ok) => setTimeout(ok, SAMPLE_MS));
    }
  })();

  await page.setInputFiles('#file-input', file);
  await page.locator(`#inputs li[data-input="${name}"]`).waitFor({ timeout: 3_600_000 });
  const seconds = (Date.now() - started) / 1000;
  done = true;
  await sampler;
  const finalWasm = Number(await page.evaluate(() => document.body.dataset.workerWasmBytes ?? 0));
  peak.wasm = Math.max(peak.wasm, finalWasm);
  const { hwm } = await rss(pid);
  // What the heaps still hold once garbage is collected: a leak would grow with the file.
  await workerCdp('HeapProfiler.collectGarbage');
  await pageCdp.send('HeapProfiler.collectGarbage');
  const afterGc = await heap();
  const meta = await page.locator(`#inputs li[data-input="${name}"] .input-meta`).textContent();
  const problems = await page.locator(`#inputs li[data-input="${name}"] .problem`).allTextContents();
  const findings = await page.$$eval('[data-finding-id]', (els) => [...new Set(els.map((e) => e.dataset.findingId))]);

  console.log(`input: ${name}, ${mb(size)} MB (${(size / 2 ** 20).toFixed(0)} MiB)`);
  console.log('progress timeline (s, bar %, bar text; worker wasm, JS heap page/worker, renderer RSS = anon + shmem + file, MB):');
  let lastPct = -1;
  for (const s of samples) {
    const pct = s.value === null ? null : (100 * s.value) / Math.max(s.max, 1);
    // Every sample while the bar moves; one line once it is gone.
    if (pct === null && lastPct === null) continue;
    lastPct = pct;
    console.log(`  ${s.t.toFixed(1).padStart(6)}  ${pct === null ? '  (bar gone)' : `${pct.toFixed(1).padStart(5)}%`}  ${s.text ?? ''}  wasm ${mb(s.wasm)}  heap ${mb(s.heapPage)}/${mb(s.heapWorker)}  rss ${mb(s.rss)} = ${mb(s.anon)} + ${mb(s.shmem)} + ${mb(s.file)}`);
  }
  const moving = samples.filter((s) => s.value !== null);
  const distinct = new Set(moving.map((s) => s.value)).size;
  console.log(`progress: ${moving.length} samples with the bar shown, ${distinct} distinct positions, every ${SAMPLE_MS} ms`);
  console.log(`whole analysis (choose file -> report shown): ${seconds.toFixed(1)} s, ${(size / 1e6 / seconds).toFixed(0)} MB/s`);
  console.log(`input meta: ${meta}`);
  if (problems.length) console.log(`input problems: ${problems.join(' | ')}`);
  console.log(`findings: ${findings.join(', ')}`);
  console.log(`peak JS heap: page ${mb(peak.page)} MB (before ${mb(before.page)}), worker ${mb(peak.worker)} MB (before ${mb(before.worker)})`);
  console.log(`JS heap after a forced GC at the end: page ${mb(afterGc.page)} MB, worker ${mb(afterGc.worker)} MB`);
  console.log(`peak worker wasm memory: ${mb(peak.wasm)} MB`);
  console.log(`renderer process ${pid} (page + worker + both wasm instances): peak RSS (VmHWM) ${mb(hwm)} MB, before the file ${mb(before.rss)} MB`);
  console.log(`  highest sampled: RSS ${mb(peak.rss)} MB; anonymous + shared memory (private to the renderer, without Chromium's mapped code) ${mb(peak.private)} MB (anon ${mb(peak.anon)}, shmem ${mb(peak.shmem)}); before the file ${mb(before.anon + before.shmem)} MB`);
  const summary = {
    bytes: size, seconds: +seconds.toFixed(2), mbps: +(size / 1e6 / seconds).toFixed(1),
    progress_samples: moving.length, progress_positions: distinct,
    heap_after_gc_mb: { page: +mb(afterGc.page), worker: +mb(afterGc.worker) },
    peak_mb: { heap_page: +mb(peak.page), heap_worker: +mb(peak.worker), wasm: +mb(peak.wasm), renderer_rss_hwm: +mb(hwm), renderer_private_sampled: +mb(peak.private) },
    findings,
  };
  console.log(JSON.stringify(summary));
  if (errors.length) {
    console.error('page errors:', errors);
    process.exitCode = 1;
  }
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
