// The analyzer worker recovers when the core fails: a wasm trap while one file is read (made here
// by the test, inside the worker, since the core itself has no known trap) is reported under that
// file as the analyzer's failure, not as a read error; a new worker reads the other files again,
// so their findings stay; and later drops are analyzed as before. In zh too. A drop of many files
// is read to the last one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, openPage, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

const file = async (path) => ({ name: path.split('/').pop(), mimeType: 'text/plain', buffer: await readFile(join(ROOT, 'samples', path)) });
const TRAP = { name: 'trap.log', mimeType: 'text/plain', buffer: Buffer.from('TRAP-TEST: the core traps on this file\n') };

/** Makes the core trap when it is handed bytes that begin with TRAP-TEST. */
async function armTrap(page) {
  const worker = page.workers().find((w) => w.url().includes('analyzer.worker'));
  assert.ok(worker, `workers: ${page.workers().map((w) => w.url())}`);
  await worker.evaluate(() => {
    const set = Uint8Array.prototype.set;
    Uint8Array.prototype.set = function trapping(src, offset) {
      if (src?.length >= 9 && String.fromCharCode(...src.subarray(0, 9)) === 'TRAP-TEST') {
        throw new WebAssembly.RuntimeError('unreachable');
      }
      return set.call(this, src, offset);
    };
  });
}

const settled = (page, n) => page.waitForFunction((count) => document.querySelector('#cancel').hidden
  && document.querySelectorAll('#inputs > li').length === count, n);

for (const [locale, words, status] of [
  ['en-US', /analyzer failed on this file/, /1 left out/],
  ['zh-CN', /分析器处理此文件时出错/, /1 个文件因分析器出错而未纳入/],
]) {
  test(`a core failure on one file leaves the others analyzed (${locale})`, async () => {
    const { page, context } = await openPage(browser, server.url, { locale });
    await armTrap(page);
    const before = await file('compare/seed000-device-b.logcat.txt');
    const afterTrap = await file('cpu-flags/sm8550.cpuinfo.txt');
    await page.setInputFiles('#file-input', [before, TRAP, afterTrap]);
    await settled(page, 3);

    const failed = page.locator('#inputs li[data-kind="failed"]');
    assert.equal(await failed.count(), 1);
    assert.equal(await failed.getAttribute('data-input'), 'trap.log');
    assert.match(await failed.textContent(), words);
    assert.match(await failed.textContent(), /unreachable/);
    assert.match(await page.locator('#status').textContent(), status);
    assert.ok(await page.locator('#status.error').count(), 'the status stays an error');
    // The files before and after it were read again by the new worker, with their findings.
    const names = await page.locator('#inputs li:not([data-kind="failed"])').evaluateAll((lis) => lis.map((li) => li.dataset.input));
    assert.deepEqual(names, ['seed000-device-b.logcat.txt', 'sm8550.cpuinfo.txt']);
    assert.equal(await page.locator('[data-finding-id="cpu.missing-dotprod"]').count(), 1);
    assert.match(await page.locator('#verdict-headline').textContent(), /0\.57 tok\/s|0\.57/);

    // The new worker takes later files as before.
    await page.setInputFiles('#file-input', [await file('telemetry-runs/thermal-wall.llama-cli.log')]);
    await page.locator('#drop-add').click();
    await settled(page, 4);
    assert.equal(await page.locator('#inputs li[data-input="thermal-wall.llama-cli.log"]').count(), 1);
    await context.close();
  });
}

test('every file of a big drop is read (file streams never pile up)', async () => {
  const { readdir } = await import('node:fs/promises');
  // The status dumps are small and quick: with a stream per file, the 13th never started.
  const names = (await readdir(join(ROOT, 'samples/system'))).sort();
  assert.ok(names.length >= 16, `${names.length} files`);
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', names.map((n) => join(ROOT, 'samples/system', n)));
  await settled(page, names.length);
  assert.match(await page.locator('#status').textContent(), new RegExp(`Analyzed ${names.length} file`));
  assert.deepEqual(errors, []);
  await context.close();
});
