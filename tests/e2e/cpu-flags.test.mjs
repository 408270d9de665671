// System information in a real browser: a Raspberry Pi 3 llama.cpp log with DOTPROD = 0 beside
// its /proc/cpuinfo (no asimddp) says a rebuild cannot help, in en and zh; the cpuinfo input is
// listed as system information; a Snapdragon cpuinfo (asimddp) beside a compatibility build says
// the build left it out.
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

const at = (p) => join(ROOT, 'samples', p);
const PI3 = [at('cpu-flags/pi3-a53.llama-cli.log'), at('cpu-flags/pi3-a53.cpuinfo.txt')];

async function analyze(page, files) {
  await page.setInputFiles('#file-input', files);
  await page.waitForFunction((n) => document.querySelector('#cancel').hidden
    && document.querySelectorAll('#inputs > li').length === n, files.length);
}

for (const [locale, rebuild, kind] of [
  ['en-US', /a rebuild cannot add it/, /system information/],
  ['zh-CN', /重新构建无法补上/, /系统信息/],
]) {
  test(`a CPU without dot product: the card says no rebuild helps (${locale})`, async () => {
    const { page, context, errors } = await openPage(browser, server.url, { locale });
    await page.setViewportSize({ width: 1280, height: 800 });
    await analyze(page, PI3);
    const card = page.locator('[data-finding-id="cpu.missing-dotprod"]');
    await card.waitFor();
    assert.match(await card.locator('.summary').textContent(), rebuild);
    assert.match(await card.textContent(), /pi3-a53\.cpuinfo\.txt:4/);
    assert.equal(await page.locator('[data-finding-id="cpu.missing-i8mm"]').count(), 0);
    assert.match(await page.locator('#inputs li[data-input="pi3-a53.cpuinfo.txt"]').textContent(), kind);
    await page.screenshot({ path: `/tmp/cpu-flags-${locale}-1280.png`, fullPage: false });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a CPU with dot product beside a compatibility build: the build left it out', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 390, height: 844 });
  await analyze(page, [at('compare/seed000-device-b.logcat.txt'), at('cpu-flags/sm8550.cpuinfo.txt')]);
  const card = page.locator('[data-finding-id="cpu.missing-dotprod"]');
  await card.waitFor();
  assert.match(await card.locator('.summary').textContent(), /The CPU has it \(asimddp/);
  await page.screenshot({ path: '/tmp/cpu-flags-has-390.png', fullPage: false });
  assert.deepEqual(errors, []);
  await context.close();
});
