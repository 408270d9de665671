//! tokscope: why is on-device LLM inference slow?
//!
//! The core reads what users have — framework logs, perf traces, CSV telemetry — and explains
//! slow decoding as findings with evidence. One pipeline, one module per stage:
//!
//! ```text
//! bytes -> ingest (sniff, parse) -> evidence -> diagnose -> report
//! ```
//!
//! The CLI (`src/bin/tokscope.rs`) and the web page (through [`wasm`]) drive it via [`Session`]:
//!
//! ```
//! use tokscope::{Lang, Session};
//! let mut s = Session::new();
//! s.add("app.log", b"W/tflite: 7 operations will run on the GPU, and the remaining 3 operations will run on the CPU.\n");
//! let report = s.report(Lang::En);
//! assert_eq!(report.findings[0].id, "fallback.cpu");
//! assert_eq!(report.findings[0].evidence[0].line_start, Some(1));
//! ```

pub mod catalogue;
pub mod chart;
pub mod diagnose;
pub mod evidence;
pub mod figures;
pub mod ingest;
pub mod kernel;
pub mod report;
pub mod session;
pub mod share;
pub mod stats;
pub mod topology;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use catalogue::Lang;
pub use evidence::InputKind;
pub use ingest::sniff::sniff;
pub use report::Report;
pub use session::Session;
