use super::*;
use crate::{Lang, Session};
use serde_json::json;

const DEMO: &[u8] = include_bytes!("../../../samples/demo/device-b-llama-android.logcat.txt");

fn demo_report() -> Value {
    let mut s = Session::new();
    s.add("device-b.logcat.txt", DEMO);
    serde_json::to_value(s.report(Lang::En)).expect("report serializes")
}

/// `report` as a link gives it back: without the parameters kept for programs.
fn as_shared(report: &Value) -> Value {
    let mut r = report.clone();
    project::without_data(&mut r);
    r
}

/// A fragment carrying exactly `bytes` (already JSON or not), deflated.
fn fragment_of(bytes: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(bytes, 6);
    format!("#r=1.{}", base64url::encode(&packed))
}

#[test]
fn round_trip_keeps_findings_and_evidence() {
    let report = demo_report();
    let link = encode(&report, &[], BUDGET_BYTES).expect("encodes");
    assert!(link.bytes <= BUDGET_BYTES, "{} bytes", link.bytes);
    assert_eq!(link.level, 0);
    assert!(link.omitted.is_empty(), "{:?}", link.omitted);
    let shared = decode(&format!("https://example.org/sub/{}", link.fragment)).expect("decodes");
    assert_eq!(
        serde_json::to_value(&shared.report).expect("json"),
        as_shared(&report)
    );
}

#[test]
fn parameters_for_programs_do_not_lengthen_a_link() {
    let report = demo_report();
    let f = &report["findings"][0];
    assert!(
        f["params"].as_object().is_some_and(|p| !p.is_empty()),
        "{f}"
    );
    let stripped = as_shared(&report);
    assert!(stripped["findings"][0].get("params").is_none());
    assert_ne!(stripped, report);
    let with = encode(&report, &[], BUDGET_BYTES).expect("encodes");
    let without = encode(&stripped, &[], BUDGET_BYTES).expect("encodes");
    assert_eq!(with.fragment, without.fragment);
}

#[test]
fn raw_input_travels_only_when_small() {
    let report = demo_report();
    let small = [RawInput {
        name: "a.log".into(),
        text: "line one\nline two\n".into(),
    }];
    let shared = decode(
        &encode(&report, &small, BUDGET_BYTES)
            .expect("encodes")
            .fragment,
    )
    .expect("decodes");
    assert_eq!(shared.raw, small);
    let big = [RawInput {
        name: "big.log".into(),
        text: "x".repeat(RAW_MAX_BYTES + 1),
    }];
    let link = encode(&report, &big, BUDGET_BYTES).expect("encodes");
    assert!(link
        .omitted
        .contains(&Omission::new("raw-too-large", RAW_MAX_BYTES)));
    assert!(decode(&link.fragment).expect("decodes").raw.is_empty());
}

/// A report with long chart series (the shape the telemetry section takes) degrades step by step
/// to the budget, and says what it left out.
#[test]
fn long_series_degrade_to_the_budget() {
    let mut report = demo_report();
    let series: Vec<Value> = (0..8)
        .map(|cpu| {
            let points: Vec<Value> = (0..4000)
                .map(|i| {
                    let t = f64::from(i) * 0.25;
                    let v = 1800.0 + 600.0 * ((t / 40.0 + f64::from(cpu)).sin()) + f64::from(i % 13);
                    json!([t, v])
                })
                .collect();
            json!({"quantity": "cpu-freq", "cpu": cpu, "input": "freq.csv", "source": format!("cpu{cpu}"), "unit": "MHz", "points": points})
        })
        .collect();
    report["series"] = Value::Array(series);
    let link = encode(&report, &[], BUDGET_BYTES).expect("encodes");
    assert!(link.full_bytes > BUDGET_BYTES, "full {}", link.full_bytes);
    assert!(link.bytes <= BUDGET_BYTES, "{} bytes", link.bytes);
    assert!(link.level > 0);
    assert_eq!(link.omitted[0].what, "series-downsampled");
    let shared = decode(&link.fragment).expect("decodes");
    assert_eq!(shared.omitted, link.omitted);
    // The findings are intact: only the series were degraded.
    let back = serde_json::to_value(&shared.report).expect("json");
    assert_eq!(back["findings"], as_shared(&report)["findings"]);
    let unbounded = encode(&report, &[], 0).expect("encodes");
    assert_eq!(unbounded.full_bytes, link.full_bytes);
    assert!(unbounded.bytes > link.bytes && unbounded.bytes <= MAX_LINK_CHARS);
}

