// "Measure this device" in a real browser: the best wasm build is picked, the probe runs in Web
// Workers with a small sweep, and the headline figures, both charts and the ceiling table appear.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

// 16 MiB in all and two workers: small enough for a shared CI machine, still every step.
const SMALL = '?probe-mib=16&probe-workers=2';

async function metric(page, name) {
  const v = await page.locator(`[data-metric="${name}"]`).getAttribute('data-value');
  return Number(v);
}

test('#measure runs the probe and shows the figures, the charts and the ceiling table', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url + SMALL);
  // Headless Chromium has relaxed SIMD, so the page must pick that build and say so.
  assert.equal(await page.locator('#probe-build').getAttribute('data-build'), 'relaxed');
  assert.ok(requests.some((u) => u.includes('/pkg-relaxed/tokscope_bg.wasm')));
  await page.click('#measure');
  await page.waitForSelector('#probe-cancel', { state: 'visible' });
  await page.waitForSelector('[data-metric="browser.q4_gbps_best"]', { timeout: 120_000 });

  for (const name of ['browser.read_gbps_1w', 'browser.read_gbps_best', 'browser.q4_gbps_best',
    'browser.q4_gbps_1w.scalar', 'browser.q4_gbps_1w.simd128', 'browser.q4_gbps_1w.relaxed']) {
    const v = await metric(page, name);
    assert.ok(Number.isFinite(v) && v > 0, `${name} = ${v}`);
  }
  assert.ok(await metric(page, 'browser.read_gbps_best') >= await metric(page, 'browser.read_gbps_1w') * 0.5);
  const buffer = await metric(page, 'browser.buffer_bytes');
  assert.ok(buffer > 15 * 2 ** 20 && buffer <= 16 * 2 ** 20, `buffer ${buffer}`);

  // The size sweep goes from 16 KiB up to the whole buffer; the worker sweep from 1 to 2.
  const series = async (id) => JSON.parse(await page.locator(id).getAttribute('data-series'));
  const bySize = (await series('#chart-size'))[0].points;
  assert.equal(bySize[0][0], 16 * 1024);
  assert.equal(bySize[bySize.length - 1][0], buffer);
  assert.ok(bySize.every(([, y]) => y > 0));
  const byWorkers = await series('#chart-workers');
  assert.deepEqual(byWorkers.map((s) => s.points.map(([x]) => x)), [[1, 2], [1, 2]]);

  // The ceiling table: every model × quant, ceilings from the measured bandwidth.
  const rows = page.locator('#ceiling tbody tr');
  assert.equal(await rows.count(), 8 * 4);
  const bw = await metric(page, 'browser.read_gbps_best');
  const q7 = page.locator('#ceiling tr[data-model="Qwen2.5 7B"][data-quant="Q4_0"] td[data-value]').first();
  const ceiling = Number(await q7.getAttribute('data-value'));
  // Qwen2.5 7B Q4_0 reads about 4.6 GB per token at 2048 tokens of context.
  assert.ok(Math.abs(ceiling - bw / 4.6) / (bw / 4.6) < 0.1, `ceiling ${ceiling} at ${bw} GB/s`);
  assert.match(await page.locator('#ceiling-assumption').textContent(), /2048/);
  assert.equal(await page.locator('#probe-cancel').isHidden(), true);
  assert.deepEqual(errors, []);
  const origin = new URL(server.url).origin;
  assert.deepEqual(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:')), []);
  await context.close();
});

