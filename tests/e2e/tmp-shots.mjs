import { join } from 'node:path';
import { serve, launch, openPage, ROOT } from './harness.mjs';
const shots = [
  ['demo', 'example', 1280, 800, 'en-US'],
  ['demo-zh-390', 'example', 390, 844, 'zh-CN'],
  ['coolcap', ['samples/telemetry-runs/cool-cap.csv'], 1280, 800, 'en-US'],
  ['mixed-390', ['samples/compare-mixed/llama2-7b-rk3588.log', 'samples/compare-mixed/llama2-7b-sd8gen2.logcat.txt', 'samples/compare-mixed/qwen2.5-0.5b-mnn.logcat.txt'], 390, 844, 'en-US'],
  ['snap', ['samples/snapshots/toybox-top-H-little-cores.txt', 'samples/traces/llama-little-cores.cpuinfo.txt'], 1280, 800, 'en-US'],
  ['nvsmi-390', ['samples/system/nvidia-smi-q-rtx3090-sw-power-cap.txt'], 390, 844, 'en-US'],
  ['mem-zh', ['samples/snapshots/dumpsys-meminfo-llama-expanded.txt', 'samples/logs/llama-bench-headerless.tsv'], 1280, 800, 'zh-CN'],
];
const server = await serve();
const browser = await launch();
for (const [name, files, w, h, locale] of shots) {
  const { page, context } = await openPage(browser, server.url, { locale });
  await page.setViewportSize({ width: w, height: h });
  const n = files === 'example' ? 1 : files.length;
  if (files === 'example') await page.click('#example');
  else await page.setInputFiles('#file-input', files.map((f) => join(ROOT, f)));
  await page.waitForFunction((count) => document.querySelector('#cancel').hidden
    && document.querySelectorAll('#inputs > li').length === count
    && document.querySelector('#verdict-headline'), n, { timeout: 60000 }).catch((e) => console.log(name, 'wait', String(e).slice(0, 100)));
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shot-${name}.png` });
  console.log(name, await page.evaluate(() => document.scrollingElement.scrollWidth), await page.locator('#verdict-headline').textContent().catch(() => ''));
  await context.close();
}
await browser.close();
await server.close();
