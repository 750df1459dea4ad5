//! Secret redaction (issue 20, `wit/redaction.wit`): find the secrets in a text and replace
//! each with a marker `[REDACTED:<kind>:<mac>]`, where `<mac>` is 8 base32 characters of a
//! BLAKE3 keyed hash of the secret under the store's 32-byte key (`marker.rs`).
//!
//! How: a prefilter (`scan.rs`, one Aho-Corasick pass over the rules' literal anchors) finds
//! where a secret could be; only windows around those anchors are matched against the rules
//! that own the anchor (`rules.rs`); every candidate passes its rule's checks (`checks.rs`:
//! boundaries, placeholders, the entropy/shape gate, the allowlist); overlapping candidates
//! keep the earliest, then the more specific rule; the survivors are replaced.
//!
//! Guarantees: the output has exactly as many newlines as the input (a secret over n lines
//! becomes n copies of its marker, one per line, the newlines kept); a replacement never
//! starts or ends inside a JSON escape, so a JSONL line stays valid JSON; a marker is never
//! redacted again (redacting twice changes nothing).
//!
//! Not for: the key, the allowlist's source, whether redaction is on, or what is written where
//! (the host's). No I/O, like the rest of the crate.

mod after;
mod anchors;
mod checks;
mod labels;
mod marker;
mod net;
mod position;
mod public;
mod rules;
mod scan;
mod sql;

pub use checks::shannon_entropy;
pub use rules::{kinds, rg_patterns};

/// What the host passes: the store's marker key and its allowlist.
#[derive(Clone, Copy, Debug)]
pub struct Options<'a> {
    /// 32 bytes.
    pub key: &'a [u8],
    /// A secret whose value contains one of these literal strings is left as it is.
    pub allow: &'a [String],
}

/// One secret found (never its value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub kind: &'static str,
    /// 1-based line of the input where the secret starts.
    pub first_line: u32,
    /// 1-based line where it ends.
    pub last_line: u32,
    pub marker: String,
}

/// The result: `text` is `None` when nothing was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redaction {
    pub text: Option<String>,
    pub hits: Vec<Hit>,
}

/// Why the input was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The key is not 32 bytes long.
    KeyLength(usize),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::KeyLength(n) => write!(f, "the redaction key must be 32 bytes, got {n}"),
        }
    }
}

/// The high-entropy net's candidates alone (`net.rs`), as byte ranges: for measuring what it
/// adds (`examples/redact_dir.rs`, `NET_ONLY=1`); `redact` applies it after the rules.
#[doc(hidden)]
pub fn net_only(text: &str) -> Vec<(usize, usize)> {
    net::find(text.as_bytes())
}

/// Find the secrets in `text` and replace them (see the module documentation).
pub fn redact(text: &str, options: &Options<'_>) -> Result<Redaction, Error> {
    let key: &[u8; 32] = options.key.try_into().map_err(|_| Error::KeyLength(options.key.len()))?;
    let spans = scan::find(text, options.allow);
    if spans.is_empty() {
        return Ok(Redaction { text: None, hits: Vec::new() });
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut hits = Vec::with_capacity(spans.len());
    let mut copied = 0usize;
    let mut line = 1u32;
    for span in spans {
        line += memchr::memchr_iter(b'\n', &bytes[copied..span.start]).count() as u32;
        let secret = &text[span.start..span.end];
        let marker = marker::marker(span.kind, secret, key);
        let newlines = memchr::memchr_iter(b'\n', secret.as_bytes()).count() as u32;
        out.push_str(&text[copied..span.start]);
        let mut first = true;
        for segment in secret.split('\n') {
            if !first {
                out.push('\n');
            }
            first = false;
            out.push_str(&marker);
            if segment.ends_with('\r') {
                out.push('\r');
            }
        }
        hits.push(Hit { kind: span.kind, first_line: line, last_line: line + newlines, marker });
        line += newlines;
        copied = span.end;
    }
    out.push_str(&text[copied..]);
    Ok(Redaction { text: Some(out), hits })
}

#[cfg(test)]
mod positions;
#[cfg(test)]
mod tests;
