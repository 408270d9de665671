//! Turns the raw bytes of an input into UTF-8 text, in chunks: gzip is inflated on the fly (with a
//! guard on the inflated size), and UTF-16 (LE/BE, with or without a BOM) and GBK/GB18030 text is
//! transcoded. The encoding is decided once, from the first bytes.

use crate::evidence::TextEncoding;
use encoding_rs::{Decoder, DecoderResult, Encoding, GB18030, UTF_16BE, UTF_16LE, WINDOWS_1252};
use flate2::write::MultiGzDecoder;
use std::io::Write;

/// Most bytes a compressed input may inflate to. Far above any real trace kept gzipped, and low
/// enough that a zip bomb stops with a clear message instead of running for hours.
pub const MAX_INFLATED_BYTES: u64 = 16 << 30;

impl TextEncoding {
    /// Decides from the first bytes of the (inflated) input.
    pub fn detect(head: &[u8]) -> TextEncoding {
        if head.starts_with(b"\xef\xbb\xbf") {
            return TextEncoding::Utf8Bom;
        }
        if head.starts_with(b"\xff\xfe") {
            return TextEncoding::Utf16le;
        }
        if head.starts_with(b"\xfe\xff") {
            return TextEncoding::Utf16be;
        }
        if let Some(e) = bomless_utf16(head) {
            return e;
        }
        if !valid_utf8_prefix(head) {
            return if looks_like_gbk(head) && decodes_cleanly(GB18030, head) {
                TextEncoding::Gb18030
            } else {
                TextEncoding::Windows1252
            };
        }
        TextEncoding::Utf8
    }

    fn encoding(self) -> Option<&'static Encoding> {
        match self {
            TextEncoding::Utf8 | TextEncoding::Utf8Bom => None,
            TextEncoding::Utf16le => Some(UTF_16LE),
            TextEncoding::Utf16be => Some(UTF_16BE),
            TextEncoding::Gb18030 => Some(GB18030),
            TextEncoding::Windows1252 => Some(WINDOWS_1252),
        }
    }
}

/// ASCII text in UTF-16 without a BOM: nearly every other byte is zero.
fn bomless_utf16(head: &[u8]) -> Option<TextEncoding> {
    let n = head.len().min(4096) / 2;
    if n < 8 {
        return None;
    }
    let zeros_at = |parity: usize| (0..n).filter(|i| head[2 * i + parity] == 0).count();
    let (even, odd) = (zeros_at(0), zeros_at(1));
    if odd * 10 >= n * 9 && even * 10 <= n {
        Some(TextEncoding::Utf16le)
    } else if even * 10 >= n * 9 && odd * 10 <= n {
        Some(TextEncoding::Utf16be)
    } else {
        None
    }
}

/// Chinese text in GBK comes as pairs of high bytes (GB2312 hanzi are 0xA1-0xFE twice); a
/// Western single-byte text has lone high bytes (`°`, `µ`, `é`) between ASCII.
fn looks_like_gbk(bytes: &[u8]) -> bool {
    let (mut pairs, mut lone, mut i) = (0usize, 0usize, 0);
    while i < bytes.len() {
        if bytes[i] < 0x80 {
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(&next)
                if next >= 0x40
                    && next != 0x7f
                    && (0xa1..=0xfe).contains(&bytes[i])
                    && next >= 0xa1 =>
            {
                pairs += 1;
                i += 2;
            }
            _ => {
                lone += 1;
                i += 1;
            }
        }
    }
    pairs > lone
}

/// Valid UTF-8, allowing a character cut at the end of the sample.
fn valid_utf8_prefix(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

fn decodes_cleanly(encoding: &'static Encoding, bytes: &[u8]) -> bool {
    let mut d = encoding.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len() * 2);
    let (result, _) = d.decode_to_string_without_replacement(bytes, &mut out, false);
    !matches!(result, DecoderResult::Malformed(..))
}

/// Bytes in, UTF-8 out, for one encoding.
pub struct Transcoder {
    decoder: Option<Decoder>,
    /// UTF-8 BOM bytes still to skip (the BOM may arrive split over chunks).
    bom_left: usize,
}

impl Transcoder {
    pub fn new(encoding: TextEncoding) -> Self {
        Transcoder {
            decoder: encoding
                .encoding()
                .map(Encoding::new_decoder_with_bom_removal),
            bom_left: if encoding == TextEncoding::Utf8Bom {
                3
            } else {
                0
            },
        }
    }

    /// Transcodes `input`, calling `out` with UTF-8 bytes (or the input itself when it is UTF-8).
    pub fn feed(&mut self, mut input: &[u8], last: bool, out: &mut dyn FnMut(&[u8])) {
        let Some(decoder) = self.decoder.as_mut() else {
            let skip = self.bom_left.min(input.len());
            self.bom_left -= skip;
            out(&input[skip..]);
            return;
        };
        let mut buf = String::with_capacity(input.len().min(1 << 20) * 3 / 2 + 16);
        loop {
            buf.clear();
            let (_, read, _) = decoder.decode_to_string(input, &mut buf, last);
            out(buf.as_bytes());
            input = &input[read..];
            if input.is_empty() {
                break;
            }
            // The buffer was full; grow it and go on with the rest.
            buf.reserve(input.len() * 3 / 2 + 16);
        }
    }
}

/// Why inflating stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InflateError {
    Corrupt,
    TooLarge,
}

/// Streaming gzip (several members allowed, as `cat a.gz b.gz` makes).
pub struct Gunzip {
    decoder: MultiGzDecoder<Vec<u8>>,
    inflated: u64,
    failed: Option<InflateError>,
}

