// The analysis runs here, off the page's thread, so the page stays responsive on big files.
// Files are read in slices (never as one string) and streamed into the wasm core.
//
// Messages in:  {type: 'init', dir, module} (first: the wasm build's glue and its compiled
//               WebAssembly.Module, see wasm-build.js and wasm-load.js),
//               {type: 'analyze', files: [{token, file}], lang}, {type: 'cancel'}, {type: 'report', lang},
//               {type: 'device', json} (what "Measure this device" measured),
//               {type: 'settings', topology?, threads?, compare?, probeDevice?} (the user's CPU
//               topology / thread pick; `compare`: the compare view's choice, JSON of
//               evidence::CompareChoice; whether the inputs came from the device that ran the probe),
//               {type: 'clear'}
// Messages out: {type: 'ready'}, {type: 'fatal', error},
//               {type: 'progress', token, name, bytes, total, mbps, wasmBytes},
//               {type: 'file-done', token, cancelled}, {type: 'report', json, wasmBytes},
//               {type: 'core-error', token, name, error} (the core failed, on that file if
//               token is set: this worker does nothing more, and the page starts a new one)
// wasmBytes is the size of the core's linear memory (it only grows), so the memory the analysis
// holds can be watched on big files (tests/e2e/bench-big.mjs records its peak).

const SLICE_BYTES = 4 * 1024 * 1024;
/** Progress messages at most this often, so posting does not cost more than reading. */
const PROGRESS_MS = 100;

let Analysis = null;
/** The core's linear memory (WebAssembly.Memory). */
let memory = null;
let analysis = null;
let device = null;
let lang = 'en';
let cancelEpoch = 0;
let markReady;
const ready = new Promise((resolve) => { markReady = resolve; });

