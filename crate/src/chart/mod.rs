//! Charts drawn by the page into `<canvas>` elements (plotters + plotters-canvas in wasm); the
//! layouts are plain Rust so they are tested natively.

pub mod timeline;
