// Trace parse speed in headless Chromium against native, side by side in one run:
//   node tests/e2e/bench-traces.mjs        (after scripts/build.sh)
// 1. runs the native benchmark (cargo bench -p tokscope --bench trace_parse), which also writes
//    the input (perf script text with callchains) to target/bench/;
// 2. serves dist/ plus that file, and times the same chunked Analysis path the page uses
//    (4 MiB slices into the wasm core), best of 5;
// 3. prints both and the ratio. Not a test: speed goals are reported, never asserted.
import { spawnSync } from 'node:child_process';
import { copyFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, DIST, serve, launch, openPage } from './harness.mjs';

// The lib and the CLI share the name `tokscope`, and cargo sometimes trips over their outputs on
// the first build after a change (an output filename collision it warns about): retry once.
let native;
let line;
for (let attempt = 0; attempt < 2 && !line; attempt += 1) {
  native = spawnSync('cargo', ['bench', '-p', 'tokscope', '--bench', 'trace_parse'], { cwd: ROOT, encoding: 'utf8' });
  line = (native.stdout || '').split('\n').find((l) => l.startsWith('native:'));
}
if (!line) {
  console.error(native.stderr);
  process.exit(1);
}
const nativeMBs = Number(line.match(/native: (\d+(?:\.\d+)?) MB\/s/)[1]);
const input = join(ROOT, 'target/bench/perf-script-callchains.txt');
const served = join(DIST, 'bench-perf-script.txt');
await copyFile(input, served);
const size = (await stat(input)).size;
const server = await serve();
const browser = await launch();
try {
  const { page } = await openPage(browser, server.url);
  const wasmMBs = await page.evaluate(async () => {
    const { Analysis } = await import('./pkg/tokscope.js');
    const bytes = new Uint8Array(await (await fetch('bench-perf-script.txt')).arrayBuffer());
    const SLICE = 4 * 1024 * 1024;
    let best = Infinity;
    for (let r = 0; r < 5; r += 1) {
      const t0 = performance.now();
      const a = new Analysis();
      const id = a.begin('bench.perf.txt');
      for (let o = 0; o < bytes.length; o += SLICE) a.push(id, bytes.subarray(o, o + SLICE));
      a.end(id);
      a.report_json('en');
      best = Math.min(best, performance.now() - t0);
      a.free();
    }
    return bytes.length / (1 << 20) / (best / 1000);
  });
  console.log(line);
  console.log(`wasm (headless Chromium): ${wasmMBs.toFixed(0)} MB/s on the same ${(size / (1 << 20)).toFixed(1)} MiB, best of 5`);
  console.log(`ratio wasm/native: ${(wasmMBs / nativeMBs * 100).toFixed(0)}%`);
} finally {
  await browser.close();
  await server.close();
  await rm(served, { force: true });
}
