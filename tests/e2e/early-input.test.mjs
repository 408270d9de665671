// Input given while the page is still loading (issue 12): a file chosen and a file dropped right
// after navigation, before body[data-ready], are both analyzed once the core is ready, the drop
// never makes the browser leave the page, and the status says the files wait meanwhile. The wasm
// download is held back (not just slowed), so "before ready" is certain, not a race.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, withBrowser } from './harness.mjs';

const DEMO = join(ROOT, 'samples/demo/device-b-llama-android.logcat.txt');
const ZH_LOG = join(ROOT, 'samples/logs/compat-build-zh.logcat.txt');

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Holds every request whose URL matches `pattern` until release() is called. */
async function hold(context, pattern) {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const held = [];
  await context.route(pattern, async (route) => {
    held.push(route.request().url());
    await gate;
    await route.continue();
  });
  return { release, held };
}

/** Dispatches a drop of `name` with `content` on the page; resolves to event.defaultPrevented. */
function drop(page, name, content) {
  return page.evaluate(([n, text]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], n, { type: 'text/plain' }));
    const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
    document.body.dispatchEvent(over);
    const ev = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
    document.body.dispatchEvent(ev);
    // A trusted drop whose default is not prevented opens the file in the tab.
    return over.defaultPrevented && ev.defaultPrevented;
  }, [name, content]);
}

async function openHeld(patterns) {
  const context = await browser.newContext({ locale: 'en-US', serviceWorkers: 'block' });
  const gates = [];
  for (const p of patterns) gates.push(await hold(context, p));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const navigations = [];
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) navigations.push(f.url()); });
  await page.goto(server.url, { waitUntil: 'commit' });
  await page.waitForSelector('#file-input', { state: 'attached' });
  // A marker that a navigation or reload would wipe.
  await page.evaluate(() => { window.stillHere = true; });
  return { context, page, gates, errors, navigations };
}

async function assertBothAnalyzed(page, navigations, errors) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.locator('#inputs [data-input="device-b-llama-android.logcat.txt"]').waitFor({ timeout: 60_000 });
  await page.locator('#inputs [data-input="compat-build-zh.logcat.txt"]').waitFor({ timeout: 60_000 });
  // The analysis really ran: the demo's fallback finding is there.
  await page.locator('[data-finding-id="fallback.cpu"]').first().waitFor();
  assert.equal(await page.evaluate(() => window.stillHere), true, 'the page was reloaded or left');
  assert.deepEqual(navigations, [server.url], 'the page navigated away');
  assert.deepEqual(errors, []);
}

test('before app.js has run: a chosen file and a dropped file wait, then are analyzed', async () => {
  // The page's modules and the core are both held: only intake-early.js is there to catch input.
  const { context, page, gates, errors, navigations } =
    await openHeld([/\/app\.js$/, /tokscope_bg\.wasm/]);
  await page.setInputFiles('#file-input', DEMO);
  assert.equal(await drop(page, 'compat-build-zh.logcat.txt', await readFile(ZH_LOG, 'utf8')), true,
    'the drop was not prevented: a real one would open the file in the tab');
  assert.equal(await page.locator('body[data-ready]').count(), 0, 'ready too early for this test');
  for (const g of gates) g.release();
  await assertBothAnalyzed(page, navigations, errors);
  await context.close();
});

test('while the core downloads: input queues, the status says so, the controls stay live', async () => {
  const { context, page, gates, errors, navigations } = await openHeld([/tokscope_bg\.wasm/]);
  const [wasm] = gates;
  // app.js is running (it asked for the core) but the core is not there yet.
  await page.waitForFunction(() => window.tokscopeIntake !== undefined);
  await page.waitForSelector('#status:not(:empty)');
  await page.setInputFiles('#file-input', DEMO);
  assert.equal(await drop(page, 'compat-build-zh.logcat.txt', await readFile(ZH_LOG, 'utf8')), true);
  await page.waitForFunction(() => /2 file\(s\) will be read as soon as it is ready/
    .test(document.querySelector('#status').textContent), null, { timeout: 10_000 });
  assert.ok(wasm.held.length >= 1, 'the core download was not held');
  assert.equal(await page.locator('body[data-ready]').count(), 0);
  assert.equal(await page.locator('body[data-loading]').count(), 1, 'the page does not show it waits');
  assert.equal(await page.locator('#example').isDisabled(), false, 'controls must queue, not refuse');
  wasm.release();
  await assertBothAnalyzed(page, navigations, errors);
  assert.equal(await page.locator('body[data-loading]').count(), 0);
  // The core was downloaded once: the page and its worker share the compiled module.
  assert.equal(wasm.held.length, 1, `the core was fetched ${wasm.held.length} times`);
  await context.close();
});

test('"Try an example" clicked during the load runs the example when ready', async () => {
  const { context, page, gates, errors } = await openHeld([/tokscope_bg\.wasm/]);
  await page.waitForFunction(() => window.tokscopeIntake !== undefined);
  await page.click('#example');
  gates[0].release();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.locator('#inputs [data-input="device-b-llama-android.logcat.txt"]').waitFor({ timeout: 60_000 });
  assert.deepEqual(errors, []);
  await context.close();
});
