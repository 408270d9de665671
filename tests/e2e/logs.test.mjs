// Framework logs in a real browser: the seed-000 pair (device A healthy, device B with a
// fallback, no DOTPROD, 7 GiB of weights and 8 threads) dropped together shows the findings,
// the side-by-side table of differing facts and the facts of each run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser, drop } from './harness.mjs';

const A = join(ROOT, 'samples/compare/seed000-device-a.logcat.txt');
const B = join(ROOT, 'samples/compare/seed000-device-b.logcat.txt');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

test('dropping the seed-000 pair shows fallback, missing dotprod, expanded weights and the comparison', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  const files = [
    { name: 'device-a.log', text: await readFile(A, 'utf8') },
    { name: 'device-b.log', text: await readFile(B, 'utf8') },
  ];
  await drop(page, files);
  await page.locator('[data-finding-id="compare.cpu-features"]').waitFor();
  for (const id of ['fallback.precision', 'fallback.cpu', 'cpu.missing-dotprod', 'quant.weights-expanded',
    'compare.fallback', 'compare.weights', 'compare.threads', 'compare.decode-gap', 'threads.all-cores', 'load.slow']) {
    assert.ok(await page.locator(`[data-finding-id="${id}"]`).count() >= 1, `finding ${id} is shown`);
  }
  const expanded = await page.locator('[data-finding-id="quant.weights-expanded"] .summary').textContent();
  assert.match(expanded, /Q4_0/);
  assert.match(expanded, /7\.13 GiB/);
  assert.match(await page.locator('[data-finding-id="cpu.missing-dotprod"] .summary').textContent(), /DOTPROD/);
  // Only device B's input carries the dotprod evidence.
  assert.equal(await page.locator('[data-finding-id="cpu.missing-dotprod"] .evidence li').first().getAttribute('data-input'), 'device-b.log');
  assert.match(await page.locator('[data-finding-id="compare.cpu-features"] .summary').textContent(), /DOTPROD, MATMUL_INT8/);

  // The side-by-side table: differing facts only, one column per device.
  const table = page.locator('#compare table.compare');
  assert.equal(await page.locator('#compare').isHidden(), false);
  assert.match(await table.locator('tr').first().textContent(), /device-a\.log[\s\S]*device-b\.log/);
  const threads = table.locator('tr[data-fact="threads"] td');
  assert.deepEqual(await threads.allTextContents(), ['4 / 4 / 8', '8 / 8 / 8']);
  const decode = await table.locator('tr[data-fact="decode"] td').allTextContents();
  assert.match(decode[0], /^13\.39 tok\/s/);
  assert.match(decode[1], /^0\.57 tok\/s/);
  assert.equal(await table.locator('tr[data-fact="quant"]').count(), 0, 'same quant: not a differing row');

  // The runs: one facts table per run.
  assert.equal(await page.locator('#runs .run').count(), 2);
  const runB = page.locator('#runs .run[data-input="device-b.log"]');
  assert.equal(await runB.locator('tr[data-fact="quant"] td').textContent(), 'Q4_0');
  assert.equal(await runB.locator('tr[data-fact="framework"] td').textContent(), 'llama.cpp');
  assert.match(await runB.locator('tr[data-fact="cpu_features_off"] td').textContent(), /DOTPROD/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('one log alone shows its run but no comparison', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', A);
  await page.locator('#runs .run').first().waitFor();
  assert.equal(await page.locator('#compare').isHidden(), true);
  assert.equal(await page.locator('#runs .run tr[data-fact="backend"] td').textContent(), 'CPU');
  assert.equal(await page.locator('[data-finding-id^="compare."]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
