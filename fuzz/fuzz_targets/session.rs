//! The whole pipeline — transport, encoding, sniffing, every parser the sniffer can pick, the
//! rules and the report — on arbitrary bytes cut into arbitrary chunks. The first byte picks the
//! chunk size, so chunk-boundary bugs are explored too.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tokscope::{Lang, Session};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first) + 1;
    let mut s = Session::new();
    let id = s.begin("fuzz");
    for c in rest.chunks(chunk) {
        s.push(id, c);
    }
    s.end(id);
    let report = s.report(Lang::En);
    let _ = serde_json::to_string(&report);
});
