//! The one hash of policy code: FNV-1a 64 (usable in `const` items), the multiply-rotate mix
//! for integers, and a 128-bit key over a sequence of hashes.
//!
//! What it is for: values that are the same on every machine, target and run. `maps`' hashers
//! and merge's word table, word and number keys, normalised-text keys and conflict ids
//! (`conf_…`) are all built from these functions, so a change here changes conflict ids users
//! and conflict files already hold (`maps` and `merge::ids` tests pin the published vectors).
//!
//! What it is not for: hash maps themselves (`maps`), cryptography, or resisting hash flooding
//! (inputs are the caller's own documents).

pub(crate) const FNV64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV64_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`, continuing from state `h`.
pub(crate) const fn fnv64_from(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(FNV64_PRIME);
        i += 1;
    }
    h
}

/// FNV-1a, 64 bits.
pub(crate) const fn fnv64(bytes: &[u8]) -> u64 {
    fnv64_from(FNV64_OFFSET, bytes)
}

/// Mix integer `n` into state `h`: multiply-rotate (for integer keys of hash maps).
pub(crate) const fn mix64(h: u64, n: u64) -> u64 {
    (h ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// 128-bit key of a sequence of word hashes (normalised texts: duplicates, ids): two
/// multiply-rotate lanes over the words' FNV-1a hashes, in order.
pub(crate) struct Key128 {
    a: u64,
    b: u64,
}

impl Key128 {
    pub(crate) fn new(tag: &[u8]) -> Key128 {
        let mut k = Key128 { a: FNV64_OFFSET, b: 0x6c62_272e_07bb_0142 };
        k.push(fnv64(tag));
        k
    }

    pub(crate) fn push(&mut self, h: u64) {
        self.a = (self.a.rotate_left(5) ^ h).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.b = (self.b ^ h.rotate_left(32)).wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(27);
    }

    pub(crate) fn finish(&self) -> u128 {
        ((self.a as u128) << 64) | self.b as u128
    }
}
