//! The TUI's state and its transitions: which view is open, what is selected, and what each
//! key does. Every operation is the one the CLI and MCP call — the open-work list is
//! `ops::list`, opening a Dossier is `ops::recall`, binding is `ops::session::switch`, merges
//! are `ops::merge::conflicts` and `ops::merge::merge`, concurrent-edit conflicts are
//! [`conflicts::list`] and `ops::resolve` — so every write goes through the Save path, and
//! nothing is ranked, merged or resolved a second way here.
//!
//! Keys arrive as crossterm [`KeyEvent`]s and are handled without a terminal, so the
//! transitions are unit-tested against a real temporary store.
//!
//! Not for: drawing (`render.rs`) or the terminal's setup and restoration (`mod.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui_textarea::TextArea;

use crate::app::App;
use dossier_store::archive::{self, ArtifactSummary};
use dossier_store::conflicts::{self, ConflictInfo};
use dossier_store::error::DossierError;
use dossier_store::listing::ListItem;
use dossier_store::merge::{ChoiceInput, ConflictView, ResolutionInput};
use dossier_store::model::{DossierDoc, Status};
use dossier_store::{save, sessions};

/// The actor recorded in audit events for writes made from the TUI.
pub const ACTOR: &str = crate::ops::actor::TUI;

/// The statuses in filter-key order: key `1` toggles `active`, ... `5` toggles `archived`.
pub const FILTER_KEYS: [Status; 5] = Status::ALL;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
}

/// The status line: the outcome of the last action.
#[derive(Clone, Debug)]
pub struct Message {
    pub tone: Tone,
    pub text: String,
}

/// One row of the open-work list: the listing's item and its token estimate.
#[derive(Clone, Debug)]
pub struct Row {
    pub item: ListItem,
    /// Estimated tokens of the whole `dossier.md` (as `dossier show` counts them).
    pub tokens: Option<u64>,
}

/// A scroll position. The renderer records how many lines the text wraps to and how many
/// fit, and clamps the offset; keys move the offset.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scroll {
    pub offset: usize,
    /// Highest useful offset, as of the last draw.
    pub max: usize,
    /// Lines visible, as of the last draw.
    pub page: usize,
}

impl Scroll {
    /// Apply a scrolling key; false when the key is not one.
    fn key(&mut self, code: KeyCode) -> bool {
        let page = self.page.max(1);
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.offset = self.offset.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.offset += 1,
            KeyCode::PageUp => self.offset = self.offset.saturating_sub(page),
            KeyCode::PageDown | KeyCode::Char(' ') => self.offset += page,
            KeyCode::Home | KeyCode::Char('g') => self.offset = 0,
            KeyCode::End | KeyCode::Char('G') => self.offset = usize::MAX,
            _ => return false,
        }
        self.offset = self.offset.min(self.max);
        true
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    State,
    Archive,
}

/// An open Dossier: its Distilled State (whole, scrollable) and its archive.
pub struct DossierView {
    pub id: String,
    pub slug: String,
    pub name: String,
    pub revision: String,
    /// The fields shown above the Distilled State.
    pub header: Vec<String>,
    /// The Distilled State (the body of `dossier.md`), never cut.
    pub body: String,
    pub tab: Tab,
    pub scroll: Scroll,
    pub artifacts: Vec<ArtifactSummary>,
    pub artifact_selected: usize,
}

/// One artifact's content.
pub struct ArtifactView {
    pub title: String,
    pub id: String,
    pub text: String,
    pub scroll: Scroll,
}

/// Open conflict files across the store.
pub struct ConflictsView {
    pub items: Vec<ConflictInfo>,
    pub selected: usize,
}

/// A concurrent-edit conflict: the current Distilled State against the refused proposal.
pub struct EditConflict {
    pub info: ConflictInfo,
    pub current_revision: String,
    pub current: String,
    pub proposal: String,
    /// Who proposed it, when, from which revision, and any field changes it carried.
    pub provenance: Vec<String>,
    /// 0: the current pane has the scroll keys; 1: the proposal's.
    pub focus: usize,
    pub scroll: [Scroll; 2],
    pub editor: Option<TextArea<'static>>,
}

/// Walking the conflicts of a merge: one decision per certain conflict, then the possible
/// ones as one checklist (each kept both unless toggled; a toggled one joins the walk), then
/// a confirmation.
pub struct MergeWalk {
    pub source: String,
    pub target: String,
    /// The conflicts walked one by one: the certain ones, then the possible ones toggled in
    /// the checklist.
    pub conflicts: Vec<ConflictView>,
    pub at: usize,
    pub choices: Vec<Option<ResolutionInput>>,
    pub scroll: Scroll,
    pub editor: Option<TextArea<'static>>,
    /// The merge's possible conflicts (related claims).
    pub possible: Vec<ConflictView>,
    /// The checklist, while it is shown.
    pub checklist: Option<Checklist>,
    /// The checklist was answered: the possible conflicts not toggled are kept both.
    pub checked: bool,
    /// Related pairs the policy did not list (each source claim is listed against at most 2
    /// target claims): counted under the checklist.
    pub unlisted: u32,
}

/// The possible conflicts as one checklist: `ask[i]` toggles possible conflict `i` from
/// "keep both" (preselected) to "decide it myself".
pub struct Checklist {
    pub ask: Vec<bool>,
    pub cursor: usize,
    pub scroll: Scroll,
}

