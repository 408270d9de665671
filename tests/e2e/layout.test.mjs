// The page's layout follows the report: verdict → causes → charts → runs → inputs, with "Measure
// this device" a section of its own; "Download charts (PNG)" finds every chart; the charts take
// keyboard focus, zoom and pan from the keyboard and read out their values; inputs with unrelated
// clocks each get their own time origin; and no sample makes a 390 px phone scroll sideways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

const CSV = join(ROOT, 'samples/telemetry-runs/thermal-wall.csv');
const LOG = join(ROOT, 'samples/telemetry-runs/thermal-wall.llama-cli.log');
const TRACE = join(ROOT, 'samples/traces/llama-little-cores.perf.txt');
const CPUINFO = join(ROOT, 'samples/traces/llama-little-cores.cpuinfo.txt');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Drops `files` and waits until every one is read and its report shown. */
async function analyze(page, files) {
  await page.setInputFiles('#file-input', files);
  await page.waitForFunction((n) => document.querySelector('#cancel').hidden
    && document.querySelectorAll('#inputs > li').length === n
    && !document.querySelector('#results').hidden, files.length);
  // Charts draw on the next frames.
  await page.waitForTimeout(150);
}

const viewOf = async (page, sel) => (await page.locator(sel).getAttribute('data-view')).split(',').map(Number);
/** A view as the chart writes it on `data-view` (after its next frame), to wait for a change. */
const viewAttr = (view) => view.map((x) => x.toFixed(3)).join(',');

test('sections follow the report, the charts sit outside the probe, and the PNG export counts them', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await analyze(page, [CSV, LOG, TRACE, CPUINFO]);
  await page.locator('#telemetry-chart').waitFor();
  await page.locator('#sched-timeline-0').waitFor();
  const order = await page.evaluate(() => {
    const ids = ['#verdict', '#findings', '#telemetry', '#sched', '#runs', '#inputs', '#probe'];
    const nodes = ids.map((id) => document.querySelector(id));
    const follows = nodes.slice(1).map((n, i) => Boolean(nodes[i].compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING));
    const probe = document.querySelector('#probe');
    return {
      follows,
      hidden: nodes.map((n) => n.hidden),
      inProbe: [...document.querySelectorAll('#telemetry-chart, #sched canvas')].filter((c) => probe.contains(c)).length,
      probeInResults: document.querySelector('#results').contains(probe),
    };
  });
  assert.deepEqual(order.follows, [true, true, true, true, true, true], 'verdict, causes, telemetry, timeline, runs, inputs, then the probe');
  assert.deepEqual(order.hidden, [false, false, false, false, false, false, false]);
  assert.equal(order.inProbe, 0, 'no chart of the report renders inside "Measure this device"');
  assert.equal(order.probeInResults, false);

  // Every chart on screen: the telemetry chart, the timeline and the frequency strip.
  const shown = await page.evaluate(() => [...document.querySelectorAll('#telemetry-chart, #sched canvas')]
    .filter((c) => c.getClientRects().length > 0).length);
  assert.ok(shown >= 3, `${shown} charts`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  assert.equal(download.suggestedFilename(), 'tokscope-charts.png');
  assert.equal(Number(await page.locator('#share-note').getAttribute('data-charts')), shown);
  assert.match(await page.locator('#share-note').textContent(), new RegExp(`^${shown} charts`));
  assert.deepEqual(errors, []);
  await context.close();
});

