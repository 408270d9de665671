// Status dumps in a real browser: `nvidia-smi -q` with an active SW Power Cap shows power.wall
// naming the reason (and a hot second GPU thermal.wall), `vcgencmd get_throttled` shows
// power.under-voltage, Jetson's `nvpmodel -q` below MAXN shows power.wall by mode, and
// `lscpu -e` beside a perf trace gives the trace its clusters (sched.little-cores, clusters from
// cpuinfo_max_freq). Healthy dumps raise nothing. Screenshots go to /tmp for a person to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, drop, sample, shots, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

test('nvidia-smi -q: a software power cap is power.wall with the reason, a hot GPU thermal.wall', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('system/nvidia-smi-q-rtx3090-sw-power-cap.txt')]);
  const wall = page.locator('[data-finding-id="power.wall"]');
  await wall.waitFor();
  const summary = await wall.locator('.summary').textContent();
  assert.match(summary, /SW Power Cap/);
  assert.match(summary, /1530 MHz against a maximum of 2100 MHz/);
  assert.match(summary, /349\.4 W of its 350 W limit/);
  assert.equal(await page.locator('#inputs li[data-kind="telemetry"]').count(), 1);
  await shots(page, 'status-nvsmi');
  assert.deepEqual(errors, []);
  assert.ok(requests.every((u) => u.startsWith(server.url)), `requests: ${requests}`);
  await context.close();

  const two = await openPage(browser, server.url);
  await drop(two.page, [await sample('system/nvidia-smi-q-2gpu-hw-thermal.txt'), await sample('system/nvidia-smi-q-d-loop-healthy.txt')]);
  const hot = two.page.locator('[data-finding-id="thermal.wall"]');
  await hot.waitFor();
  assert.match(await hot.locator('.summary').textContent(), /GPU 1 SM clock at 840 MHz/);
  await two.page.locator('#inputs li[data-kind="telemetry"]').nth(1).waitFor();
  // The healthy loop adds nothing: one finding in all.
  assert.equal(await two.page.locator('[data-finding-id]').count(), 1);
  assert.deepEqual(two.errors, []);
  await two.context.close();
});

test('vcgencmd and nvpmodel: under-voltage since boot, and a Jetson below MAXN, in zh too', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('system/vcgencmd-get-throttled-occurred.txt'), await sample('system/jetson-nvpmodel-q-15w.txt')]);
  const uv = page.locator('[data-finding-id="power.under-voltage"]');
  await uv.waitFor();
  assert.match(await uv.locator('.summary').textContent(), /has occurred since boot" in 1/);
  const mode = page.locator('[data-finding-id="power.wall"]');
  await mode.waitFor();
  assert.match(await mode.locator('.summary').textContent(), /power mode 15W \(nvpmodel mode 2\)/);
  await shots(page, 'status-jetson-vcgencmd');
  assert.deepEqual(errors, []);
  await context.close();

  const zh = await openPage(browser, server.url, { locale: 'zh-CN' });
  await drop(zh.page, [await sample('system/jetson-nvpmodel-q-15w.txt')]);
  const z = zh.page.locator('[data-finding-id="power.wall"]');
  await z.waitFor();
  assert.match(await z.locator('.summary').textContent(), /功耗模式 15W/);
  await zh.context.close();

  const healthy = await openPage(browser, server.url);
  await drop(healthy.page, [await sample('system/jetson-clocks-show-orin-maxn.txt')]);
  await healthy.page.locator('#inputs li[data-kind="telemetry"]').waitFor();
  await healthy.page.locator('#verdict:not([hidden])').waitFor();
  assert.equal(await healthy.page.locator('[data-finding-id]').count(), 0);
  await healthy.context.close();
});

test('lscpu -e beside a perf trace decides its clusters: sched.little-cores', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('system/lscpu-e-rk3588.txt'), await sample('traces/llama-little-cores.perf.txt')]);
  const little = page.locator('[data-finding-id="sched.little-cores"]');
  await little.waitFor();
  assert.match(await little.locator('.summary').textContent(), /little CPUs 0-3/);
  await page.waitForFunction(() => document.querySelector('#sched .topology-source')?.dataset.source === 'cpuinfo-max-freq');
  await page.locator('#sched').scrollIntoViewIfNeeded();
  await shots(page, 'status-lscpu');
  assert.deepEqual(errors, []);
  await context.close();
});
