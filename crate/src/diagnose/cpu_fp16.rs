//! `cpu.missing-fp16`: the user asks for fp16 (MNN's `Precision_Low`, `precision=2`), and the
//! device's CPU has no fp16 arithmetic (MNN's `The device support … fp16:0`: an Armv8.0 core
//! such as Cortex-A53 or A72, which lack the Armv8.2 FP16 extension). MNN then runs its fp32
//! kernels, so low precision is no faster than high, and what the user compares tells nothing.
//!
//! Only a framework that reports the device's own features counts: llama.cpp's system_info
//! says what the build holds, not what the CPU can do.

use super::run_facts::{framework_label, input_of, run_ref};
use super::{EvidenceRef, Finding, Quote, Severity};
use crate::evidence::{Evidence, Framework};
use crate::views::Views;

pub const IDS: &[&str] = &["cpu.missing-fp16"];

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    for run in &ev.runs {
        let input = input_of(ev, run);
        if run.framework != Some(Framework::Mnn)
            || run.cpu_features.get("fp16") != Some(&false)
            || out.iter().any(|f| f.evidence[0].input == input)
        {
            continue;
        }
        let Some((line, text)) = &ev.inputs[input].asks_fp16 else {
            continue;
        };
        out.push(Finding::new(
            IDS[0],
            Severity::Critical,
            vec![("framework", framework_label(run))],
            vec![
                run_ref(ev, run, Quote::Input("fp16:0".into())),
                EvidenceRef::at_line(input, *line, text),
            ],
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Run;

    fn ev(fp16: bool, asks: bool) -> Evidence {
        let mut e = Evidence::default();
        e.add_input("mnn.md");
        if asks {
            e.inputs[0].asks_fp16 = Some((2, "fp16和fp32的推理时间一样".into()));
        }
        let mut run = Run {
            input: "mnn.md".into(),
            framework: Some(Framework::Mnn),
            line_start: Some(9),
            ..Run::default()
        };
        run.cpu_features.insert("fp16".into(), fp16);
        run.cpu_features.insert("i8sdot".into(), false);
        e.runs.push(run);
        e
    }

    #[test]
    fn fp16_asked_on_a_cpu_without_it() {
        let e = ev(false, true);
        let found = rule(&e, &Views::of(&e));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].evidence[1].lines, Some((2, 2)));
        // Not asked, or the CPU has it: nothing to say.
        let e = ev(false, false);
        assert!(rule(&e, &Views::of(&e)).is_empty());
        let e = ev(true, true);
        assert!(rule(&e, &Views::of(&e)).is_empty());
    }
}
