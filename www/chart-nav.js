// Navigation shared by the page's time charts (telemetry panels, thread timeline): wheel or
// + / − zoom, drag or arrow keys pan, double-click, Escape or 0 reset; the canvas takes keyboard
// focus; and a readout of the values at the pointer (or at the centre of the view, after a key),
// in an aria-live element beside the canvas, so a screen reader hears what the eye sees.

/** Share of the visible span one arrow key moves; factor one + / − key zooms by. */
const PAN_STEP = 0.1;
const ZOOM_STEP = 1.5;

/**
 * Wires `canvas`. `extent` is the full [t0, t1]; `draw(view)` paints a view ({x0, x1}); `plotX()`
 * gives the plot area's [left, right] in CSS pixels from the canvas's left edge; `readout(t)`
 * returns the text for time t (or '' outside the data); `out` is the readout element.
 * Returns { view, setView(x0, x1, notify = true), reset(), onView(fn), redraw() }; a linked view
 * sets the others with notify false, so they do not echo back.
 */
export function navigate(canvas, { extent, draw, plotX, readout, out, label }) {
  const [t0, t1] = extent;
  const listeners = [];
  let view = { x0: t0, x1: t1 };
  let pending = false;
  canvas.tabIndex = 0;
  if (label) canvas.setAttribute('aria-label', label);
  if (out) {
    out.setAttribute('aria-live', 'polite');
    out.classList.add('chart-readout');
  }

  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw(view);
      canvas.dataset.view = `${view.x0.toFixed(3)},${view.x1.toFixed(3)}`;
    });
  }
  function setView(x0, x1, notify = true) {
    const full = t1 - t0;
    const span = Math.min(Math.max(x1 - x0, full * 1e-6, 1e-6), full || 1e-6);
    const a = Math.max(t0, Math.min(x0, t1 - span));
    view = { x0: a, x1: a + span };
    redraw();
    if (notify) for (const fn of listeners) fn(view);
  }
  const reset = () => setView(t0, t1);

  /** Time at a clientX position, and where it falls across the plot (0..1). */
  function timeAt(clientX) {
    const rect = canvas.getBoundingClientRect();
    const [left, right] = plotX();
    const f = Math.min(1, Math.max(0, (clientX - rect.left - left) / Math.max(1, right - left)));
    return { t: view.x0 + f * (view.x1 - view.x0), f };
  }
  function show(t) {
    if (!out) return;
    out.textContent = readout(t);
    out.dataset.t = String(+t.toFixed(3));
  }

  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const { t: at, f } = timeAt(e.clientX);
    const span = (view.x1 - view.x0) * Math.pow(1.2, (e.deltaY || 0) / 100);
    setView(at - f * span, at + (1 - f) * span);
  }, { passive: false });
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, view, moved: false };
    canvas.setPointerCapture?.(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) {
      show(timeAt(e.clientX).t);
      return;
    }
    if (Math.abs(e.clientX - drag.x) > 3) drag.moved = true;
    const [left, right] = plotX();
    const dt = ((e.clientX - drag.x) / Math.max(1, right - left)) * (drag.view.x1 - drag.view.x0);
    setView(drag.view.x0 - dt, drag.view.x1 - dt);
  });
  const end = (e) => {
    // A tap (no drag) shows the values there: touch screens have no hover.
    if (drag && !drag.moved && e.type === 'pointerup') show(timeAt(e.clientX).t);
    drag = null;
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  canvas.addEventListener('dblclick', reset);
  canvas.addEventListener('keydown', (e) => {
    const span = view.x1 - view.x0;
    const mid = (view.x0 + view.x1) / 2;
    switch (e.key) {
      case 'ArrowLeft': setView(view.x0 - span * PAN_STEP, view.x1 - span * PAN_STEP); break;
      case 'ArrowRight': setView(view.x0 + span * PAN_STEP, view.x1 + span * PAN_STEP); break;
      case '+': case '=': setView(mid - span / ZOOM_STEP / 2, mid + span / ZOOM_STEP / 2); break;
      case '-': case '_': case '−': setView(mid - (span * ZOOM_STEP) / 2, mid + (span * ZOOM_STEP) / 2); break;
      case 'Escape': case '0': reset(); break;
      default: return;
    }
    e.preventDefault();
    show((view.x0 + view.x1) / 2);
  });

  draw(view);
  canvas.dataset.view = `${view.x0.toFixed(3)},${view.x1.toFixed(3)}`;
  return {
    get view() { return view; },
    setView: (x0, x1, notify = true) => setView(x0, x1, notify),
    reset,
    redraw,
    onView: (fn) => listeners.push(fn),
  };
}

/** Seconds as the readout shows them: 3 significant figures, ms below a second. */
export function fmtTime(t) {
  const a = Math.abs(t);
  if (a < 1) return `${(t * 1000).toFixed(0)} ms`;
  return `${a >= 100 ? t.toFixed(0) : a >= 10 ? t.toFixed(1) : t.toFixed(2)} s`;
}

