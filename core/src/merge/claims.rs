//! Markdown claims: a Distilled State split into its title, its sections (the canonical five,
//! then any other `##` sections) and their blocks — list items with their continuation lines
//! and nested items, paragraphs, headings, code — each keyed by its normalised text and carrying
//! its provenance markers; claims that may conflict are analysed while parsing.
//!
//! What it is for: [`parse`] and the [`Doc`]/[`Block`] it returns, which detection and
//! rendering read; the Markdown line helpers they share.
//!
//! What it is not for: a full CommonMark parser (only what a Distilled State uses, with the
//! distill policy's line classification and list-marker syntax), or rendering (`render`).

use super::analysis::{Analysis, Scratch};
use super::tokens::markers;
use super::types::{ConflictSide, MergeError};
use crate::distill::{self, REQUIRED_SECTIONS};
use crate::hash::{Key128, fnv64};
use crate::maps::HashMap;

pub(super) const PREAMBLE: usize = 0;
pub(super) const SITUATION: usize = 1;
pub(super) const DECISIONS: usize = 2;
pub(super) const FINDINGS: usize = 3;
pub(super) const CURRENT_STATE: usize = 4;
pub(super) const NEXT_STEPS: usize = 5;

/// The section table shared by both sides: 0 is the preamble (between the title and the first
/// section), 1..=5 the canonical sections, then other `##` sections in order of appearance.
pub(super) struct Sections {
    pub(super) names: Vec<String>,
    by_key: HashMap<String, usize>,
}

impl Sections {
    pub(super) fn new() -> Sections {
        let mut names = vec![String::new()];
        let mut by_key = HashMap::default();
        for (i, r) in REQUIRED_SECTIONS.iter().enumerate() {
            names.push(r.to_string());
            by_key.insert(r.to_ascii_lowercase(), i + 1);
        }
        Sections { names, by_key }
    }

    pub(super) fn get(&mut self, heading: &str) -> usize {
        let heading = heading.trim();
        let key = heading.to_lowercase();
        if let Some(&i) = self.by_key.get(&key) {
            return i;
        }
        self.names.push(heading.to_string());
        self.by_key.insert(key, self.names.len() - 1);
        self.names.len() - 1
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A list item with its continuation lines and nested items.
    Item,
    Paragraph,
    /// `###` and deeper headings, a second `#` heading, or an indented heading.
    Heading,
    /// A fenced code block at the top level of a section.
    Code,
}

/// A claim or other top-level unit of a section: lines `start..=end` of the document,
/// `start..=own_end` being its own text (before nested items and loose paragraphs).
pub(super) struct Block<'a> {
    pub(super) sec: usize,
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) own_end: usize,
    pub(super) blank_before: bool,
    /// Hash of the normalised text (duplicate detection, ids).
    pub(super) key: u128,
    /// `[src:...]` markers on the block.
    pub(super) markers: Vec<&'a str>,
    /// What the claim says, for blocks `parse` was asked to analyse.
    pub(super) an: Option<Analysis>,
    /// What its later clauses and sentences, nested items and loose paragraphs say, each read
    /// as a claim of its own, carrying the claim's subject when it has none (fifth round):
    /// with the document line it starts on.
    pub(super) subs: Vec<(Analysis, usize)>,
    /// A code fence in the block that the document never closes (it ends with the block):
    /// its marker, so the converged state closes it instead of swallowing what follows.
    pub(super) open_fence: Option<&'a str>,
}

pub(super) struct Doc<'a> {
    /// (1-based line number, text) of each line after any frontmatter.
    pub(super) lines: Vec<(u32, &'a str)>,
    pub(super) title: Option<&'a str>,
    pub(super) blocks: Vec<Block<'a>>,
}

impl<'a> Doc<'a> {
    /// The block's own text, line by line: the first without its list marker, all trimmed.
    pub(super) fn own_parts<'s>(&'s self, b: &Block) -> impl Iterator<Item = &'a str> + use<'a, 's> {
        let (lines, start) = (&self.lines, b.start);
        (start..=b.own_end).map(move |i| if i == start { strip_marker(lines[i].1).trim() } else { lines[i].1.trim() })
    }

    /// The block as written, its first line without list marker or indentation.
    pub(super) fn written(&self, b: &Block) -> String {
        let mut out = String::new();
        for i in b.start..=b.end {
            let line = self.lines[i].1;
            if i == b.start {
                out.push_str(strip_marker(line).trim());
            } else {
                out.push('\n');
                out.push_str(line.trim_end());
            }
        }
        out
    }

    pub(super) fn side(&self, b: &Block) -> ConflictSide {
        ConflictSide {
            text: self.written(b),
            provenance: b.markers.iter().map(|m| m.to_string()).collect(),
            line: self.lines[b.start].0,
        }
    }
}

