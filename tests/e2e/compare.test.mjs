// Compare like with like, in the real page: one model on two devices is one pair with its gap;
// runs of different models are listed, never measured against each other; the user moves runs
// between groups, leaves them out and picks the reference, and the report follows; a drop onto a
// report asks whether to add to it or replace it; the compare table never widens a phone's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

const PAIR = ['samples/compare/seed000-device-a.logcat.txt', 'samples/compare/seed000-device-b.logcat.txt'];
const MIXED = [
  'samples/compare-mixed/llama2-7b-rk3588.log',
  'samples/compare-mixed/llama2-7b-sd8gen2.logcat.txt',
  'samples/compare-mixed/qwen2.5-0.5b-mnn.logcat.txt',
];
// Three models: a llama 2 7B, a Qwen 0.5B on MNN and a Mistral 7B on CUDA.
const UNRELATED = [
  'samples/compare-mixed/llama2-7b-sd8gen2.logcat.txt',
  'samples/compare-mixed/qwen2.5-0.5b-mnn.logcat.txt',
  'samples/logs/llama-2024-cuda-paste.md',
];

const base = (f) => f.split('/').pop();

/** Waits until `n` inputs are read and their report is on screen. */
async function waitForInputs(page, n) {
  await page.waitForFunction((count) => document.querySelector('#cancel').hidden
    && document.querySelectorAll('#inputs > li').length === count
    && document.querySelector('#verdict-headline'), n);
}

async function analyze(page, files) {
  await page.setInputFiles('#file-input', files.map((f) => join(ROOT, f)));
  await waitForInputs(page, files.length);
}

const headline = (page) => page.locator('#verdict-headline').textContent();

