// A small, dependency-free line chart on a canvas for the probe's three charts (GB/s against
// working-set size, against worker count, and over time). The points also go into `data-series`
// as JSON, so tests and users can read the numbers behind the picture.
const COLORS = ['#1f6feb', '#d1495b', '#2e933c', '#8a63d2'];

function niceStep(range, target = 5) {
  const raw = range / target;
  const mag = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => range / s <= target) ?? 10 * mag;
}

/**
 * series: [{ label, points: [[x, y], ...] }]; opts: { logX, xTicks: [x...], xFormat(x),
 * yLabel, xLabel, title }.
 */
export function drawChart(canvas, series, opts = {}) {
  canvas.dataset.series = JSON.stringify(series.map((s) => ({ label: s.label, points: s.points })));
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', opts.title ?? '');
  const dpr = globalThis.devicePixelRatio || 1;
  const cssW = canvas.clientWidth || 640;
  const cssH = canvas.clientHeight || 260;
  canvas.width = Math.round(cssW * dpr);
  canvas.height = Math.round(cssH * dpr);
  const g = canvas.getContext('2d');
  if (!g) return;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, cssW, cssH);
  const style = getComputedStyle(canvas);
  const ink = style.color || '#222';
  g.font = '12px system-ui, sans-serif';
  const pad = { l: 48, r: 36, t: 22, b: 34 };
  const all = series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (!all.length) return;
  const fx = opts.logX ? (x) => Math.log2(x) : (x) => x;
  let x0 = Math.min(...all.map(([x]) => fx(x)));
  let x1 = Math.max(...all.map(([x]) => fx(x)));
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  const yMax = Math.max(...all.map(([, y]) => y)) * 1.1 || 1;
  const step = niceStep(yMax);
  const W = cssW - pad.l - pad.r;
  const H = cssH - pad.t - pad.b;
  const px = (x) => pad.l + ((fx(x) - x0) / (x1 - x0)) * W;
  const py = (y) => pad.t + H - (y / yMax) * H;

  g.strokeStyle = 'rgba(128,128,128,0.35)';
  g.fillStyle = ink;
  g.lineWidth = 1;
  g.textAlign = 'right';
  g.textBaseline = 'middle';
  for (let y = 0; y <= yMax; y += step) {
    g.beginPath();
    g.moveTo(pad.l, py(y));
    g.lineTo(pad.l + W, py(y));
    g.stroke();
    g.fillText(String(+y.toFixed(2)), pad.l - 6, py(y));
  }
  g.textAlign = 'center';
  g.textBaseline = 'top';
  const ticks = opts.xTicks ?? [...new Set(all.map(([x]) => x))];
  for (const x of ticks) g.fillText(opts.xFormat ? opts.xFormat(x) : String(x), px(x), pad.t + H + 6);
  if (opts.yLabel) {
    g.textAlign = 'left';
    g.fillText(opts.yLabel, 4, 4);
  }
  if (opts.xLabel) {
    g.textAlign = 'right';
    g.fillText(opts.xLabel, pad.l + W, pad.t + H + 20);
  }
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    g.strokeStyle = color;
    g.fillStyle = color;
    g.lineWidth = 2;
    g.beginPath();
    s.points.forEach(([x, y], j) => (j ? g.lineTo(px(x), py(y)) : g.moveTo(px(x), py(y))));
    g.stroke();
    if (s.points.length <= 40) {
      for (const [x, y] of s.points) {
        g.beginPath();
        g.arc(px(x), py(y), 3, 0, 2 * Math.PI);
        g.fill();
      }
    }
    g.textAlign = 'left';
    g.fillRect(pad.l + 8 + i * 130, 6, 10, 3);
    g.fillStyle = ink;
    g.fillText(s.label, pad.l + 22 + i * 130, 1);
  });
}

/** 16384 -> "16 KiB", 1073741824 -> "1 GiB". */
export function formatBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i += 1; }
  return `${+n.toFixed(n < 10 ? 1 : 0)} ${units[i]}`;
}
