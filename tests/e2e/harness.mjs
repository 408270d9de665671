// Shared set-up of the browser suite: a static server over dist/ (the built site, exactly as it
// ships) and Debian's Chromium driven by playwright-core, with every request recorded.
import { before, after } from 'node:test';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DIST = join(ROOT, 'dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.webmanifest': 'application/manifest+json',
};

/** Serves `dir` on 127.0.0.1 at a free port; resolves to { url, close }. */
export async function serve(dir = DIST, prefix = '/') {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (!path.startsWith(prefix)) throw new Error('outside prefix');
      let file = normalize(join(dir, path.slice(prefix.length)));
      if (!file.startsWith(dir)) throw new Error('outside root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((ok) => server.close(ok)) };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * Opens the page and waits until the wasm core is ready. `requests` collects every URL the page
 * asks for; `errors` collects page errors and console errors.
 */
export async function openPage(browser, url, { locale = 'en-US' } = {}) {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  return { page, context, requests, errors };
}

/** Drops texts ({name, text}) on the page as a user's drag and drop does. */
export async function drop(page, files) {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const { name, text } of list) dt.items.add(new File([text], name, { type: 'text/plain' }));
    const target = document.querySelector('main');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, files);
}

/** A sample file (a path under samples/) as {name, text}, for drop(). */
export const sample = async (path) => ({ name: path.split('/').pop(), text: await readFile(join(ROOT, 'samples', path), 'utf8') });

/** Screenshots at 1280x800 and 390x844, to /tmp/<name>-1280.png and -390.png, for a person to look at. */
export async function shots(page, name) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `/tmp/${name}-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `/tmp/${name}-390.png` });
}

/**
 * One server of dist/ and one browser for a test file, started before its tests and closed
 * after them; `ready(server, browser)` receives them.
 */
export function withBrowser(ready) {
  let server;
  let browser;
  before(async () => {
    server = await serve();
    browser = await launch();
    ready(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}