fn strip_marker(line: &str) -> &str {
    match distill::list_marker(line) {
        Some((_, rest)) => rest,
        None => line.trim_start(),
    }
}

pub(super) fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// An ATX heading at column 0: `#`s then a space (or nothing).
pub(super) fn heading_level(line: &str) -> Option<usize> {
    let n = line.bytes().take_while(|&b| b == b'#').count();
    (n > 0 && n <= 6 && (line.len() == n || line.as_bytes()[n] == b' ')).then_some(n)
}

/// Leading spaces and tabs (Markdown indentation; other Unicode spaces are text).
pub(super) fn indent_of(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ' || b == b'\t').count()
}

/// Split a Distilled State into its title and blocks, and analyse the blocks `analyse` asks
/// for (it sees each block's section, kind and key). Uses the distill policy's line
/// classification (frontmatter skipped, 1-based numbers) and list-marker syntax.
pub(super) fn parse<'a>(
    text: &'a str,
    secs: &mut Sections,
    side: &str,
    scratch: &mut Scratch,
    analyse: impl Fn(&Block) -> bool,
) -> Result<Doc<'a>, MergeError> {
    let mut findings = Vec::new();
    let classified = distill::classify(text, &mut findings);
    if findings.iter().any(|f| f.code == "unclosed-frontmatter") {
        return Err(MergeError::InvalidInput(format!(
            "the {side}'s Distilled State starts with `---` frontmatter that is never closed"
        )));
    }
    let mut doc = Doc { lines: Vec::with_capacity(classified.len()), title: None, blocks: Vec::new() };
    let mut sec = PREAMBLE;
    let mut open = false; // the last block takes continuation lines
    let mut own_open = false; // ... as part of its own text
    let mut blank = false; // a blank line since the last block line
    let mut fence = false;
    let mut first = true; // no block yet in this section (its blank line follows the heading)
    let mut title_at = 0; // line of the title: nothing attaches across it
    for l in &classified {
        let idx = doc.lines.len();
        doc.lines.push((l.no, l.text));
        let text = l.text;
        if fence {
            let b = doc.blocks.last_mut().expect("a fence opens a block");
            b.end = idx;
            if is_fence(text) {
                fence = false;
                open = false;
                own_open = false;
            }
            continue;
        }
        if text.trim().is_empty() {
            blank = true;
            open = false;
            own_open = false;
            continue;
        }
        // Deeper than the item before (in this section, after the title): part of that item.
        let indent = indent_of(text);
        let inside_item = doc.blocks.last().is_some_and(|b| {
            b.sec == sec && b.kind == Kind::Item && b.start >= title_at && indent > indent_of(doc.lines[b.start].1)
        });
        if is_fence(text) {
            fence = true;
            if inside_item && (open || blank) {
                doc.blocks.last_mut().expect("checked").end = idx;
            } else {
                doc.blocks.push(new_block(sec, Kind::Code, idx, blank && !first));
                first = false;
            }
            own_open = false;
            blank = false;
            continue;
        }
        if (1..=3).contains(&indent) && heading_level(&text[indent..]).is_some() {
            // An indented heading (CommonMark allows up to 3 spaces): a heading block, never a
            // section or the title (as for the distill policy), never part of a claim.
            doc.blocks.push(new_block(sec, Kind::Heading, idx, !first));
            first = false;
            open = false;
            own_open = false;
            blank = false;
            continue;
        }
        if let Some(level) = heading_level(text) {
            open = false;
            own_open = false;
            blank = false;
            if level == 1 && doc.title.is_none() {
                doc.title = Some(text[1..].trim());
                first = true;
                title_at = idx;
            } else if level == 2 {
                sec = secs.get(&text[2..]);
                first = true;
            } else {
                doc.blocks.push(new_block(sec, Kind::Heading, idx, !first));
                first = false;
            }
            continue;
        }
        if distill::list_marker(text).is_some() {
            if inside_item && (open || blank) {
                doc.blocks.last_mut().expect("checked").end = idx;
                own_open = false;
            } else {
                doc.blocks.push(new_block(sec, Kind::Item, idx, blank && !first));
                first = false;
                own_open = true;
            }
            open = true;
        } else if open {
            let b = doc.blocks.last_mut().expect("open implies a block");
            b.end = idx;
            if own_open {
                b.own_end = idx;
            }
        } else if blank && inside_item {
            doc.blocks.last_mut().expect("checked").end = idx;
            own_open = false;
            open = true;
        } else {
            doc.blocks.push(new_block(sec, Kind::Paragraph, idx, blank && !first));
            first = false;
            own_open = true;
            open = true;
        }
        blank = false;
    }
    if fence {
        let b = doc.blocks.last_mut().expect("a fence opens a block");
        let opening = (b.start..=b.end).rev().map(|i| doc.lines[i].1.trim_start()).find(|l| is_fence(l));
        b.open_fence = opening.map(|l| &l[..3]);
    }
    let Doc { lines, blocks, .. } = &mut doc;
    let mut line_ends: Vec<usize> = Vec::new();
    for b in blocks.iter_mut() {
        let own_tokens = block_key(lines, b, scratch, &mut line_ends);
        if analyse(b) {
            scratch.tk.toks.truncate(own_tokens);
            let decision = b.sec == DECISIONS;
            let (main, end, _) = scratch.analyse_clause(decision, false, 0);
            let mut subs = Vec::new();
            later_clauses(scratch, decision, end, &main, (b.start, &line_ends), &mut subs);
            // A Markdown table: each body row is a "key: value" sub-claim, its first cell the
            // key ("| Launch date | June 30 |" reads "Launch date: June 30").
            if lines[b.start].1.trim_start().starts_with('|') {
                table_rows(lines, b, scratch, decision, &mut subs);
            }
            // Nested items and loose paragraphs: each run of lines from a list marker or a
            // blank line, outside code fences.
            let mut k = b.own_end + 1;
            let mut fence = false;
            while k <= b.end {
                let text = lines[k].1;
                if is_fence(text) {
                    fence = !fence;
                    k += 1;
                    continue;
                }
                if fence || text.trim().is_empty() {
                    k += 1;
                    continue;
                }
                let first = k;
                k += 1;
                while k <= b.end
                    && !lines[k].1.trim().is_empty()
                    && !is_fence(lines[k].1)
                    && distill::list_marker(lines[k].1).is_none()
                {
                    k += 1;
                }
                scratch.tk.clear();
                for (i, (_, l)) in lines[first..k].iter().enumerate() {
                    scratch.tk.push_text(if i == 0 { strip_marker(l).trim() } else { l.trim() });
                }
                let (mut item, end, _) = scratch.analyse_clause(decision, false, 0);
                if !item.core_words.is_empty() {
                    inherit_subject(&mut item, &main);
                    later_clauses(scratch, decision, end, &item, (first, &[]), &mut subs);
                    subs.push((item, first));
                }
            }
            b.an = Some(main);
            b.subs = subs;
        }
    }
    Ok(doc)
}