async function load(dir, module) {
  try {
    const core = await import(`./${dir}/tokscope.js`);
    // The page compiled the core once (wasm-load.js) and sent the module: nothing to download.
    memory = (await core.default({ module_or_path: module })).memory;
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

const wasmBytes = () => memory?.buffer.byteLength ?? 0;

function postReport() {
  if (analysis) postMessage({ type: 'report', json: analysis.report_json(lang), wasmBytes: wasmBytes() });
}

/** Files at least this big are streamed into one reused buffer; smaller ones are read in slices. */
const STREAM_MIN_BYTES = 64 * 1024 * 1024;
/**
 * File streams this worker may open. Chromium keeps a file stream's pipe open after it is read to
 * its end (cancelled or not, until it is collected): with a dozen open, the next stream's first
 * read never returns, and the analysis would hang. Past this many, big files are read in slices.
 */
const MAX_STREAMS = 8;
let streamsOpened = 0;

/**
 * The file's bytes in pieces of up to SLICE_BYTES, each valid until the next one is asked for.
 * Where Blob streams are byte streams (Chromium, Firefox), a big file is read into one buffer again
 * and again (a BYOB reader): reading a File.slice per piece instead leaves a fresh 4 MiB
 * ArrayBuffer behind each time, and on a 2 GB file those wait for the garbage collector by the
 * hundred MB. A small file's few slices cost nothing, and open no stream.
 */
async function* pieces(file) {
  let reader = null;
  if (file.size >= STREAM_MIN_BYTES && streamsOpened < MAX_STREAMS) {
    try {
      reader = file.stream().getReader({ mode: 'byob' });
      streamsOpened += 1;
    } catch {
      reader = null;
    }
  }
  if (!reader) {
    for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
      yield new Uint8Array(await file.slice(offset, offset + SLICE_BYTES).arrayBuffer());
    }
    return;
  }
  let buffer = new ArrayBuffer(SLICE_BYTES);
  let finished = false;
  try {
    while (!finished) {
      // Fill the buffer (a read returns what the browser has at hand, often less) or reach the end.
      let filled = 0;
      while (filled < buffer.byteLength) {
        const { value, done } = await reader.read(new Uint8Array(buffer, filled));
        // The read transfers the buffer: its contents come back in value.buffer.
        if (value) {
          buffer = value.buffer;
          filled += value.byteLength;
        }
        if (done || !value) {
          finished = true;
          break;
        }
      }
      if (filled) yield new Uint8Array(buffer, 0, filled);
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

async function analyzeOne(token, file, epoch) {
  ensureAnalysis();
  const id = analysis.begin(file.name);
  const started = performance.now();
  let lastPost = 0;
  let offset = 0;
  let cancelled = false;
  // Set while the core holds the bytes: an error then is the core's, not the browser's reading.
  let inCore = false;
  try {
    for await (const chunk of pieces(file)) {
      if (epoch !== cancelEpoch) {
        cancelled = true;
        break;
      }
      inCore = true;
      analysis.push(id, chunk);
      inCore = false;
      offset += chunk.length;
      const now = performance.now();
      if (now - lastPost >= PROGRESS_MS) {
        lastPost = now;
        const bytes = Math.min(offset, file.size);
        const mbps = bytes / 1e6 / Math.max((now - started) / 1000, 1e-3);
        postMessage({ type: 'progress', token, name: file.name, bytes, total: file.size, mbps, wasmBytes: wasmBytes() });
      }
    }
    // Cancelled while the last piece was being read.
    if (!cancelled && epoch !== cancelEpoch && offset < file.size) cancelled = true;
  } catch (err) {
    if (inCore) throw err;
    // A file the browser can no longer read: keep what was read, say so.
    postMessage({ type: 'read-error', token, name: file.name, error: String(err) });
    cancelled = true;
  }
  if (cancelled) analysis.cancel(id);
  else analysis.end(id);
  const seconds = Math.max((performance.now() - started) / 1000, 1e-3);
  postMessage({
    type: 'progress', token, name: file.name, bytes: Math.min(offset, file.size), total: file.size,
    mbps: Math.min(offset, file.size) / 1e6 / seconds, done: true, wasmBytes: wasmBytes(),
  });
  postMessage({ type: 'file-done', token, cancelled });
  postReport();
}

let queue = Promise.resolve();
/** The core failed: its memory can no longer be trusted, so nothing more runs here. */
let broken = false;

/**
 * Runs `job` once the core is ready and the jobs before it are done. A job that fails never
 * stops the ones after it; a failure of the core (a wasm trap, or any error thrown while it
 * works) is reported, with the file it was reading, and the page replaces this worker.
 */
function enqueue(job, { token = null, name = null } = {}) {
  queue = queue
    .then(() => ready)
    .then(() => (broken ? undefined : job()))
    .catch((err) => {
      broken = true;
      postMessage({ type: 'core-error', token, name, error: String(err?.message ?? err) });
    });
}

onmessage = ({ data }) => {
  switch (data.type) {
    case 'init':
      load(data.dir, data.module);
      break;
    case 'device':
      device = data.json;
      enqueue(() => {
        ensureAnalysis();
        analysis.set_device_json(device);
        postReport();
      });
      break;
    case 'settings':
      enqueue(() => {
        if (!analysis) return;
        if (data.topology !== undefined) analysis.set_topology(data.topology);
        if (data.threads !== undefined) analysis.set_threads(data.threads);
        if (data.compare !== undefined) analysis.set_compare_json(data.compare);
        if (data.probeDevice !== undefined) analysis.set_inputs_from_probe_device(Boolean(data.probeDevice));
        postReport();
      });
      break;
    case 'analyze': {
      lang = data.lang ?? lang;
      const epoch = cancelEpoch;
      // One file at a time, in order; results appear as each one finishes.
      for (const { token, file } of data.files) {
        enqueue(() => analyzeOne(token, file, epoch), { token, name: file.name });
      }
      break;
    }
    case 'cancel':
      cancelEpoch += 1;
      break;
    case 'report':
      lang = data.lang ?? lang;
      enqueue(postReport);
      break;
    case 'clear':
      cancelEpoch += 1;
      enqueue(() => {
        analysis?.free();
        analysis = null;
      });
      break;
    default:
      break;
  }
};