impl Default for Gunzip {
    fn default() -> Self {
        Self::new()
    }
}

impl Gunzip {
    pub fn new() -> Self {
        Gunzip {
            decoder: MultiGzDecoder::new(Vec::new()),
            inflated: 0,
            failed: None,
        }
    }

    pub fn is_gzip(head: &[u8]) -> bool {
        head.starts_with(b"\x1f\x8b\x08")
    }

    pub fn failed(&self) -> Option<InflateError> {
        self.failed
    }

    /// Inflates `input` and calls `out` with what it produced. After an error, input is ignored.
    pub fn feed(&mut self, input: &[u8], out: &mut dyn FnMut(&[u8])) {
        // Feed in slices so one call never inflates more than a bounded amount at once.
        for piece in input.chunks(64 * 1024) {
            if self.failed.is_some() {
                return;
            }
            if self.decoder.write_all(piece).is_err() {
                self.failed = Some(InflateError::Corrupt);
            }
            self.drain(out);
        }
    }

    pub fn finish(&mut self, out: &mut dyn FnMut(&[u8])) {
        if self.failed.is_none() && self.decoder.try_finish().is_err() {
            self.failed = Some(InflateError::Corrupt);
        }
        self.drain(out);
    }

    fn drain(&mut self, out: &mut dyn FnMut(&[u8])) {
        let produced = std::mem::take(self.decoder.get_mut());
        if produced.is_empty() {
            return;
        }
        let room = MAX_INFLATED_BYTES.saturating_sub(self.inflated);
        let take = (produced.len() as u64).min(room) as usize;
        self.inflated += take as u64;
        out(&produced[..take]);
        if take < produced.len() {
            self.failed = Some(InflateError::TooLarge);
        }
        // Hand the allocation back, so it is reused rather than regrown.
        let mut spare = produced;
        spare.clear();
        *self.decoder.get_mut() = spare;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;

    fn transcode(bytes: &[u8], chunk: usize) -> (TextEncoding, String) {
        let enc = TextEncoding::detect(bytes);
        let mut t = Transcoder::new(enc);
        let mut out = Vec::new();
        let pieces: Vec<&[u8]> = bytes.chunks(chunk).collect();
        for (i, p) in pieces.iter().enumerate() {
            t.feed(p, i + 1 == pieces.len(), &mut |b| out.extend_from_slice(b));
        }
        (enc, String::from_utf8(out).expect("utf-8 out"))
    }

    #[test]
    fn detects_and_transcodes_every_encoding_across_chunk_boundaries() {
        let text = "W/tflite: 回退到 CPU — remaining 3 operations\r\nline 2\n";
        let utf16le: Vec<u8> = b"\xff\xfe"
            .iter()
            .copied()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let utf16be: Vec<u8> = b"\xfe\xff"
            .iter()
            .copied()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        let bomless: Vec<u8> = "plain ascii log line\nsecond\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let (gbk, _, _) = GB18030.encode(text);
        let bom: Vec<u8> = b"\xef\xbb\xbf"
            .iter()
            .chain(text.as_bytes())
            .copied()
            .collect();
        for chunk in [1, 3, 7, 4096] {
            assert_eq!(
                transcode(text.as_bytes(), chunk),
                (TextEncoding::Utf8, text.to_string())
            );
            assert_eq!(
                transcode(&bom, chunk),
                (TextEncoding::Utf8Bom, text.to_string())
            );
            assert_eq!(
                transcode(&utf16le, chunk),
                (TextEncoding::Utf16le, text.to_string())
            );
            assert_eq!(
                transcode(&utf16be, chunk),
                (TextEncoding::Utf16be, text.to_string())
            );
            assert_eq!(
                transcode(&gbk, chunk),
                (TextEncoding::Gb18030, text.to_string())
            );
            assert_eq!(transcode(&bomless, chunk).0, TextEncoding::Utf16le);
            let (cp1252, _, _) = WINDOWS_1252.encode("Date,Time,CPU Package [°C],Core Clocks (avg) [MHz]\n1.1.2025,10:00:00.123,45,3200\n");
            assert_eq!(
                transcode(&cp1252, chunk),
                (TextEncoding::Windows1252, "Date,Time,CPU Package [°C],Core Clocks (avg) [MHz]\n1.1.2025,10:00:00.123,45,3200\n".to_string())
            );
        }
    }

    #[test]
    fn utf8_cut_at_the_sample_end_is_still_utf8() {
        let text = "日志".repeat(100);
        let cut = &text.as_bytes()[..text.len() - 1];
        assert_eq!(TextEncoding::detect(cut), TextEncoding::Utf8);
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).expect("gzip");
        e.finish().expect("gzip")
    }

    #[test]
    fn gunzip_streams_multi_member_and_stops_on_corruption() {
        let mut gz = gzip(b"first member\n");
        gz.extend(gzip(b"second member\n"));
        let mut out = Vec::new();
        let mut g = Gunzip::new();
        for c in gz.chunks(5) {
            g.feed(c, &mut |b| out.extend_from_slice(b));
        }
        g.finish(&mut |b| out.extend_from_slice(b));
        assert_eq!(out, b"first member\nsecond member\n");
        assert_eq!(g.failed(), None);

        let mut bad = gzip(&[b'x'; 10_000]);
        let n = bad.len();
        bad[n / 2] ^= 0xff;
        bad.truncate(n - 4);
        let mut g = Gunzip::new();
        g.feed(&bad, &mut |_| {});
        g.finish(&mut |_| {});
        assert_eq!(g.failed(), Some(InflateError::Corrupt));
    }
}
