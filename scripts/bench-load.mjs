#!/usr/bin/env node
// `make bench` (load part): how long the page takes from navigation to ready (body[data-ready]:
// the wasm core loaded in the page and in its worker) on throttled links, in headless Chromium
// with an empty cache, and how many bytes it fetched on the way. Not a test: figures are
// reported, never asserted.
//   node scripts/bench-load.mjs [DIST_DIR]     (default dist/, after scripts/build.sh)
//   BENCH_ROUNDS  loads per link (default 2; the median is reported)
import { resolve } from 'node:path';
import { DIST, serve, launch } from '../tests/e2e/harness.mjs';

const dir = resolve(process.argv[2] ?? DIST);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
// Throughput in bytes/s, as Chrome DevTools' network throttling takes it, and a round trip.
const LINKS = [
  { name: '9 Mbps', bytesPerSecond: 9e6 / 8, latencyMs: 40 },
  { name: '1.6 Mbps', bytesPerSecond: 1.6e6 / 8, latencyMs: 150 },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serve(dir);
const browser = await launch();
const results = [];
try {
  for (const link of LINKS) {
    const times = [];
    const bytes = [];
    for (let i = 0; i < rounds; i += 1) {
      // A fresh context: empty HTTP cache, no service worker from an earlier load.
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: link.latencyMs,
        downloadThroughput: link.bytesPerSecond,
        uploadThroughput: link.bytesPerSecond,
      });
      let received = 0;
      cdp.on('Network.loadingFinished', (e) => { received += e.encodedDataLength; });
      const started = Date.now();
      await page.goto(server.url);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 300_000 });
      times.push(Date.now() - started);
      bytes.push(received);
      await context.close();
    }
    results.push({
      link: link.name,
      latency_ms: link.latencyMs,
      ready_ms: median(times),
      ready_ms_rounds: times,
      fetched_mb: +(median(bytes) / 1e6).toFixed(2),
    });
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(JSON.stringify({ dist: dir, time_to_ready: results }, null, 2));
