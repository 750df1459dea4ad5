//! Identity helpers: normalised identities (concepts, scopes, choice texts) and the stable
//! fingerprint of a concept set.
//!
//! What it is for: [`normalise`], [`fnv1a64`] (the crate's one FNV-1a, `crate::hash`, under the
//! name this module has always exported) and [`concept_fingerprint`] (`fp-` + 16 hex digits).
//!
//! What it is not for: deciding whether two concepts are the same beyond case and spacing.

use crate::hash::fnv64;

/// Normalised identity: trimmed, lowercased, inner whitespace runs collapsed to one space.
pub fn normalise(s: &str) -> String {
    s.split_whitespace().map(str::to_lowercase).collect::<Vec<_>>().join(" ")
}

/// 64-bit FNV-1a.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv64(bytes)
}

/// `fp-` + 16 hex digits of FNV-1a over the sorted, deduplicated, normalised identities joined
/// by `\n` (normalised identities contain no newline, so the join is unambiguous). Empty
/// identities are ignored. Order and duplicates in the input do not matter.
pub fn concept_fingerprint<'a>(concepts: impl IntoIterator<Item = &'a str>) -> String {
    let set: std::collections::BTreeSet<String> =
        concepts.into_iter().map(normalise).filter(|c| !c.is_empty()).collect();
    let joined = set.into_iter().collect::<Vec<_>>().join("\n");
    format!("fp-{:016x}", fnv1a64(joined.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn fingerprint_ignores_order_case_spacing_and_duplicates() {
        let a = concept_fingerprint(["Token Bucket", "retry-policy"]);
        let b = concept_fingerprint(["retry-policy", "  token   bucket ", "RETRY-POLICY"]);
        assert_eq!(a, b);
        assert!(a.starts_with("fp-") && a.len() == 19, "{a}");
        assert_ne!(a, concept_fingerprint(["token bucket"]));
        assert_ne!(concept_fingerprint(["a b"]), concept_fingerprint(["a", "b"]), "the join is unambiguous");
    }
}