impl MergeWalk {
    /// Every resolution so far: the walk's decisions, and keep both for each possible
    /// conflict the checklist left alone.
    fn resolutions(&self) -> Vec<ResolutionInput> {
        let mut r: Vec<ResolutionInput> = self.choices.iter().flatten().cloned().collect();
        if self.checked {
            for c in &self.possible {
                if !self.conflicts.iter().any(|w| w.id == c.id) {
                    r.push(ResolutionInput { conflict_id: c.id.clone(), choice: ChoiceInput::KeepBoth, text: None });
                }
            }
        }
        r
    }

    fn open_checklist(&mut self) {
        self.checklist =
            Some(Checklist { ask: vec![false; self.possible.len()], cursor: 0, scroll: Scroll::default() });
    }
}

/// A yes/no question before an irreversible step.
pub struct Confirm {
    pub question: String,
    pub action: Action,
}

pub enum Action {
    Merge { source: String, target: String, resolutions: Vec<ResolutionInput> },
}

/// `/` on the list: a ranked search (the same `ops::search::ranked` as the CLI and MCP).
pub struct SearchView {
    /// The query being typed (while `typing`) or last run.
    pub query: String,
    /// The query last run (Esc while typing goes back to it and its results).
    pub last_query: String,
    pub typing: bool,
    /// Dossiers best first, each with its snippets.
    pub results: Vec<dossier_store::search::DossierHits>,
    pub total: usize,
    pub selected: usize,
    pub ran: bool,
}

/// The views stacked above the list (Esc pops one).
pub enum View {
    Search(SearchView),
    Dossier(DossierView),
    Artifact(ArtifactView),
    Conflicts(ConflictsView),
    Edit(EditConflict),
    Merge(MergeWalk),
    Confirm(Confirm),
}

pub struct State {
    pub app: App,
    /// The session Dossiers are bound to (`--session` or `CLAUDE_CODE_SESSION_ID`).
    pub session: Option<String>,
    /// The session's bound Dossier: (id, `Name (slug)` for the title line).
    pub bound: Option<(String, String)>,
    /// Statuses shown, in `FILTER_KEYS` order.
    pub filter: Vec<Status>,
    pub rows: Vec<Row>,
    pub list_warnings: Vec<String>,
    pub selected: usize,
    /// The list's scroll offset (kept by the renderer so the selection stays visible).
    pub list_offset: usize,
    pub views: Vec<View>,
    pub message: Option<Message>,
    /// `m` picked this Dossier as a merge source; Enter on another merges it there.
    pub merge_source: Option<String>,
    pub quit: bool,
    /// Token estimates by `dossier.md` path, valid while its (mtime, length) is unchanged.
    token_cache: HashMap<PathBuf, (Option<std::time::SystemTime>, u64, u64)>,
}

fn error_text(e: &DossierError) -> String {
    let mut s = format!("error[{}]: {}", e.code.as_str(), e.message);
    if let Some(n) = e.next_actions(crate::ops::Surface::Cli).first() {
        s.push_str(&format!(" (next: {n})"));
    }
    s
}

fn ctrl(k: &KeyEvent, c: char) -> bool {
    k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char(c)
}