/// The body rows of a table block (lines starting with `|`; a row before a `|---|` separator
/// is the header and is left out) as "first cell: other cells" sub-claims (fifth round).
fn table_rows(
    lines: &[(u32, &str)],
    b: &Block,
    scratch: &mut Scratch,
    decision: bool,
    out: &mut Vec<(Analysis, usize)>,
) {
    let separator = |l: &str| {
        let t = l.trim();
        t.starts_with('|') && t.contains('-') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
    };
    for k in b.start..=b.end {
        let row = lines[k].1.trim();
        if !row.starts_with('|') || separator(row) || (k < b.end && separator(lines[k + 1].1)) {
            continue;
        }
        let cells: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
        if cells.len() < 2 {
            continue;
        }
        let text = format!("{}: {}", cells[0], cells[1..].join(", "));
        scratch.tk.clear();
        scratch.tk.push_text(&text);
        let (a, _, _) = scratch.analyse_clause(decision, false, 0);
        if !a.core_words.is_empty() || !a.values.is_empty() {
            out.push((a, k));
        }
    }
}

/// The later clauses of the tokens in `scratch` from token `end` (the end of the clause
/// before): each a claim of its own unless it is a rationale, an attribution, a reason or a
/// condition, carrying `parent`'s subject when it has none (fifth round).
fn later_clauses(
    scratch: &mut Scratch,
    decision: bool,
    mut end: usize,
    parent: &Analysis,
    (line, line_ends): (usize, &[usize]),
    out: &mut Vec<(Analysis, usize)>,
) {
    // Seventh round: a clause points at the line it starts on (`line_ends`: the token count
    // after each of the block's lines; empty: every clause at `line`), so that a paragraph of
    // one sentence per line shows the sentence a conflict is about.
    let line_of = |token: usize| {
        let k = line_ends.iter().position(|&e| e > token).unwrap_or(0);
        line + k
    };
    let n = scratch.tk.len();
    let mut clauses = 0;
    while end < n && clauses < 12 {
        if let Some(e) = scratch.aside_end(end) {
            if e <= end {
                break;
            }
            end = e;
            clauses += 1;
            continue;
        }
        let start = end;
        let (mut a, e, aside) = scratch.analyse_clause(decision, false, end);
        if e <= end {
            break;
        }
        end = e;
        clauses += 1;
        if aside || a.core_words.is_empty() {
            continue;
        }
        inherit_subject(&mut a, parent);
        // The clause's first word, past the punctuation that cut it.
        let first = (start..e).find(|&k| scratch.tk.punct(k).is_none()).unwrap_or(start);
        out.push((a, line_of(first)));
    }
}

