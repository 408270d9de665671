//! `offload.gpu-unused`: the log names a GPU (or NPU) device, yet every model buffer sits on the
//! CPU ("offloaded 0/29 layers to GPU"): the accelerator was found and given nothing. The
//! buffers decide, not the offload line, which llama.cpp also prints for RPC CPU servers.

use super::run_facts::{framework_label, run_ref};
use super::{Finding, Severity};
use crate::diagnose::Quote;
use crate::evidence::{Evidence, Run};
use crate::views::Views;

pub const IDS: &[&str] = &["offload.gpu-unused"];

/// Model buffers, by name (`CPU_Mapped model`, `Vulkan0 model`, ...).
fn model_buffers(run: &Run) -> impl Iterator<Item = (&String, &f64)> {
    run.buffers_mib
        .iter()
        .filter(|(k, _)| k.ends_with(" model"))
}

fn on_cpu(name: &str) -> bool {
    name.starts_with("CPU")
}

pub fn rule(ev: &Evidence, _views: &Views) -> Vec<Finding> {
    let mut out = Vec::new();
    for run in &ev.runs {
        let Some(device) = run.devices.first() else {
            continue;
        };
        let mut buffers = model_buffers(run).peekable();
        if buffers.peek().is_none() || !model_buffers(run).all(|(k, _)| on_cpu(k)) {
            continue;
        }
        let list: Vec<String> = model_buffers(run)
            .map(|(k, v)| format!("{k} buffer = {v:.2} MiB"))
            .collect();
        out.push(Finding {
            variant: None,
            id: IDS[0],
            severity: Severity::Warning,
            params: vec![
                ("framework", framework_label(run)),
                ("device", device.clone()),
            ],
            count: None,
            evidence: vec![run_ref(
                ev,
                run,
                Quote::Input(format!("device: {device}; {}", list.join("; "))),
            )],
            lines: Vec::new(),
            lines_truncated: false,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(devices: &[&str], buffers: &[(&str, f64)]) -> Evidence {
        let mut ev = Evidence::default();
        ev.add_input("a.log");
        ev.runs.push(Run {
            input: "a.log".into(),
            devices: devices.iter().map(|d| d.to_string()).collect(),
            buffers_mib: buffers.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            ..Run::default()
        });
        ev
    }

    #[test]
    fn a_found_gpu_with_no_model_buffer_is_unused() {
        let ev = run(
            &["Samsung Xclipse 920"],
            &[("CPU_Mapped model", 1210.6), ("CPU_REPACK model", 645.75)],
        );
        let f = crate::diagnose::apply(rule, &ev);
        assert_eq!(f.len(), 1);
        assert!(f[0]
            .params
            .contains(&("device", "Samsung Xclipse 920".into())));
    }

    #[test]
    fn weights_on_the_gpu_or_rpc_or_no_device_are_not() {
        assert!(crate::diagnose::apply(
            rule,
            &run(
                &["Adreno 740"],
                &[("Vulkan0 model", 3900.0), ("CPU_Mapped model", 80.0)]
            )
        )
        .is_empty());
        assert!(crate::diagnose::apply(
            rule,
            &run(
                &["RPC[172.31.27.42:50052]"],
                &[("RPC[172.31.27.42:50052] model", 18821.0)]
            )
        )
        .is_empty());
        assert!(crate::diagnose::apply(rule, &run(&[], &[("CPU model", 7296.0)])).is_empty());
        assert!(crate::diagnose::apply(rule, &run(&["Adreno 740"], &[])).is_empty());
    }
}
