//! Deterministic hash maps for policy code.
//!
//! What this is for: `std`'s default `HashMap`/`HashSet` seed their hasher from the operating
//! system's randomness. In the component that is a WASI import the host does not grant (the
//! call traps), and natively it would make iteration order differ from run to run. Policy
//! code uses these aliases instead: FNV-1a over bytes, a multiply-rotate mix over integers,
//! the same on every machine and target. Construct them with `default()` /
//! `with_capacity_and_hasher(n, Default::default())` or `collect()`.
//!
//! What it is not for: resisting hash flooding. Inputs are the caller's own documents.

use std::hash::{BuildHasherDefault, Hasher};

pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<StableHasher>>;
pub type HashSet<K> = std::collections::HashSet<K, BuildHasherDefault<StableHasher>>;

/// FNV-1a 64 for bytes; integers mixed by multiply-rotate.
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashing_is_fnv1a_with_no_seed() {
        let mut h = StableHasher::default();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c, "FNV-1a 64 of \"a\"");
        let build = BuildHasherDefault::<StableHasher>::default();
        use std::hash::BuildHasher;
        assert_eq!(build.hash_one("annual"), build.hash_one("annual"));
        assert_eq!(BuildHasherDefault::<StableHasher>::default().hash_one(42u64), build.hash_one(42u64));
    }
}