test('the seed-000 pair is one group with its gap, and one card per finding id', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await analyze(page, PAIR);
  const groups = page.locator('#compare .compare-group');
  assert.equal(await groups.count(), 1);
  assert.equal(await groups.first().getAttribute('data-reference'), base(PAIR[0]));
  assert.equal(await page.locator('#compare .compare-alone li').count(), 0);
  assert.equal(await page.locator('.verdict-gap').getAttribute('data-gap'), '23.5');
  assert.match(await headline(page), /seed000-device-b\.logcat\.txt decodes at 0\.57 tok\/s, 23\.5× slower than seed000-device-a/);
  // Device A's radio is the reference, and the table's first column is A.
  assert.equal(await page.locator(`#compare input[type=radio][value="${base(PAIR[0])}"]`).isChecked(), true);
  assert.match(await groups.first().locator('tr').first().locator('th').nth(1).textContent(), /^A: seed000-device-a/);
  // "A single run" holds for both logs: one card that lists both.
  const single = page.locator('[data-finding-id="measure.single-run"]');
  assert.equal(await single.count(), 1);
  assert.match(await single.locator('.finding-inputs').textContent(), /In 2 inputs/);
  assert.equal(await single.locator('.evidence li').count(), 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('runs of different models are listed, not compared', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await analyze(page, UNRELATED);
  assert.equal(await page.locator('#compare').isHidden(), false);
  assert.equal(await page.locator('#compare .compare-group').count(), 0);
  const listed = await page.locator('#compare .compare-alone li').evaluateAll((lis) => lis.map((li) => li.dataset.input));
  assert.deepEqual(listed.sort(), UNRELATED.map(base).sort());
  assert.equal(await page.locator('[data-finding-id^="compare."]').count(), 0, 'no compare finding across models');
  assert.equal(await page.locator('.verdict-gap').count(), 0);
  const text = await headline(page);
  assert.doesNotMatch(text, /slower than|faster than|\d×/, text);
  assert.match(text, /No two of these runs are known to be of the same model/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the user picks the reference, moves a run and leaves one out, and the report follows', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await analyze(page, MIXED);
  // The llama pair is compared; the 0.5B MNN run (the fastest of all) is not its reference.
  const group = page.locator('#compare .compare-group');
  assert.equal(await group.count(), 1);
  assert.equal(await group.getAttribute('data-reference'), 'llama2-7b-sd8gen2.logcat.txt');
  assert.match(await headline(page), /llama2-7b-rk3588\.log decodes at 2\.96 tok\/s, 3\.31× slower than llama2-7b-sd8gen2/);
  assert.deepEqual(await page.locator('#compare .compare-alone li').evaluateAll((l) => l.map((x) => x.dataset.input)),
    ['qwen2.5-0.5b-mnn.logcat.txt']);

  // The reference, by keyboard: focus the board's radio and select it.
  const radio = page.locator('#compare input[type=radio][value="llama2-7b-rk3588.log"]');
  await radio.focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('#compare .compare-group')?.dataset.reference === 'llama2-7b-rk3588.log');
  assert.match(await headline(page), /llama2-7b-sd8gen2\.logcat\.txt decodes at 9\.80 tok\/s, 3\.31× faster than the chosen reference llama2-7b-rk3588\.log/);
  assert.equal(await page.locator('.verdict-gap').count(), 0, 'no gap against a slower reference');
  assert.match(await page.locator('#compare .compare-members legend').textContent(), /your pick/);
  // Focus stays on the control that was used.
  assert.equal(await page.evaluate(() => document.activeElement?.value), 'llama2-7b-rk3588.log');

  // Move the MNN run into the group: three columns, nothing listed apart.
  await page.locator('#compare .compare-alone li[data-input="qwen2.5-0.5b-mnn.logcat.txt"] select').selectOption('group:0');
  await page.waitForFunction(() => document.querySelectorAll('#compare .compare-group tr:first-child th').length === 4);
  assert.equal(await page.locator('#compare .compare-alone').count(), 0);

  // Leave the board out: the rest is one pair again, against the board no more.
  await page.locator('#compare .compare-member[data-input="llama2-7b-rk3588.log"] select').selectOption('out');
  await page.waitForFunction(() => document.querySelector('#compare .compare-excluded li')?.dataset.input === 'llama2-7b-rk3588.log');
  assert.doesNotMatch(await headline(page), /rk3588/);

  // Back to automatic grouping: the first view again.
  await page.click('#compare-auto');
  await page.waitForFunction(() => document.querySelector('#compare .compare-group')?.dataset.reference === 'llama2-7b-sd8gen2.logcat.txt'
    && document.querySelectorAll('#compare .compare-alone li').length === 1);
  assert.match(await headline(page), /3\.31× slower than llama2-7b-sd8gen2/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a second drop asks: add to this analysis, or replace it', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await analyze(page, PAIR);
  const dialog = page.locator('#drop-ask');
  assert.equal(await dialog.isVisible(), false, 'no question before there is a report');

  // Escape: nothing is read.
  await page.setInputFiles('#file-input', join(ROOT, MIXED[2]));
  await dialog.waitFor({ state: 'visible' });
  assert.match(await page.locator('#drop-ask-text').textContent(), /qwen2\.5-0\.5b-mnn\.logcat\.txt/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'drop-add');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await page.locator('#inputs > li').count(), 2);

  // Enter on the focused "Add": the file joins the analysis.
  await page.setInputFiles('#file-input', join(ROOT, MIXED[2]));
  await dialog.waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await waitForInputs(page, 3);
  assert.equal(await page.locator('#compare .compare-group').count(), 1);
  assert.deepEqual(await page.locator('#compare .compare-alone li').evaluateAll((l) => l.map((x) => x.dataset.input)),
    ['qwen2.5-0.5b-mnn.logcat.txt']);

  // "Replace it": a new analysis of the new file alone.
  await page.setInputFiles('#file-input', join(ROOT, MIXED[0]));
  await dialog.waitFor({ state: 'visible' });
  await page.click('#drop-replace');
  await waitForInputs(page, 1);
  assert.deepEqual(await page.locator('#inputs > li').evaluateAll((l) => l.map((x) => x.dataset.input)), ['llama2-7b-rk3588.log']);
  assert.equal(await page.locator('#compare').isHidden(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the compare view is bilingual', async () => {
  const { page, context, errors } = await openPage(browser, server.url, { locale: 'zh-CN' });
  await analyze(page, MIXED);
  const text = await page.locator('#compare').textContent();
  assert.match(text, /第 1 组/);
  assert.match(text, /只列出、不对比/);
  assert.doesNotMatch(text, /Group 1|Listed, not compared|Reference \(device A\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 390 px the compare table scrolls in its box and keeps readable columns', async () => {
  for (const files of [PAIR, MIXED]) {
    const { page, context, errors } = await openPage(browser, server.url);
    await page.setViewportSize({ width: 390, height: 844 });
    await analyze(page, files);
    await page.waitForTimeout(100);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'the page scrolls sideways');
    const widths = await page.locator('#compare table.compare td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().width));
    assert.ok(widths.length > 0);
    // One character per line would be a column about 10 px wide.
    assert.ok(Math.min(...widths) >= 80, `narrowest column ${Math.min(...widths)} px`);
    const box = await page.locator('#compare .table-scroll').first().evaluate((b) => ({ sw: b.scrollWidth, cw: b.clientWidth }));
    assert.ok(box.cw <= 390);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a share link shows the same groups, without controls it could not apply', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await analyze(page, MIXED);
  await page.click('#share');
  await page.waitForFunction(() => document.querySelector('#share-url').value.includes('#r='));
  const link = await page.inputValue('#share-url');
  const other = await openPage(browser, server.url);
  await other.page.goto(link);
  await other.page.locator('#compare .compare-group').waitFor();
  assert.equal(await other.page.locator('#compare .compare-group').getAttribute('data-reference'), 'llama2-7b-sd8gen2.logcat.txt');
  assert.deepEqual(await other.page.locator('#compare .compare-alone li').evaluateAll((l) => l.map((x) => x.dataset.input)),
    ['qwen2.5-0.5b-mnn.logcat.txt']);
  assert.equal(await other.page.locator('#compare select, #compare input[type=radio], #compare-auto').count(), 0);
  assert.equal(await other.page.locator('[data-finding-id="measure.single-run"]').count(), 1);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await other.context.close();
  await context.close();
});