test('the telemetry chart takes focus, zooms and pans from the keyboard, and reads out its values', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await analyze(page, [CSV, LOG]);
  const chart = page.locator('#telemetry-chart');
  await chart.waitFor();
  assert.equal(await chart.getAttribute('tabindex'), '0');
  const full = await viewOf(page, '#telemetry-chart');
  await chart.focus();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'telemetry-chart');
  const changed = (before) => page.waitForFunction((v) => document.querySelector('#telemetry-chart').dataset.view !== v, viewAttr(before));

  await page.keyboard.press('+');
  await changed(full);
  const zoomed = await viewOf(page, '#telemetry-chart');
  const ratio = (zoomed[1] - zoomed[0]) / (full[1] - full[0]);
  assert.ok(Math.abs(ratio - 1 / 1.5) < 0.01, `+ zooms to 1/1.5 of the span: ${ratio}`);
  await page.keyboard.press('ArrowRight');
  await changed(zoomed);
  const panned = await viewOf(page, '#telemetry-chart');
  assert.ok(panned[0] > zoomed[0] && Math.abs((panned[1] - panned[0]) - (zoomed[1] - zoomed[0])) < 1e-3, `panned ${panned} from ${zoomed}`);
  await page.keyboard.press('-');
  await changed(panned);
  await page.keyboard.press('Escape');
  await page.waitForFunction((v) => document.querySelector('#telemetry-chart').dataset.view === v, viewAttr(full));
  // After a key, the readout speaks the values at the centre of the view.
  const out = page.locator('#telemetry-readout');
  assert.equal(await out.getAttribute('aria-live'), 'polite');
  assert.match(await out.textContent(), /^t = [\d.]+ (s|ms) \| Frequency \(MHz\): \S+ \d/);

  // Hover: the readout follows the pointer, with each panel's value there.
  const box = await chart.boundingBox();
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.5);
  await page.waitForFunction(() => Number(document.querySelector('#telemetry-readout').dataset.t) < 1000);
  const text = await out.textContent();
  const t = Number(await out.getAttribute('data-t'));
  assert.ok(t > full[0] && t < full[1], `hover time ${t} within ${full}`);
  assert.match(text, /Frequency \(MHz\): [^|]*\d/);
  assert.match(text, /Temperature \(°C\): [^|]*\d/);
  assert.match(text, /Tokens\/s: [^|]*\d/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the thread timeline zooms from the keyboard with its frequency strip, and reads out clusters in Chinese', async () => {
  const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await analyze(page, [TRACE, CPUINFO]);
  const timeline = page.locator('#sched-timeline-0');
  await timeline.waitFor();
  const hasFreq = await page.locator('#sched-freq-0').count();
  const full = await viewOf(page, '#sched-timeline-0');
  await timeline.focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.waitForFunction((v) => document.querySelector('#sched-timeline-0').dataset.view !== v, viewAttr(full));
  const zoomed = await viewOf(page, '#sched-timeline-0');
  assert.ok(zoomed[1] - zoomed[0] < 0.5 * (full[1] - full[0]), `zoomed ${zoomed} of ${full}`);
  if (hasFreq) assert.deepEqual(await viewOf(page, '#sched-freq-0'), zoomed, 'the frequency strip follows');
  const box = await timeline.boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6);
  const out = page.locator('#sched-readout-0');
  await page.waitForFunction(() => /大核|小核|中核/.test(document.querySelector('#sched-readout-0').textContent));
  assert.match(await out.textContent(), /^t = /);
  await page.keyboard.press('0');
  await page.waitForFunction((v) => document.querySelector('#sched-timeline-0').dataset.view === v, viewAttr(full));
  assert.deepEqual(errors, []);
  await context.close();
});

test('an absolute-time tegrastats file, one from another day and a log keep each input near t = 0', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  // tegrastats of 2024-11-29 (10 min), vcgencmd of 2024-03-14 (15 s), the llama.cpp log.
  const files = ['samples/telemetry-runs/rotating-cap.tegrastats.txt', 'samples/telemetry/vcgencmd.txt', 'samples/telemetry-runs/thermal-wall.llama-cli.log'];
  await analyze(page, files.map((f) => join(ROOT, f)));
  await page.locator('#telemetry-chart').waitFor();
  const [x0, x1] = await viewOf(page, '#telemetry-chart');
  // One shared axis from the earliest clock would span 260 days (22 460 000 s).
  assert.ok(x0 >= 0 && x1 <= 700, `time axis ${x0}–${x1} s`);
  assert.equal(await page.locator('#telemetry [data-origins="own"]').count(), 1, 'the page says each input counts from its own start');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Every input file under samples/ (goldens are outputs, not inputs). */
async function sampleFolders() {
  const out = [];
  for (const d of (await readdir(join(ROOT, 'samples'))).sort()) {
    if (d === 'expected' || !(await stat(join(ROOT, 'samples', d))).isDirectory()) continue;
    const files = (await readdir(join(ROOT, 'samples', d))).sort().map((f) => join(ROOT, 'samples', d, f));
    out.push({ dir: d, files });
  }
  return out;
}

test('no sample folder makes a 390 px phone scroll sideways, its files together or one by one', async () => {
  const wide = [];
  let folders = 0;
  const check = async (label, files) => {
    const { page, context, errors } = await openPage(browser, server.url);
    await page.setViewportSize({ width: 390, height: 844 });
    await analyze(page, files).catch(async (err) => {
      const status = await page.locator('#status').textContent();
      throw new Error(`${label}: ${err.message}; status: ${status}`);
    });
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, inner: window.innerWidth }));
    if (scroll > inner) wide.push(`${label}: ${scroll} px > ${inner} px`);
    assert.deepEqual(errors, [], label);
    await context.close();
  };
  for (const { dir, files } of await sampleFolders()) {
    folders += 1;
    await check(`samples/${dir}/*`, files);
    // verdict.test.mjs loads the other folders file by one; these it does not.
    if (['bundles', 'system', 'fuzz'].includes(dir)) {
      for (const f of files) await check(f.slice(ROOT.length + 1), [f]);
    }
  }
  assert.ok(folders >= 12, `${folders} folders`);
  assert.deepEqual(wide, []);
});
