//! How a graph was split between an accelerator and the CPU, as the runtimes announce it once
//! the delegate or execution provider has claimed its nodes:
//!
//! - TFLite / LiteRT (`Subgraph::ReplaceNodeSubsetsWithDelegateKernels`), since about 2.10:
//!   `Replacing 41 out of 64 node(s) with delegate (TfLiteGpuDelegateV2) node, yielding 9
//!   partitions for the whole graph.`; before: `Replacing 41 node(s) with delegate
//!   (TfLiteGpuDelegateV2) node, yielding 9 partitions.` (no total).
//! - TFLite's simple-delegate helper, which the Hexagon, QNN, Ethos-U, Neutron and Flex delegates
//!   print through: `<name> delegate: 357 nodes delegated out of 357 nodes with 1 partitions.`
//!   (`QNN delegate:`, `TfLiteQnnDelegate delegate:`, `EthosuDelegate:`); the Hexagon delegate's
//!   older wording stops after `out of Y nodes.`
//! - ONNX Runtime's execution providers, from `GetCapability`: NNAPI, CoreML, WebNN
//!   (`NnapiExecutionProvider::GetCapability, number of partitions supported by NNAPI: 14 number
//!   of nodes in the graph: 612 number of nodes supported by NNAPI: 530`) and QNN (`Number of
//!   partitions supported by QNN EP: 1, number of nodes in the graph: 1234, number of nodes
//!   supported by QNN: 1234`).
//!
//! - ExecuTorch's `get_delegation_info(...).get_summary()`, printed at export (`export_llm`
//!   with `verbose`, the backends' export scripts): three lines, `Total delegated subgraphs: 368`,
//!   `Number of delegated nodes: 2588`, `Number of non-delegated nodes: 2513` (in issues often
//!   joined by `<br/>`). It names no backend, so the split is ExecuTorch's; the non-delegated
//!   nodes run on its portable or optimized CPU kernels.
//!
//! The nodes a delegate does not claim run on the CPU, and every partition boundary is a copy
//! between the two memories. Node counts say how much of the graph is at stake, not how long
//! it took.

use crate::evidence::{Partition, EXECUTORCH_SPLIT};
use regex::Regex;
use std::sync::OnceLock;

/// Literals one of which every line [`parse`] reads contains (the log scanner's cheap gate).
pub const KEYWORDS: &[&str] = &["partitions", "delegated out of", "delegated subgraphs"];

struct Re {
    tflite: Regex,
    qnn_delegate: Regex,
    ort: Regex,
    executorch: Regex,
    opens: Regex,
}

fn re() -> &'static Re {
    static R: OnceLock<Re> = OnceLock::new();
    R.get_or_init(|| Re {
        tflite: Regex::new(
            r"Replacing (\d+) (?:out of (\d+) )?node\(s\) with delegate \(([^)]*)\) node, yielding (\d+) partitions",
        )
        .expect("tflite partition"),
        qnn_delegate: Regex::new(
            r"(\S+?)\s?[Dd]elegate: (\d+) nodes delegated out of (\d+) nodes(?: with (\d+) partitions)?",
        )
        .expect("qnn delegate partition"),
        ort: Regex::new(
            r"(?i)number of partitions supported by ([\w .-]+?)\s*:\s*(\d+)[\s,;|*-]+number of nodes in the graph\s*:\s*(\d+)[\s,;|*-]+number of nodes supported by [\w .-]+?\s*:\s*(\d+)",
        )
        .expect("onnxruntime partition"),
        // Anything but a digit between the three: `<br/>`, bullets, table pipes.
        executorch: Regex::new(
            r"Total delegated subgraphs:\s*(\d+)\D*?Number of delegated nodes:\s*(\d+)\D*?Number of non-delegated nodes:\s*(\d+)",
        )
        .expect("executorch delegation summary"),
        opens: Regex::new(r"(?i)number of partitions supported by|Total delegated subgraphs:")
            .expect("summary opening"),
    })
}

fn int(s: &str) -> Option<u32> {
    s.parse().ok()
}

/// A line that opens ONNX Runtime's summary without finishing it: a terminal, an issue or a user
/// who reformatted it put its three counts on up to three lines, so the next lines complete it.
pub fn opens(message: &str) -> bool {
    message.len() < 1024 && re().opens.is_match(message)
}

/// Lines a split summary may be spread over.
pub const MAX_SPREAD_LINES: usize = 3;

