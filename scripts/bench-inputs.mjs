#!/usr/bin/env node
// `make bench` (second part): read + analyze throughput per kind of input, the native CLI and the
// wasm core in headless Chromium on the very same bytes, side by side in one run, with the
// wasm/native ratio. Rounds alternate native and wasm, so a busy spell on this shared machine
// hits both; the best round of each counts.
//   node scripts/bench-inputs.mjs LABEL=FILE...   (after scripts/build.sh and
//                                                  cargo build --release -p tokscope --bin tokscope)
//   BENCH_ROUNDS  rounds per input (default 3)
// Native: `tokscope analyze --json FILE` as a user runs it (1 MiB reads from the page cache, the
// report written to /dev/null), wall time. Wasm: the page's build of the core, the same
// Analysis path as the page's worker (4 MiB pieces pushed into it, then the report), timed in the
// page over bytes already in memory. Not a test: speed goals are reported, never asserted.
import { spawnSync } from 'node:child_process';
import { mkdir, rm, stat, symlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ROOT, DIST, serve, launch, openPage } from '../tests/e2e/harness.mjs';

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const inputs = process.argv.slice(2).map((arg) => {
  const eq = arg.indexOf('=');
  if (eq < 1) throw new Error(`expected LABEL=FILE, got '${arg}'`);
  return { label: arg.slice(0, eq), path: resolve(arg.slice(eq + 1)) };
});
if (!inputs.length) {
  console.error('usage: node scripts/bench-inputs.mjs LABEL=FILE...');
  process.exit(2);
}
const CLI = join(ROOT, 'target/release/tokscope');
const MB = 1e6;

/** One native run: wall seconds and the finding ids of the report. */
function native(path) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(CLI, ['analyze', '--json', path], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`tokscope analyze ${path}: ${r.stderr}`);
  return { seconds, findings: JSON.parse(r.stdout).findings.map((f) => f.id) };
}

// The inputs are served next to the page through symlinks (nothing is copied).
const served = join(DIST, 'bench-inputs');
await rm(served, { recursive: true, force: true });
await mkdir(served);
for (const [i, input] of inputs.entries()) {
  input.size = (await stat(input.path)).size;
  input.url = `bench-inputs/${i}-${basename(input.path)}`;
  await symlink(input.path, join(DIST, input.url));
}

const server = await serve();
const browser = await launch();
const results = [];
try {
  for (const input of inputs) {
    // A fresh page per input, so only one input's bytes are held at a time.
    const { page, context, errors } = await openPage(browser, server.url);
    const build = await page.evaluate(async (url) => {
      const { pickBuild } = await import('./wasm-build.js');
      const { compileCore } = await import('./wasm-load.js');
      const b = pickBuild();
      const core = await import(`./${b.dir}/tokscope.js`);
      await core.default({ module_or_path: await compileCore(b) });
      window.benchCore = core;
      window.benchBytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
      return b.name;
    }, input.url);
    const loaded = await page.evaluate(() => window.benchBytes.length);
    if (loaded !== input.size) throw new Error(`${input.url}: the page got ${loaded} of ${input.size} bytes`);
    const nat = [];
    const wasm = [];
    for (let r = 0; r < rounds; r += 1) {
      nat.push(native(input.path));
      wasm.push(await page.evaluate((name) => {
        const SLICE = 4 * 1024 * 1024;
        const bytes = window.benchBytes;
        const t0 = performance.now();
        const a = new window.benchCore.Analysis();
        const id = a.begin(name);
        for (let o = 0; o < bytes.length; o += SLICE) a.push(id, bytes.subarray(o, o + SLICE));
        a.end(id);
        const json = a.report_json('en');
        const seconds = (performance.now() - t0) / 1000;
        a.free();
        return { seconds, findings: JSON.parse(json).findings.map((f) => f.id) };
      }, basename(input.path)));
    }
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    await context.close();
    const best = (runs) => Math.min(...runs.map((x) => x.seconds));
    const nativeMBs = input.size / MB / best(nat);
    const wasmMBs = input.size / MB / best(wasm);
    // Both sides must have analyzed the same thing, or the speeds compare nothing.
    const same = JSON.stringify(nat[0].findings) === JSON.stringify(wasm[0].findings);
    results.push({
      input: input.label,
      file: basename(input.path),
      mb: +(input.size / MB).toFixed(1),
      native_mbps: +nativeMBs.toFixed(0),
      wasm_mbps: +wasmMBs.toFixed(0),
      wasm_over_native: +(wasmMBs / nativeMBs).toFixed(2),
      native_runs_s: nat.map((x) => +x.seconds.toFixed(3)),
      wasm_runs_s: wasm.map((x) => +x.seconds.toFixed(3)),
      wasm_build: build,
      findings: nat[0].findings,
      same_findings: same,
    });
  }
} finally {
  await browser.close();
  await server.close();
  await rm(served, { recursive: true, force: true });
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`read + analyze throughput, best of ${rounds} alternating rounds (MB = 10^6 bytes)`);
console.log(`${pad('input', 12)}${lpad('MB', 9)}${lpad('native MB/s', 13)}${lpad('wasm MB/s', 11)}${lpad('wasm/native', 13)}  findings`);
for (const r of results) {
  console.log(`${pad(r.input, 12)}${lpad(r.mb, 9)}${lpad(r.native_mbps, 13)}${lpad(r.wasm_mbps, 11)}${lpad(`${Math.round(r.wasm_over_native * 100)}%`, 13)}  ${r.findings.join(', ') || '-'}${r.same_findings ? '' : '  (wasm found something else!)'}`);
}
console.log(JSON.stringify({ rounds, results }));
if (results.some((r) => !r.same_findings)) process.exitCode = 1;
