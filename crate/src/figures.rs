//! How sizes are written, once for every stage: the frameworks tokscope reads print binary
//! units (llama.cpp's `4.12 GiB`, `4165.00 MiB`), so a report says GiB where its log did, and
//! never a bare byte count a reader has to divide.

/// Binary size with three significant figures at most: `812 B`, `5.79 KiB`, `4.12 GiB`.
pub fn size(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    if !bytes.is_finite() || bytes < 0.0 {
        return "?".into();
    }
    let mut v = bytes;
    let mut unit = 0;
    // Step up before rounding would print 1024 of a unit (1023.9 MiB is "1.00 GiB").
    while unit + 1 < UNITS.len() && v >= 999.5 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        return format!("{v:.0} B");
    }
    let digits = if v >= 99.95 {
        0
    } else if v >= 9.995 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {}", UNITS[unit])
}

/// [`size`] of a MiB figure, the unit llama.cpp gives its buffers in.
pub fn size_of_mib(mib: f64) -> String {
    size(mib * 1024.0 * 1024.0)
}

/// A parameter count as model names write it: `7B`, `0.5B`, `360M`.
pub fn params(count: f64) -> String {
    if !count.is_finite() || count <= 0.0 {
        return "?".into();
    }
    let (v, unit) = if count >= 1e9 {
        (count / 1e9, "B")
    } else {
        (count / 1e6, "M")
    };
    // `7B`, not `7.0B`; `1.5B` keeps its tenth.
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}{unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_counts_read_as_model_names_write_them() {
        assert_eq!(params(7e9), "7B");
        assert_eq!(params(0.5e9), "500M");
        assert_eq!(params(1.5e9), "1.5B");
        assert_eq!(params(360e6), "360M");
        assert_eq!(params(f64::NAN), "?");
    }

    #[test]
    fn sizes_read_as_their_log_would_print_them() {
        assert_eq!(size(5925.0), "5.79 KiB");
        assert_eq!(size(812.0), "812 B");
        assert_eq!(size(0.0), "0 B");
        assert_eq!(size_of_mib(4165.0), "4.07 GiB");
        assert_eq!(size_of_mib(727.75), "728 MiB");
        assert_eq!(size(4.12 * 1024.0 * 1024.0 * 1024.0), "4.12 GiB");
        assert_eq!(size_of_mib(1023.9), "1.00 GiB");
        assert_eq!(size(999.0), "999 B");
        assert_eq!(size(1000.0), "0.98 KiB");
        assert_eq!(size(f64::NAN), "?");
        assert!(size(1e30).ends_with(" TiB"), "{}", size(1e30));
    }
}
