// Telemetry in a real browser: a telemetry CSV and the matching llama.cpp log go in together;
// the stacked charts appear (drawn by the wasm core on a <canvas>), `thermal.wall` shows with
// its time range, that range is shaded on the chart, and zoom, pan and PNG export work.
// The test also prints the redraw time per zoom frame measured in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

const CSV = join(ROOT, 'samples/telemetry-runs/thermal-wall.csv');
const LOG = join(ROOT, 'samples/telemetry-runs/thermal-wall.llama-cli.log');
const POWER = join(ROOT, 'samples/telemetry-runs/power-wall.nvidia-smi.csv');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/** The orange of a `warning` shade over white: red high, blue clearly lower. */
const isShaded = ([r, g, b]) => r > 235 && b < 225 && g > 200;

test('a telemetry CSV and its log show stacked charts and a shaded thermal.wall', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', [CSV, LOG]);
  const finding = page.locator('[data-finding-id="thermal.wall"]');
  await finding.waitFor();
  const summary = await finding.locator('.summary').textContent();
  assert.match(summary, /cpu-1-0-usr/, 'names the governing sensor');
  const ev = finding.locator('.evidence li').first();
  const tStart = Number(await ev.getAttribute('data-t-start'));
  const tEnd = Number(await ev.getAttribute('data-t-end'));
  assert.ok(tStart > 60 && tEnd > tStart, `time range ${tStart}-${tEnd}`);
  assert.match(await ev.textContent(), /t=\d+–\d+ s/);

  // Both inputs were read: the CSV as telemetry, the log as llama.cpp (results appear as each
  // file finishes, so wait for the second one).
  await page.locator('#inputs li[data-kind="log"]').waitFor();
  assert.equal(await page.locator('#inputs li[data-kind="csv"]').count(), 1);
  assert.equal(await page.locator('#inputs li[data-kind="log"]').count(), 1);

  const canvas = page.locator('#telemetry-chart');
  await canvas.waitFor();
  assert.equal(await page.locator('#telemetry').isHidden(), false);
  const panels = (await canvas.getAttribute('data-panels')).split('|');
  assert.deepEqual(panels, ['Frequency (MHz)', 'Temperature (°C)', 'Tokens/s'].filter((p) => panels.includes(p)));
  assert.ok(panels.length >= 3, `panels: ${panels}`);
  assert.match(await canvas.getAttribute('data-shades'), /thermal\.wall@/);

  // The shaded range is really painted: sample a column inside it and one before it.
  const probe = await page.evaluate(({ t0, t1 }) => {
    const c = document.querySelector('#telemetry-chart');
    const ctx = c.getContext('2d');
    const [v0, v1] = c.dataset.view.split(',').map(Number);
    const dpr = window.devicePixelRatio || 1;
    const left = Math.floor(64 * dpr);
    const right = c.width - Math.floor(12 * dpr);
    const xOf = (t) => Math.round(left + ((t - v0) / (v1 - v0)) * (right - left));
    const column = (x) => {
      const out = [];
      for (let y = Math.round(30 * dpr); y < c.height - 40 * dpr; y += 3) out.push([...ctx.getImageData(x, y, 1, 1).data]);
      return out;
    };
    return { inside: column(xOf((t0 + t1) / 2)), before: column(xOf(t0 / 2)) };
  }, { t0: tStart, t1: tEnd });
  const share = (col) => col.filter(isShaded).length / col.length;
  assert.ok(share(probe.inside) > 0.3, `shaded share inside ${share(probe.inside)}`);
  assert.ok(share(probe.before) < 0.05, `shaded share before ${share(probe.before)}`);

  // Zoom with the wheel over the chart: the view narrows; drag pans; every frame is timed.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const viewOf = async () => (await canvas.getAttribute('data-view')).split(',').map(Number);
  const fullAttr = await canvas.getAttribute('data-view');
  const full = await viewOf();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
  for (let i = 0; i < 20; i += 1) {
    await page.mouse.wheel(0, -120);
    await page.waitForTimeout(20);
  }
  await page.waitForFunction((before) => document.querySelector('#telemetry-chart').dataset.view !== before, fullAttr);
  const zoomed = await viewOf();
  assert.ok(zoomed[1] - zoomed[0] < (full[1] - full[0]) / 2, `zoomed ${zoomed} of ${full}`);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5, { steps: 8 });
  await page.mouse.up();
  await page.waitForTimeout(100);
  const panned = await viewOf();
  assert.ok(panned[0] > zoomed[0], `panned ${panned} from ${zoomed}`);
  const stats = await page.evaluate(() => window.__tokscopeChartStats);
  const sorted = [...stats.samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`chart redraw in the page: ${stats.draws} frames, median ${median.toFixed(2)} ms, max ${stats.maxMs.toFixed(2)} ms`);

  // PNG export produces a PNG download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#telemetry-export')]);
  assert.equal(download.suggestedFilename(), 'tokscope-telemetry.png');

  assert.deepEqual(errors, []);
  const origin = new URL(server.url).origin;
  assert.deepEqual(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  await context.close();
});

test('nvidia-smi with a power cap is a power wall, in Chinese too', async () => {
  const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await page.setInputFiles('#file-input', POWER);
  const finding = page.locator('[data-finding-id="power.wall"]');
  await finding.waitFor();
  assert.match(await finding.locator('h3').textContent(), /功耗墙/);
  assert.equal(await page.locator('[data-finding-id="thermal.wall"]').count(), 0);
  const panels = await page.locator('#telemetry-chart').getAttribute('data-panels');
  assert.match(panels, /频率/);
  assert.match(panels, /功耗/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('inputs without a shared clock can be shifted against each other', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  const other = join(ROOT, 'samples/telemetry-runs/sustained-decay.csv');
  await page.setInputFiles('#file-input', [POWER, other]);
  const canvas = page.locator('#telemetry-chart');
  await canvas.waitFor();
  const fields = page.locator('#telemetry .shift-box input');
  // The fields appear once both inputs are in the report.
  await fields.nth(1).waitFor();
  assert.equal(await fields.count(), 2);
  const before = (await canvas.getAttribute('data-view')).split(',').map(Number);
  await fields.nth(1).fill('-1000');
  await fields.nth(1).dispatchEvent('change');
  await page.waitForFunction((v) => document.querySelector('#telemetry-chart')?.dataset.view !== v,
    before.map((x) => x.toFixed(3)).join(','));
  const after = (await page.locator('#telemetry-chart').getAttribute('data-view')).split(',').map(Number);
  assert.equal(after[0], -1000, `shifted view ${after}`);
  assert.deepEqual(errors, []);
  await context.close();
});
