// The inputs of issue 14 in a real browser: a kernel log with under-voltage and one with
// thermal throttling show their findings; a log in no known framework's wording still gives its
// run; a log that tokscope cannot read says so under the file, with its lines and what to do.
// Screenshots of the first screen go to /tmp (1280x800 and 390x844) for a person to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, drop, sample, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

test('kernel logs show power.under-voltage and thermal.kernel-throttle, a healthy one nothing', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('system/dmesg-rpi5-undervoltage-usb.txt')]);
  const uv = page.locator('[data-finding-id="power.under-voltage"]');
  await uv.waitFor();
  assert.match(await uv.locator('.summary').textContent(), /3 times/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: '/tmp/inputs-undervoltage-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/inputs-undervoltage-390.png' });
  assert.deepEqual(errors, []);
  await context.close();

  const second = await openPage(browser, server.url);
  await drop(second.page, [await sample('system/journalctl-k-x86-thermal.txt'), await sample('system/dmesg-T-healthy.txt')]);
  const th = second.page.locator('[data-finding-id="thermal.kernel-throttle"]');
  await th.waitFor();
  assert.match(await th.locator('.summary').textContent(), /Package \(CPU2\)/);
  assert.equal(await second.page.locator('[data-finding-id="power.under-voltage"]').count(), 0);
  assert.deepEqual(second.errors, []);
  await second.context.close();
});

test('a log in no known wording gives its run; an unreadable one says what it saw, in zh too', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('logs/ollama-run-verbose.txt')]);
  await page.locator('#runs .run').first().waitFor();
  assert.equal(await page.locator('#runs .run tr[data-fact="framework"] td').textContent(), 'unknown');
  assert.deepEqual(errors, []);
  await context.close();

  const zh = await openPage(browser, server.url, { locale: 'zh-CN' });
  await drop(zh.page, [{ name: 'cut.log', text: 'ggml_backend: loaded CPU backend\nperf | decode: 128 tok in 5.2 sec\nperf | prefill: 64 tok in 0.8 sec\n' }]);
  const problem = zh.page.locator('[data-problem="timings-not-read"]');
  await problem.waitFor();
  assert.match(await problem.textContent(), /获取可读日志的方法/);
  const lines = zh.page.locator('[data-problem-lines="timings-not-read"] li');
  assert.equal(await lines.count(), 2);
  assert.match(await lines.first().textContent(), /decode: 128 tok in 5\.2 sec/);
  await zh.page.setViewportSize({ width: 1280, height: 800 });
  await zh.page.screenshot({ path: '/tmp/inputs-not-read-zh-1280.png' });
  assert.deepEqual(zh.errors, []);
  await zh.context.close();
});