#[test]
fn a_report_too_big_for_the_budget_still_links_with_a_note() {
    let mut report = demo_report();
    // Many distinct findings with incompressible quotes: nothing on the ladder gets under 8 KB.
    let mut seed = 0x2545_f491_u32;
    let mut noise = |n: usize| -> String {
        (0..n)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                char::from(b'!' + (seed % 90) as u8)
            })
            .collect()
    };
    let template = report["findings"][0].clone();
    let findings: Vec<Value> = (0..40)
        .map(|_| {
            let mut f = template.clone();
            f["summary"] = json!(noise(400));
            f
        })
        .collect();
    report["findings"] = Value::Array(findings);
    let link = encode(&report, &[], BUDGET_BYTES).expect("encodes");
    assert!(link.bytes > BUDGET_BYTES);
    // No step shortens 400 incompressible characters (the last cuts text at 600), so no cut is
    // worth its note: the link is the whole report, with only the note that it is over budget.
    assert_eq!(link.level, 0);
    assert_eq!(link.omitted, [Omission::new("over-budget", BUDGET_BYTES)]);
    assert_eq!(
        decode(&link.fragment)
            .expect("decodes")
            .report
            .findings
            .len(),
        40
    );
}

#[test]
fn past_the_last_step_the_link_is_the_shortest_the_ladder_made() {
    let mut report = demo_report();
    // Eleven line numbers per finding: only the last step cuts one, and its note and flags cost
    // more than the number saved, so the last step is not the shortest.
    for f in report["findings"].as_array_mut().expect("findings") {
        f["lines"] =
            json!([{"input": "device-b.logcat.txt", "lines": (1..=11).collect::<Vec<u32>>()}]);
        f["evidence"] = json!([]);
    }
    let budget = 100;
    let link = encode(&report, &[], budget).expect("encodes");
    let over = Omission::new("over-budget", budget);
    let sizes: Vec<usize> = LADDER
        .iter()
        .map(|level| {
            let (mut env, mut omitted) = project::project(&report, &[], level);
            texts::elide(env.get_mut("report").expect("report"));
            omitted.push(over.clone());
            pack(&mut env, &omitted).expect("packs").len()
        })
        .collect();
    assert!(
        sizes.last() > sizes.iter().min(),
        "the case needs a last step longer than another: {sizes:?}"
    );
    assert_eq!(link.bytes, *sizes.iter().min().expect("steps"), "{sizes:?}");
    assert_eq!(link.omitted.last(), Some(&over));
}

#[test]
fn a_zip_bomb_stops_at_the_limit() {
    // 30 MiB of spaces in a JSON string deflate to ~30 KB: a link under the length limit that
    // would inflate 30 times past the size limit.
    let mut bomb = b"{\"report\":\"".to_vec();
    bomb.resize(30 << 20, b' ');
    let f = fragment_of(&bomb);
    assert!(f.len() < MAX_LINK_CHARS, "{}", f.len());
    assert_eq!(
        decode(&f).err(),
        Some(ShareError::TooLarge {
            max: MAX_JSON_BYTES
        })
    );
}

#[test]
fn truncated_and_damaged_links_are_errors() {
    let link = encode(&demo_report(), &[], BUDGET_BYTES)
        .expect("encodes")
        .fragment;
    for cut in [link.len() / 2, link.len() - 7] {
        // A cut inside the base64 may leave an impossible length; else the deflate stream ends early.
        let err = decode(&link[..cut]).expect_err("cut link");
        assert!(
            matches!(err, ShareError::Corrupt | ShareError::BadEncoding { .. }),
            "{err}"
        );
    }
    // Damage to the block header and its Huffman tables (the start of the stream) must be
    // caught. Link format 1 carries no checksum, so a byte flipped inside literal text can
    // still inflate to valid, different JSON; a checksum needs a new link format.
    let mut flipped = link.into_bytes();
    let mid = "#r=1.".len() + 3;
    flipped[mid] = if flipped[mid] == b'A' { b'B' } else { b'A' };
    let err = decode(&String::from_utf8(flipped).expect("ascii")).expect_err("damaged");
    assert!(
        matches!(
            err,
            ShareError::Corrupt | ShareError::BadJson(_) | ShareError::BadShape(_)
        ),
        "{err}"
    );
}

