//! Rendering the converged state: the target's title, then each section's entries — the target's
//! claims (or what replaced them), the source's new ones, lines added by resolutions — written
//! as they were, with provenance unions and blank-line layout.
//!
//! What it is for: [`render`] and the [`Entry`] list `merge` builds per section.
//!
//! What it is not for: deciding what goes in (`merge`, `detection`, `resolution`) or normalising
//! claims' text: blocks are written as they were, only dedented.

use super::claims::{Block, Doc, Kind, PREAMBLE, Sections, heading_level, indent_of, is_fence};
use super::resolution::{Fate, Replacement};
use crate::distill;

pub(super) enum Side {
    Target,
    Source,
    /// A line added by a resolution (keep-both on the next action).
    Extra(String),
}

pub(super) struct Entry<'a> {
    pub(super) side: Side,
    pub(super) block: usize,
    /// Provenance markers from duplicates, appended to the claim's own text.
    pub(super) extra: Vec<&'a str>,
}

/// Add to entry `e` (whose block carries `own` markers) the markers it lacks.
pub(super) fn union_provenance<'a>(e: &mut Entry<'a>, own: &[&'a str], markers: &[&'a str]) {
    for m in markers {
        if !own.contains(m) && !e.extra.contains(m) {
            e.extra.push(m);
        }
    }
}

/// Writes pieces of one section, with a blank line before a piece that had one where it came
/// from, and around anything that is not a list item.
struct Writer<'o> {
    o: &'o mut String,
    prev_list: Option<bool>,
}

impl Writer<'_> {
    fn separate(&mut self, list: bool, blank_before: bool) {
        match self.prev_list {
            None => self.o.push('\n'),
            Some(prev) if blank_before || !prev || !list => self.o.push('\n'),
            _ => {}
        }
        self.prev_list = Some(list);
    }

    /// A block as written, dedented to its first line (so that it cannot become part of the
    /// item before it; unless that would turn a paragraph into a heading), with `extra`
    /// markers appended to its own text.
    pub(super) fn block(&mut self, doc: &Doc, b: &Block, extra: &[&str], blank_before: bool) {
        self.separate(b.kind == Kind::Item, blank_before);
        let first = doc.lines[b.start].1;
        let mut base = indent_of(first);
        if heading_level(&first[base..]).is_some() {
            base = 0;
        }
        // Nested items, fences, lines after a blank line and lines that would read as headings
        // stay indented, so they stay what they are, in the block.
        // Code inside a fence is literal.
        let (mut blank, mut code) = (false, is_fence(first));
        for i in b.start + 1..=b.end {
            let l = doc.lines[i].1;
            if code {
                code = !is_fence(l);
                continue;
            }
            if l.trim().is_empty() {
                blank = true;
                continue;
            }
            if blank || distill::list_marker(l).is_some() || is_fence(l) || heading_level(&l[indent_of(l)..]).is_some()
            {
                base = base.min(indent_of(l).saturating_sub(1));
            }
            code = is_fence(l);
            blank = false;
        }
        for i in b.start..=b.end {
            let l = doc.lines[i].1;
            let cut = indent_of(l).min(base);
            if i == b.own_end && !extra.is_empty() {
                self.o.push_str(l[cut..].trim_end());
                for m in extra {
                    self.o.push(' ');
                    self.o.push_str(m);
                }
            } else {
                self.o.push_str(&l[cut..]);
            }
            self.o.push('\n');
        }
        if let Some(f) = b.open_fence {
            self.o.push_str(f);
            self.o.push('\n');
        }
    }

    /// A custom replacement in the place of target block `b`: a list item when `b` was one.
    pub(super) fn custom(&mut self, text: &str, b: &Block) {
        let text = text.trim();
        let item = b.kind == Kind::Item;
        self.separate(item || distill::list_marker(text).is_some(), b.blank_before);
        for (k, l) in text.lines().enumerate() {
            let l = l.trim_end();
            if !item || (k == 0 && distill::list_marker(l).is_some_and(|(i, _)| i == 0)) {
                self.o.push_str(l);
            } else if k == 0 {
                self.o.push_str("- ");
                self.o.push_str(l);
            } else if !l.is_empty() {
                self.o.push_str("  ");
                self.o.push_str(l.trim_start());
            }
            self.o.push('\n');
        }
    }
}

pub(super) fn render(title: &str, secs: &Sections, out: &[Vec<Entry>], t: &Doc, s: &Doc, fate: &Fate) -> String {
    let mut o =
        String::with_capacity(t.lines.iter().chain(s.lines.iter()).map(|(_, l)| l.len() + 1).sum::<usize>() + 64);
    o.push_str("# ");
    o.push_str(title);
    o.push('\n');
    for (sec, entries) in out.iter().enumerate() {
        if sec != PREAMBLE {
            o.push_str("\n## ");
            o.push_str(&secs.names[sec]);
            o.push('\n');
        }
        let mut w = Writer { o: &mut o, prev_list: None };
        for e in entries {
            match &e.side {
                Side::Target => {
                    let b = &t.blocks[e.block];
                    match fate.replaced.get(&e.block) {
                        None => w.block(t, b, &e.extra, b.blank_before),
                        Some(rs) => {
                            for r in rs {
                                match r {
                                    Replacement::Source(si) => w.block(s, &s.blocks[*si], &[], b.blank_before),
                                    Replacement::Custom(text) => w.custom(text, b),
                                }
                            }
                        }
                    }
                }
                Side::Source => {
                    if fate.source_kept(e.block) {
                        let b = &s.blocks[e.block];
                        w.block(s, b, &e.extra, b.blank_before);
                    }
                }
                Side::Extra(text) => {
                    w.separate(true, false);
                    w.o.push_str("- ");
                    w.o.push_str(text.trim());
                    w.o.push('\n');
                }
            }
        }
    }
    o
}
