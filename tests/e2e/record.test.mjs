// tokscope-record in a real browser: the "Record a run" section gives the steps in en and zh with
// working copy buttons and serves the script (also offline); a recorded bundle dropped on the page
// gives the stacked charts, the thread residency, thermal.wall and sched.little-cores; the bundle
// recorded on this machine gives its two busy threads. Screenshots go to target/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, serve, launch, openPage } from './harness.mjs';

const PHONE = join(ROOT, 'samples/bundles/phone-fixture-hot-little-cores.txt');
const VM = join(ROOT, 'samples/bundles/linux-vm-two-threads.txt');
const SHOTS = join(ROOT, 'target/e2e');

let server;
let browser;

before(async () => {
  server = await serve();
  browser = await launch();
  await mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('a dropped bundle shows its charts, thread residency and findings', async () => {
  const { page, context, requests, errors } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.setInputFiles('#file-input', PHONE);
  await page.locator('[data-finding-id="thermal.wall"]').first().waitFor();
  assert.equal(await page.locator('[data-finding-id="sched.little-cores"]').count(), 1);
  assert.equal(await page.locator('#inputs li[data-kind="bundle"]').count(), 1);
  // What the recorder could not read is said with the input.
  assert.match(await page.locator('#inputs li[data-kind="bundle"]').textContent(), /thermal_zone3\/temp/);

  const canvas = page.locator('#telemetry-chart');
  await canvas.waitFor();
  const panels = (await canvas.getAttribute('data-panels')).split('|');
  for (const p of ['Frequency (MHz)', 'Temperature (°C)', 'Tokens/s']) assert.ok(panels.includes(p), `panels: ${panels}`);
  assert.match(await canvas.getAttribute('data-shades'), /thermal\.wall@/);

  // The residency table: the two busy workload threads, all of their time on little CPU 0.
  const rows = page.locator('#sched table.residency tbody tr[data-inference="true"]');
  assert.equal(await rows.count(), 2);
  assert.match(await rows.first().textContent(), /perl/);
  assert.equal(await page.locator('#sched .topology-source').getAttribute('data-source'), 'cpuinfo-max-freq');
  assert.equal(await page.locator('#sched-timeline-0').count(), 1);
  // The runs of the captured log are listed with their decode speed.
  assert.match(await page.locator('#runs').textContent(), /7\.2/);

  await page.screenshot({ path: join(SHOTS, 'record-bundle-1280.png'), fullPage: false });
  await page.locator('#telemetry').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'record-bundle-charts-1280.png') });
  await page.locator('#sched').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'record-bundle-sched-1280.png') });
  const origin = new URL(server.url).origin;
  assert.deepEqual(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the bundle recorded on this machine gives its two busy threads', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', VM);
  const rows = page.locator('#sched table.residency tbody tr[data-inference="true"]');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 2);
  assert.equal(await page.locator('[data-finding-id="sched.little-cores"]').count(), 0);
  assert.equal(await page.locator('[data-finding-id="thermal.wall"]').count(), 0);
  assert.match(await page.locator('#inputs li[data-kind="bundle"]').textContent(), /cpufreq/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the page teaches recording in en and zh, copies the commands and serves the script', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  await page.setViewportSize({ width: 390, height: 844 });
  const section = page.locator('#record');
  assert.equal(await section.locator('h2').textContent(), 'Record a run');
  const run = await page.locator('#rec-adb-run').textContent();
  assert.match(run, /sh tokscope-record\.sh --seconds 600 .*-- \.\/llama-cli/);
  assert.match(await page.locator('#rec-adb-push').textContent(), /^adb push tokscope-record\.sh \/data\/local\/tmp\/$/);
  assert.match(await page.locator('#rec-adb-pull').textContent(), /^adb pull /);
  await page.locator('#rec-adb-run').scrollIntoViewIfNeeded();
  await page.click('button[data-copy="rec-adb-run"]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), run);
  assert.equal(await page.locator('button[data-copy="rec-adb-run"]').getAttribute('data-copied'), 'true');
  await page.screenshot({ path: join(SHOTS, 'record-section-390.png') });

  // The script the page links to is the one in the repository.
  const href = await page.locator('#record-download').getAttribute('href');
  const served = await page.evaluate(async (h) => (await fetch(h)).text(), href);
  assert.equal(served, await readFile(join(ROOT, 'scripts/tokscope-record.sh'), 'utf8'));

  await page.selectOption('#lang', 'zh');
  assert.equal(await section.locator('h2').textContent(), '记录一次运行');
  assert.match(await section.textContent(), /把脚本复制到手机/);
  assert.equal(await page.locator('button[data-copy="rec-adb-run"]').textContent(), '复制');
  await page.screenshot({ path: join(SHOTS, 'record-section-zh-390.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the script is precached: it downloads offline', async () => {
  const own = await serve();
  const { page, context } = await openPage(browser, own.url);
  await page.waitForSelector('body[data-offline="ready"]');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await Promise.race([own.close(), new Promise((ok) => setTimeout(ok, 3000))]);
  await context.setOffline(true);
  const text = await page.evaluate(async () => (await fetch('tokscope-record.sh')).text());
  assert.match(text, /^#!\/bin\/sh\n# tokscope-record\.sh/);
  await context.close();
});
