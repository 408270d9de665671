// Counter summaries in a real browser: a `perf stat` pasted after its llama.cpp run (8 threads,
// 2.1 CPUs used, many migrations) shows threads.waiting, sched.migrations and the figures, in zh
// too; `lscpu -e` beside it adds counters.low-clock; a `simpleperf stat` from Android is read as a
// counter summary with its figures. Screenshots go to /tmp for a person to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, drop, sample, shots, withBrowser } from './harness.mjs';

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

test('perf stat after an 8-thread llama.cpp run: threads wait, threads migrate, figures shown', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('system/perf-stat-llama-8-threads-2-cpus-rk3588.txt')]);
  const waiting = page.locator('[data-finding-id="threads.waiting"]');
  await waiting.waitFor();
  const w = await waiting.locator('.summary').textContent();
  assert.match(w, /asked for 8 threads/);
  assert.match(w, /only 2\.10 CPUs busy on average over 29\.2 s/);
  const moves = page.locator('[data-finding-id="sched.migrations"]');
  assert.match(await moves.locator('.summary').textContent(), /18904 CPU migrations in 29\.2 s/);
  const figures = page.locator('[data-finding-id="counters.summary"]');
  const f = await figures.locator('.summary').textContent();
  assert.match(f, /2\.10 CPUs used/);
  assert.match(f, /1\.25 GHz/);
  assert.match(f, /IPC \(instructions per cycle\) 0\.81/);
  // One input, read as a counter summary that also carried the run.
  assert.equal(await page.locator('#inputs li[data-kind="counters"]').count(), 1);
  await waiting.scrollIntoViewIfNeeded();
  await shots(page, 'counters-perf-stat');
  assert.deepEqual(errors, []);
  assert.ok(requests.every((u) => u.startsWith(server.url)), `requests: ${requests}`);
  await context.close();

  const zh = await openPage(browser, server.url, { locale: 'zh-CN' });
  await drop(zh.page, [await sample('system/perf-stat-llama-8-threads-2-cpus-rk3588.txt')]);
  const z = zh.page.locator('[data-finding-id="threads.waiting"]');
  await z.waitFor();
  assert.match(await z.locator('.summary').textContent(), /设置了 8 个线程.*平均只看到 2\.10 个 CPU 在忙/);
  assert.match(await zh.page.locator('[data-finding-id="counters.summary"] .summary').textContent(), /平均使用 2\.10 个 CPU/);
  await z.scrollIntoViewIfNeeded();
  await shots(zh.page, 'perf-stat-zh');
  assert.deepEqual(zh.errors, []);
  await zh.context.close();
});

test('lscpu -e beside the counters judges the clock; simpleperf stat on Android shows its figures', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await drop(page, [await sample('system/perf-stat-llama-8-threads-2-cpus-rk3588.txt'), await sample('system/lscpu-e-rk3588.txt')]);
  const clock = page.locator('[data-finding-id="counters.low-clock"]');
  await clock.waitFor();
  assert.match(await clock.locator('.summary').textContent(), /1\.25 GHz.*54% of the 2\.30 GHz/);
  assert.deepEqual(errors, []);
  await context.close();

  const sp = await openPage(browser, server.url);
  await drop(sp.page, [await sample('system/simpleperf-stat-android-llama.txt')]);
  const figures = sp.page.locator('[data-finding-id="counters.summary"]');
  await figures.waitFor();
  const f = await figures.locator('.summary').textContent();
  assert.match(f, /simpleperf stat for process id '21877'/);
  assert.match(f, /2\.38 CPUs used on average/);
  await sp.page.locator('[data-finding-id="sched.migrations"]').waitFor();
  // No log gives a thread count: no waiting finding.
  assert.equal(await sp.page.locator('[data-finding-id="threads.waiting"]').count(), 0);
  await figures.scrollIntoViewIfNeeded();
  await shots(sp.page, 'simpleperf');
  assert.deepEqual(sp.errors, []);
  await sp.context.close();
});
