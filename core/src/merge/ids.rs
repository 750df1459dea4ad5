//! Ids: the hash of a text's normalised form (what duplicates, conflict ids and next-action
//! comparisons compare) and the conflict ids made from it.
//!
//! What it is for: `conf-` + 16 hex digits that are the same for the same disagreement on every
//! run, machine and target, and independent of unrelated claims and of provenance. Users and
//! conflict files hold these ids: a change here breaks resolutions already written.
//!
//! What it is not for: the hash functions themselves (`crate::hash`, shared with `maps`) or
//! block keys of whole Markdown blocks (`claims`).

use super::tokens::Toks;
use super::types::ConflictKind;
use crate::hash::{Key128, fnv64, fnv64_from};

/// Hash of the normalised text: `[src:...]` markers removed, lowercase words (letters,
/// digits, inner apostrophes; digits joined across `.`/`,`), numbers canonical (`10,000` =
/// `10k` = `10000`, `1.50` = `1.5`), articles dropped.
pub(super) fn norm_hash(text: &str) -> u128 {
    let mut tk = Toks::default();
    tk.push_text(text);
    let mut h = Key128::new(b"text");
    tk.norm_into(&mut h);
    h.finish()
}

/// `conf-` + 16 hex digits of FNV-1a 64 over the kind, the subject key and both normalised
/// texts' hashes.
pub(super) fn conflict_id(kind: ConflictKind, subject: u64, source: u128, target: u128) -> String {
    let mut h = fnv64(kind.as_str().as_bytes());
    for part in [&subject.to_le_bytes()[..], &source.to_le_bytes(), &target.to_le_bytes()] {
        h = fnv64_from(h, &[0xff]);
        h = fnv64_from(h, part);
    }
    format!("conf-{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_fnv1a_and_shaped() {
        // FNV-1a 64 of "" is the offset basis; of "a" the published test vector.
        assert_eq!(fnv64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        let id = conflict_id(ConflictKind::IncompatibleValue, 1, 2, 3);
        assert!(id.starts_with("conf-") && id.len() == 21, "{id}");
        assert_ne!(id, conflict_id(ConflictKind::IncompatibleValue, 1, 3, 2));
        assert_eq!(norm_hash("Budget: $10k [src:art_01a]"), norm_hash("budget  10,000"));
        assert_ne!(norm_hash("Budget: $10k"), norm_hash("Budget: $12k"));
    }
}
