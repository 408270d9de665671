// Big files in the real page: the worker reads a File in pieces (one reused buffer through a BYOB
// stream reader, or File.slice where Blob streams are not byte streams) and no byte is lost or
// read twice where lines cross the pieces. The 2 GiB run with its memory figures is
// tests/e2e/bench-big.mjs (not a test: too slow for CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/**
 * Drops a ~40 MB file built in the page from one block whose length does not divide the 4 MiB
 * pieces (so lines are cut at every piece boundary) and returns the byte and line counts the report shows, and the expected ones.
 */
async function dropAndCount(page) {
  const expected = await page.evaluate(() => {
    const block = 'I/app: decode step ok\r\nW/app: the remaining 3 operations will run on the CPU.\nI/app: 部分 ops 回退\n';
    const copies = 270_001;
    const dt = new DataTransfer();
    dt.items.add(new File(new Array(copies).fill(block), 'pieces.log', { type: 'text/plain' }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    return { lines: copies * 3, bytes: new TextEncoder().encode(block).length * copies };
  });
  const item = page.locator('#inputs li[data-input="pieces.log"]');
  await item.locator('.input-meta').waitFor({ timeout: 120_000 });
  const text = await item.locator('.input-meta').textContent();
  const got = { lines: Number(text.match(/(\d+) lines/)[1]), bytes: Number(await item.getAttribute('data-bytes')) };
  assert.equal(Number(await item.getAttribute('data-lines')), got.lines, 'the shown line count is the exact one');
  return { got, expected };
}

test('a file read in pieces through the worker keeps every line (stream reader)', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  const { got, expected } = await dropAndCount(page);
  assert.deepEqual(got, expected);
  assert.equal(await page.locator('[data-finding-id="fallback.cpu"]').count(), 1);
  assert.equal(await page.locator('#inputs li[data-input="pieces.log"] .problem[data-problem="cancelled"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('where Blob streams are not byte streams, File.slice pieces give the same lines', async () => {
  // Serve the worker with byte streams taken away, as in an engine without them (no service
  // worker, which would serve the cached original).
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await context.route('**/analyzer.worker.js', async (route) => {
    const response = await route.fetch();
    const body = `self.noByteStreams = true; Blob.prototype.stream = function () { throw new TypeError('not a byte stream'); };\n${await response.text()}`;
    await route.fulfill({ response, body });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const started = page.waitForEvent('worker', (w) => w.url().endsWith('analyzer.worker.js'));
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  const worker = await started;
  assert.equal(await worker.evaluate(() => self.noByteStreams), true, 'the patched worker is the one running');
  const { got, expected } = await dropAndCount(page);
  assert.deepEqual(got, expected);
  assert.equal(await page.locator('[data-finding-id="fallback.cpu"]').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});
