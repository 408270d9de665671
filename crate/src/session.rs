//! A session: the inputs of one analysis, read incrementally, and the report over all of them.
//! The CLI and the wasm bindings both drive the core through this type.

use crate::catalogue::Lang;
use crate::evidence::InputKind;
use crate::evidence::{CompareChoice, DeviceProbe, Evidence, InputId, ProblemCode};
use crate::ingest::InputReader;
use crate::report::{self, Report};

#[derive(Default)]
pub struct Session {
    evidence: Evidence,
    readers: Vec<Option<InputReader>>,
}

impl Session {
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens a new input; feed it with [`Session::push`] and close it with [`Session::end`].
    pub fn begin(&mut self, name: &str) -> InputId {
        let id = self.evidence.add_input(name);
        self.readers.push(Some(InputReader::new(id)));
        id
    }

    /// Opens an input read as `kind` whatever the sniffer says (even bytes it would reject). The
    /// fuzz targets use it to aim at one parser; see [`InputReader::with_kind`].
    pub fn begin_as(&mut self, name: &str, kind: InputKind) -> InputId {
        let id = self.evidence.add_input(name);
        self.readers.push(Some(InputReader::with_kind(id, kind)));
        id
    }

    /// Feeds the next chunk of an open input. Chunks for unknown or closed inputs are ignored.
    pub fn push(&mut self, id: InputId, chunk: &[u8]) {
        if let Some(Some(reader)) = self.readers.get_mut(id) {
            reader.push(chunk, &mut self.evidence);
        }
    }

    /// Closes an input; its last line is parsed now.
    pub fn end(&mut self, id: InputId) {
        if let Some(reader) = self.readers.get_mut(id).and_then(Option::take) {
            reader.finish(&mut self.evidence);
        }
    }

    /// Stops reading an input early: what was read is kept, and the input says it was cut short.
    pub fn cancel(&mut self, id: InputId) {
        if let Some(reader) = self.readers.get_mut(id).and_then(Option::take) {
            reader.finish(&mut self.evidence);
            let lines = self.evidence.inputs[id].lines;
            self.evidence
                .problem(id, ProblemCode::Cancelled, Some(lines));
        }
    }

    /// Reads a whole input given as one slice, in the same chunked way.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> InputId {
        let id = self.begin(name);
        for chunk in bytes.chunks(1 << 20) {
            self.push(id, chunk);
        }
        self.end(id);
        id
    }

    /// Closes any input still open, then diagnoses and renders the report.
    pub fn report(&mut self, lang: Lang) -> Report {
        for id in 0..self.readers.len() {
            self.end(id);
        }
        report::build(&self.evidence, lang)
    }

    /// Adds (or replaces) what the bandwidth probe measured on this device; the bandwidth and
    /// thermal rules read it.
    pub fn set_device(&mut self, probe: DeviceProbe) {
        self.evidence.device = Some(probe.sanitized());
    }

    /// Says whether the inputs were recorded on the device that ran the probe: only then do the
    /// probe's bandwidth and sustained run apply to them (else they are shown as a reference).
    pub fn set_inputs_from_probe_device(&mut self, yes: bool) {
        self.evidence.inputs_from_probe_device = yes;
    }

    /// Sets the CPU topology: a preset id (`sd8gen2`) or a cluster list
    /// (`0-3:little,4-6:mid,7:big@3200`); empty to go back to what the inputs say.
    pub fn set_topology(&mut self, spec: &str) {
        let spec = spec.trim();
        self.evidence.sched.topology_override = (!spec.is_empty()).then(|| spec.to_string());
    }

    /// Sets the inference threads: tids or name fragments, comma-separated; empty for the
    /// automatic pick.
    pub fn set_threads(&mut self, spec: &str) {
        let spec = spec.trim();
        self.evidence.sched.threads_override = (!spec.is_empty()).then(|| spec.to_string());
    }

    /// Sets which runs are compared with which and against which reference (the compare view's
    /// choice); the default groups every run automatically.
    pub fn set_compare(&mut self, choice: CompareChoice) {
        self.evidence.compare = choice;
    }

    pub fn evidence(&self) -> &Evidence {
        &self.evidence
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BINARY_LOG: &[u8] = b"\0\0W/tflite: 7 operations will run on the GPU, and the remaining 3 operations will run on the CPU.\n";

    const DEMO: &[u8] = include_bytes!("../../samples/demo/device-b-llama-android.logcat.txt");

    /// The demo log (0.57 tok/s, 4.12 GiB) beside a desktop probe of 40 GB/s.
    fn demo_with_probe(from_this_device: bool) -> Report {
        let mut s = Session::new();
        s.add("phone.logcat.txt", DEMO);
        s.set_device(DeviceProbe {
            read_gbps_best: 40.0,
            ..DeviceProbe::default()
        });
        s.set_inputs_from_probe_device(from_this_device);
        s.report(Lang::En)
    }

    #[test]
    fn the_probe_is_a_reference_until_the_user_says_the_log_came_from_its_device() {
        let r = demo_with_probe(false);
        assert!(!r.findings.iter().any(|f| f.id == "bandwidth.below-ceiling"));
        let v = r.verdict.as_ref().expect("a verdict");
        assert!(
            v.runs.iter().all(|n| n.ceiling_tok_s.is_none()),
            "no ceiling from another device"
        );
        assert!(
            v.next
                .iter()
                .any(|n| n.contains("This log came from this device")),
            "{:?}",
            v.next
        );
        let d = r.device.as_ref().expect("the probe is reported");
        assert_eq!((d.read_gbps_best, d.applies), (40.0, false));

        let r = demo_with_probe(true);
        let f = r
            .findings
            .iter()
            .find(|f| f.id == "bandwidth.below-ceiling");
        assert!(f
            .expect("the ceiling applies")
            .summary
            .contains("40.0 GB/s"));
        let ceiling = r.verdict.as_ref().unwrap().runs[0].ceiling_tok_s;
        // 40 GB/s over 4.42 GB of weights.
        assert!(
            ceiling.is_some_and(|c| (c - 40.0 / 4.4237).abs() < 0.1),
            "{ceiling:?}"
        );
        assert!(r.device.as_ref().unwrap().applies);
    }

    #[test]
    fn a_forced_kind_reads_what_the_sniffer_rejects() {
        let mut s = Session::new();
        s.add("sniffed.log", BINARY_LOG);
        let id = s.begin_as("forced.log", InputKind::Log);
        s.push(id, BINARY_LOG);
        s.end(id);
        let r = s.report(Lang::En);
        assert_eq!(r.inputs[0].kind, Some(InputKind::Unsupported));
        assert_eq!(r.inputs[1].kind, Some(InputKind::Log));
        let f = r.findings.iter().find(|f| f.id == "fallback.cpu");
        let inputs: Vec<_> = f
            .expect("the forced log is parsed")
            .evidence
            .iter()
            .map(|e| e.input.clone())
            .collect();
        assert_eq!(inputs, vec!["forced.log".to_string()]);
    }
}
