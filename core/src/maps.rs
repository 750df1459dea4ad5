//! Deterministic hash maps for policy code.
//!
//! What this is for: `std`'s default `HashMap`/`HashSet` seed their hasher from the operating
//! system's randomness. In the component that is a WASI import the host does not grant (the
//! call traps), and natively it would make iteration order differ from run to run. Policy
//! code uses these aliases instead: FNV-1a over bytes, a multiply-rotate mix over integers,
//! the same on every machine and target. Construct them with `default()` /
//! `with_capacity_and_hasher(n, Default::default())` or `collect()`.
//!
//! `KeyMap`/`KeySet` (crate-internal) are for keys that are already hashes (and small integers), such as
//! merge's claim keys: their hasher only mixes.
//!
//! What it is not for: resisting hash flooding (inputs are the caller's own documents), or
//! hashes whose values matter beyond a map (ids, keys: `crate::hash`, which these build on).

use std::hash::{BuildHasherDefault, Hasher};

use crate::hash::{FNV64_OFFSET, fnv64_from, mix64};

pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<StableHasher>>;
pub type HashSet<K> = std::collections::HashSet<K, BuildHasherDefault<StableHasher>>;
pub(crate) type KeyMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<KeyHasher>>;
pub(crate) type KeySet<K> = std::collections::HashSet<K, BuildHasherDefault<KeyHasher>>;

/// FNV-1a 64 for bytes; integers mixed by multiply-rotate.
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(FNV64_OFFSET)
    }
}

impl Hasher for StableHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv64_from(self.0, bytes);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = mix64(self.0, n);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
}

/// Hasher for map keys that are already hashes (and small integers): a multiply-rotate mix.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv64_from(self.0 ^ FNV64_OFFSET, bytes);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = mix64(self.0, n);
    }
    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
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