/// A clause or nested item without a subject is about its claim's subject; it is in its claim's
/// log entry ("3 Mar: …; painting under way") and its leading scope ("At the Bow office, …; …").
fn inherit_subject(a: &mut Analysis, parent: &Analysis) {
    if a.log_label == 0 {
        a.log_label = parent.log_label;
        a.entry_stamp = parent.entry_stamp;
    }
    if parent.leading_scope && !a.leading_scope && a.qualifiers.is_empty() {
        a.qualifiers = parent.qualifiers.clone();
        a.leading_scope = true;
    }
    if a.subject.is_none() && parent.subject.is_some() {
        a.subject = parent.subject;
        a.subject_words = parent.subject_words.clone();
        a.head = parent.head;
        a.head_stem = parent.head_stem;
        a.subject_carried = true;
    }
}

fn new_block<'a>(sec: usize, kind: Kind, idx: usize, blank_before: bool) -> Block<'a> {
    Block {
        sec,
        kind,
        start: idx,
        end: idx,
        own_end: idx,
        blank_before,
        key: 0,
        markers: Vec::new(),
        an: None,
        subs: Vec::new(),
        open_fence: None,
    }
}

/// Set a block's key (hash of its normalised text) and provenance markers, leaving its tokens
/// in `scratch`; returns how many of them are its own text's. Code blocks are keyed by their
/// exact text (and carry no provenance); a block whose normalised text is empty (only
/// punctuation or markers) is keyed by its trimmed text.
fn block_key<'a>(
    lines: &[(u32, &'a str)],
    b: &mut Block<'a>,
    scratch: &mut Scratch,
    line_ends: &mut Vec<usize>,
) -> usize {
    let body = &lines[b.start..=b.end];
    let tk = &mut scratch.tk;
    tk.clear();
    line_ends.clear();
    if b.kind == Kind::Code {
        // The content relative to the opening fence, not the fences: an unclosed or indented
        // block and its closed, dedented rendering are equal.
        let mut h = Key128::new(b"code");
        let base = indent_of(body[0].1);
        for (_, l) in body.iter().filter(|(_, l)| !is_fence(l)) {
            h.push(fnv64(l[indent_of(l).min(base)..].trim_end().as_bytes()));
        }
        b.key = h.finish();
        return 0;
    }
    let mut own_tokens = 0;
    for (k, (_, l)) in body.iter().enumerate() {
        let l = strip_marker(l);
        let l = if b.kind == Kind::Heading { l.trim_start_matches('#') } else { l };
        tk.push_text(l);
        line_ends.push(tk.len());
        if b.start + k == b.own_end {
            own_tokens = tk.len();
        }
        for m in markers(l) {
            if !b.markers.contains(&m) {
                b.markers.push(m);
            }
        }
    }
    let mut h = Key128::new(b"text");
    let words = tk.norm_into(&mut h);
    if words == 0 {
        let mut raw = Key128::new(b"raw");
        for (_, l) in body.iter().filter(|(_, l)| !is_fence(l)) {
            raw.push(fnv64(l.trim().as_bytes()));
        }
        b.key = raw.finish();
    } else {
        b.key = h.finish();
    }
    own_tokens
}