#[test]
fn oversize_foreign_and_versioned_links_are_rejected_before_inflating() {
    let long = format!("#r=1.{}", "A".repeat(MAX_LINK_CHARS));
    assert!(matches!(decode(&long), Err(ShareError::TooLong { .. })));
    assert_eq!(
        decode("https://x.org/#q=1").err(),
        Some(ShareError::NotALink)
    );
    assert_eq!(
        decode("#r=2.AAAA").err(),
        Some(ShareError::WrongVersion("2".into()))
    );
    assert_eq!(
        decode("#r=nodot").err(),
        Some(ShareError::WrongVersion("nodot".into()))
    );
    assert_eq!(
        decode("#r=1.<script>").err(),
        Some(ShareError::BadEncoding { at: 0 })
    );
}

#[test]
fn payload_shape_is_checked() {
    assert!(matches!(
        decode(&fragment_of(b"not json")),
        Err(ShareError::BadJson(_))
    ));
    assert!(matches!(
        decode(&fragment_of(b"{\"report\":{\"schema\":1}}")),
        Err(ShareError::BadShape(_))
    ));
    let deep = "[".repeat(40) + &"]".repeat(40);
    assert!(matches!(
        decode(&fragment_of(deep.as_bytes())),
        Err(ShareError::TooManyItems(_))
    ));
    let many = format!("[{}0]", "0,".repeat(LIMITS.max_items));
    assert!(matches!(
        decode(&fragment_of(many.as_bytes())),
        Err(ShareError::TooManyItems(_))
    ));
    let long = json!({"report": "é".repeat(LIMITS.max_string_chars + 1)}).to_string();
    assert_eq!(
        decode(&fragment_of(long.as_bytes())).err(),
        Some(ShareError::StringTooLong {
            max: LIMITS.max_string_chars
        })
    );
    let mut wrong_schema = demo_report();
    wrong_schema["schema"] = json!(99);
    let env = json!({ "report": wrong_schema }).to_string();
    assert!(matches!(
        decode(&fragment_of(env.as_bytes())),
        Err(ShareError::WrongVersion(_))
    ));
}

/// The decoder is a data layer: markup in a link comes back verbatim, as text, for the page to
/// set with textContent.
#[test]
fn markup_is_data() {
    let mut report = demo_report();
    let evil = "<img src=x onerror=alert(1)><script>alert(2)</script>javascript:alert(3)";
    report["findings"][0]["title"] = json!(evil);
    report["inputs"][0]["name"] = json!(evil);
    let link = encode(&report, &[], BUDGET_BYTES).expect("encodes");
    let shared = decode(&link.fragment).expect("decodes");
    assert_eq!(shared.report.findings[0].title, evil);
    assert_eq!(shared.report.inputs[0].name, evil);
}

#[test]
fn json_entry_points_for_the_page() {
    let report = demo_report().to_string();
    let raw = r#"[{"name": "a.log", "text": "hello"}]"#;
    let made: Value = serde_json::from_str(&encode_json(&report, raw, BUDGET_BYTES)).expect("json");
    assert_eq!(made["ok"], true);
    let fragment = made["fragment"].as_str().expect("fragment");
    assert_eq!(made["bytes"].as_u64(), Some(fragment.len() as u64));
    let read: Value = serde_json::from_str(&decode_json(fragment)).expect("json");
    assert_eq!(read["ok"], true);
    assert_eq!(read["shared"]["report"], as_shared(&demo_report()));
    assert_eq!(read["shared"]["raw"][0]["text"], "hello");
    let bad: Value = serde_json::from_str(&decode_json("#r=9.x")).expect("json");
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["code"], "wrong-version");
    let bad: Value = serde_json::from_str(&encode_json("{", "", BUDGET_BYTES)).expect("json");
    assert_eq!(bad["code"], "bad-json");
}