test('Cancel stops a running probe and the page stays usable', async () => {
  const { page, context, errors } = await openPage(browser, server.url + '?probe-mib=64&probe-workers=2&probe-windows=40');
  await page.click('#measure');
  await page.waitForSelector('#probe-cancel', { state: 'visible' });
  await page.click('#probe-cancel');
  await page.waitForFunction(() => document.querySelector('#measure').disabled === false);
  assert.match(await page.locator('#probe-status').textContent(), /Cancelled/);
  assert.equal(await page.locator('[data-metric="browser.read_gbps_1w"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a forced simd128 build runs without the relaxed path and says so, in Chinese too', async () => {
  const { page, context, errors } = await openPage(browser, server.url + SMALL + '&wasm=simd128', { locale: 'zh-CN' });
  assert.equal(await page.locator('#probe-build').getAttribute('data-build'), 'simd128');
  assert.match(await page.locator('#probe-build').textContent(), /simd128 版本/);
  await page.click('#measure');
  await page.waitForSelector('[data-metric="browser.q4_gbps_best"]', { timeout: 120_000 });
  assert.equal(await page.locator('[data-metric="browser.q4_gbps_1w.relaxed"]').count(), 0);
  assert.ok(await metric(page, 'browser.q4_gbps_1w.simd128') > 0);
  assert.match(await page.locator('#ceiling-title').textContent(), /解码上限/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a browser given the no-SIMD build gets a clear note and the scalar path', async () => {
  const { page, context, errors } = await openPage(browser, server.url + SMALL + '&wasm=scalar');
  assert.equal(await page.locator('#probe-build').getAttribute('data-build'), 'scalar');
  assert.match(await page.locator('#probe-build').textContent(), /no WebAssembly SIMD/);
  await page.click('#measure');
  await page.waitForSelector('[data-metric="browser.q4_gbps_best"]', { timeout: 120_000 });
  assert.deepEqual(
    await page.locator('[data-metric^="browser.q4_gbps_1w."]').evaluateAll((els) => els.map((e) => e.dataset.metric)),
    ['browser.q4_gbps_1w.scalar'],
  );
  assert.deepEqual(errors, []);
  await context.close();
});

test('a short sustained run samples the kernel and charts it over time', async () => {
  const { page, context, errors } = await openPage(browser, server.url + SMALL + '&probe-sample-ms=250');
  await page.fill('#sustain-minutes', '0.02'); // clamped to 0.1 min = 6 s
  await page.click('#sustain');
  await page.waitForSelector('#chart-sustained:not([hidden])', { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('#sustain').disabled === false, null, { timeout: 60_000 });
  const points = JSON.parse(await page.locator('#chart-sustained').getAttribute('data-series'))[0].points;
  assert.ok(points.length >= 10, `${points.length} samples`);
  assert.ok(points.every(([t, v], i) => v > 0 && (i === 0 || t > points[i - 1][0])));
  assert.ok(points[points.length - 1][0] >= 6);
  assert.deepEqual(errors, []);
  await context.close();
});

// The whole story: a llama.cpp log (the example: 0.57 tok/s decode, 4.12 GiB of weights) beside
// the measurement. The probe measured the browser's device, so it stays a reference until the
// user says the log came from this device; then the bandwidth card and the verdict's ceiling
// use it, and the answer stays with the analysis (a language switch keeps it).
test('the probe is a reference for a log until "this log came from this device" is ticked', async () => {
  const { page, context, errors } = await openPage(browser, server.url + SMALL);
  await page.click('#example');
  await page.waitForSelector('[data-finding-id="fallback.cpu"]');
  await page.click('#measure');
  await page.waitForSelector('[data-metric="browser.q4_gbps_best"]', { timeout: 120_000 });
  const ref = page.locator('#device-ref');
  await ref.waitFor();
  const bw = await metric(page, 'browser.read_gbps_best');
  assert.match(await ref.textContent(), /Measured on this browser's device: [\d.]+ GB\/s/);
  assert.equal(await ref.getAttribute('data-applies'), 'false');
  assert.equal(await page.locator('#probe-same-device').isChecked(), false);
  const f = page.locator('[data-finding-id="bandwidth.below-ceiling"]');
  assert.equal(await f.count(), 0, 'no ceiling from another device');
  assert.doesNotMatch(await page.locator('.verdict-numbers').textContent(), /ceiling/);
  assert.match(await page.locator('.verdict-next').textContent(), /This log came from this device/);

  await page.check('#probe-same-device');
  await f.waitFor({ timeout: 15_000 });
  // ceiling = bandwidth / 4.42 GB; the summary quotes it with the logged 0.57 tok/s.
  const summary = await f.locator('.summary').textContent();
  assert.match(summary, /0\.570? tok\/s/);
  const quoted = Number(summary.match(/allows at most ([\d.]+) tok\/s/)?.[1]);
  const expected = bw / 4.4237;
  assert.ok(Math.abs(quoted - expected) <= 0.02 * expected, `ceiling ${quoted} vs ${expected.toFixed(2)} from ${bw} GB/s`);
  assert.equal(await f.getAttribute('data-severity'), 'warning');
  assert.match(await page.locator('.verdict-numbers').textContent(), /ceiling [\d.]+ tok\/s/);
  assert.equal(await page.locator('#device-ref').getAttribute('data-applies'), 'true');

  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => /本设备/.test(document.querySelector('#device-ref')?.textContent ?? ''));
  assert.equal(await page.locator('#probe-same-device').isChecked(), true, 'the answer stays with the analysis');
  assert.match(await page.locator('[data-finding-id="bandwidth.below-ceiling"] h3').textContent(), /本机带宽上限/);
  await page.uncheck('#probe-same-device');
  await page.waitForFunction(() => !document.querySelector('[data-finding-id="bandwidth.below-ceiling"]'));
  assert.deepEqual(errors, []);
  await context.close();
});
