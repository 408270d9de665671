//! base64url without padding (RFC 4648 §5): the alphabet that survives a URL fragment unescaped.
//! Decoding is strict: any other byte, or a length no encoder produces, is an error.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let idx = (n >> (18 - 6 * i)) & 63;
            out.push(char::from(ALPHABET[idx as usize]));
        }
    }
    out
}

fn value(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// The byte offset of the first character outside the alphabet, or a bad length, as `Err`.
pub fn decode(text: &str) -> Result<Vec<u8>, usize> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return Err(bytes.len());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3 + 2);
    for (c, chunk) in bytes.chunks(4).enumerate() {
        let mut n = 0u32;
        for (i, &ch) in chunk.iter().enumerate() {
            n |= value(ch).ok_or(c * 4 + i)? << (18 - 6 * i);
        }
        let produced = chunk.len() - 1;
        for i in 0..produced {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_length() {
        let data: Vec<u8> = (0..=255u8).collect();
        for len in 0..data.len() {
            let e = encode(&data[..len]);
            assert!(!e.contains('='));
            assert_eq!(decode(&e).as_deref(), Ok(&data[..len]), "len {len}");
        }
        assert_eq!(encode(b"\xfb\xff"), "-_8");
    }

    #[test]
    fn rejects_foreign_characters_and_impossible_lengths() {
        assert_eq!(decode("ab+c"), Err(2));
        assert_eq!(decode("abc="), Err(3));
        assert_eq!(decode("abcde"), Err(5));
        assert_eq!(decode("<script>"), Err(0));
    }
}
