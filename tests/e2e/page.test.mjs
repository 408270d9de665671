// The whole path in a real browser: a file goes in through the real controls, the wasm core
// analyzes it, and the findings show with their line numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

const DEMO = join(ROOT, 'samples/demo/device-b-llama-android.logcat.txt');
const ZH_LOG = join(ROOT, 'samples/logs/compat-build-zh.logcat.txt');
const PNG = join(ROOT, 'samples/invalid/screenshot.png');
const BIN = join(ROOT, 'samples/invalid/model-shard.bin');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Line numbers listed for a finding, e.g. "29,30" -> [29, 30]. */
async function linesOf(page, id) {
  const attr = await page.locator(`[data-finding-id="${id}"] .lines`).first().getAttribute('data-lines');
  return attr.split(',').map(Number);
}

function assertOwnOrigin(requests) {
  const origin = new URL(server.url).origin;
  const foreign = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'the page requested something outside its own origin');
}

test('a log chosen with #file-input shows the fallback findings with their line numbers', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', DEMO);
  const finding = page.locator('[data-finding-id="fallback.cpu"]');
  await finding.first().waitFor();
  assert.equal(await finding.count(), 2, 'two distinct fallback messages');
  assert.deepEqual(await linesOf(page, 'fallback.cpu'), [29, 30]);
  const quote = await finding.first().locator('.evidence li').first().textContent();
  assert.match(quote, /cannot be used with preferred buffer type CPU_REPACK, using CPU instead/);
  assert.equal(await finding.first().locator('.evidence li').first().getAttribute('data-line-start'), '29');
  assert.deepEqual(errors, []);
  assertOwnOrigin(requests);
  await context.close();
});

test('a real drop event analyzes the dropped file', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  const text = await readFile(ZH_LOG, 'utf8');
  // Build a DataTransfer in the page and dispatch the same events a user's drag produces.
  await page.evaluate((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'compat-build-zh.logcat.txt', { type: 'text/plain' }));
    const target = document.querySelector('main');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, text);
  const finding = page.locator('[data-finding-id="fallback.precision"]');
  await finding.waitFor();
  assert.deepEqual(await linesOf(page, 'fallback.precision'), [4, 5, 6]);
  assert.match(await finding.locator('.summary').textContent(), /3×/);
  assert.equal(await page.locator('[data-finding-id="fallback.reference-kernel"]').count(), 1);
  assert.equal(await page.locator('#drop-overlay').isHidden(), true);
  assert.deepEqual(errors, []);
  assertOwnOrigin(requests);
  await context.close();
});

test('an unknown binary file gets a clear error and the other files are still analyzed', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', [PNG, BIN, DEMO]);
  await page.locator('[data-finding-id="fallback.cpu"]').first().waitFor();
  const png = page.locator('#inputs li[data-input="screenshot.png"] .problem.error');
  assert.match(await png.textContent(), /screenshot\.png is an image/);
  assert.match(await png.textContent(), /llama\.cpp/, 'the error says what tokscope accepts');
  const bin = page.locator('#inputs li[data-input="model-shard.bin"] .problem.error');
  assert.match(await bin.textContent(), /model-shard\.bin is binary data/);
  assert.equal(await page.locator('#inputs > li').count(), 3);
  assert.deepEqual(errors, []);
  assertOwnOrigin(requests);
  await context.close();
});

test('"Try an example" shows a real analysis, and the language switch re-renders it in Chinese', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await page.click('#example');
  const finding = page.locator('[data-finding-id="fallback.cpu"]').first();
  await finding.waitFor();
  assert.match(await finding.locator('h3').textContent(), /Work falls back to the CPU/);
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.querySelector('[data-finding-id="fallback.cpu"] h3')?.textContent.includes('回退到 CPU'));
  assert.equal(await page.locator('#example').textContent(), '试试示例');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.deepEqual(errors, []);
  assertOwnOrigin(requests);
  await context.close();
});

test('a Chinese browser starts in Chinese, and pasted text is analyzed', async () => {
  const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  assert.equal(await page.locator('#example').textContent(), '试试示例');
  await page.click('#paste-box summary');
  await page.fill('#paste', 'E/tflite: 12 operations will run on the GPU, and the remaining 5 operations will run on the CPU.\n');
  await page.click('#paste-go');
  await page.locator('[data-finding-id="fallback.cpu"]').waitFor();
  assert.deepEqual(await linesOf(page, 'fallback.cpu'), [1]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a large file shows live progress, and Cancel keeps the part read', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  // ~400 MB built from one repeated slice: cheap for the test, real work for the analyzer.
  await page.evaluate(() => {
    const block = 'I/app: decode step ok\nW/app: the remaining 3 operations will run on the CPU.\n'.repeat(20000);
    const parts = new Array(Math.ceil(400e6 / block.length)).fill(block);
    const dt = new DataTransfer();
    dt.items.add(new File(parts, 'huge.log', { type: 'text/plain' }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  const bar = page.locator('.file-progress[data-file="huge.log"] progress');
  await page.waitForFunction(() => Number(document.querySelector('.file-progress progress')?.value) > 0);
  assert.match(await page.locator('.file-progress .progress-text').textContent(), /huge\.log: [\d.]+ of 4\d\d\.\d MB · [\d.]+ MB\/s/);
  assert.equal(await page.locator('#cancel').isVisible(), true);
  await page.click('#cancel');
  const problem = page.locator('#inputs li[data-input="huge.log"] .problem[data-problem="cancelled"]');
  await problem.waitFor();
  assert.equal(await bar.count(), 0, 'the progress row is gone');
  const meta = await page.locator('#inputs li[data-input="huge.log"] .input-meta').textContent();
  const lines = Number(meta.match(/([\d]+) lines/)[1]);
  assert.ok(lines > 0 && lines < 10_000_000, `partial lines kept: ${lines}`);
  assert.equal(await page.locator('[data-finding-id="fallback.cpu"]').count(), 1, 'findings of the part read');
  assert.deepEqual(errors, []);
  assertOwnOrigin(requests);
  await context.close();
});
