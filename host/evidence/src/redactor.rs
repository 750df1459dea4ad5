//! The redactor the collector is handed ([`Redact`]): every string that leaves the crate
//! (excerpts, search hits, paths, symbol names, the task text, error messages) goes through it
//! first. The binary hands in the store's redaction policy (issue 20: one set of rules for
//! everything Dossier keeps or shows a model); this crate's tests hand in `dossier-core`'s
//! native rules, the same ones the policy component runs.
//!
//! A redactor keeps line numbers: a secret over n lines becomes n lines of markers, so lines
//! after it stay true. Whole files are redacted before excerpts are cut from them, so a window
//! that starts in the middle of a key block cannot show its tail.
//!
//! Not for: finding secrets (the policy does) or guaranteeing that none passes: sensitive
//! *files* are withheld by `privacy.rs`, which is the stronger guarantee.

/// Replaces secrets in text.
pub trait Redact {
    /// `text` with every secret replaced (the same number of lines), and each replacement's
    /// kind and lines. An error means the rules could not run: the collection fails with
    /// [`crate::EvidenceError::Redaction`] rather than return text unredacted.
    fn redact(&self, text: &str) -> Result<Redacted, String>;
}

/// A text after redaction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    /// One per secret replaced, in input order.
    pub found: Vec<Redaction>,
}

/// One replacement: its kind and the 1-based lines the secret covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redaction {
    pub kind: String,
    pub first_line: u32,
    pub last_line: u32,
}
