// The page holds no copy of the core's numbers: it asks the wasm core (`page_constants`, the
// trace charts' heights). To prove it, the core's glue is served with other values than the
// build's, and the page must follow them: a copy in the page would keep the old ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, withBrowser } from './harness.mjs';

const DEMO = join(ROOT, 'samples/demo/device-b-llama-android.logcat.txt');
const TRACE = join(ROOT, 'samples/traces/llama-little-cores.perf.txt');
/** With DEMO, a link of about 6 KB: under the build's budget, so only the core's can degrade it. */
const SUPPLY = join(ROOT, 'samples/telemetry/sbc-bench-m-rpi5-supply-dip.txt');

/** Smaller than the build's (8 KB link, 16 KB raw input), so a copied number would show. */
const BUDGET = 1000;
const RAW_MAX = 4096;
const TIMELINE_HEIGHT = 333;

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

/**
 * Opens the page with the core's glue (every build's tokscope.js) patched: page_constants gives
 * BUDGET and RAW_MAX, and TraceChart.timeline_height gives TIMELINE_HEIGHT. Without a service
 * worker, so every request goes through the route.
 */
async function openPatched() {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  let patched = 0;
  await context.route(/\/pkg[^/]*\/tokscope\.js$/, async (route) => {
    const response = await route.fetch();
    let body = await response.text();
    const constants = 'export function page_constants() {';
    const height = '    timeline_height() {';
    assert.ok(body.includes(constants) && body.includes(height), 'the glue has both exports');
    body = body
      .replace(constants, `export function page_constants() {
  return JSON.stringify({ ...JSON.parse(builtPageConstants()), share_budget_bytes: ${BUDGET}, share_raw_max_bytes: ${RAW_MAX} });
}
function builtPageConstants() {`)
      .replace(height, `    timeline_height() { return ${TIMELINE_HEIGHT}; }\n    builtTimelineHeight() {`);
    patched += 1;
    await route.fulfill({ response, body });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  assert.ok(patched >= 1, 'the page loaded the patched glue');
  return { context, page, errors };
}

test('the share link and the raw-input option follow the core\'s budget, not a copy', async () => {
  const { context, page, errors } = await openPatched();
  await page.setInputFiles('#file-input', [DEMO, SUPPLY]);
  await page.locator('#findings .finding').first().waitFor();
  // 14 KB of input: under the build's 16 KB, over the core's (patched) 4 KB.
  assert.equal(await page.isDisabled('#share-raw'), true, 'raw input over the core\'s limit');
  const title = await page.$eval('#share-raw', (box) => box.parentElement.title);
  assert.match(title, new RegExp(`\\b${RAW_MAX / 1024}\\b`), title);

  await page.click('#share');
  await page.locator('#share-url').waitFor({ state: 'visible' });
  const bytes = Number(await page.getAttribute('#share-url', 'data-bytes'));
  const full = Number(await page.getAttribute('#share-url', 'data-full-bytes'));
  assert.ok(full > BUDGET, `the full link (${full} bytes) is over the budget, so the budget decides`);
  const overBudget = await page.$$eval('#share-note [data-omitted="over-budget"]', (l) => l.map((li) => li.textContent));
  assert.ok(bytes <= BUDGET || overBudget.some((s) => s.includes(String(BUDGET))),
    `a link of ${bytes} bytes for a budget of ${BUDGET}: ${overBudget}`);
  assert.ok(bytes < full, `degraded to fit: ${bytes} of ${full} bytes`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the thread timeline takes its height from the core', async () => {
  const { context, page, errors } = await openPatched();
  await page.setInputFiles('#file-input', [TRACE]);
  const timeline = page.locator('#sched-timeline-0');
  await timeline.waitFor();
  assert.equal(await timeline.getAttribute('height'), String(TIMELINE_HEIGHT));
  assert.deepEqual(errors, []);
  await context.close();
});
