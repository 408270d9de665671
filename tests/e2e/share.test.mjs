// Share links, exports and offline use, through the real page: a link made in one browser
// context opens in a fresh one with the same findings; crafted links get a clear error and
// inject nothing; the site works offline after one visit and from a sub-path; nothing is
// requested outside the site's own origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import { deflateRawSync } from 'node:zlib';
import { ROOT, DIST, serve, openPage, withBrowser } from './harness.mjs';

const DEMO = join(ROOT, 'samples/demo/device-b-llama-android.logcat.txt');
const ZH_LOG = join(ROOT, 'samples/logs/compat-build-zh.logcat.txt');
const TFLITE = join(ROOT, 'samples/logs/tflite-gpu-delegate.studio.txt');

/** What `tokscope analyze --json` prints for `file`, named as the page names a dropped file. */
function cliReport(file) {
  const out = execFileSync('cargo',
    ['run', '--quiet', '--locked', '-p', 'tokscope', '--bin', 'tokscope', '--', 'analyze', '--json', basename(file)],
    { cwd: dirname(file), maxBuffer: 64 << 20 });
  return JSON.parse(out.toString('utf8'));
}

/** The first sample of each trace / telemetry folder that exists (other areas add them). */
async function otherKinds() {
  const found = [];
  for (const dir of ['traces', 'trace', 'telemetry', 'csv']) {
    try {
      const names = (await readdir(join(ROOT, 'samples', dir))).sort();
      if (names.length) found.push(join(ROOT, 'samples', dir, names[0]));
    } catch {
      // Not there (yet).
    }
  }
  return found;
}

let server;
let browser;
withBrowser((s, b) => {
  server = s;
  browser = b;
});

const b64url = (buf) => Buffer.from(buf).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** A link fragment carrying exactly `text`, deflated the way the core does. */
const fragmentOf = (text) => `#r=1.${b64url(deflateRawSync(Buffer.from(text)))}`;

/** Every request of a context (service worker included) must stay on `origin`. */
function watchRequests(context) {
  const urls = [];
  context.on('request', (r) => urls.push(r.url()));
  return urls;
}

function assertOwnOrigin(urls, origin) {
  const foreign = urls.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'a request left the origin');
}

/** What the findings show: ids, titles, evidence (where + quote) and line lists, in order. */
async function shownFindings(page) {
  return page.$$eval('#findings .finding', (list) => list.map((f) => ({
    id: f.dataset.findingId,
    title: f.querySelector('h3').textContent,
    summary: f.querySelector('.summary').textContent,
    evidence: [...f.querySelectorAll('.evidence li')].map((li) => li.textContent),
    lines: [...f.querySelectorAll('.lines')].map((p) => p.dataset.lines),
  })));
}

