// The wasm core this page runs: the build wasm-build.js picked, initialized once by app.js and
// shared by the page's modules (a static import of one build's glue would load a second,
// uninitialized copy, or the wrong build).
let core = null;

export function setCore(c) {
  core = c;
}

export function getCore() {
  return core;
}
