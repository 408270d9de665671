// sbc-bench / armbianmonitor monitor output and USB resets in a real browser: a throttling
// RK3588 monitor shows thermal.wall, a Pi 5 monitor whose supply sags shows power.under-voltage
// from the DC(V) rail, a healthy armbianmonitor paste raises nothing, and a dmesg -T whose USB
// resets line up with a telemetry CSV's stalls ties them in power.periodic-stall (in zh too),
// while resets at other times are shown on their own and not tied. Screenshots go to /tmp.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, drop, sample, shots, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

test('sbc-bench monitors: thermal wall on an RK3588, a supply dip on a Pi 5, a healthy board', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('telemetry/sbc-bench-m-rk3588-throttling.txt')]);
  const wall = page.locator('[data-finding-id="thermal.wall"]');
  await wall.waitFor();
  assert.match(await wall.locator('.summary').textContent(), /CPU 4,6 fell from 2400/);
  assert.equal(await page.locator('#inputs li[data-kind="telemetry"]').count(), 1);
  await shots(page, 'sbc-rk3588');
  assert.deepEqual(errors, []);
  assert.ok(requests.every((u) => u.startsWith(server.url)), `requests: ${requests}`);
  await context.close();

  const pi = await openPage(browser, server.url);
  await drop(pi.page, [await sample('telemetry/sbc-bench-m-rpi5-supply-dip.txt')]);
  const uv = pi.page.locator('[data-finding-id="power.under-voltage"]');
  await uv.waitFor();
  assert.match(await uv.locator('.summary').textContent(), /DC in sagged to 4\.\d+ V .* arm ran at 1500 MHz/);
  // The supply rail is drawn (the 0.87 V core rail is not, it would flatten the dip).
  const panels = (await pi.page.locator('#telemetry-chart').getAttribute('data-panels')).split('|');
  assert.ok(panels.includes('Voltage (V)'), `panels: ${panels}`);
  await pi.page.locator('#telemetry-chart').scrollIntoViewIfNeeded();
  await shots(pi.page, 'pi5');
  assert.deepEqual(pi.errors, []);
  await pi.context.close();

  const healthy = await openPage(browser, server.url);
  await drop(healthy.page, [await sample('telemetry/armbianmonitor-m-rk3399-healthy.txt')]);
  await healthy.page.locator('#inputs li[data-kind="telemetry"]').waitFor();
  await healthy.page.locator('#verdict:not([hidden])').waitFor();
  assert.equal(await healthy.page.locator('[data-finding-id]').count(), 0);
  await healthy.context.close();
});

test('USB resets that line up with the stalls are tied to them, in zh too; resets elsewhere are not', async () => {
  const files = [await sample('usb-stall/telemetry-1s.csv'), await sample('usb-stall/dmesg-T-usb-disk.txt')];
  const { page, context, errors } = await openPage(browser, server.url);
  await drop(page, files);
  const stall = page.locator('[data-finding-id="power.periodic-stall"]');
  await stall.waitFor();
  assert.match(await stall.locator('.summary').textContent(), /8 of the 8 stalls had a USB reset or error in the kernel log within ±5 s/);
  // The reset lines say where (file:line) and when (on the telemetry's axis).
  assert.match(await stall.locator('.evidence li[data-line-start="12"] .where').textContent(), /^dmesg-T-usb-disk\.txt:12 · t=42 s$/);
  assert.equal(await page.locator('[data-finding-id="power.usb-errors"]').count(), 0);
  await stall.scrollIntoViewIfNeeded();
  await shots(page, 'sbc-usb-stall');
  assert.deepEqual(errors, []);
  await context.close();

  const zh = await openPage(browser, server.url, { locale: 'zh-CN' });
  await drop(zh.page, files);
  const z = zh.page.locator('[data-finding-id="power.periodic-stall"]');
  await z.waitFor();
  assert.match(await z.locator('.summary').textContent(), /8 次卡顿中有 8 次在 ±5 秒内对应内核日志中的 USB 复位或错误/);
  await z.scrollIntoViewIfNeeded();
  await shots(zh.page, 'usb-stall-zh');
  await zh.context.close();

  const apart = await openPage(browser, server.url);
  await drop(apart.page, [await sample('usb-stall-apart/telemetry-1s.csv'), await sample('usb-stall-apart/dmesg-T-usb-disk.txt')]);
  const a = apart.page.locator('[data-finding-id="power.periodic-stall"]');
  await a.waitFor();
  assert.match(await a.locator('.summary').textContent(), /only 0 of the 8 stalls had one within ±5 s/);
  await apart.page.locator('[data-finding-id="power.usb-errors"]').waitFor();
  assert.deepEqual(apart.errors, []);
  await apart.context.close();
});
