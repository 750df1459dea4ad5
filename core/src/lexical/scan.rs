//! Word scanning: the words of a text (maximal runs of alphanumeric characters) as byte
//! ranges, found from bitmaps of the text's bytes — classified 16 bytes at a time, with SIMD
//! where the target has it (SSE2 on x86_64, `simd128` in the policy component) and a portable
//! SWAR fallback they are tested against — in pieces, so a caller can stop early.
//!
//! What it is for: [`for_each_word`] (with a first-byte/length filter that skips words no
//! query term can be, and each word's ordinal, so positions survive the filter) and
//! [`word_str`], under the lexical engine (`lexical`).
//!
//! What it is not for: lowercasing, folding, stemming or stop words (`lexical`), or scoring.

use std::ops::ControlFlow;

/// Bitmaps over the bytes of a text, 64 bytes per `u64`, bit `k` of word `j` for byte
/// `64 j + k`: `alnum` marks bytes of alphanumeric characters (word bytes), `multi` marks
/// bytes of non-ASCII characters. One extra zero word at the end ends every run.
#[derive(Default)]
pub(crate) struct WordMap {
    alnum: Vec<u64>,
    multi: Vec<u64>,
    /// Whether the text has any non-ASCII byte (else `multi` is all zeros).
    any_multi: bool,
}

const HIGH: u64 = 0x8080_8080_8080_8080;

const fn splat(b: u8) -> u64 {
    b as u64 * 0x0101_0101_0101_0101
}

/// High bit of each byte of `x` (all bytes < 0x80) set when the byte is in `lo..=hi`.
fn in_range(x: u64, lo: u8, hi: u8) -> u64 {
    (x + splat(0x80 - lo)) & !(x + splat(0x7f - hi)) & HIGH
}

