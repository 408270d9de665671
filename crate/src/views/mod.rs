//! Views: what several rules and the report derive from the evidence (the CPU topology, where
//! each trace's threads ran, each input's time origin, the telemetry grid), computed once per
//! report and read by every stage after.

pub mod freq;
pub mod memory_bandwidth;
pub mod sched;
pub mod telemetry;
pub mod topology;

use crate::evidence::Evidence;

pub struct Views<'a> {
    pub topology: topology::Topology,
    /// Usable CPUs, SMT and performance cores, for the thread-count rules.
    pub machine: topology::Machine,
    /// One per trace that recorded threads (system information alone is not one).
    pub traces: Vec<sched::TraceView<'a>>,
    /// Per input: the Unix time its `t = 0` stands for ([`telemetry::time_origins`]).
    pub time_origins: Vec<Option<f64>>,
    /// The origin every input with absolute times shares, when they share one.
    pub time_origin: Option<f64>,
    /// The telemetry grid, when any input has series to put on it.
    pub telemetry: Option<telemetry::Ctx>,
}

impl<'a> Views<'a> {
    pub fn of(ev: &'a Evidence) -> Self {
        let topology = topology::resolve(&ev.sched);
        let traces = sched::trace_views(ev, &topology);
        let machine = topology::machine(&ev.sched, &topology);
        let time_origins = telemetry::time_origins(ev);
        Views {
            machine,
            topology,
            traces,
            time_origin: telemetry::shared_origin(&time_origins),
            telemetry: telemetry::Ctx::new(ev, &time_origins),
            time_origins,
        }
    }
}
