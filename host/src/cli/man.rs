//! `dossier man` and `dossier completions`: the man pages and shell completion scripts
//! generated from the command line's definitions.
//!
//! Not for: generating them (`crate::complete`) or answering a shell's completion request
//! (`cli::run` does, before parsing).

use std::path::Path;

use clap::CommandFactory;
use serde_json::json;

use crate::complete;
use dossier_store::error::{DossierError, Result};

use super::args::Cli;
use super::render::Output;

/// `dossier man`: dossier.1 on stdout, or every page written into `dir`.
pub(super) fn cmd_man(dir: Option<&Path>) -> Result<Output> {
    let pages = complete::man_pages(Cli::command())?;
    let Some(dir) = dir else {
        let (name, text) = pages.into_iter().next().expect("the top-level page comes first");
        let text = String::from_utf8_lossy(&text).into_owned();
        return Ok(Output::new(json!({ "page": name, "roff": text }), text));
    };
    std::fs::create_dir_all(dir).map_err(|e| DossierError::io("create", dir, e))?;
    let mut written = Vec::new();
    for (name, text) in &pages {
        let path = dir.join(name);
        dossier_store::files::write_atomic(&path, text)?;
        written.push(path);
    }
    let human = format!("wrote {} man pages to {}\n", written.len(), dir.display());
    Ok(Output::new(json!({ "pages": written }), human))
}

/// `dossier completions SHELL`: the completion script (slugs are completed from the store).
pub(super) fn cmd_completions(shell: clap_complete::Shell) -> Result<Output> {
    let script = complete::script(&shell.to_string(), &complete::completer_path())?;
    Ok(Output::new(json!({ "shell": shell.to_string(), "script": script }), script))
}
