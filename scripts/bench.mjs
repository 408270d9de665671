#!/usr/bin/env node
// `make bench`: the native bench (`tokscope bench --json`) and the in-browser probe (headless
// Chromium, the real page's "Measure this device") on the same machine, one after the other, and
// one JSON object with both and their ratios. Figures on a shared machine are noisy: compare the
// ratios, which are measured side by side.
//   BENCH_MIB   buffer in all, MiB (default 1024: at least 4x the last-level cache here)
//   BENCH_RUNS  browser probe runs, for the run-to-run spread (default 2)
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ROOT, serve, launch, openPage } from '../tests/e2e/harness.mjs';

const mib = Number(process.env.BENCH_MIB ?? 1024);
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 2));
const cores = availableParallelism();
const round = (v, d = 3) => (Number.isFinite(v) ? +v.toFixed(d) : null);

const nativeOut = execFileSync(join(ROOT, 'target/release/tokscope'),
  ['bench', '--json', '--mib', String(mib), '--threads', String(cores + 1)], { encoding: 'utf8' });
const native = JSON.parse(nativeOut).native;

const server = await serve();
const browser = await launch();
const probes = [];
try {
  for (let i = 0; i < runs; i += 1) {
    const { page, context, errors } = await openPage(browser, `${server.url}?probe-mib=${mib}&probe-workers=${cores + 1}`);
    const started = Date.now();
    await page.click('#measure');
    await page.waitForSelector('[data-metric="browser.q4_gbps_best"]', { timeout: 600_000 });
    const seconds = (Date.now() - started) / 1000;
    const metrics = Object.fromEntries(await page.locator('[data-metric]').evaluateAll(
      (els) => els.map((e) => [e.dataset.metric, Number(e.dataset.value)])));
    const build = await page.locator('#probe-build').getAttribute('data-build');
    const [read, q4] = JSON.parse(await page.locator('#chart-workers').getAttribute('data-series'));
    metrics.workers = read.points.map(([n, r], j) => ({ workers: n, read_gbps: round(r), q4_gbps: round(q4.points[j][1]) }));
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    probes.push({ build, seconds, metrics });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}

const m = probes[0].metrics;
const q4_1w = Object.fromEntries(Object.entries(m)
  .filter(([k]) => k.startsWith('browser.q4_gbps_1w.'))
  .map(([k, v]) => [k.slice('browser.q4_gbps_1w.'.length), round(v)]));
const bests = probes.map((p) => p.metrics['browser.read_gbps_best']);
const spread = (Math.max(...bests) - Math.min(...bests)) / Math.min(...bests);
const out = {
  machine: { cores, buffer_mib_requested: mib },
  native: {
    read_gbps_1t: round(native.read_gbps_1t),
    read_gbps_best: round(native.read_gbps_best),
    q4_gbps_1t: Object.fromEntries(Object.entries(native.q4_gbps_1t).map(([k, v]) => [k, round(v)])),
    q4_gbps_best: round(native.q4_gbps_best),
    threads: native.threads.map((t) => ({ threads: t.threads, read_gbps: round(t.read_gbps), q4_gbps: round(t.q4_gbps) })),
    buffer_bytes: native.buffer_bytes,
  },
  browser: {
    build: probes[0].build,
    read_gbps_1w: round(m['browser.read_gbps_1w']),
    read_gbps_best: round(m['browser.read_gbps_best']),
    q4_gbps_1w: q4_1w,
    q4_gbps_best: round(m['browser.q4_gbps_best']),
    workers: m.workers,
    buffer_bytes: m['browser.buffer_bytes'],
    probe_seconds: probes.map((p) => round(p.seconds, 1)),
    read_gbps_best_runs: bests.map((v) => round(v)),
  },
  ratios: {
    relaxed_over_read_1w: round(q4_1w.relaxed / m['browser.read_gbps_1w']),
    simd128_over_read_1w: round(q4_1w.simd128 / m['browser.read_gbps_1w']),
    scalar_over_read_1w: round(q4_1w.scalar / m['browser.read_gbps_1w']),
    q4_over_read_at_read_peak: round(m['browser.q4_read_ratio_at_read_peak']),
    browser_over_native_read_best: round(m['browser.read_gbps_best'] / native.read_gbps_best),
    browser_read_best_run_spread: round(spread),
  },
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
