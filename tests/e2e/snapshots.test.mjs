// Snapshots in a real browser: a toybox `top -H` dropped with /proc/cpuinfo gives
// sched.little-cores that says how many snapshots it rests on; `dumpsys meminfo` dropped with a
// llama-bench table gives quant.weights-expanded naming the snapshot's line; a healthy procps
// `top -H` (threads on the big cores, resident memory that fits int4) gives neither.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

const S = (f) => join(ROOT, 'samples', f);
const CPUINFO = S('traces/llama-little-cores.cpuinfo.txt');
const BENCH = S('logs/llama-bench-headerless.tsv');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Waits until every file is listed as an input of the report. */
async function waitInputs(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('#inputs > li[data-input]').length >= n, n);
}

test('a toybox top -H with cpuinfo shows sched.little-cores from 4 snapshots', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', [CPUINFO, S('snapshots/toybox-top-H-little-cores.txt')]);
  const finding = page.locator('[data-finding-id="sched.little-cores"]');
  await finding.waitFor();
  const summary = await finding.locator('.summary').textContent();
  assert.match(summary, /little CPUs 0-3/);
  assert.match(summary, /From 4 snapshots \(56 thread samples\)/);
  assert.match(summary, /only where a thread was at that instant/);
  const row = page.locator('#inputs > li[data-input="toybox-top-H-little-cores.txt"]');
  assert.equal(await row.getAttribute('data-kind'), 'snapshot');
  assert.deepEqual(errors, []);
  await context.close();
});

test('dumpsys meminfo with a model size shows quant.weights-expanded at its line', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', [BENCH, S('snapshots/dumpsys-meminfo-llama-expanded.txt')]);
  const finding = page.locator('[data-finding-id="quant.weights-expanded"]');
  await finding.waitFor();
  const summary = await finding.locator('.summary').textContent();
  assert.match(summary, /TOTAL RSS 7\.09 GiB at dumpsys-meminfo-llama-expanded\.txt:37/);
  assert.match(summary, /about 3\.53 GiB is expected \(2\.0×/);
  assert.equal(await page.locator('[data-finding-id="memory.resident"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the same memory alone says what would decide, in Chinese too', async () => {
  const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await page.setInputFiles('#file-input', [S('snapshots/dumpsys-meminfo-llama-expanded.txt')]);
  const finding = page.locator('[data-finding-id="memory.resident"]');
  await finding.waitFor();
  assert.match(await finding.locator('.summary').textContent(), /仅凭内存无法判断/);
  assert.equal(await page.locator('[data-finding-id="quant.weights-expanded"]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a healthy procps top -H on the big cores gives no false alarm', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', [CPUINFO, S('snapshots/procps-top-H-big-cores.txt'), BENCH]);
  await waitInputs(page, 3);
  // The report for all three inputs is in: the snapshot is listed as one, and read.
  await page.locator('#inputs > li[data-input="procps-top-H-big-cores.txt"][data-kind="snapshot"]').waitFor();
  // And its threads were read: the residency table lists the four busy llama-cli threads.
  await page.waitForFunction(() => document.querySelectorAll('#sched table.residency tbody tr[data-inference="true"]').length >= 4);
  const ids = await page.locator('[data-finding-id]').evaluateAll((els) => els.map((e) => e.dataset.findingId));
  assert.ok(!ids.some((id) => id.startsWith('sched.') || id.startsWith('quant.')), ids.join(', '));
  assert.deepEqual(errors, []);
  await context.close();
});