fn editor_with(text: &str, title: &'static str) -> TextArea<'static> {
    let mut t = TextArea::new(text.lines().map(str::to_string).collect());
    t.set_block(ratatui::widgets::Block::bordered().title(title));
    t.set_wrap_mode(ratatui_textarea::WrapMode::WordOrGlyph);
    t
}

fn editor_text(t: &TextArea<'_>) -> String {
    let mut s = t.lines().join("\n");
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

impl State {
    /// The list with the open statuses, as `dossier ls` shows by default.
    pub fn new(app: App, session: Option<String>) -> State {
        let mut s = State {
            app,
            session,
            bound: None,
            filter: Status::OPEN.to_vec(),
            rows: Vec::new(),
            list_warnings: Vec::new(),
            selected: 0,
            list_offset: 0,
            views: Vec::new(),
            message: None,
            merge_source: None,
            quit: false,
            token_cache: HashMap::new(),
        };
        s.reload();
        s
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some(Message { tone: Tone::Info, text: text.into() });
    }

    fn error(&mut self, e: &DossierError) {
        self.message = Some(Message { tone: Tone::Error, text: error_text(e) });
    }

    /// Re-read the list (keeping the selected Dossier selected) and the session's binding.
    pub fn reload(&mut self) {
        let keep = self.rows.get(self.selected).map(|r| r.item.slug.clone());
        match crate::ops::list::list(&self.app, &self.filter, None, false) {
            Ok(l) => {
                self.list_warnings = l.warnings;
                self.rows = l
                    .data
                    .dossiers
                    .into_iter()
                    .map(|item| {
                        let tokens = self.tokens_of(&item.path.join("dossier.md"));
                        Row { item, tokens }
                    })
                    .collect();
            }
            Err(e) => {
                self.rows.clear();
                self.error(&e);
            }
        }
        self.selected = keep
            .and_then(|slug| self.rows.iter().position(|r| r.item.slug == slug))
            .unwrap_or(self.selected)
            .min(self.rows.len().saturating_sub(1));
        self.refresh_binding();
    }

    fn tokens_of(&mut self, file: &Path) -> Option<u64> {
        let meta = std::fs::metadata(file).ok()?;
        let stamp = (meta.modified().ok(), meta.len());
        if let Some((m, l, t)) = self.token_cache.get(file)
            && (*m, *l) == stamp
        {
            return Some(*t);
        }
        let text = std::fs::read_to_string(file).ok()?;
        let tokens = dossier_store::tokens::estimate(&text, self.app.config.tokens.calibration).tokens;
        self.token_cache.insert(file.to_path_buf(), (stamp.0, stamp.1, tokens));
        Some(tokens)
    }

    fn refresh_binding(&mut self) {
        let Some(sid) = &self.session else { return };
        self.bound = match sessions::read(&self.app.store, sid) {
            Ok(b) => b.and_then(|b| b.dossier_id).map(|id| {
                let label = crate::ops::list::label(&self.app, &id);
                (id, label)
            }),
            Err(e) => {
                self.error(&e);
                None
            }
        };
    }

    /// The slug (directory name) of a Dossier given by slug or id; the input if unknown.
    fn slug_of(&self, target: &str) -> String {
        if let Some(r) = self.rows.iter().find(|r| r.item.id == target || r.item.slug == target) {
            return r.item.slug.clone();
        }
        self.app
            .store
            .resolve(target)
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| target.to_string())
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.rows.get(self.selected)
    }

    /// Is an editor open (it takes every key but Ctrl-S, Esc and Ctrl-C)?
    pub fn editing(&self) -> bool {
        match self.views.last() {
            Some(View::Edit(e)) => e.editor.is_some(),
            Some(View::Merge(m)) => m.editor.is_some(),
            _ => false,
        }
    }

    /// Is the search query being typed (every printable key is text)?
    fn typing(&self) -> bool {
        matches!(self.views.last(), Some(View::Search(v)) if v.typing)
    }

    fn search_key(&mut self, k: KeyEvent) {
        let Some(View::Search(v)) = self.views.last_mut() else { return };
        if v.typing {
            match k.code {
                // Esc cancels the typing: back to the last query and its results; with no
                // search run yet there is nothing to go back to, and the search closes.
                KeyCode::Esc if v.ran => {
                    v.query = v.last_query.clone();
                    v.typing = false;
                }
                KeyCode::Esc => {
                    self.views.pop();
                }
                KeyCode::Enter => {
                    v.typing = false;
                    let q = dossier_store::search::ranked::RankedQuery {
                        text: &v.query,
                        dossier: None,
                        limit: 50,
                        offset: 0,
                    };
                    match crate::ops::search::ranked(&self.app, &q, &dossier_store::progress::SILENT) {
                        Ok(o) => {
                            v.total = o.data.total_dossiers;
                            v.results = o.data.results;
                            v.selected = 0;
                            v.ran = true;
                            v.last_query = v.query.clone();
                        }
                        Err(e) => {
                            v.typing = true;
                            self.error(&e);
                        }
                    }
                }
                KeyCode::Backspace => {
                    v.query.pop();
                }
                KeyCode::Char(c) => v.query.push(c),
                _ => {}
            }
            return;
        }
        let n = v.results.len();
        match k.code {
            KeyCode::Esc => {
                self.views.pop();
            }
            KeyCode::Char('/') => v.typing = true,
            KeyCode::Up | KeyCode::Char('k') => v.selected = v.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => v.selected = (v.selected + 1).min(n.saturating_sub(1)),
            KeyCode::Enter => {
                if let Some(slug) = v.results.get(v.selected).map(|g| g.slug.clone()) {
                    self.open(&slug);
                }
            }
            _ => {}
        }
    }

    /// Handle one key.
    pub fn key(&mut self, k: KeyEvent) {
        if k.kind == KeyEventKind::Release {
            return;
        }
        if ctrl(&k, 'c') {
            self.quit = true;
            return;
        }
        if self.editing() {
            self.editor_key(k);
            return;
        }
        if self.typing() {
            self.message = None;
            self.search_key(k);
            return;
        }
        if k.code == KeyCode::Char('q') {
            self.quit = true;
            return;
        }
        self.message = None;
        match self.views.last() {
            None => self.list_key(k),
            Some(View::Search(_)) => self.search_key(k),
            Some(View::Dossier(_)) => self.dossier_key(k),
            Some(View::Artifact(_)) => self.artifact_key(k),
            Some(View::Conflicts(_)) => self.conflicts_key(k),
            Some(View::Edit(_)) => self.edit_key(k),
            Some(View::Merge(_)) => self.merge_key(k),
            Some(View::Confirm(_)) => self.confirm_key(k),
        }
    }

    fn list_key(&mut self, k: KeyEvent) {
        let n = self.rows.len();
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(n.saturating_sub(1)),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown => self.selected = (self.selected + 10).min(n.saturating_sub(1)),
            KeyCode::Home | KeyCode::Char('g') => self.selected = 0,
            KeyCode::End | KeyCode::Char('G') => self.selected = n.saturating_sub(1),
            KeyCode::Char(c @ '1'..='5') => {
                let s = FILTER_KEYS[c as usize - '1' as usize];
                if let Some(i) = self.filter.iter().position(|f| *f == s) {
                    self.filter.remove(i);
                } else {
                    self.filter.push(s);
                    self.filter.sort_by_key(|f| FILTER_KEYS.iter().position(|k| k == f));
                }
                self.reload();
            }
            KeyCode::Char('0') => {
                self.filter = Status::OPEN.to_vec();
                self.reload();
            }
            KeyCode::Char('a') => {
                self.filter = Status::ALL.to_vec();
                self.reload();
            }
            KeyCode::Char('r') => {
                self.reload();
                self.info("reloaded");
            }
            KeyCode::Enter => {
                let Some(slug) = self.selected_row().map(|r| r.item.slug.clone()) else { return };
                match self.merge_source.take() {
                    Some(source) => self.start_merge(&source, &slug),
                    None => self.open(&slug),
                }
            }
            KeyCode::Char('b') => {
                if let Some(slug) = self.selected_row().map(|r| r.item.slug.clone()) {
                    self.bind(&slug);
                }
            }
            KeyCode::Char('u') => self.unbind(),
            KeyCode::Char('m') => {
                if let Some(slug) = self.selected_row().map(|r| r.item.slug.clone()) {
                    self.merge_source = Some(slug);
                }
            }
            KeyCode::Char('c') => self.open_conflicts(),
            KeyCode::Char('/') => self.views.push(View::Search(SearchView {
                query: String::new(),
                last_query: String::new(),
                typing: true,
                results: Vec::new(),
                total: 0,
                selected: 0,
                ran: false,
            })),
            KeyCode::Esc => self.merge_source = None,
            _ => {}
        }
    }

    /// Open a Dossier (recall: the whole state, its revision and token estimate).
    pub fn open(&mut self, slug: &str) {
        match self.dossier_view(slug) {
            Ok(v) => self.views.push(View::Dossier(v)),
            Err(e) => self.error(&e),
        }
    }

    fn dossier_view(&self, slug: &str) -> dossier_store::error::Result<DossierView> {
        let recalled = crate::ops::recall::recall(&self.app, slug, None)?;
        let (r, warnings) = (recalled.data, recalled.warnings);
        let file = r.path.join("dossier.md");
        let doc = DossierDoc::parse(&r.content, &file)?;
        let fm = &doc.frontmatter;
        let mut header = vec![
            format!("{} ({})", fm.name, fm.slug),
            format!(
                "status {} · importance {} · urgency {} · revision {}",
                fm.status.as_str(),
                fm.importance.as_str(),
                fm.urgency.as_str(),
                r.revision
            ),
            format!("next action: {}", fm.next_action),
        ];
        if let Some(l) = &fm.lead {
            header.push(format!("lead: {l}"));
        }
        if let Some(d) = &fm.due_date {
            header.push(format!("due: {d}"));
        }
        for q in &fm.open_questions {
            header.push(format!("open question: {q}"));
        }
        header.push(format!(
            "tokens: ~{} (estimate, {} × {}; target {})",
            r.token_estimate.tokens, r.token_estimate.tokenizer, r.token_estimate.calibration, r.token_target
        ));
        header.extend(warnings.into_iter().map(|w| format!("warning: {w}")));
        let (artifacts, problems) = archive::list(&r.path);
        header.extend(problems.into_iter().map(|p| format!("warning: {p}")));
        Ok(DossierView {
            id: r.id,
            slug: r.slug,
            name: r.name,
            revision: r.revision,
            header,
            body: doc.body,
            tab: Tab::State,
            scroll: Scroll::default(),
            artifacts,
            artifact_selected: 0,
        })
    }

    fn dossier_key(&mut self, k: KeyEvent) {
        let Some(View::Dossier(v)) = self.views.last_mut() else { return };
        match (v.tab, k.code) {
            (_, KeyCode::Esc) => {
                self.views.pop();
            }
            (_, KeyCode::Tab | KeyCode::BackTab) => {
                v.tab = if v.tab == Tab::State { Tab::Archive } else { Tab::State };
            }
            (_, KeyCode::Char('b')) => {
                let slug = v.slug.clone();
                self.bind(&slug);
            }
            (_, KeyCode::Char('m')) => {
                self.merge_source = Some(v.slug.clone());
                self.views.clear();
            }
            (Tab::State, code) => {
                v.scroll.key(code);
            }
            (Tab::Archive, KeyCode::Up | KeyCode::Char('k')) => {
                v.artifact_selected = v.artifact_selected.saturating_sub(1);
            }
            (Tab::Archive, KeyCode::Down | KeyCode::Char('j')) => {
                v.artifact_selected = (v.artifact_selected + 1).min(v.artifacts.len().saturating_sub(1));
            }
            (Tab::Archive, KeyCode::Enter) => {
                let Some(a) = v.artifacts.get(v.artifact_selected) else { return };
                match archive::read_content(a) {
                    Ok(text) => {
                        let view =
                            ArtifactView { title: a.title.clone(), id: a.id.clone(), text, scroll: Scroll::default() };
                        self.views.push(View::Artifact(view));
                    }
                    Err(e) => self.message = Some(Message { tone: Tone::Error, text: e }),
                }
            }
            _ => {}
        }
    }

    fn artifact_key(&mut self, k: KeyEvent) {
        let Some(View::Artifact(v)) = self.views.last_mut() else { return };
        if k.code == KeyCode::Esc {
            self.views.pop();
        } else {
            v.scroll.key(k.code);
        }
    }

    /// Bind `slug` to the session, as `dossier switch` does.
    pub fn bind(&mut self, slug: &str) {
        let Some(sid) = self.session.clone() else { return self.no_session() };
        match crate::ops::session::switch(&self.app, &crate::ops::Caller::tui(), &sid, slug, None) {
            Ok(o) => {
                let r = o.data.recall;
                self.info(format!("session {sid} now works on {} (~{} tokens)", r.slug, r.token_estimate.tokens));
                self.bound = Some((r.id, format!("{} ({})", r.name, r.slug)));
            }
            Err(e) => self.error(&e),
        }
    }

    fn no_session(&mut self) {
        self.message = Some(Message {
            tone: Tone::Error,
            text: "no session to bind: start `dossier tui --session <id>`, or run it inside Claude Code \
                   (CLAUDE_CODE_SESSION_ID)"
                .to_string(),
        });
    }

    /// Clear the session's binding (the binding file is rewritten without a Dossier).
    pub fn unbind(&mut self) {
        let Some(sid) = self.session.clone() else { return self.no_session() };
        match sessions::write(&self.app, &sid, None, None) {
            Ok(_) => {
                self.bound = None;
                self.info(format!("session {sid}: no active Dossier"));
            }
            Err(e) => self.error(&e),
        }
    }

    pub fn open_conflicts(&mut self) {
        match conflicts::list(&self.app, None, false) {
            Ok(items) => self.views.push(View::Conflicts(ConflictsView { items, selected: 0 })),
            Err(e) => self.error(&e),
        }
    }

    fn conflicts_key(&mut self, k: KeyEvent) {
        let Some(View::Conflicts(v)) = self.views.last_mut() else { return };
        match k.code {
            KeyCode::Esc => {
                self.views.pop();
            }
            KeyCode::Up | KeyCode::Char('k') => v.selected = v.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => v.selected = (v.selected + 1).min(v.items.len().saturating_sub(1)),
            KeyCode::Enter => {
                let Some(info) = v.items.get(v.selected).cloned() else { return };
                if info.kind == "merge" {
                    let ids = std::fs::read_to_string(&info.path).ok().and_then(|t| {
                        let (h, _) = save::split_conflict(&t)?;
                        let s = |k: &str| h.get(k).and_then(|v| v.as_str()).map(str::to_string);
                        Some((s("source_id")?, s("target_id")?))
                    });
                    match ids {
                        Some((source, target)) => {
                            let (source, target) = (self.slug_of(&source), self.slug_of(&target));
                            self.start_merge(&source, &target);
                        }
                        None => {
                            self.info(format!("{} does not name its merge's source and target", info.path.display()))
                        }
                    }
                } else {
                    match self.edit_conflict(info) {
                        Ok(e) => self.views.push(View::Edit(e)),
                        Err(e) => self.error(&e),
                    }
                }
            }
            _ => {}
        }
    }

    fn edit_conflict(&self, info: ConflictInfo) -> dossier_store::error::Result<EditConflict> {
        let text = std::fs::read_to_string(&info.path).map_err(|e| DossierError::io("read", &info.path, e))?;
        let (h, body) = save::split_conflict(&text).ok_or_else(|| {
            DossierError::new(
                dossier_store::error::Code::InvalidInput,
                format!("{} is not a conflict file", info.path.display()),
            )
        })?;
        let s = |k: &str| h.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
        let r = crate::ops::recall::recall(&self.app, &info.dossier_id, None)?.data;
        let current = DossierDoc::parse(&r.content, &r.path.join("dossier.md"))?.body;
        let short = |r: &str| r.chars().take(16).collect::<String>();
        let by = match h.get("session_id").and_then(|v| v.as_str()) {
            Some(sid) => format!("proposed by {} (session {sid}) at {}", s("actor"), s("created_at")),
            None => format!("proposed by {} at {}", s("actor"), s("created_at")),
        };
        let mut provenance = vec![
            by,
            format!(
                "based on {}, when the Dossier was at {}",
                short(&s("base_revision")),
                short(&s("current_revision"))
            ),
        ];
        if let Some(u) = h.get("frontmatter_updates").filter(|u| u.as_object().is_some_and(|o| !o.is_empty())) {
            provenance.push(format!("field changes: {u}"));
        }
        let proposal = body.trim_start_matches('\n').to_string();
        // Both panes open at the first line where the two differ.
        let first_diff = current.lines().zip(proposal.lines()).position(|(a, b)| a != b).unwrap_or(0);
        let at = Scroll { offset: first_diff.saturating_sub(2), max: usize::MAX, page: 0 };
        Ok(EditConflict {
            info,
            current_revision: r.revision,
            current,
            proposal,
            provenance,
            focus: 1,
            scroll: [at; 2],
            editor: None,
        })
    }

    fn edit_key(&mut self, k: KeyEvent) {
        let Some(View::Edit(v)) = self.views.last_mut() else { return };
        let choice = match k.code {
            KeyCode::Esc => {
                self.views.pop();
                return;
            }
            KeyCode::Tab | KeyCode::BackTab => {
                v.focus = 1 - v.focus;
                return;
            }
            KeyCode::Char('c') => conflicts::Choice::KeepCurrent,
            KeyCode::Char('p') => conflicts::Choice::KeepProposal,
            KeyCode::Char('w') => {
                v.editor = Some(editor_with(&v.proposal, " Your Distilled State — Ctrl-S saves, Esc cancels "));
                return;
            }
            code => {
                v.scroll[v.focus].key(code);
                return;
            }
        };
        let id = v.info.id.clone();
        self.resolve_edit(&id, choice);
    }

    /// Resolve a concurrent-edit conflict as `dossier conflicts resolve` does.
    fn resolve_edit(&mut self, id: &str, choice: conflicts::Choice) {
        match crate::ops::resolve::resolve(&self.app, &crate::ops::Caller::tui(), id, choice) {
            Ok(out) => {
                let r = &out.data;
                self.views.pop();
                if let Some(View::Conflicts(c)) = self.views.last_mut() {
                    c.items.retain(|i| i.id != r.conflict_id);
                    c.selected = c.selected.min(c.items.len().saturating_sub(1));
                }
                let mut text =
                    format!("resolved {} ({}); {} is at {}", r.conflict_id, r.resolution, r.slug, r.revision);
                for w in &out.warnings {
                    text.push_str(&format!(" · warning: {w}"));
                }
                self.reload();
                self.info(text);
            }
            Err(e) => self.error(&e),
        }
    }

    /// Merge `source` into `target`: walk its conflicts if it has any, then confirm.
    pub fn start_merge(&mut self, source: &str, target: &str) {
        if source == target {
            self.info(format!("{source} cannot be merged into itself: choose another target"));
            return;
        }
        match crate::ops::merge::conflicts_counted(&self.app, source, target) {
            Ok((cs, _)) if cs.is_empty() => self.confirm_merge(source, target, Vec::new()),
            Ok((cs, unlisted)) => {
                let (possible, certain): (Vec<_>, Vec<_>) = cs.into_iter().partition(|c| c.is_possible());
                let choices = vec![None; certain.len()];
                let mut w = MergeWalk {
                    source: source.to_string(),
                    target: target.to_string(),
                    conflicts: certain,
                    at: 0,
                    choices,
                    scroll: Scroll::default(),
                    editor: None,
                    possible,
                    checklist: None,
                    checked: false,
                    unlisted,
                };
                if w.conflicts.is_empty() {
                    w.open_checklist();
                }
                self.views.push(View::Merge(w));
            }
            Err(e) => self.error(&e),
        }
    }

    fn confirm_merge(&mut self, source: &str, target: &str, resolutions: Vec<ResolutionInput>) {
        let question = format!(
            "Merge {source} into {target}{}? {source} is archived afterwards (its files are kept).",
            if resolutions.is_empty() { String::new() } else { format!(" with {} decision(s)", resolutions.len()) }
        );
        self.views.push(View::Confirm(Confirm {
            question,
            action: Action::Merge { source: source.to_string(), target: target.to_string(), resolutions },
        }));
    }

    fn merge_key(&mut self, k: KeyEvent) {
        let Some(View::Merge(w)) = self.views.last_mut() else { return };
        if w.checklist.is_some() && k.code != KeyCode::Esc {
            return self.checklist_key(k);
        }
        // Back from the confirmation of a merge with nothing to walk (every conflict was
        // possible and kept both): any key but Esc shows the checklist again.
        if w.conflicts.is_empty() && k.code != KeyCode::Esc {
            w.checked = false;
            return w.open_checklist();
        }
        let choice = match k.code {
            KeyCode::Esc => {
                let msg = format!(
                    "merge of {} into {} cancelled: nothing was merged (its conflicts stay in {}'s conflicts/)",
                    w.source, w.target, w.target
                );
                self.views.pop();
                self.info(msg);
                return;
            }
            KeyCode::Left | KeyCode::Char('p') => {
                w.at = w.at.saturating_sub(1);
                w.scroll = Scroll::default();
                return;
            }
            KeyCode::Right | KeyCode::Char('n') => {
                w.at = (w.at + 1).min(w.conflicts.len() - 1);
                w.scroll = Scroll::default();
                return;
            }
            KeyCode::Char('t') => ChoiceInput::KeepTarget,
            KeyCode::Char('s') => ChoiceInput::KeepSource,
            KeyCode::Char('b') => ChoiceInput::KeepBoth,
            KeyCode::Char('w') => {
                let text = w.conflicts[w.at].target.text.clone();
                w.editor = Some(editor_with(&text, " Your wording — Ctrl-S uses it, Esc cancels "));
                return;
            }
            code => {
                w.scroll.key(code);
                return;
            }
        };
        let r = ResolutionInput { conflict_id: w.conflicts[w.at].id.clone(), choice, text: None };
        self.decide(r);
    }

    /// Record a decision on the current conflict; move to the next undecided one, or ask
    /// to confirm the merge when every conflict has one.
    fn decide(&mut self, r: ResolutionInput) {
        let Some(View::Merge(w)) = self.views.last_mut() else { return };
        w.choices[w.at] = Some(r);
        w.scroll = Scroll::default();
        let n = w.choices.len();
        match (1..=n).map(|d| (w.at + d) % n).find(|i| w.choices[*i].is_none()) {
            Some(next) => w.at = next,
            None if !w.checked && !w.possible.is_empty() => w.open_checklist(),
            None => {
                let resolutions = w.resolutions();
                let (source, target) = (w.source.clone(), w.target.clone());
                self.confirm_merge(&source, &target, resolutions);
            }
        }
    }

    /// The checklist of possible conflicts: ↑↓ move, Space toggles "decide it myself",
    /// Enter continues — with the toggled ones walked like certain ones, the rest kept both.
    fn checklist_key(&mut self, k: KeyEvent) {
        let Some(View::Merge(w)) = self.views.last_mut() else { return };
        let Some(list) = w.checklist.as_mut() else { return };
        match k.code {
            KeyCode::Up | KeyCode::Char('k') => list.cursor = list.cursor.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => list.cursor = (list.cursor + 1).min(list.ask.len().saturating_sub(1)),
            KeyCode::Char(' ') | KeyCode::Char('x') => list.ask[list.cursor] = !list.ask[list.cursor],
            KeyCode::Enter => {
                let ask = std::mem::take(&mut list.ask);
                w.checklist = None;
                w.checked = true;
                let first = w.conflicts.len();
                for (c, _) in w.possible.iter().zip(&ask).filter(|(_, a)| **a) {
                    w.conflicts.push(c.clone());
                    w.choices.push(None);
                }
                if w.conflicts.len() > first {
                    w.at = first;
                    w.scroll = Scroll::default();
                } else {
                    let resolutions = w.resolutions();
                    let (source, target) = (w.source.clone(), w.target.clone());
                    self.confirm_merge(&source, &target, resolutions);
                }
            }
            code => {
                list.scroll.key(code);
            }
        }
    }

    fn confirm_key(&mut self, k: KeyEvent) {
        match k.code {
            KeyCode::Char('y') | KeyCode::Enter => {
                let Some(View::Confirm(c)) = self.views.pop() else { return };
                match c.action {
                    Action::Merge { source, target, resolutions } => self.run_merge(&source, &target, &resolutions),
                }
            }
            KeyCode::Char('n') | KeyCode::Esc => {
                self.views.pop();
            }
            _ => {}
        }
    }

    /// The merge itself, as `dossier merge --resolve ...` runs it.
    fn run_merge(&mut self, source: &str, target: &str, resolutions: &[ResolutionInput]) {
        let progress = &crate::progress::SILENT;
        match crate::ops::merge::merge(&self.app, &crate::ops::Caller::tui(), source, target, resolutions, progress) {
            Ok(out) => {
                let o = &out.data;
                self.views.clear();
                let mut text = if o.already_merged {
                    format!("{} was already merged into {}; nothing to do", o.source_slug, o.target_slug)
                } else {
                    format!(
                        "merged {} into {} ({} artifact(s) copied, {} conflict(s) resolved); {} is archived",
                        o.source_slug,
                        o.target_slug,
                        o.artifacts_copied.len(),
                        o.conflicts_resolved.len(),
                        o.source_slug
                    )
                };
                for w in &out.warnings {
                    text.push_str(&format!(" · warning: {w}"));
                }
                self.reload();
                self.info(text);
            }
            Err(e) => self.error(&e),
        }
    }

    fn editor_key(&mut self, k: KeyEvent) {
        let save = ctrl(&k, 's');
        match self.views.last_mut() {
            Some(View::Edit(v)) => {
                let Some(ed) = v.editor.as_mut() else { return };
                if k.code == KeyCode::Esc {
                    v.editor = None;
                } else if save {
                    let text = editor_text(ed);
                    if text.trim().is_empty() {
                        self.info("the Distilled State is empty: write it, or Esc to cancel");
                        return;
                    }
                    let id = v.info.id.clone();
                    self.resolve_edit(&id, conflicts::Choice::Text(text));
                } else {
                    ed.input(k);
                }
            }
            Some(View::Merge(w)) => {
                let Some(ed) = w.editor.as_mut() else { return };
                if k.code == KeyCode::Esc {
                    w.editor = None;
                } else if save {
                    let text = editor_text(ed);
                    if text.trim().is_empty() {
                        self.info("your wording is empty: write it, or Esc to cancel");
                        return;
                    }
                    let id = w.conflicts[w.at].id.clone();
                    w.editor = None;
                    self.decide(ResolutionInput { conflict_id: id, choice: ChoiceInput::Custom, text: Some(text) });
                } else {
                    ed.input(k);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dossier_store::config::Config;
    use dossier_store::layout::Store;
    use dossier_store::listing;
    use dossier_store::model::Level;
    use dossier_store::save::{CreateRequest, FrontmatterUpdates, SaveRequest};

    fn press(s: &mut State, code: KeyCode) {
        s.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    fn slugs(s: &State) -> Vec<&str> {
        s.rows.iter().map(|r| r.item.slug.as_str()).collect()
    }

    /// A real store with four Dossiers of different priorities and statuses.
    fn store() -> (tempfile::TempDir, State) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().join("store"));
        std::fs::create_dir_all(store.root()).unwrap();
        let app = crate::app::with(store.clone(), dossier_store::config::Config::default());
        for (name, status, imp, urg) in [
            ("Low work", Status::Active, Level::Low, Level::Low),
            ("Urgent work", Status::Active, Level::High, Level::High),
            ("Blocked work", Status::Blocked, Level::High, Level::Low),
            ("Done work", Status::Resolved, Level::High, Level::High),
        ] {
            let req = CreateRequest {
                name: name.to_string(),
                distilled_state: Some(format!(
                    "# {name}\n\n## Situation\n\n{name} situation.\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n"
                )),
                updates: FrontmatterUpdates {
                    status: Some(status),
                    importance: Some(imp),
                    urgency: Some(urg),
                    next_action: Some(format!("Next for {name}")),
                    ..Default::default()
                },
                actor: ACTOR.to_string(),
                ..Default::default()
            };
            save::create(&app, req, &crate::progress::SILENT).unwrap();
        }
        let app = crate::app::with(store, Config::default());
        let state = State::new(app, Some("sess-unit".to_string()));
        (dir, state)
    }

    #[test]
    fn the_list_is_the_listing_order_and_filters_toggle_statuses() {
        let (_d, mut s) = store();
        let expected: Vec<String> = listing::list(&s.app, &Status::OPEN, listing::now_millis())
            .unwrap()
            .dossiers
            .into_iter()
            .map(|d| d.slug)
            .collect();
        assert_eq!(slugs(&s), expected);
        assert_eq!(slugs(&s)[0], "urgent-work", "high/high first");
        assert!(s.rows.iter().all(|r| r.tokens.is_some_and(|t| t > 0)));
        press(&mut s, KeyCode::Char('3'));
        assert!(!slugs(&s).contains(&"blocked-work"), "3 hides blocked");
        press(&mut s, KeyCode::Char('4'));
        assert!(slugs(&s).contains(&"done-work"), "4 shows resolved");
        press(&mut s, KeyCode::Char('0'));
        assert_eq!(slugs(&s), expected);
    }

    #[test]
    fn open_shows_the_whole_state_and_bind_writes_the_session_binding() {
        let (_d, mut s) = store();
        press(&mut s, KeyCode::Enter);
        let Some(View::Dossier(v)) = s.views.last() else { panic!("not opened") };
        assert_eq!(v.slug, "urgent-work");
        assert!(v.body.contains("Urgent work situation.") && v.body.contains("## Next Steps"));
        press(&mut s, KeyCode::Char('b'));
        let b = sessions::read(&s.app.store, "sess-unit").unwrap().unwrap();
        assert_eq!(Some(b.dossier_id.clone().unwrap()), s.bound.as_ref().map(|(id, _)| id.clone()));
        assert_eq!(s.bound.as_ref().unwrap().1, "Urgent work (urgent-work)", "the title names it as Name (slug)");
        press(&mut s, KeyCode::Esc);
        press(&mut s, KeyCode::Char('u'));
        assert_eq!(sessions::read(&s.app.store, "sess-unit").unwrap().unwrap().dossier_id, None);
        assert!(s.bound.is_none());
    }

    #[test]
    fn binding_without_a_session_is_an_error_on_the_status_line() {
        let (_d, mut s) = store();
        s.session = None;
        press(&mut s, KeyCode::Char('b'));
        assert_eq!(s.message.as_ref().unwrap().tone, Tone::Error);
        assert!(!s.app.store.sessions_dir().exists());
    }

    #[test]
    fn a_clean_merge_asks_for_confirmation_and_goes_through_the_merge_operation() {
        let (_d, mut s) = store();
        // Select "low-work" as source, then "urgent-work" as target.
        let low = slugs(&s).iter().position(|x| *x == "low-work").unwrap();
        s.selected = low;
        press(&mut s, KeyCode::Char('m'));
        assert_eq!(s.merge_source.as_deref(), Some("low-work"));
        s.selected = 0;
        press(&mut s, KeyCode::Enter);
        // Differing next actions are a conflict (docs/merge.md): walk it (a checklist of
        // possible ones is accepted as it is: keep both), then confirm.
        while let Some(View::Merge(w)) = s.views.last() {
            let key = if w.checklist.is_some() { KeyCode::Enter } else { KeyCode::Char('t') };
            press(&mut s, key);
        }
        assert!(matches!(s.views.last(), Some(View::Confirm(_))), "a confirmation first");
        press(&mut s, KeyCode::Char('n'));
        if let Some(View::Merge(_)) = s.views.last() {
            press(&mut s, KeyCode::Esc); // back from the confirmation to the walk: cancel it
        }
        assert!(s.views.is_empty());
        assert!(slugs(&s).contains(&"low-work"), "declined: nothing merged");
        s.selected = slugs(&s).iter().position(|x| *x == "low-work").unwrap();
        press(&mut s, KeyCode::Char('m'));
        s.selected = slugs(&s).iter().position(|x| *x == "urgent-work").unwrap();
        press(&mut s, KeyCode::Enter);
        // Differing next actions conflict: walk them, keeping the target's.
        while let Some(View::Merge(w)) = s.views.last() {
            let key = if w.checklist.is_some() { KeyCode::Enter } else { KeyCode::Char('t') };
            press(&mut s, key);
        }
        press(&mut s, KeyCode::Char('y'));
        assert!(s.views.is_empty(), "{:?}", s.message.as_ref().map(|m| &m.text));
        assert!(!slugs(&s).contains(&"low-work"), "the source is archived: {:?}", slugs(&s));
        let text = std::fs::read_to_string(s.app.store.root().join("low-work/dossier.md")).unwrap();
        assert!(text.contains("status: archived") && text.contains("merged_into:"), "{text}");
    }

    #[test]
    fn a_concurrent_edit_conflict_is_resolved_with_the_users_text() {
        let (_d, mut s) = store();
        let dir = s.app.store.root().join("low-work");
        let base = save::revision(&dir).unwrap();
        let state = |marker: &str| {
            format!(
                "# Low work\n\n## Situation\n\n{marker}\n\n## Decisions\n\n## Findings\n\n## Current State\n\n## Next Steps\n"
            )
        };
        let req = |m: &str| SaveRequest {
            base_revision: Some(base.clone()),
            distilled_state: Some(state(m)),
            actor: "agent:test".into(),
            ..Default::default()
        };
        save::save(&s.app, "low-work", req("Theirs."), &crate::progress::SILENT).unwrap();
        let err = save::save(&s.app, "low-work", req("Ours."), &crate::progress::SILENT).unwrap_err();
        assert_eq!(err.code, dossier_store::error::Code::ConcurrentEdit);
        press(&mut s, KeyCode::Char('c'));
        let Some(View::Conflicts(c)) = s.views.last() else { panic!() };
        assert_eq!(c.items.len(), 1);
        press(&mut s, KeyCode::Enter);
        let Some(View::Edit(e)) = s.views.last() else { panic!("{:?}", s.message.as_ref().map(|m| &m.text)) };
        assert!(e.current.contains("Theirs.") && e.proposal.contains("Ours."));
        assert!(e.provenance[0].contains("agent:test"));
        press(&mut s, KeyCode::Char('w'));
        assert!(s.editing());
        press(&mut s, KeyCode::Char('q')); // typed into the editor, not quitting
        assert!(!s.quit);
        s.key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
        assert!(matches!(s.views.last(), Some(View::Conflicts(c)) if c.items.is_empty()));
        let text = std::fs::read_to_string(dir.join("dossier.md")).unwrap();
        assert!(text.contains("q# Low work") && text.contains("Ours."), "{text}");
    }

    #[test]
    fn ctrl_c_and_q_quit_but_not_inside_an_editor() {
        let (_d, mut s) = store();
        s.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert!(s.quit);
        let (_d, mut s) = store();
        press(&mut s, KeyCode::Char('q'));
        assert!(s.quit);
    }
}
