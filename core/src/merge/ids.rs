//! Ids: the hash of a text's normalised form (what duplicates, conflict ids and next-action
//! comparisons compare) and the conflict ids made from it.
//!
//! What it is for: conflict ids in the SPEC's shape (§12.3: `conf_` + 26 lowercase Crockford
//! base32 characters, like the store's ULIDs) that are the same for the same disagreement on
//! every run, machine and target, and independent of unrelated claims and of provenance. Users
//! and conflict files hold these ids: a change here breaks resolutions already written. Ids of
//! the older form, `conf-` + 16 hex digits (the same 64-bit hash), are still accepted
//! ([`canonical_conflict_id`]).
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

/// The id of a disagreement: FNV-1a 64 over the kind, the subject key and both normalised
/// texts' hashes (`h`), written as `conf_` + the 128-bit value `h << 64 | spread(h)` in 26
/// lowercase Crockford base32 digits. The low half is derived from `h` alone, so the id and the
/// older `conf-<16 hex of h>` name the same conflict and convert into each other.
pub(super) fn conflict_id(kind: ConflictKind, subject: u64, source: u128, target: u128) -> String {
    let mut h = fnv64(kind.as_str().as_bytes());
    for part in [&subject.to_le_bytes()[..], &source.to_le_bytes(), &target.to_le_bytes()] {
        h = fnv64_from(h, &[0xff]);
        h = fnv64_from(h, part);
    }
    from_hash(h)
}

/// The id of a changed claim (issue 19, eleventh round): `t_` (target) or `s_` (source) + 13
/// lowercase Crockford base32 digits of FNV-1a 64 over the side, the section's name
/// (lowercase) and the claim's normalised text (`norm`, its [`norm_hash`]). Stable across
/// runs, independent of line numbers and provenance, unique within a merge (duplicates in a
/// section are folded into one claim).
pub(super) fn claim_id(target: bool, section: &str, norm: u128) -> String {
    let mut h = fnv64(if target { b"claim:target" } else { b"claim:source" });
    h = fnv64_from(h, &[0xff]);
    h = fnv64_from(h, section.to_lowercase().as_bytes());
    h = fnv64_from(h, &[0xff]);
    h = fnv64_from(h, &norm.to_le_bytes());
    let mut id = String::with_capacity(2 + 13);
    id.push_str(if target { "t_" } else { "s_" });
    for i in (0..13).rev() {
        id.push(CROCKFORD[((h >> (5 * i)) & 31) as usize] as char);
    }
    id
}

const CROCKFORD: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

fn from_hash(h: u64) -> String {
    let n = (u128::from(h) << 64) | u128::from(fnv64_from(h, b"conf_"));
    let mut id = String::with_capacity(5 + 26);
    id.push_str("conf_");
    for i in (0..26).rev() {
        id.push(CROCKFORD[((n >> (5 * i)) & 31) as usize] as char);
    }
    id
}

/// A conflict id as the merge names it: `conf_<26 base32>` unchanged; the older
/// `conf-<16 hex>` form converted to it; anything else unchanged (and then unknown).
pub fn canonical_conflict_id(id: &str) -> String {
    match id.strip_prefix("conf-") {
        Some(hex) if hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            from_hash(u64::from_str_radix(hex, 16).expect("16 hex digits"))
        }
        _ => id.to_string(),
    }
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
        assert!(id.starts_with("conf_") && id.len() == 5 + 26, "{id}");
        assert!(id[5..].bytes().all(|b| CROCKFORD.contains(&b)) && id.as_bytes()[5] <= b'7', "{id}");
        let h = fnv64(b"x");
        assert_eq!(canonical_conflict_id(&format!("conf-{h:016x}")), from_hash(h), "the older form converts");
        assert_eq!(canonical_conflict_id(&id), id);
        assert_eq!(canonical_conflict_id("conf-nope"), "conf-nope");
        assert_ne!(id, conflict_id(ConflictKind::IncompatibleValue, 1, 3, 2));
        assert_eq!(norm_hash("Budget: $10k [src:art_01a]"), norm_hash("budget  10,000"));
        assert_ne!(norm_hash("Budget: $10k"), norm_hash("Budget: $12k"));
    }

    #[test]
    fn claim_ids_are_stable_shaped_and_depend_on_side_section_and_text() {
        let n = norm_hash("Budget: $10k [src:art_01a]");
        let id = claim_id(true, "Findings", n);
        assert!(id.starts_with("t_") && id.len() == 15, "{id}");
        assert!(id[2..].bytes().all(|b| CROCKFORD.contains(&b)), "{id}");
        // Provenance, number formats and the section's case do not change it.
        assert_eq!(id, claim_id(true, "findings", norm_hash("budget 10,000")));
        assert_eq!(claim_id(false, "Findings", n)[2..].len(), 13);
        assert!(claim_id(false, "Findings", n).starts_with("s_"));
        assert_ne!(id[2..], claim_id(false, "Findings", n)[2..], "the side is hashed");
        assert_ne!(id, claim_id(true, "Decisions", n));
        assert_ne!(id, claim_id(true, "Findings", norm_hash("Budget: $12k")));
        // Pinned: ids users may hold must not change across releases.
        assert_eq!(claim_id(true, "Findings", norm_hash("Budget: $10k")), "t_02akyh017eps0");
    }
}
