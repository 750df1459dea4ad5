//! Recall (SPEC §7.2, §14.2): a Dossier's Distilled State, whole or in pages for capped
//! transports, with its token estimate; over the token target, the steps that bring it back
//! under (distil, or raise the target) — never a truncation.
//!
//! Not for: reading the file (`dossier_store::recall`) or the Archive (never read by recall).

use std::path::Path;

use dossier_store::App;
use dossier_store::error::Result;
use dossier_store::recall::{self, Recall};

use super::{Next, Op, Outcome};

/// Recall `target`; `page` None is the whole state (the CLI without `--page`).
pub fn recall(app: &App, target: &str, page: Option<usize>) -> Result<Outcome<Recall>> {
    let r = recall::recall(app, target, page)?;
    let next = recall_next(&r, page);
    let warnings = r.warnings.clone();
    Ok(Outcome { data: r, warnings, next })
}

/// The steps after a recall of `page` (None: the whole state).
pub fn recall_next(r: &Recall, page: Option<usize>) -> Vec<Next> {
    let mut next = Vec::new();
    if page.is_some() && r.page < r.page_count {
        next.push(
            Next::call(Op::Recall, &r.slug)
                .arg("page", "page", r.page + 1)
                .note(format!("page {} of {}", r.page, r.page_count)),
        );
    }
    if r.over_token_target {
        next.extend(over_target_next(&r.slug, &r.path));
    }
    next
}

/// The steps back under the token target, after a recall or a save over it (`dir` is the
/// Dossier's directory): distil, or raise the target.
pub fn over_target_next(slug: &str, dir: &Path) -> Vec<Next> {
    vec![
        Next::say(format!(
            "distill {slug}: merge restatements and drop superseded detail the Archive already holds (see the Distillation Guide), then save"
        )),
        Next::say(format!(
            "or raise token_target in {} if the state is genuinely this large",
            dir.join("dossier.md").display()
        )),
    ]
}
