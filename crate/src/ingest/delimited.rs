//! Splitting a delimited line into fields: the one splitter of every reader of comma-, tab- or
//! semicolon-separated text (telemetry exports, llama-bench's CSV, `perf stat -x`).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delim {
    Char(char),
    Whitespace,
}

/// Calls `f` for each field of `line`. Double quotes group delimiters; `""` is a quote.
pub fn for_each_field(line: &str, delim: Delim, f: &mut dyn FnMut(usize, &str)) {
    match delim {
        Delim::Whitespace => line
            .split_whitespace()
            .enumerate()
            .for_each(|(i, s)| f(i, s)),
        Delim::Char(d) if !line.contains('"') => {
            line.split(d).enumerate().for_each(|(i, s)| f(i, s))
        }
        Delim::Char(d) => {
            let mut field = String::new();
            let mut quoted = false;
            let mut i = 0;
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                if c == '"' {
                    if quoted && chars.peek() == Some(&'"') {
                        field.push('"');
                        chars.next();
                    } else {
                        quoted = !quoted;
                    }
                } else if c == d && !quoted {
                    f(i, &field);
                    field.clear();
                    i += 1;
                } else {
                    field.push(c);
                }
            }
            f(i, &field);
        }
    }
}

pub fn count_fields(line: &str, delim: Delim) -> usize {
    let mut n = 0;
    for_each_field(line, delim, &mut |_, _| n += 1);
    n
}

pub fn fields(line: &str, delim: Delim) -> Vec<String> {
    let mut out = Vec::new();
    for_each_field(line, delim, &mut |_, s| out.push(s.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_group_delimiters_and_a_doubled_quote_is_one() {
        let f = fields(r#"a,"b,c","say ""hi""",,d"#, Delim::Char(','));
        assert_eq!(f, ["a", "b,c", r#"say "hi""#, "", "d"]);
        assert_eq!(count_fields("1;2;3", Delim::Char(';')), 3);
        assert_eq!(fields("  1  2\t3 ", Delim::Whitespace), ["1", "2", "3"]);
    }
}