/// The high bits of the 8 bytes of a chunk gathered into bits 0..8 (byte k → bit k).
fn gather(high: u64) -> u64 {
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Classify 16 bytes: (bit k set when byte k is an ASCII letter or digit, bit k set when
/// byte k is non-ASCII). SIMD where the target has it (SSE2 is baseline on x86_64; the
/// policy component is built with wasm `simd128`), eight bytes at a time otherwise.
#[cfg(target_arch = "x86_64")]
fn classify16(chunk: &[u8; 16]) -> (u16, u16) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the load reads exactly the 16 bytes of `chunk` (unaligned load).
    unsafe {
        let x = _mm_loadu_si128(chunk.as_ptr().cast());
        // Signed compares: non-ASCII bytes are negative, so neither digits nor letters.
        let within = |v: __m128i, lo: u8, hi: u8| {
            _mm_and_si128(
                _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
                _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
            )
        };
        let lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
        let alnum = _mm_or_si128(within(x, b'0', b'9'), within(lower, b'a', b'z'));
        (_mm_movemask_epi8(alnum) as u16, _mm_movemask_epi8(x) as u16)
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn classify16(chunk: &[u8; 16]) -> (u16, u16) {
    use std::arch::wasm32::*;
    // SAFETY: reads exactly the 16 bytes of `chunk`; wasm `v128.load` has no alignment
    // requirement.
    let x = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
    // Signed compares: non-ASCII bytes are negative, so they are neither digits nor letters.
    let within =
        |v: v128, lo: u8, hi: u8| v128_and(i8x16_ge(v, i8x16_splat(lo as i8)), i8x16_le(v, i8x16_splat(hi as i8)));
    let lower = v128_or(x, i8x16_splat(0x20));
    let alnum = v128_or(within(x, b'0', b'9'), within(lower, b'a', b'z'));
    (i8x16_bitmask(alnum), i8x16_bitmask(x))
}

#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
fn classify16(chunk: &[u8; 16]) -> (u16, u16) {
    classify16_swar(chunk)
}

/// The portable classification (and the reference the SIMD versions are tested against).
#[cfg_attr(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))]
fn classify16_swar(chunk: &[u8; 16]) -> (u16, u16) {
    let (mut alnum, mut multi) = (0u16, 0u16);
    for k in 0..2 {
        let x = u64::from_le_bytes(chunk[k * 8..k * 8 + 8].try_into().expect("8 bytes"));
        let high = x & HIGH;
        let ascii = x & !HIGH;
        let word = (in_range(ascii, b'0', b'9') | in_range(ascii | splat(0x20), b'a', b'z')) & !high;
        alnum |= (gather(word) as u16) << (k * 8);
        multi |= (gather(high) as u16) << (k * 8);
    }
    (alnum, multi)
}

impl WordMap {
    /// Classify `bytes` (a whole `str`) eight bytes at a time; non-ASCII characters (rare)
    /// are decoded.
    fn build(&mut self, bytes: &[u8]) {
        self.alnum.clear();
        self.multi.clear();
        let blocks = bytes.chunks_exact(64);
        let mut last = [0u8; 64];
        last[..blocks.remainder().len()].copy_from_slice(blocks.remainder());
        let mut any_multi = false;
        for block in blocks.chain(std::iter::once(&last[..])) {
            let (mut alnum, mut multi) = (0u64, 0u64);
            for (k, chunk) in block.chunks_exact(16).enumerate() {
                let (a, m) = classify16(chunk.try_into().expect("chunks of 16"));
                alnum |= u64::from(a) << (k * 16);
                multi |= u64::from(m) << (k * 16);
            }
            any_multi |= multi != 0;
            self.alnum.push(alnum);
            self.multi.push(multi);
        }
        self.any_multi = any_multi;
        if !any_multi {
            return;
        }
        // Mark the bytes of alphanumeric non-ASCII characters.
        for (j, &m) in self.multi.iter().enumerate() {
            let mut m = m;
            while m != 0 {
                let p = j * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                // Pieces are whole `str`s: a lead byte (not 0b10xx_xxxx) starts a character.
                if bytes[p] & 0xc0 == 0x80 {
                    continue;
                }
                let len = match bytes[p] {
                    ..0xe0 => 2,
                    0xe0..0xf0 => 3,
                    _ => 4,
                };
                let c = word_str(&bytes[p..p + len]).chars().next().expect("p starts a character");
                if c.is_alphanumeric() {
                    for q in p..p + c.len_utf8() {
                        self.alnum[q / 64] |= 1 << (q % 64);
                    }
                }
            }
        }
    }

    /// Whether any byte in `start..end` is non-ASCII.
    fn has_multi(&self, start: usize, end: usize) -> bool {
        self.any_multi
            && (start / 64..=(end - 1) / 64).any(|j| {
                let lo = if j == start / 64 { u64::MAX << (start % 64) } else { u64::MAX };
                let hi = if j == (end - 1) / 64 { u64::MAX >> (63 - (end - 1) % 64) } else { u64::MAX };
                self.multi[j] & lo & hi != 0
            })
    }
}

/// Per first byte, a bitmask of word lengths worth looking at (lengths ≥ 63 share bit
/// 63). [`for_each_word`] skips ASCII words that fail it without calling back.
pub(crate) type LengthFilter = [u64; 256];

/// Every word passes.
pub(crate) const EVERY_WORD: LengthFilter = [u64::MAX; 256];

pub(crate) fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

/// Calls `f` with each word of `text` (a maximal run of alphanumeric characters), whether
/// it is pure ASCII and its ordinal (0-based, counting every word, filtered ones too),
/// except ASCII words whose first byte and length `filter` rules out; `f` returns `Break`
/// to stop early. `map` is scratch space. A word is given
/// as bytes: it is always a whole `str` (see [`word_str`]).
///
/// Text is classified in pieces of about [`PIECE`] bytes, cut at an ASCII space (never
/// inside a word), so stopping early skips the rest of a long text.
pub(crate) fn for_each_word(
    text: &str,
    filter: &LengthFilter,
    map: &mut WordMap,
    mut f: impl FnMut(&[u8], bool, u32) -> ControlFlow<()>,
) {
    let mut rest = text;
    let mut ordinal = 0u32;
    while !rest.is_empty() {
        let cut = rest.as_bytes().iter().skip(PIECE).position(|&b| b == b' ').map_or(rest.len(), |p| PIECE + p);
        let (piece, tail) = rest.split_at(cut);
        if words_of_piece(piece.as_bytes(), filter, map, &mut ordinal, &mut f).is_break() {
            return;
        }
        rest = tail;
    }
}

const PIECE: usize = 1024;

/// Words start where a word byte follows a non-word byte and end where one precedes a
/// non-word byte; starts and ends alternate, so they are paired in one pass.
fn words_of_piece(
    bytes: &[u8],
    filter: &LengthFilter,
    map: &mut WordMap,
    ordinal: &mut u32,
    f: &mut impl FnMut(&[u8], bool, u32) -> ControlFlow<()>,
) -> ControlFlow<()> {
    map.build(bytes);
    let n = map.alnum.len();
    let mut carry = 0u64;
    let mut open = 0usize;
    for j in 0..n {
        let a = map.alnum[j];
        let next = if j + 1 < n { map.alnum[j + 1] & 1 } else { 0 };
        let mut starts = a & !((a << 1) | carry);
        let mut ends = a & !((a >> 1) | (next << 63));
        // The block begins inside a word opened in an earlier block: its first end is that word's.
        let mut continuing = carry & a & 1 != 0;
        carry = a >> 63;
        while ends != 0 {
            let start = if continuing {
                continuing = false;
                open
            } else {
                let s = j * 64 + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                s
            };
            let end = j * 64 + ends.trailing_zeros() as usize + 1;
            ends &= ends - 1;
            let n = *ordinal;
            *ordinal += 1;
            let ascii = !map.has_multi(start, end);
            if ascii && filter[bytes[start] as usize] & length_bit(end - start) == 0 {
                continue;
            }
            f(&bytes[start..end], ascii, n)?;
        }
        if starts != 0 {
            open = j * 64 + starts.trailing_zeros() as usize;
        }
    }
    ControlFlow::Continue(())
}

/// A word from [`for_each_word`] as text: words start and end on character boundaries.
pub(crate) fn word_str(word: &[u8]) -> &str {
    std::str::from_utf8(word).expect("words are whole characters")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words by `for_each_word`, and whether each is ASCII.
    fn words(text: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        for_each_word(text, &EVERY_WORD, &mut WordMap::default(), |w, ascii, n| {
            assert_eq!(n as usize, out.len(), "ordinals count every word");
            out.push((word_str(w).to_string(), ascii));
            ControlFlow::Continue(())
        });
        out
    }

    /// The definition: maximal runs of alphanumeric characters.
    fn words_by_split(text: &str) -> Vec<(String, bool)> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| (w.to_string(), w.is_ascii()))
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn simd_and_portable_classification_agree(bytes in proptest::array::uniform16(proptest::num::u8::ANY)) {
            proptest::prop_assert_eq!(classify16(&bytes), classify16_swar(&bytes));
        }
    }

    #[test]
    fn words_cross_chunk_and_block_boundaries() {
        for len in [1usize, 7, 8, 9, 63, 64, 65, 127, 128, 129, 200] {
            for pad in 0..10 {
                let text = format!("{}{}-Zz9 {}", " ".repeat(pad), "a".repeat(len), "é".repeat(len / 2 + 1));
                assert_eq!(words(&text), words_by_split(&text), "len {len} pad {pad}");
            }
        }
        assert_eq!(gather(0x80), 1);
        assert_eq!(gather(0x8000_0000_0000_0000), 0x80);
        assert_eq!(gather(HIGH), 0xff);
    }

    proptest::proptest! {
        #[test]
        fn words_are_maximal_alphanumeric_runs(text in "\\PC{0,300}") {
            proptest::prop_assert_eq!(words(&text), words_by_split(&text));
        }

        #[test]
        fn words_are_maximal_runs_in_mostly_ascii_text(text in "([a-zA-Z0-9]{0,70}[ ,.\\-—é’ßİ]{0,3}){0,12}") {
            proptest::prop_assert_eq!(words(&text), words_by_split(&text));
        }
    }
}
