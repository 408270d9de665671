// The wasm core this page runs: the build wasm-build.js picked, initialized once by app.js and
// shared by the page's modules (a static import of one build's glue would load a second,
// uninitialized copy, or the wrong build).
let core = null;
let constants = null;

export function setCore(c) {
  core = c;
}

export function getCore() {
  return core;
}

/**
 * The core's numbers the page works with (wasm.rs `page_constants`): the share budget and raw
 * limit, the probe's windows, the ceiling's context. Read from the core, never copied here.
 */
export function coreConstants() {
  constants ??= JSON.parse(core.page_constants());
  return constants;
}