async function downloadText(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** Analyzes files in a fresh page and makes a share link; returns the page and the link. */
async function analyzeAndShare(files, { raw = false } = {}) {
  const opened = await openPage(browser, server.url);
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  await opened.page.setInputFiles('#file-input', files);
  await opened.page.locator('#findings .finding').first().waitFor();
  await opened.page.waitForFunction((n) => document.querySelectorAll('#inputs > li').length === n, files.length);
  if (raw) await opened.page.check('#share-raw');
  await opened.page.click('#share');
  await opened.page.locator('#share-url').waitFor({ state: 'visible' });
  const link = await opened.page.inputValue('#share-url');
  return { ...opened, link };
}

/** `report` as a share link carries it: without the parameters kept for programs. */
function withoutParameters(report) {
  const r = structuredClone(report);
  // The rules' own line of a defaulted thread count, and the page's SoC preset list but the
  // one the topology names, stay out of a link too (share/project.rs `without_data`).
  for (const run of r.runs ?? []) delete run.threads_default_line;
  if (r.sched?.presets) {
    r.sched.presets = r.sched.presets.filter((p) => p.id === r.sched.topology?.preset);
  }
  for (const f of r.findings ?? []) {
    delete f.params;
    delete f.per_input;
    for (const e of f.evidence ?? []) delete e.phrase;
  }
  if (r.verdict) {
    delete r.verdict.headline_phrases;
    delete r.verdict.next_phrases;
    for (const c of r.verdict.causes ?? []) delete c.impact?.basis_phrases;
  }
  return r;
}

async function openLink(link) {
  const opened = await openPage(browser, link);
  return opened;
}

test('a share link opens in a fresh context with the same findings and evidence, read-only', async () => {
  const origin = new URL(server.url).origin;
  const files = [DEMO, ZH_LOG, TFLITE, ...await otherKinds()];
  const a = await analyzeAndShare(files);
  const sentUrls = watchRequests(a.context);
  assert.match(a.link, /^http:\/\/127\.0\.0\.1:\d+\/#r=1\.[A-Za-z0-9_-]+$/);
  assert.ok(a.link.length <= 8 * 1024 + server.url.length, `link of ${a.link.length} bytes`);
  // The button copied it, and the field shows the same link.
  assert.equal(await a.page.evaluate(() => navigator.clipboard.readText()), a.link);
  assert.equal(await a.page.getAttribute('#share-note', 'data-copied'), 'true');
  assert.match(await a.page.textContent('#share-note'), new RegExp(`${a.link.length} bytes`));
  assert.equal(await a.page.getAttribute('#share-url', 'readonly'), '');
  const sent = await shownFindings(a.page);
  assert.ok(sent.length >= 4, `${sent.length} findings`);
  const sentJson = JSON.parse((await downloadText(a.page, '#export-json')).text);

  const b = await openLink(a.link);
  const openedUrls = watchRequests(b.context);
  await b.page.waitForSelector('body[data-shared="true"]');
  assert.match(await b.page.textContent('#shared-banner'), /shared report: the original files are not included/i);
  assert.deepEqual(await shownFindings(b.page), sent);
  assert.deepEqual(await b.page.$$eval('#inputs > li', (l) => l.map((li) => li.dataset.input)),
    files.map((f) => f.split('/').pop()));
  // The receiver's JSON export is the sender's report (the chart series as downsampled), less
  // the parameters kept for programs, which a link leaves out (docs/report.md, "Share links").
  const gotJson = JSON.parse((await downloadText(b.page, '#export-json')).text);
  assert.ok(sentJson.findings.some((f) => f.params), 'the sender has finding parameters');
  const { series: sentSeries, ...sentRest } = withoutParameters(sentJson);
  const { series: gotSeries, ...gotRest } = gotJson;
  assert.deepEqual(gotRest, sentRest);
  assert.equal(JSON.stringify(gotSeries)?.length > 0, JSON.stringify(sentSeries)?.length > 0);
  if (Array.isArray(sentSeries)) {
    assert.equal(gotSeries.length, sentSeries.length, 'every chart series travels');
    const meta = (x) => Object.fromEntries(Object.entries(x).filter(([, v]) => !Array.isArray(v)));
    assert.deepEqual(gotSeries.map(meta), sentSeries.map(meta));
  }
  // The same charts show.
  const charts = (p) => p.evaluate(() => document.querySelectorAll('#results canvas').length);
  assert.equal(await charts(b.page), await charts(a.page));
  // Read-only: no raw-input option, and dropping a file of one's own leaves the shared view.
  assert.equal(await b.page.isVisible('.share-raw'), false);
  await b.page.setInputFiles('#file-input', ZH_LOG);
  await b.page.waitForFunction(() => !document.body.dataset.shared && document.querySelectorAll('#inputs > li').length === 1);
  assert.equal(await b.page.isHidden('#shared-banner'), true);
  assert.equal(new URL(b.page.url()).hash, '');
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  assertOwnOrigin([...a.requests, ...sentUrls, ...b.requests, ...openedUrls], origin);
  await a.context.close();
  await b.context.close();
});

test('the raw input travels only when asked for, and shows as text', async () => {
  const a = await analyzeAndShare([ZH_LOG], { raw: true });
  const b = await openLink(a.link);
  await b.page.waitForSelector('body[data-shared="true"]');
  const pre = b.page.locator('.shared-raw details[data-input="compat-build-zh.logcat.txt"] pre');
  assert.equal(await pre.textContent(), await readFile(ZH_LOG, 'utf8'));
  // Off by default: a link made without ticking it carries no raw input.
  const c = await analyzeAndShare([ZH_LOG]);
  assert.ok(c.link.length < a.link.length);
  const d = await openLink(c.link);
  await d.page.waitForSelector('body[data-shared="true"]');
  assert.equal(await d.page.locator('.shared-raw').count(), 0);
  for (const x of [a, b, c, d]) await x.context.close();
});

test('JSON export has the CLI schema, Markdown export uses the core renderer', async () => {
  const { page, context, errors } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', DEMO);
  await page.locator('#findings .finding').first().waitFor();
  const json = await downloadText(page, '#export-json');
  assert.equal(json.name, 'tokscope-report.json');
  assert.deepEqual(JSON.parse(json.text), cliReport(DEMO), 'the same report as `tokscope analyze --json`');
  const md = await downloadText(page, '#export-md');
  assert.equal(md.name, 'tokscope-report.md');
  assert.match(md.text, /^# tokscope/);
  assert.match(md.text, /### \d+\. \[warning\] Work falls back to the CPU ` fallback\.cpu `/);
  assert.match(md.text, /```text\n11-29 14:02:11\.377 12034 12071 I llama-android\.cpp: done_getting_tensors/);
  // PNG: every <canvas> in the results, stacked into one image.
  const none = await page.evaluate(() => document.querySelectorAll('#results canvas').length);
  if (none === 0) {
    await page.click('#export-png');
    assert.match(await page.textContent('#share-note'), /no charts/);
    // Charts come from the charts module; stand one in to prove the export reads real canvases.
    await page.evaluate(() => {
      const c = document.createElement('canvas');
      c.width = 120; c.height = 40;
      const g = c.getContext('2d'); g.fillStyle = '#f00'; g.fillRect(0, 0, 60, 40);
      document.querySelector('#results').append(c);
    });
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  assert.equal(download.suggestedFilename(), 'tokscope-charts.png');
  const png = await readFile(await download.path());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.readUInt32BE(16) >= 120, 'width of the widest chart');
  assert.deepEqual(errors, []);
  await context.close();
});

/** A real report from the page (via its JSON export), to craft links from. */
async function realReport() {
  const { page, context } = await openPage(browser, server.url);
  await page.setInputFiles('#file-input', DEMO);
  await page.locator('#findings .finding').first().waitFor();
  const report = JSON.parse((await downloadText(page, '#export-json')).text);
  await context.close();
  return report;
}

test('crafted, truncated, oversize, bombed and wrong-version links get a clear error and inject nothing', async () => {
  const good = (await analyzeAndShare([DEMO])).link;
  const fragment = good.slice(good.indexOf('#'));
  let bomb = '{"report":"';
  bomb += ' '.repeat(30 * 1024 * 1024 - bomb.length);
  const cases = [
    ['truncated', fragment.slice(0, Math.floor(fragment.length / 2)), /corrupt|bad-encoding/],
    ['cut by one', fragment.slice(0, -1), /corrupt|bad-encoding/],
    ['too large', `#r=1.${'A'.repeat(60 * 1024)}`, /too-long/],
    ['zip bomb', fragmentOf(bomb), /too-large/],
    ['wrong version', `#r=2.${fragment.slice(5)}`, /wrong-version/],
    ['no payload', '#r=', /wrong-version/],
    ['not base64', '#r=1.<script>window.__pwned=1</script>', /bad-encoding/],
    ['not json', fragmentOf('<script>window.__pwned=1</script>'), /bad-json/],
    ['wrong shape', fragmentOf('{"report":{"schema":1,"findings":"<img src=x onerror=window.__pwned=1>"}}'), /bad-shape/],
    ['too deep', fragmentOf('['.repeat(100) + ']'.repeat(100)), /too-many-items/],
  ];
  for (const [what, frag, code] of cases) {
    const { page, context, errors } = await openPage(browser, server.url + frag);
    const box = page.locator('#share-error');
    await box.waitFor({ state: 'visible' });
    assert.match(await box.getAttribute('data-code'), code, what);
    assert.match(await box.textContent(), /This share link cannot be opened\./, what);
    assert.equal(await page.isHidden('#results'), true, what);
    assert.equal(await page.locator('#findings > *').count(), 0, what);
    assert.equal(await page.evaluate(() => window.__pwned), undefined, what);
    assert.deepEqual(errors, [], what);
    await context.close();
  }
});

test('markup in a link is shown as text: no script, no handler, no javascript: link runs', async () => {
  const report = await realReport();
  const evil = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><a href="javascript:window.__pwned=3">x</a>';
  report.inputs[0].name = evil;
  report.inputs[0].problems = [{ level: 'error', code: '<b>x</b>', message: evil }];
  for (const f of report.findings) {
    Object.assign(f, { id: `x" onmouseover="window.__pwned=4`, title: evil, summary: evil, explain: evil, fix: evil });
    f.evidence[0].quote = evil;
    f.evidence[0].input = evil;
  }
  const frag = fragmentOf(JSON.stringify({ report, omitted: [{ what: '<img src=x onerror=window.__pwned=5>', limit: 1 }], raw: [{ name: evil, text: evil }] }));
  const { page, context, errors } = await openPage(browser, server.url + frag);
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
  await page.waitForSelector('body[data-shared="true"]');
  const first = report.findings[0];
  const at = first.evidence[0];
  const range = at.line_end !== at.line_start ? `${at.line_start}-${at.line_end}` : `${at.line_start}`;
  assert.equal(await page.locator('#findings .finding h3').first().textContent(), `${first.severity}${evil}`);
  assert.equal(await page.locator('#findings .evidence li').first().textContent(), `${evil}:${range}${evil}`);
  assert.equal(await page.locator('.shared-raw pre').textContent(), evil);
  await page.hover('#findings .finding');
  for (const sel of ['main img', 'main script', 'main a[href^="javascript"]', 'main b', '[onerror]', '[onmouseover]']) {
    assert.equal(await page.locator(sel).count(), 0, `${sel} was injected`);
  }
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(dialogs, 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('after one visit the site works offline, on reload too', async () => {
  const own = await serve();
  const { page, context, errors } = await openPage(browser, own.url);
  const urls = watchRequests(context);
  await page.waitForSelector('body[data-offline="ready"]');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // The network is gone: the server is down and the browser is offline.
  await Promise.race([own.close(), new Promise((ok) => setTimeout(ok, 3000))]);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  await page.click('#example');
  await page.locator('[data-finding-id="fallback.cpu"]').first().waitFor();
  // A share link opens offline as well.
  await page.setInputFiles('#file-input', ZH_LOG);
  // A file dropped onto a report asks whether it joins it: it does.
  await page.click('#drop-add');
  await page.locator('#inputs > li[data-input="compat-build-zh.logcat.txt"]').waitFor();
  await page.click('#share');
  const link = await page.inputValue('#share-url');
  await page.goto(link);
  await page.reload();
  await page.waitForSelector('body[data-shared="true"]');
  assert.equal(await page.locator('[data-finding-id="fallback.precision"]').count(), 1);
  assert.deepEqual(errors, []);
  assertOwnOrigin(urls, new URL(own.url).origin);
  await context.close();
});

async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(DIST, join(entry.parentPath ?? entry.path, entry.name)));
  }
  return out.sort();
}

test('dist/ served under a sub-path loads every file, precaches all of dist/, and shares', async () => {
  const sub = await serve(DIST, '/team/tools/tokscope/');
  const { page, context, errors } = await openPage(browser, sub.url);
  const statuses = [];
  context.on('response', (r) => statuses.push([r.status(), r.url()]));
  await page.waitForSelector('body[data-offline="ready"]');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  assert.equal(scope, sub.url);
  // The precache list is every file of dist/ but the worker itself, and all of it is cached.
  const sw = await readFile(join(DIST, 'sw.js'), 'utf8');
  const listed = JSON.parse(sw.match(/^const PRECACHE = (\[.*\]);$/m)[1].replaceAll("'", '"'));
  assert.deepEqual([...listed].sort(), (await filesUnder(DIST)).filter((f) => f !== 'sw.js'));
  assert.doesNotMatch(sw, /const VERSION = 'dev'/);
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith('tokscope-')));
    return (await cache.keys()).map((r) => r.url);
  });
  assert.deepEqual(cached.sort(), listed.map((f) => sub.url + f).sort());
  await page.click('#example');
  await page.locator('[data-finding-id="fallback.cpu"]').first().waitFor();
  await page.click('#share');
  const link = await page.inputValue('#share-url');
  assert.ok(link.startsWith(`${sub.url}#r=1.`), link);
  const b = await openPage(browser, link);
  await b.page.waitForSelector('body[data-shared="true"]');
  assert.equal(await b.page.locator('[data-finding-id="fallback.cpu"]').count(), 2);
  const failed = statuses.filter(([s]) => s >= 400);
  assert.deepEqual(failed, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(b.errors, []);
  await b.context.close();
  await context.close();
  await sub.close();
});

test('a full visit requests nothing outside the origin: drop, analyze, share, export, open the link, switch language', async () => {
  const origin = new URL(server.url).origin;
  const context = await browser.newContext({ locale: 'en-US' });
  const urls = watchRequests(context); // the service worker's requests included
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  const text = await readFile(ZH_LOG, 'utf8');
  await page.evaluate((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'compat-build-zh.logcat.txt', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.querySelector('main').dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, text);
  await page.locator('[data-finding-id="fallback.precision"]').waitFor();
  await page.click('#share');
  const link = await page.inputValue('#share-url');
  await downloadText(page, '#export-json');
  await downloadText(page, '#export-md');
  await page.goto(link);
  await page.waitForSelector('body[data-shared="true"]');
  assert.equal(await page.locator('[data-finding-id="fallback.precision"]').count(), 1);
  // The page's own texts follow the language switch; the report keeps the sender's language.
  const title = await page.locator('[data-finding-id="fallback.precision"] h3').textContent();
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.querySelector('#shared-banner').textContent.includes('分享的报告'));
  assert.equal(await page.locator('[data-finding-id="fallback.precision"] .severity').textContent(), '严重');
  assert.equal((await page.locator('[data-finding-id="fallback.precision"] h3').textContent()).replace('严重', ''),
    title.replace('critical', ''));
  assert.deepEqual(errors, []);
  assert.ok(urls.length > 5, `${urls.length} requests seen`);
  assertOwnOrigin(urls, origin);
  await context.close();
});