#[test]
fn every_code_has_its_texts() {
    let entries = crate::catalogue::entries();
    for code in ERROR_CODES {
        assert!(
            entries.contains_key(&format!("ui.share.error.{code}")),
            "{code}"
        );
    }
    for code in OMISSION_CODES {
        assert!(
            entries.contains_key(&format!("ui.share.omitted.{code}")),
            "{code}"
        );
    }
    // Codes made anywhere in this module are listed.
    let src = include_str!("mod.rs").to_string() + include_str!("project.rs");
    for quoted in src.split('"').skip(1).step_by(2) {
        let made = src.contains(&format!("Omission::new(\"{quoted}\""))
            || src.contains(&format!("Omission::bare(\"{quoted}\""));
        if made {
            assert!(
                OMISSION_CODES.contains(&quoted),
                "{quoted} is not in OMISSION_CODES"
            );
        }
    }
}

/// The payload of a fragment, inflated, as JSON.
fn payload(fragment: &str) -> Value {
    let b64 = fragment.split_once('.').map(|(_, p)| p).unwrap_or_default();
    let packed = base64url::decode(b64).expect("base64url");
    let json = miniz_oxide::inflate::decompress_to_vec(&packed).expect("inflates");
    serde_json::from_slice(&json).expect("json")
}

#[test]
fn catalogue_texts_are_left_for_the_receiver_and_put_back() {
    for lang in [Lang::En, Lang::Zh] {
        let mut s = Session::new();
        s.add("device-b.logcat.txt", DEMO);
        let report = serde_json::to_value(s.report(lang)).expect("json");
        let link = encode(&report, &[], BUDGET_BYTES).expect("encodes");
        let sent = payload(&link.fragment);
        let f = &sent["report"]["findings"][0];
        assert!(
            f.get("explain").is_none() && f.get("fix").is_none() && f.get("title").is_none(),
            "{f}"
        );
        assert!(
            f.get("summary").is_some(),
            "the summary has the measured numbers"
        );
        let back =
            serde_json::to_value(decode(&link.fragment).expect("decodes").report).expect("json");
        assert_eq!(back, as_shared(&report));
    }
    // A text that differs from the catalogue travels as is.
    let mut report = demo_report();
    report["findings"][0]["fix"] = json!("a fix of my own");
    let link = encode(&report, &[], BUDGET_BYTES).expect("encodes");
    assert_eq!(
        payload(&link.fragment)["report"]["findings"][0]["fix"],
        "a fix of my own"
    );
    assert_eq!(
        decode(&link.fragment).expect("decodes").report.findings[0].fix,
        "a fix of my own"
    );
}

#[test]
fn other_series_keep_their_unit_through_a_link_and_the_markdown_export() {
    // turbostat's Avg_MHz is an `other` quantity: its unit is a field of the quantity and the
    // series' own `unit` key at once. Found by the fuzzers: such reports could not be read back
    // ("missing field `unit`"), so neither a share link nor the page's Markdown export worked.
    let mut s = Session::new();
    s.add(
        "turbostat.tsv",
        include_bytes!("../../../samples/telemetry/turbostat.tsv"),
    );
    let report = s.report(Lang::En);
    let other = report
        .series
        .iter()
        .find(|x| matches!(&x.quantity, crate::evidence::Quantity::Other { unit, .. } if unit == "MHz"))
        .expect("turbostat has an `other` series in MHz");
    let link = encode(&serde_json::to_value(&report).unwrap(), &[], BUDGET_BYTES)
        .expect("the report makes a link");
    let shared = decode(&link.fragment).expect("the link reads back");
    let back = shared
        .report
        .series
        .iter()
        .find(|x| x.source == other.source && x.input == other.input)
        .expect("the series travels");
    assert_eq!(back.quantity, other.quantity);
    assert_eq!(back.unit, "MHz");
    let again = report_from_json(&serde_json::to_string(&report).unwrap())
        .expect("the report JSON reads back");
    assert_eq!(again.series.len(), report.series.len());
    assert!(again.series.iter().any(|x| x.quantity == other.quantity));
}
