//! Recall (SPEC §7.2, §14.2): a Dossier's full Distilled State with a token estimate and,
//! over the token target, a warning with next actions. Never truncated; the Archive is
//! never read.
//!
//! Transports with message caps (Claude Code keeps ~48 KB of an MCP result) fetch the state
//! in explicit pages: each page is at most [`PAGE_BYTES`] bytes, split on line boundaries
//! (a single longer line is split at a character boundary), and the pages concatenate to
//! the file byte for byte.
//!
//! Not for: choosing what to load (the agent does), or loading artifacts.

use std::path::PathBuf;

use serde::Serialize;

use crate::app::App;
use crate::error::{Code, DossierError, Result};
use crate::model::DossierDoc;
use crate::save;
use crate::tokens::{self, Estimate};

/// Largest page, in bytes (so also in characters): well under Claude Code's ~48 KB cap.
pub const PAGE_BYTES: usize = 40_000;

/// Split `text` into pages of at most `max` bytes on line boundaries.
pub fn pages(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        if end - start + line.len() > max && end > start {
            out.push(&text[start..end]);
            start = end;
        }
        end += line.len();
        // A single line longer than a page: cut it at character boundaries.
        while end - start > max {
            let mut cut = start + max;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            out.push(&text[start..cut]);
            start = cut;
        }
    }
    if end > start || out.is_empty() {
        out.push(&text[start..end]);
    }
    out
}

/// `n` with thousands separators (`40,000`), as the SPEC writes sizes.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[derive(Clone, Debug, Serialize)]
pub struct Recall {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub revision: String,
    pub path: PathBuf,
    pub token_estimate: Estimate,
    pub token_target: u64,
    pub over_token_target: bool,
    /// Bytes of the whole `dossier.md`.
    pub bytes: usize,
    /// 1-based page number of `content`; `page_count` pages in all.
    pub page: usize,
    pub page_count: usize,
    /// The whole file, or page `page` of it.
    pub content: String,
    /// Reported in the envelope's `warnings`, not in `data` (over the token target).
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// Recall `target`. `page` None returns the whole state (for transports without a cap).
pub fn recall(app: &App, target: &str, page: Option<usize>) -> Result<Recall> {
    app.store.require()?;
    let dir = app.store.resolve(target)?;
    let file = dir.join("dossier.md");
    let text = std::fs::read_to_string(&file).map_err(|e| DossierError::io("read", &file, e))?;
    let doc = DossierDoc::parse(&text, &file)?;
    let revision = save::revision(&dir)?;
    let estimate = tokens::estimate(&text, app.config.tokens.calibration);
    let target_tokens = doc.frontmatter.token_target.unwrap_or(app.config.token_target);
    let all = pages(&text, PAGE_BYTES);
    let page_count = all.len();
    let (page_no, content) = match page {
        None => (1, text.clone()),
        Some(p) if p >= 1 && p <= page_count => (p, all[p - 1].to_string()),
        Some(p) => {
            return Err(DossierError::new(
                Code::InvalidInput,
                format!("page {p} does not exist: `{target}` has {page_count} page(s) of at most {PAGE_BYTES} bytes"),
            )
            .with_details(serde_json::json!({ "parameter": "page", "expected": format!("1 to {page_count}") }))
            .with_next(crate::next::Next::call(crate::next::Op::Recall, target).arg("page", "page", 1)));
        }
    };
    let mut warnings = Vec::new();
    let over = estimate.tokens > target_tokens;
    if over {
        // A paged recall delivers the state in pages: say so, and which page this is.
        let delivery = match page {
            Some(_) if page_count > 1 => format!(
                "it is delivered in {page_count} pages of at most {} bytes (page {page_no} of {page_count}), never truncated",
                thousands(PAGE_BYTES)
            ),
            _ => "it is returned whole, never truncated".to_string(),
        };
        warnings.push(format!(
            "over_token_target: the Distilled State is ~{} tokens (estimate: {} {} tokens x {}), over its target of {target_tokens}; {delivery}",
            estimate.tokens, estimate.raw_tokens, estimate.tokenizer, estimate.calibration
        ));
    }
    let fm = doc.frontmatter;
    Ok(Recall {
        id: fm.id,
        name: fm.name,
        slug: fm.slug,
        revision,
        path: dir,
        token_estimate: estimate,
        token_target: target_tokens,
        over_token_target: over,
        bytes: text.len(),
        page: page_no,
        page_count,
        content,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes_read_with_thousands_separators() {
        assert_eq!(thousands(40_000), "40,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn small_text_is_one_page() {
        assert_eq!(pages("a\nb\n", 10), vec!["a\nb\n"]);
        assert_eq!(pages("", 10), vec![""]);
        assert_eq!(pages("aaaa\nbbbb\ncc\n", 10), vec!["aaaa\nbbbb\n", "cc\n"]);
    }

    proptest! {
        #[test]
        fn pages_concatenate_to_the_text_and_respect_the_limit(text in "([a-zé漢]{0,30}\n?){0,60}", max in 4usize..64) {
            let p = pages(&text, max);
            prop_assert_eq!(p.concat(), text.clone());
            for page in &p {
                prop_assert!(page.len() <= max);
            }
            // Pages end on line boundaries unless a single line is longer than a page.
            for page in &p[..p.len().saturating_sub(1)] {
                let ends_line = page.ends_with('\n');
                let long_line = page.lines().count() == 1;
                prop_assert!(ends_line || long_line, "{:?}", page);
            }
        }
    }
}
