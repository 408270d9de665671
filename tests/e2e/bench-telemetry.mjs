// Page benchmark (not part of the test suite): a 24 h, 1 Hz, 64-column telemetry CSV dropped
// into the real page, timed until the stacked chart is drawn, then 60 zoom frames timed in the
// page. Generate the file first (nothing this size is committed):
//   cargo run --release -p tokscope --example gen_telemetry_csv -- 24 /tmp/tokscope-24h.csv
//   node tests/e2e/bench-telemetry.mjs /tmp/tokscope-24h.csv
import { stat } from 'node:fs/promises';
import { serve, launch, openPage } from './harness.mjs';

const file = process.argv[2] ?? '/tmp/tokscope-24h.csv';
const { size } = await stat(file);
const server = await serve();
const browser = await launch();
try {
  const { page, context, errors } = await openPage(browser, server.url);
  const start = Date.now();
  await page.setInputFiles('#file-input', file);
  await page.waitForSelector('#telemetry-chart', { timeout: 120_000 });
  const total = (Date.now() - start) / 1000;
  const findings = await page.$$eval('[data-finding-id]', (els) => els.map((e) => e.dataset.findingId));
  await page.locator('#telemetry-chart').scrollIntoViewIfNeeded();
  const canvas = await page.locator('#telemetry-chart').boundingBox();
  await page.evaluate(() => { const s = window.__tokscopeChartStats; s.samples = []; s.maxMs = 0; });
  await page.mouse.move(canvas.x + canvas.width * 0.6, canvas.y + canvas.height / 2);
  for (let i = 0; i < 60; i += 1) {
    await page.mouse.wheel(0, -100);
    await page.waitForTimeout(25);
  }
  const s = await page.evaluate(() => window.__tokscopeChartStats);
  const sorted = [...s.samples].sort((a, b) => a - b);
  console.log(`input ${(size / 1e6).toFixed(1)} MB; drop to chart drawn (read + parse + analyze + render): ${total.toFixed(2)} s; findings ${findings.join(', ')}`);
  console.log(`zoom frames: ${sorted.length}, median ${sorted[sorted.length >> 1]?.toFixed(2)} ms, max ${s.maxMs.toFixed(2)} ms`);
  if (errors.length) console.log('page errors:', errors);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
