//! tokscope: why is on-device LLM inference slow?
//!
//! The core reads what users have — framework logs, perf traces, CSV telemetry — and explains
//! slow decoding as findings with evidence. One pipeline, one module per stage:
//!
//! ```text
//! bytes -> ingest (sniff, parse) -> evidence -> diagnose -> report
//! ```
//!
//! The CLI (`src/bin/tokscope.rs`) and the web page (through the `wasm` bindings, built for `wasm32` only) drive it via [`Session`]:
//!
//! ```
//! use tokscope::{Lang, Session};
//! let mut s = Session::new();
//! s.add("app.log", b"W/tflite: 7 operations will run on the GPU, and the remaining 3 operations will run on the CPU.\n");
//! let report = s.report(Lang::En);
//! assert_eq!(report.findings[0].id, "fallback.cpu");
//! assert_eq!(report.findings[0].evidence[0].line_start, Some(1));
//! ```

// The API is what the CLI, the page's bindings, the tests, benches and fuzz targets use: the
// modules below that are `pub` show only their curated items; everything else is private, so
// rustc reports what nothing uses.
pub mod catalogue;
pub mod chart;
mod diagnose;
mod evidence;
mod figures;
mod ingest;
pub mod kernel;
pub mod report;
mod session;
pub mod share;
mod stats;
mod views;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use catalogue::Lang;
/// For the render test: parameters read by code or by programs rather than shown by a text.
pub use diagnose::{data_params, verdict::VERDICT_PARAMS};
pub use evidence::{InputKind, Quantity};
pub use ingest::sniff::sniff;
pub use report::Report;
pub use session::Session;
