//! `offload.graph-splits`: llama.cpp offloaded every layer, yet its scheduler cut decode's graph
//! into many more pieces than a full offload needs. ggml gives each op to a backend that
//! supports it; an op the GPU backend lacks (or does not support for this type or setting: flash
//! attention, a quantized KV cache, a newer model's op) goes to the CPU, in every layer, and each
//! boundary copies the activations and waits, on every token.
//!
//! A full offload needs about one piece per GPU, plus the input embeddings, which stay on the
//! CPU by design. Weights placed on the CPU on purpose (`-ot`, `--n-cpu-moe`: the model buffers
//! are then largely the CPU's) and RPC servers cut the graph as well, and are left out.

use super::offload::{any_rpc, buffer_split, model_buffers, on_cpu, BUFFER_CPU_SHARE};
use super::run_facts::run_ref;
use super::{Finding, Quote, Severity};
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.graph-splits"];

/// Splits beyond the expected count that still say nothing: the output layer or a copy of the
/// KV cache can add one each.
const SLACK: u32 = 2;

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    ev.runs.iter().filter_map(|run| finding(ev, run)).collect()
}

fn finding(ev: &Evidence, run: &Run) -> Option<Finding> {
    let splits = run.graph_splits.as_ref()?;
    let o = run.offload.as_ref().filter(|o| o.all_layers())?;
    let layers = o.model_layers?;
    if any_rpc(run) {
        return None;
    }
    let (gpu, cpu) = buffer_split(run);
    if gpu + cpu > 0.0 && cpu / (gpu + cpu) >= BUFFER_CPU_SHARE {
        return None;
    }
    let mut backends: Vec<&str> = model_buffers(run)
        .map(|(k, _)| k.trim_end_matches(" model"))
        .filter(|k| !on_cpu(k))
        .collect();
    backends.dedup();
    let expected = backends.len().max(1) as u32 + 1;
    if splits.decode <= expected + SLACK {
        return None;
    }
    // Pieces on the scale of the layers: an op of every layer runs on the CPU.
    let severity = if splits.decode >= layers {
        Severity::Critical
    } else {
        Severity::Warning
    };
    let backend = if backends.is_empty() {
        "GPU".to_string()
    } else {
        backends.join(", ")
    };
    let mut at = run_ref(ev, run, Quote::Input(splits.text.clone()));
    at.lines = Some((splits.line, splits.line));
    Some(Finding::new(
        IDS[0],
        severity,
        vec![
            ("splits", splits.decode.to_string()),
            ("expected", expected.to_string()),
            ("layers", layers.to_string()),
            ("backend", backend),
        ],
        vec![at],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{GraphSplits, Offload};

    fn run(splits: u32, gpu_layers: u32, buffers: &[(&str, f64)]) -> Evidence {
        let mut ev = Evidence::default();
        let input = ev.add_input("llama.log");
        let mut r = Run {
            input: ev.inputs[input].name.clone(),
            graph_splits: Some(GraphSplits {
                decode: splits,
                line: 90,
                text: format!("llama_context: graph splits = {splits}"),
            }),
            offload: Some(Offload {
                gpu_layers: Some(gpu_layers),
                model_layers: Some(29),
                ..Offload::default()
            }),
            ..Run::default()
        };
        for (k, v) in buffers {
            r.buffers_mib.insert((*k).to_string(), *v);
        }
        ev.runs.push(r);
        ev
    }

    fn findings(ev: &Evidence) -> Vec<Finding> {
        rule(ev, &Views::of(ev))
    }

    const FULL: &[(&str, f64)] = &[("Vulkan0 model", 1900.0), ("CPU_Mapped model", 260.0)];

    #[test]
    fn many_pieces_with_every_layer_on_the_gpu_are_ops_left_to_the_cpu() {
        let f = findings(&run(58, 29, FULL));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(f[0].param("backend"), Some("Vulkan0"));
        assert_eq!(f[0].param("expected"), Some("2"));
        assert_eq!(f[0].evidence[0].lines, Some((90, 90)));
        assert_eq!(findings(&run(9, 29, FULL))[0].severity, Severity::Warning);
    }

    #[test]
    fn a_healthy_count_a_partial_offload_or_weights_kept_on_the_cpu_say_nothing() {
        assert!(findings(&run(2, 29, FULL)).is_empty());
        assert!(findings(&run(4, 29, FULL)).is_empty(), "within the slack");
        assert!(findings(&run(40, 20, FULL)).is_empty(), "partial offload");
        let experts = [("CUDA0 model", 4000.0), ("CPU_Mapped model", 14000.0)];
        assert!(findings(&run(98, 29, &experts)).is_empty(), "-ot exps=CPU");
    }
}
