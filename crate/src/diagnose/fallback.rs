//! `fallback`: one finding per distinct normalized fallback message, with its count and every
//! line it was seen on.

use super::{EvidenceRef, Finding, InputLines, Severity};
use crate::diagnose::Quote;
use crate::evidence::FallbackClass;
use crate::evidence::{Evidence, FallbackGroup};
use crate::views::Views;

pub const IDS: &[&str] = &[
    "fallback.precision",
    "fallback.reference-kernel",
    "fallback.cpu",
    "fallback.unsupported-op",
    "fallback.other",
];

/// The finding id a class of fallback produces (one of [`IDS`]).
fn finding_id(class: FallbackClass) -> &'static str {
    match class {
        FallbackClass::Precision => IDS[0],
        FallbackClass::Reference => IDS[1],
        FallbackClass::Cpu => IDS[2],
        FallbackClass::UnsupportedOp => IDS[3],
        FallbackClass::Other => IDS[4],
    }
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut groups: Vec<&FallbackGroup> = ev.fallbacks.iter().collect();
    // Worst class first, then the most frequent message.
    groups.sort_by(|a, b| a.class.cmp(&b.class).then(b.count.cmp(&a.count)));
    groups.into_iter().map(|g| finding(ev, g)).collect()
}

fn severity(class: FallbackClass) -> Severity {
    match class {
        FallbackClass::Precision | FallbackClass::Reference => Severity::Critical,
        FallbackClass::Cpu | FallbackClass::UnsupportedOp => Severity::Warning,
        FallbackClass::Other => Severity::Info,
    }
}

fn finding(ev: &Evidence, g: &FallbackGroup) -> Finding {
    // Name the framework whose wording this is: the first input it was seen in.
    let framework = g
        .occurrences
        .first()
        .and_then(|o| ev.inputs.get(o.input))
        .map(|i| {
            i.framework
                .map_or_else(|| i.name.clone(), super::run_facts::framework_param)
        })
        .unwrap_or_default();
    let mut lines: Vec<InputLines> = Vec::new();
    for o in &g.occurrences {
        match lines.iter_mut().find(|l| l.input == o.input) {
            Some(l) => l.lines.push(o.line),
            None => lines.push(InputLines {
                input: o.input,
                lines: vec![o.line],
            }),
        }
    }
    let evidence = g
        .quotes
        .iter()
        .map(|(at, quote)| EvidenceRef {
            input: at.input,
            lines: Some((at.line, at.line)),
            time_s: None,
            quote: Some(Quote::Input(quote.clone())),
        })
        .collect();
    let mut params = vec![
        ("framework", framework),
        ("count", g.count.to_string()),
        ("message", g.message.clone()),
    ];
    // TFLite's tools say this when the delegate could not be created at all (NNAPI absent
    // below Android 8.1, no GPU driver): the whole model ran on the CPU, which the generic
    // wording about one op does not say.
    let variant = g
        .message
        .split_once(" acceleration is unsupported on this platform")
        .map(|(delegate, _)| delegate.trim())
        .filter(|d| !d.is_empty() && d.len() <= 16 && !d.contains(' '))
        .map(|d| {
            if d.eq_ignore_ascii_case("nnapi") {
                "nnapi-platform"
            } else {
                params.push(("delegate", d.to_string()));
                "delegate-platform"
            }
        });
    Finding {
        variant,
        id: finding_id(g.class),
        severity: severity(g.class),
        params,
        count: Some(g.count),
        evidence,
        lines,
        lines_truncated: (g.occurrences.len() as u64) < g.count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{FallbackClass, Occurrence};

    fn one(message: &str) -> Finding {
        let mut ev = Evidence::default();
        ev.add_input("benchmark.txt");
        ev.add_fallback(
            FallbackClass::UnsupportedOp,
            message.to_string(),
            message,
            Occurrence { input: 0, line: 9 },
            message,
        );
        finding(&ev, &ev.fallbacks[0])
    }

    #[test]
    fn a_delegate_the_platform_lacks_says_the_whole_model_ran_on_the_cpu() {
        let f = one("NNAPI acceleration is unsupported on this platform.");
        assert_eq!(f.variant, Some("nnapi-platform"));
        let f = one("GPU acceleration is unsupported on this platform.");
        assert_eq!(f.variant, Some("delegate-platform"));
        assert!(f.params.contains(&("delegate", "GPU".into())));
        assert_eq!(one("Op RESIZE_BILINEAR is not supported").variant, None);
    }
}
