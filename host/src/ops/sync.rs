//! Sync through the user's git (issue 23, docs/sync.md): `init`, `clone` and `sync` as use
//! cases — the store's `dossier_store::sync` does the work; this adds what follows (the context
//! library refreshed after the working tree moved, the conflicts to resolve as next steps).
//!
//! Not for: the merge rules or git (`dossier_store::sync`), parsing or rendering.

use dossier_store::error::Result;
use dossier_store::sync::{self, CloneOutcome, InitOutcome, SyncOutcome};
use dossier_store::{App, Store, context};

use super::{Next, Outcome};

pub fn init(app: &App, remote: &str, allow_secrets: bool) -> Result<Outcome<InitOutcome>> {
    let r = sync::init(app, remote, allow_secrets)?;
    let mut out = Outcome::new(r);
    if out.data.secrets_allowed > 0 {
        out.warnings.push(format!(
            "{} secret(s) stored in plain text were pushed (--allow-secrets); `dossier doctor` lists them",
            out.data.secrets_allowed
        ));
    }
    out.next.push(Next::say(format!("on another machine: dossier sync clone {remote}, then dossier init")));
    Ok(out)
}

pub fn clone(store: &Store, remote: &str) -> Result<Outcome<CloneOutcome>> {
    let mut out = Outcome::new(sync::clone(store, remote)?);
    out.next.push(Next::say("dossier init  (registers the MCP server and hooks on this machine)"));
    Ok(out)
}

pub fn sync(app: &App) -> Result<Outcome<SyncOutcome>> {
    let r = sync::sync(app)?;
    let mut out = Outcome::new(r);
    if !out.data.came_in.is_empty() {
        out.warnings.extend(context::after_mutation(app));
    }
    for c in &out.data.merge.conflicts {
        out.warnings.push(format!(
            "{}: the Distilled State diverged on two machines; the other version is kept in {}",
            c.slug, c.path
        ));
        out.next.push(Next::say(format!("dossier conflicts resolve {} --keep current|proposal", c.conflict_id)));
    }
    for c in &out.data.merge.clashes {
        out.warnings.push(format!(
            "{} had different contents on two machines: one is kept there, the other in {} (nothing was overwritten)",
            c.path, c.other
        ));
    }
    for r in &out.data.merge.renamed {
        out.warnings.push(format!(
            "the slug {} was created on two machines: {} is now {} (SPEC 12.2)",
            r.from, r.dossier_id, r.to
        ));
    }
    Ok(out)
}
