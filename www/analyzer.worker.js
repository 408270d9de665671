// The analysis runs here, off the page's thread, so the page stays responsive on big files.
// Files are read in slices (never as one string) and streamed into the wasm core.
//
// Messages in:  {type: 'init', dir} (first: which wasm build, see wasm-build.js),
//               {type: 'analyze', files: [{token, file}], lang}, {type: 'cancel'}, {type: 'report', lang},
//               {type: 'device', json} (what "Measure this device" measured),
//               {type: 'settings', topology?, threads?} (the user's CPU topology / thread pick),
//               {type: 'clear'}
// Messages out: {type: 'ready'}, {type: 'fatal', error}, {type: 'progress', token, name, bytes, total, mbps},
//               {type: 'file-done', token, cancelled}, {type: 'report', json}

const SLICE_BYTES = 4 * 1024 * 1024;
/** Progress messages at most this often, so posting does not cost more than reading. */
const PROGRESS_MS = 100;

let Analysis = null;
let analysis = null;
let device = null;
let lang = 'en';
let cancelEpoch = 0;
let markReady;
const ready = new Promise((resolve) => { markReady = resolve; });

async function load(dir) {
  try {
    const core = await import(`./${dir}/tokscope.js`);
    await core.default();
    Analysis = core.Analysis;
    markReady();
    postMessage({ type: 'ready' });
  } catch (err) {
    postMessage({ type: 'fatal', error: String(err) });
  }
}

function ensureAnalysis() {
  if (analysis) return;
  analysis = new Analysis();
  if (device) analysis.set_device_json(device);
}

function postReport() {
  if (analysis) postMessage({ type: 'report', json: analysis.report_json(lang) });
}

async function analyzeOne(token, file, epoch) {
  ensureAnalysis();
  const id = analysis.begin(file.name);
  const started = performance.now();
  let lastPost = 0;
  let offset = 0;
  let cancelled = false;
  try {
    for (; offset < file.size; offset += SLICE_BYTES) {
      if (epoch !== cancelEpoch) {
        cancelled = true;
        break;
      }
      const chunk = new Uint8Array(await file.slice(offset, offset + SLICE_BYTES).arrayBuffer());
      analysis.push(id, chunk);
      const now = performance.now();
      if (now - lastPost >= PROGRESS_MS) {
        lastPost = now;
        const bytes = Math.min(offset + chunk.length, file.size);
        const mbps = bytes / 1e6 / Math.max((now - started) / 1000, 1e-3);
        postMessage({ type: 'progress', token, name: file.name, bytes, total: file.size, mbps });
      }
    }
  } catch (err) {
    // A file the browser can no longer read: keep what was read, say so.
    postMessage({ type: 'read-error', token, name: file.name, error: String(err) });
    cancelled = true;
  }
  if (cancelled) analysis.cancel(id);
  else analysis.end(id);
  const seconds = Math.max((performance.now() - started) / 1000, 1e-3);
  postMessage({
    type: 'progress', token, name: file.name, bytes: Math.min(offset, file.size), total: file.size,
    mbps: Math.min(offset, file.size) / 1e6 / seconds, done: true,
  });
  postMessage({ type: 'file-done', token, cancelled });
  postReport();
}

let queue = Promise.resolve();

onmessage = ({ data }) => {
  switch (data.type) {
    case 'init':
      load(data.dir);
      break;
    case 'device':
      device = data.json;
      queue = queue.then(() => ready).then(() => {
        ensureAnalysis();
        analysis.set_device_json(device);
        postReport();
      });
      break;
    case 'settings':
      queue = queue.then(() => ready).then(() => {
        if (!analysis) return;
        if (data.topology !== undefined) analysis.set_topology(data.topology);
        if (data.threads !== undefined) analysis.set_threads(data.threads);
        postReport();
      });
      break;
    case 'analyze': {
      lang = data.lang ?? lang;
      const epoch = cancelEpoch;
      // One file at a time, in order; results appear as each one finishes.
      for (const { token, file } of data.files) {
        queue = queue.then(() => ready).then(() => analyzeOne(token, file, epoch));
      }
      break;
    }
    case 'cancel':
      cancelEpoch += 1;
      break;
    case 'report':
      lang = data.lang ?? lang;
      queue = queue.then(() => ready).then(postReport);
      break;
    case 'clear':
      cancelEpoch += 1;
      queue = queue.then(() => {
        analysis?.free();
        analysis = null;
      });
      break;
    default:
      break;
  }
};