/// The split a line announces, if it announces one.
pub fn parse(message: &str) -> Option<Partition> {
    let r = re();
    if let Some(c) = r.tflite.captures(message) {
        return Some(Partition {
            delegate: c[3].trim().to_string(),
            delegated: int(&c[1])?,
            total: c.get(2).and_then(|m| int(m.as_str())),
            partitions: Some(int(&c[4])?),
        });
    }
    if let Some(c) = r.qnn_delegate.captures(message) {
        return Some(Partition {
            delegate: c[1].to_string(),
            delegated: int(&c[2])?,
            total: Some(int(&c[3])?),
            partitions: c.get(4).and_then(|m| int(m.as_str())),
        });
    }
    if let Some(c) = r.executorch.captures(message) {
        let delegated = int(&c[2])?;
        return Some(Partition {
            delegate: EXECUTORCH_SPLIT.to_string(),
            delegated,
            total: Some(delegated.checked_add(int(&c[3])?)?),
            partitions: Some(int(&c[1])?),
        });
    }
    let c = r.ort.captures(message)?;
    // "QNN EP" names the provider as QNN does in the node count; keep the short name.
    let name = c[1].trim();
    let name = name.strip_suffix(" EP").unwrap_or(name);
    Some(Partition {
        delegate: name.to_string(),
        delegated: int(&c[4])?,
        total: Some(int(&c[3])?),
        partitions: Some(int(&c[2])?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(delegate: &str, delegated: u32, total: Option<u32>, partitions: Option<u32>) -> Partition {
        Partition {
            delegate: delegate.into(),
            delegated,
            total,
            partitions,
        }
    }

    #[test]
    fn each_producers_wording_is_read() {
        let cases = [
            (
                "Replacing 41 out of 64 node(s) with delegate (TfLiteGpuDelegateV2) node, yielding 9 partitions for the whole graph.",
                p("TfLiteGpuDelegateV2", 41, Some(64), Some(9)),
            ),
            (
                "Replacing 12 node(s) with delegate (TfLiteNnapiDelegate) node, yielding 3 partitions.",
                p("TfLiteNnapiDelegate", 12, None, Some(3)),
            ),
            (
                "TfLiteQnnDelegate delegate: 357 nodes delegated out of 357 nodes with 1 partitions.",
                p("TfLiteQnnDelegate", 357, Some(357), Some(1)),
            ),
            (
                "INFO: [Qnn Delegate] QNN delegate: 47 nodes delegated out of 52 nodes with 3 partitions.",
                p("QNN", 47, Some(52), Some(3)),
            ),
            (
                "INFO: EthosuDelegate: 1 nodes delegated out of 1 nodes with 1 partitions.",
                p("Ethosu", 1, Some(1), Some(1)),
            ),
            (
                "Hexagon delegate: 30 nodes delegated out of 64 nodes.",
                p("Hexagon", 30, Some(64), None),
            ),
            (
                "[I:onnxruntime:, nnapi_execution_provider.cc:191 GetCapability] NnapiExecutionProvider::GetCapability, number of partitions supported by NNAPI: 14 number of nodes in the graph: 612 number of nodes supported by NNAPI: 530",
                p("NNAPI", 530, Some(612), Some(14)),
            ),
            (
                "CoreMLExecutionProvider::GetCapability, number of partitions supported by CoreML: 121   number of nodes in the graph: 643   number of nodes supported by CoreML: 169",
                p("CoreML", 169, Some(643), Some(121)),
            ),
            (
                "2024-06-01 10:00:00.1 [I:onnxruntime:, qnn_execution_provider.cc:612 GetCapability] Number of partitions supported by QNN EP: 1, number of nodes in the graph: 1234, number of nodes supported by QNN: 1234",
                p("QNN", 1234, Some(1234), Some(1)),
            ),
        ];
        for (line, want) in cases {
            assert_eq!(parse(line), Some(want), "{line}");
            assert!(
                KEYWORDS.iter().any(|k| line.contains(k)),
                "the gate passes {line}"
            );
        }
    }

    #[test]
    fn a_summary_spread_over_lines_is_read_once_joined() {
        let parts = [
            "CoreMLExecutionProvider::GetCapability,",
            "  number of partitions supported by CoreML: 4",
            "  number of nodes in the graph: 144",
            "  number of nodes supported by CoreML: 121",
        ];
        assert!(!opens(parts[0]));
        assert!(opens(parts[1]) && parse(parts[1]).is_none());
        let joined = parts[1..].join(" ");
        assert_eq!(parse(&joined), Some(p("CoreML", 121, Some(144), Some(4))));
        let et = [
            "Total delegated subgraphs: 368",
            "Number of delegated nodes: 2588",
            "Number of non-delegated nodes: 2513",
        ];
        assert!(opens(et[0]) && parse(et[0]).is_none());
        assert!(KEYWORDS.iter().any(|k| et[0].contains(k)));
        assert_eq!(
            parse(&et.join(" ")),
            Some(p("ExecuTorch", 2588, Some(5101), Some(368)))
        );
        assert_eq!(
            parse(&et.join(" <br/> ")),
            Some(p("ExecuTorch", 2588, Some(5101), Some(368)))
        );
        let bullets = "- Number of partitions supported by NNAPI: 103 - Number of nodes in the graph: 3616 - Number of nodes supported by NNAPI: 903";
        assert_eq!(parse(bullets), Some(p("NNAPI", 903, Some(3616), Some(103))));
    }

    #[test]
    fn other_lines_and_cpu_delegates() {
        assert_eq!(
            parse("Created TensorFlow Lite XNNPACK delegate for CPU."),
            None
        );
        assert_eq!(parse("yielding 3 partitions"), None);
        let x = parse("Replacing 29 out of 31 node(s) with delegate (TfLiteXNNPackDelegate) node, yielding 4 partitions for the whole graph.").expect("read");
        assert!(x.on_cpu());
        let flex = parse("INFO: TfLiteFlexDelegate delegate: 5 nodes delegated out of 105 nodes")
            .expect("read");
        assert!(flex.on_cpu(), "select TF ops run on the CPU");
        assert_eq!(x.cpu_nodes(), Some(2));
        assert!(!p("TfLiteGpuDelegateV2", 1, None, Some(1)).on_cpu());
    }
}
