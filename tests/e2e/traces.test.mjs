// Traces in a real browser: a dropped perf script trace shows the cluster timeline (drawn by the
// wasm core into a canvas), the frequency strip, the residency table and `sched.little-cores`;
// a preset picked in the page re-runs the analysis with that topology; a binary perf.data works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

const LITTLE = join(ROOT, 'samples/traces/llama-little-cores.perf.txt');
const PERF_DATA = join(ROOT, 'samples/traces/python-4-threads-on-2-cpus.perf.data');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Counts pixels of a canvas close to an RGB colour. */
async function pixelsOf(page, selector, [r, g, b]) {
  return page.evaluate(({ selector, r, g, b }) => {
    const c = document.querySelector(selector);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - g) < 8 && Math.abs(data[i + 2] - b) < 8) n += 1;
    }
    return n;
  }, { selector, r, g, b });
}

async function dropFile(page, name, text) {
  await page.evaluate(({ name, text }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name, { type: 'text/plain' }));
    const target = document.querySelector('main');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, { name, text });
}

test('a dropped perf trace shows the cluster timeline and sched.little-cores', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await dropFile(page, 'llama-little-cores.perf.txt', await readFile(LITTLE, 'utf8'));
  const finding = page.locator('[data-finding-id="sched.little-cores"]');
  await finding.waitFor();
  assert.match(await finding.locator('.summary').textContent(), /little CPUs 0-3/);
  const timeline = page.locator('#sched-timeline-0');
  await timeline.waitFor();
  // The wasm core drew the lanes: little-core (red) and big-core (teal) cells are on the canvas.
  await page.waitForFunction(() => {
    const c = document.querySelector('#sched-timeline-0');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i + 1] !== 255) return true;
    return false;
  });
  assert.ok(await pixelsOf(page, '#sched-timeline-0', [209, 73, 91]) > 500, 'little-core cells drawn');
  assert.ok(await pixelsOf(page, '#sched-timeline-0', [0, 121, 140]) > 500, 'big-core cells drawn');
  assert.equal(await page.locator('#sched-freq-0').count(), 1, 'a frequency strip');
  assert.equal(await page.locator('#sched table.residency tbody tr[data-inference="true"]').count(), 8);
  assert.equal(await page.locator('#sched .topology-source').getAttribute('data-source'), 'observed-freq');
  assert.deepEqual(errors, []);
  await context.close();
});

test('picking a preset re-analyzes with that topology', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', LITTLE);
  await page.locator('[data-finding-id="sched.little-cores"]').waitFor();
  await page.selectOption('#sched-preset', 'rk3588');
  await page.waitForFunction(() => document.querySelector('#sched .topology-source')?.dataset.source === 'user');
  assert.match(await page.locator('#sched .topology-source').textContent(), /RK3588/);
  assert.equal(await page.locator('[data-finding-id="sched.little-cores"]').count(), 1);
  // Declaring every CPU big removes the little-core finding.
  await page.fill('#sched-clusters', '0-7:big');
  await page.click('#sched-apply');
  await page.waitForFunction(() => !document.querySelector('[data-finding-id="sched.little-cores"]'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a binary perf.data is read in the page', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', PERF_DATA);
  await page.locator('#sched-timeline-0').waitFor();
  assert.equal(await page.locator('#inputs > li').first().getAttribute('data-kind'), 'perf-data');
  assert.ok(await page.locator('#sched table.residency tbody tr').count() >= 4);
  assert.deepEqual(errors, []);
  await context.close();
});

test('lines a trace parser could not read are counted and the first ones shown with their numbers', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  const lines = (await readFile(LITTLE, 'utf8')).split('\n');
  // Damage in the middle of the trace: a pasted shell prompt and two cut lines.
  lines.splice(40, 0, '$ adb pull /data/local/tmp/perf.txt', '@@@ garbage 0x', 'Warning: %%%');
  await dropFile(page, 'damaged.perf.txt', lines.join('\n'));
  const shown = page.locator('[data-problem-lines="trace-lines-skipped"] li');
  await shown.first().waitFor();
  const items = await shown.evaluateAll((els) => els.map((e) => [e.dataset.line, e.querySelector('code').textContent]));
  assert.deepEqual(items.slice(0, 3), [['41', '$ adb pull /data/local/tmp/perf.txt'], ['42', '@@@ garbage 0x'], ['43', 'Warning: %%%']]);
  assert.match(await page.locator('[data-problem="trace-lines-skipped"]').textContent(), /3 lines in all/);
  // The rest of the trace was still read.
  await page.locator('[data-finding-id="sched.little-cores"]').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});
