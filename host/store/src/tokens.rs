//! Token estimation (SPEC §11.4; decision and measurements in docs/tokenizer.md).
//!
//! The count is the `cl100k_base` BPE (bpe-openai: identical counts to tiktoken, a fraction
//! of its construction time) multiplied by a calibration factor that approximates Claude's
//! tokenizer (`tokens.calibration` in config.yaml). Results are estimates and are always
//! reported as such, with the tokenizer and factor used.
//!
//! Invariant: the tokenizer is constructed lazily, on first use, and only on paths that
//! need a count (recall, save, show). Listing, search and the unbound session-start path
//! never touch it.
//!
//! Not for: deciding what to do over the target (callers warn; nothing is ever truncated).

use serde::Serialize;

/// The BPE used for counting.
pub const TOKENIZER: &str = "cl100k_base";

/// Default calibration: Claude's tokenizer counts more tokens than OpenAI's BPEs on the same
/// text (see docs/tokenizer.md for the published figures this is derived from).
pub const DEFAULT_CALIBRATION: f64 = 1.4;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Estimated Claude tokens: `raw_tokens × calibration`, rounded up.
    pub tokens: u64,
    /// Tokens counted by the BPE.
    pub raw_tokens: u64,
    pub tokenizer: &'static str,
    pub calibration: f64,
}

/// Estimate the tokens of `text`.
pub fn estimate(text: &str, calibration: f64) -> Estimate {
    let raw = bpe_openai::cl100k_base().count(text) as u64;
    Estimate { tokens: (raw as f64 * calibration).ceil() as u64, raw_tokens: raw, tokenizer: TOKENIZER, calibration }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_calibrated_and_deterministic() {
        let e = estimate("Sales prefers annual commits for enterprise renewals.", 1.4);
        assert!(e.raw_tokens >= 8 && e.raw_tokens <= 12, "{e:?}");
        assert_eq!(e.tokens, (e.raw_tokens as f64 * 1.4).ceil() as u64);
        assert_eq!(estimate("", 1.4).tokens, 0);
        assert_eq!(estimate("hello world", 1.0), estimate("hello world", 1.0));
    }
}
