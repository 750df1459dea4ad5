//! Identifiers and slugs (SPEC §12.2, §12.3).
//!
//! Ids are ULIDs (sortable, unique) in lowercase with the SPEC's prefixes: `dos_`, `art_`,
//! `sess_`, `conf_`; revisions are content hashes with `rev_` (see `save`). Merge conflict ids
//! are content hashes in the same shape, minted by the merge policy ([`canonical_conflict_id`]). Slugs are the
//! durable directory names: lowercase ASCII (transliterated), punctuation and spaces to `-`,
//! repeats collapsed, ends trimmed, at most [`MAX_SLUG_LEN`] bytes; a collision appends a
//! short id suffix. Renaming a Dossier never changes its slug.
//!
//! Not for: checking whether a slug is taken (the store does, atomically, with `mkdir`).

/// Id prefixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefix {
    Dossier,
    Artifact,
    Session,
    Conflict,
}

impl Prefix {
    pub fn as_str(self) -> &'static str {
        match self {
            Prefix::Dossier => "dos_",
            Prefix::Artifact => "art_",
            Prefix::Session => "sess_",
            Prefix::Conflict => "conf_",
        }
    }
}

/// A new sortable unique id with `prefix`.
pub fn new_id(prefix: Prefix) -> String {
    format!("{}{}", prefix.as_str(), ulid::Ulid::generate().to_string().to_lowercase())
}

/// The short suffix used to disambiguate slugs: the id's last 6 characters (random bits).
pub fn short_suffix(id: &str) -> &str {
    &id[id.len().saturating_sub(6)..]
}

/// A merge conflict id as the merge policy names it (docs/merge.md, Ids): `conf_<26 base32>`
/// unchanged; the older `conf-<16 hex>` form (before SPEC §12.3's `conf_` prefix) converted to
/// the id of the same conflict; anything else unchanged. Merge conflict ids are content
/// hashes minted by the policy, so the conversion is the policy's own (`dossier_core::merge::
/// canonical_conflict_id`; the store's tests check that the two agree).
pub fn canonical_conflict_id(id: &str) -> String {
    const CROCKFORD: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let Some(h) = id
        .strip_prefix("conf-")
        .filter(|hex| hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
    else {
        return id.to_string();
    };
    // FNV-1a 64 of b"conf_", continuing from `h`: the id's low half.
    let low = b"conf_".iter().fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
    let n = (u128::from(h) << 64) | u128::from(low);
    let digits: String = (0..26).rev().map(|i| CROCKFORD[((n >> (5 * i)) & 31) as usize] as char).collect();
    format!("{}{digits}", Prefix::Conflict.as_str())
}

pub const MAX_SLUG_LEN: usize = 64;

/// The slug for a display name, before collision handling.
pub fn slugify(name: &str) -> String {
    let ascii = deunicode::deunicode(name).to_ascii_lowercase();
    let mut slug = String::with_capacity(ascii.len());
    for c in ascii.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let mut slug = slug.trim_matches('-').to_string();
    if slug.len() > MAX_SLUG_LEN {
        slug.truncate(MAX_SLUG_LEN);
        slug = slug.trim_end_matches('-').to_string();
    }
    if slug.is_empty() || crate::layout::RESERVED_NAMES.contains(&slug.as_str()) {
        // A name with no usable characters, or one that collides with a store directory.
        slug = if slug.is_empty() { "dossier".to_string() } else { format!("{slug}-dossier") };
    }
    slug
}

/// The slug to use when `base` is taken.
pub fn with_suffix(base: &str, id: &str) -> String {
    format!("{base}-{}", short_suffix(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn examples() {
        assert_eq!(slugify("Pricing model refresh"), "pricing-model-refresh");
        assert_eq!(slugify("  Q3 -- launch!!  plan  "), "q3-launch-plan");
        assert_eq!(slugify("Café déjà vu"), "cafe-deja-vu");
        assert_eq!(slugify("!!!"), "dossier");
        assert_eq!(slugify("../../etc/passwd"), "etc-passwd");
        assert_eq!(slugify("Context"), "context-dossier");
        assert_eq!(with_suffix("a", "dos_01jz8abcdefghjkmnpqrstvwxyz"), "a-tvwxyz");
    }

    #[test]
    fn ids_have_prefixes_and_sort_by_time() {
        let a = new_id(Prefix::Dossier);
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = new_id(Prefix::Dossier);
        assert!(a.starts_with("dos_") && a.len() == 4 + 26);
        assert!(a < b);
        assert!(new_id(Prefix::Artifact).starts_with("art_"));
        assert!(new_id(Prefix::Conflict).starts_with("conf_"));
        assert!(new_id(Prefix::Session).starts_with("sess_"));
    }

    proptest! {
        #[test]
        fn slugs_are_safe_path_components(name in "\\PC{0,100}") {
            let s = slugify(&name);
            prop_assert!(!s.is_empty() && s.len() <= MAX_SLUG_LEN + "-dossier".len());
            prop_assert!(s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            prop_assert!(!s.starts_with('-') && !s.ends_with('-') && !s.contains("--"));
            prop_assert!(!crate::layout::RESERVED_NAMES.contains(&s.as_str()));
            prop_assert_eq!(slugify(&s), s.clone(), "slugify is idempotent");
        }
    }
}
