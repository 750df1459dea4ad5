//! Drawing the TUI's state with ratatui: a title line (the session and its binding), the
//! view, a status line (the last action's outcome or error), and a help line with the keys.
//! Laid out for 80×24 and up. Long text is wrapped by [`wrap`], never cut: every line of a
//! Distilled State or artifact is reachable by scrolling.
//!
//! Not for: deciding anything (`state.rs`) or touching the terminal's modes (`mod.rs`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Cell, Clear, List, ListItem, ListState, Paragraph, Row, Table, TableState, Wrap};
use unicode_width::UnicodeWidthChar;

use super::state::{FILTER_KEYS, Scroll, State, Tab, Tone, View};

/// Split `text` into lines of at most `width` columns: at the last space that fits, else
/// mid-word. Nothing is dropped: the pieces of each source line, concatenated, are that line.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut rest = line;
        loop {
            let mut cols = 0;
            let mut cut = rest.len();
            let mut last_space = None;
            for (i, c) in rest.char_indices() {
                let w = c.width().unwrap_or(0);
                if cols + w > width {
                    cut = i;
                    break;
                }
                cols += w;
                if c == ' ' {
                    last_space = Some(i + 1);
                }
            }
            if cut == rest.len() {
                out.push(rest.to_string());
                break;
            }
            let at = match last_space {
                Some(s) if s < cut && s > 0 => s,
                _ if cut == 0 => rest.chars().next().map_or(rest.len(), char::len_utf8),
                _ => cut,
            };
            out.push(rest[..at].to_string());
            rest = &rest[at..];
        }
    }
    // `split` yields one empty piece after a final newline: not a line of its own.
    if text.ends_with('\n') {
        out.pop();
    }
    out
}

/// A wrapped, scrollable text in `area` (inside `block`); records the scroll bounds.
fn scrolled(f: &mut Frame, area: Rect, block: Block<'_>, lines: Vec<Line<'static>>, scroll: &mut Scroll) {
    let inner = block.inner(area);
    let height = inner.height as usize;
    scroll.page = height;
    scroll.max = lines.len().saturating_sub(height);
    scroll.offset = scroll.offset.min(scroll.max);
    let shown: Vec<Line> = lines.into_iter().skip(scroll.offset).take(height).collect();
    f.render_widget(Paragraph::new(shown).block(block), area);
}

fn plain_lines(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    wrap(text, width as usize).into_iter().map(|l| Line::styled(l, style)).collect()
}

/// " 42% " of the way down, or nothing when everything fits.
fn position(s: &Scroll) -> String {
    (s.offset * 100).checked_div(s.max).map_or_else(String::new, |p| format!(" {p}% "))
}

fn truncate(s: &str, width: usize) -> String {
    let mut cols = 0;
    let mut out = String::new();
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if cols + w > width.saturating_sub(1) && s.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>() > width {
            out.push('…');
            return out;
        }
        cols += w;
        out.push(c);
    }
    out
}

pub fn draw(f: &mut Frame, s: &mut State) {
    let [title, main, status, help] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(3), Constraint::Length(1), Constraint::Length(1)])
            .areas(f.area());
    draw_title(f, title, s);
    let keys = match s.views.last_mut() {
        None => draw_list(f, main, s),
        Some(View::Search(v)) => {
            let [input, list] = Layout::vertical([Constraint::Length(3), Constraint::Min(2)]).areas(main);
            let cursor = if v.typing { "█" } else { "" };
            let title = " Search (ranked: words, \"phrase\", -word, status: in: kind:) ";
            f.render_widget(
                Paragraph::new(format!("{}{cursor}", v.query)).block(Block::bordered().title(title)),
                input,
            );
            let block = Block::bordered().title(if v.ran {
                format!(" {} of {} Dossiers, best first ", v.results.len(), v.total)
            } else {
                " Type a query, Enter to search ".to_string()
            });
            if v.ran && v.results.is_empty() {
                f.render_widget(Paragraph::new("No Dossier matches.").block(block), list);
            } else {
                let width = block.inner(list).width as usize;
                let items: Vec<ListItem> = v
                    .results
                    .iter()
                    .map(|g| {
                        let archived = if g.archived { " [archived]" } else { "" };
                        let mut lines = vec![Line::styled(
                            truncate(
                                &format!("{:>6.2}  {} ({}){archived}", g.score.unwrap_or(0.0), g.dossier_name, g.slug),
                                width,
                            ),
                            Style::new().bold(),
                        )];
                        for h in g.hits.iter().take(2) {
                            let place = h.artifact_title.clone().or_else(|| h.section.clone()).unwrap_or_default();
                            let text = format!("        {place}:{}: {}", h.line, h.snippet.replace("**", ""));
                            lines.push(Line::raw(truncate(&text, width)));
                        }
                        ListItem::new(lines)
                    })
                    .collect();
                let mut st = ListState::default().with_selected((!v.results.is_empty()).then_some(v.selected));
                let list_w = List::new(items).block(block).highlight_style(Style::new().reversed());
                f.render_stateful_widget(list_w, list, &mut st);
            }
            if v.typing {
                if v.ran {
                    "type the query  Enter search  Esc cancel"
                } else {
                    "type the query  Enter search  Esc back"
                }
            } else {
                "↑↓ select  Enter open  / edit query  Esc back  q quit"
            }
        }
        Some(View::Dossier(v)) => {
            let block = Block::bordered().title(format!(" {} ", v.name)).title_bottom(match v.tab {
                Tab::State => " [Distilled State]  Archive ".to_string(),
                Tab::Archive => format!("  Distilled State  [Archive: {}] ", v.artifacts.len()),
            });
            match v.tab {
                Tab::State => {
                    let width = block.inner(main).width;
                    let mut lines: Vec<Line> = Vec::new();
                    for h in &v.header {
                        lines.extend(plain_lines(h, width, Style::new().fg(Color::Cyan)));
                    }
                    lines.push(Line::raw(""));
                    for l in wrap(&v.body, width as usize) {
                        let style = if l.starts_with('#') { Style::new().bold() } else { Style::new() };
                        lines.push(Line::styled(l, style));
                    }
                    let block = block.title_top(Line::raw(position(&v.scroll)).right_aligned());
                    scrolled(f, main, block, lines, &mut v.scroll);
                    "↑↓ PgUp PgDn scroll  Tab archive  b bind  m merge  Esc back  q quit"
                }
                Tab::Archive => {
                    if v.artifacts.is_empty() {
                        f.render_widget(Paragraph::new("No artifacts captured yet.").block(block), main);
                    } else {
                        let items: Vec<ListItem> = v
                            .artifacts
                            .iter()
                            .map(|a| {
                                let kind = serde_json::to_value(a.artifact_type).ok();
                                let kind = kind.as_ref().and_then(|k| k.as_str()).unwrap_or("");
                                ListItem::new(format!(
                                    "{}  {:<15} {:>7}B  {}",
                                    a.captured_at.get(..10).unwrap_or(&a.captured_at),
                                    kind,
                                    a.size_bytes,
                                    a.title
                                ))
                            })
                            .collect();
                        let mut st = ListState::default().with_selected(Some(v.artifact_selected));
                        let list = List::new(items).block(block).highlight_style(Style::new().reversed());
                        f.render_stateful_widget(list, main, &mut st);
                    }
                    "↑↓ select  Enter view artifact  Tab state  b bind  Esc back  q quit"
                }
            }
        }
        Some(View::Artifact(v)) => {
            let block = Block::bordered().title(format!(" {} ({}) ", v.title, v.id));
            let lines = plain_lines(&v.text, block.inner(main).width, Style::new());
            let block = block.title_top(Line::raw(position(&v.scroll)).right_aligned());
            scrolled(f, main, block, lines, &mut v.scroll);
            "↑↓ PgUp PgDn scroll  Home/End  Esc back  q quit"
        }
        Some(View::Conflicts(v)) => {
            let block = Block::bordered().title(format!(" Open conflicts: {} ", v.items.len()));
            if v.items.is_empty() {
                f.render_widget(Paragraph::new("No open conflicts.").block(block), main);
            } else {
                let items: Vec<ListItem> = v
                    .items
                    .iter()
                    .map(|c| {
                        ListItem::new(vec![
                            Line::from(vec![
                                Span::styled(
                                    format!("{:<16}", c.kind),
                                    Style::new().fg(if c.kind == "merge" { Color::Magenta } else { Color::Yellow }),
                                ),
                                Span::raw(format!(" {}  {}", c.slug, c.id)),
                            ]),
                            Line::raw(format!("  {}", c.summary)),
                        ])
                    })
                    .collect();
                let mut st = ListState::default().with_selected(Some(v.selected));
                let list = List::new(items).block(block).highlight_style(Style::new().reversed());
                f.render_stateful_widget(list, main, &mut st);
            }
            "↑↓ select  Enter resolve  Esc back  q quit"
        }
        Some(View::Edit(v)) => {
            let [prov, panes] =
                Layout::vertical([Constraint::Length(v.provenance.len() as u16 + 1), Constraint::Min(4)]).areas(main);
            let mut head =
                vec![Line::styled(format!("Concurrent edit on {} — {}", v.info.slug, v.info.id), Style::new().bold())];
            head.extend(v.provenance.iter().map(|p| Line::styled(p.clone(), Style::new().fg(Color::Cyan))));
            f.render_widget(Paragraph::new(head).wrap(Wrap { trim: false }), prov);
            if let Some(ed) = &v.editor {
                f.render_widget(Clear, panes);
                f.render_widget(ed, panes);
                "Ctrl-S save this as the Distilled State  Esc cancel  (keep [src:…] markers)"
            } else {
                let [top, bottom] =
                    Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(panes);
                let current_lines: std::collections::HashSet<&str> = v.current.lines().collect();
                let proposal_lines: std::collections::HashSet<&str> = v.proposal.lines().collect();
                let focus = |i: usize| if v.focus == i { Style::new().fg(Color::Yellow) } else { Style::new() };
                let diff_lines = |text: &str, other: &std::collections::HashSet<&str>, width: u16| {
                    let mut out = Vec::new();
                    for l in text.lines() {
                        let style = if other.contains(l) { Style::new() } else { Style::new().fg(Color::Green).bold() };
                        out.extend(plain_lines(l, width, style));
                    }
                    out
                };
                let b0 =
                    Block::bordered().border_style(focus(0)).title(format!(" [c] Current ({}) ", v.current_revision));
                let l0 = diff_lines(&v.current, &proposal_lines, b0.inner(top).width);
                scrolled(f, top, b0, l0, &mut v.scroll[0]);
                let b1 = Block::bordered().border_style(focus(1)).title(" [p] Proposal (kept in conflicts/) ");
                let l1 = diff_lines(&v.proposal, &current_lines, b1.inner(bottom).width);
                scrolled(f, bottom, b1, l1, &mut v.scroll[1]);
                "c keep current  p keep proposal  w write your own  Tab pane  ↑↓ scroll  Esc back"
            }
        }
        Some(View::Merge(w)) if w.checklist.is_some() => {
            let list = w.checklist.as_mut().expect("checked above");
            let block = Block::bordered()
                .title(format!(" Merge {} → {}: possible conflicts ({}) ", w.source, w.target, w.possible.len()))
                .title_bottom(format!(
                    " {} to decide, the rest keep both{} ",
                    list.ask.iter().filter(|a| **a).count(),
                    if w.unlisted > 0 {
                        format!("; {} more related pair(s) not listed", w.unlisted)
                    } else {
                        String::new()
                    }
                ));
            let width = block.inner(main).width;
            let mut lines = plain_lines(
                "Related claims that may not contradict. Both are kept unless you toggle one to decide it yourself.",
                width,
                Style::new().bold(),
            );
            // Two groups (issue 19, sixth round): those that may contradict, then those the
            // rules think probably compatible, each with why.
            let mut group = None;
            let at = |side: &dossier_store::merge::SideView| match (side.line, &side.section) {
                (0, _) => "frontmatter".to_string(),
                (l, Some(sec)) => format!("{sec}, line {l}"),
                (l, None) => format!("line {l}"),
            };
            for (i, c) in w.possible.iter().enumerate() {
                if group != Some(c.is_probably_compatible()) {
                    group = Some(c.is_probably_compatible());
                    let title = if c.is_probably_compatible() { "Probably compatible" } else { "May contradict" };
                    lines.push(Line::raw(""));
                    lines.push(Line::styled(title.to_string(), Style::new().add_modifier(Modifier::UNDERLINED)));
                }
                let mark = if list.ask[i] { "[x] decide" } else { "[ ] keep both" };
                let cursor = if i == list.cursor { "> " } else { "  " };
                let style = if i == list.cursor { Style::new().add_modifier(Modifier::REVERSED) } else { Style::new() };
                lines.push(Line::raw(""));
                let hint = c.compatible_hint.as_ref().map(|h| format!(" — {h}")).unwrap_or_default();
                lines.push(Line::styled(format!("{cursor}{mark}  {}{hint}", c.subject), style));
                for (label, side, color) in [("target", &c.target, Color::Cyan), ("source", &c.source, Color::Magenta)]
                {
                    let text = format!("    {label} ({}): {}", at(side), side.text.trim());
                    lines.extend(plain_lines(&text, width, Style::new().fg(color)));
                }
            }
            scrolled(f, main, block, lines, &mut list.scroll);
            "↑↓ move  Space toggle decide/keep both  Enter continue  Esc cancel"
        }
        Some(View::Merge(w)) => {
            let c = &w.conflicts[w.at];
            let decided = w.choices.iter().filter(|c| c.is_some()).count();
            let block = Block::bordered()
                .title(format!(" Merge {} → {}: conflict {}/{} ", w.source, w.target, w.at + 1, w.conflicts.len()))
                .title_bottom(format!(" {decided} of {} decided ", w.conflicts.len()));
            if let Some(ed) = &w.editor {
                let [q, e] = Layout::vertical([Constraint::Length(2), Constraint::Min(3)]).areas(main);
                f.render_widget(
                    Paragraph::new(format!("{} ({})", c.subject, c.kind.replace('_', " "))).wrap(Wrap { trim: false }),
                    q,
                );
                f.render_widget(ed, e);
                "Ctrl-S use this wording  Esc cancel  (keep [src:…] markers)"
            } else {
                let width = block.inner(main).width;
                let at = |l: u32| if l == 0 { "frontmatter".to_string() } else { format!("line {l}") };
                let mut lines =
                    plain_lines(&format!("{} — {}", c.kind.replace('_', " "), c.subject), width, Style::new().bold());
                let chosen = w.choices[w.at].as_ref().map(|r| format!("{:?}", r.choice));
                if let Some(ch) = chosen {
                    lines.push(Line::styled(format!("decided: {ch}"), Style::new().fg(Color::Green)));
                }
                for (label, name, side, color) in [
                    ("[t] Target", &w.target, &c.target, Color::Cyan),
                    ("[s] Source", &w.source, &c.source, Color::Magenta),
                ] {
                    lines.push(Line::raw(""));
                    lines.push(Line::styled(
                        format!("{label}: {name} ({})", at(side.line)),
                        Style::new().fg(color).add_modifier(Modifier::BOLD),
                    ));
                    lines.extend(plain_lines(side.text.trim_end(), width, Style::new()));
                    let prov = if side.provenance.is_empty() {
                        "provenance: none".to_string()
                    } else {
                        format!("provenance: {}", side.provenance.join(", "))
                    };
                    lines.extend(plain_lines(&prov, width, Style::new().fg(color)));
                }
                scrolled(f, main, block, lines, &mut w.scroll);
                "t keep target  s keep source  b keep both  w write own  ←→ other  Esc cancel"
            }
        }
        Some(View::Confirm(c)) => {
            let block = Block::bordered().title(" Confirm ");
            f.render_widget(Paragraph::new(c.question.clone()).wrap(Wrap { trim: false }).block(block), main);
            "y yes  n no (back)  q quit"
        }
    };
    let (text, style) = match &s.message {
        Some(m) if m.tone == Tone::Error => (m.text.clone(), Style::new().fg(Color::White).bg(Color::Red)),
        Some(m) => (m.text.clone(), Style::new().fg(Color::Green)),
        None => match &s.merge_source {
            Some(src) if s.views.is_empty() => {
                (format!("merge {src} into…: select the target, Enter (Esc cancels)"), Style::new().fg(Color::Yellow))
            }
            _ => (String::new(), Style::new()),
        },
    };
    f.render_widget(Paragraph::new(truncate(&text, status.width as usize)).style(style), status);
    f.render_widget(Paragraph::new(keys).style(Style::new().fg(Color::Black).bg(Color::Gray)), help);
}

fn draw_title(f: &mut Frame, area: Rect, s: &State) {
    let session = match (&s.session, &s.bound) {
        (None, _) => "no session (--session or CLAUDE_CODE_SESSION_ID)".to_string(),
        (Some(sid), None) => format!("session {sid}: nothing bound"),
        (Some(sid), Some((_, label))) => format!("session {sid} → {label}"),
    };
    let line = Line::from(vec![
        Span::styled(" dossier ", Style::new().fg(Color::Black).bg(Color::Cyan).bold()),
        Span::raw(" "),
        Span::raw(truncate(&session, area.width.saturating_sub(10) as usize)),
    ]);
    f.render_widget(Paragraph::new(line), area);
}

fn draw_list(f: &mut Frame, area: Rect, s: &mut State) -> &'static str {
    let [filter, table] = Layout::vertical([Constraint::Length(1), Constraint::Min(2)]).areas(area);
    let mut spans = vec![Span::raw("show: ")];
    for (i, st) in FILTER_KEYS.iter().enumerate() {
        let on = s.filter.contains(st);
        let style = if on { Style::new().fg(Color::Black).bg(Color::Green) } else { Style::new().fg(Color::DarkGray) };
        spans.push(Span::styled(format!("{}{}{}", i + 1, if on { '+' } else { '-' }, st.as_str()), style));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled(format!("· {} shown", s.rows.len()), Style::new().fg(Color::DarkGray)));
    f.render_widget(Paragraph::new(Line::from(spans)), filter);

    if s.rows.is_empty() {
        let text = if s.filter.is_empty() {
            "No status selected: press 1-5 to show some, 0 for open work, a for all.".to_string()
        } else {
            "No Dossiers match. Press a to show every status; create one with `dossier promote --name <name>`."
                .to_string()
        };
        let mut t = Text::raw(text);
        for w in &s.list_warnings {
            t.push_line(Line::styled(format!("warning: {w}"), Style::new().fg(Color::Yellow)));
        }
        f.render_widget(Paragraph::new(t).wrap(Wrap { trim: false }), table);
        return "1-5 filter  0 open  a all  c conflicts  r reload  q quit";
    }
    // PRI STATUS STALE TOKENS NAME SLUG NEXT-ACTION: the name, slug and next action share
    // what the fixed columns leave (as `dossier ls` does); the next action shrinks first, the
    // name and slug are cut in the middle, so similar ones stay distinguishable.
    // Open conflicts are marked before the name as `dossier ls` marks them (`!N `).
    let names: Vec<String> = s
        .rows
        .iter()
        .map(|r| {
            format!("{}{}", crate::term::conflict_mark(r.item.open_conflicts), crate::term::one_line(&r.item.name))
        })
        .collect();
    let nexts: Vec<String> = s.rows.iter().map(|r| crate::term::one_line(&r.item.next_action)).collect();
    let widest =
        |head: &str, vals: Vec<&str>| vals.into_iter().map(crate::term::width).max().unwrap_or(0).max(head.len());
    let full = [
        widest("NAME", names.iter().map(String::as_str).collect()),
        widest("SLUG", s.rows.iter().map(|r| r.item.slug.as_str()).collect()),
        widest("NEXT ACTION", nexts.iter().map(String::as_str).collect()),
    ];
    // Four fixed columns and the marker, and one space between each of the eight columns.
    let fixed = 1 + 3 + 8 + 5 + 6 + 7;
    let room = (table.width as usize).saturating_sub(fixed);
    let w = crate::term::allocate(&full, room, &[(2, 16), (0, 12), (1, 12), (2, 8), (0, 6), (1, 6), (2, 0)]);
    let widths = [
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Length(8),
        Constraint::Length(5),
        Constraint::Length(6),
        Constraint::Length(w[0] as u16),
        Constraint::Length(w[1] as u16),
        Constraint::Min(w[2].min(10) as u16),
    ];
    let bound_id = s.bound.as_ref().map(|(id, _)| id.as_str());
    let rows: Vec<Row> = s
        .rows
        .iter()
        .zip(names.iter().zip(&nexts))
        .map(|(r, (name, next))| {
            let d = &r.item;
            let status_color = match d.status.as_str() {
                "active" => Color::Green,
                "waiting" => Color::Yellow,
                "blocked" => Color::Red,
                _ => Color::DarkGray,
            };
            Row::new(vec![
                Cell::from(if Some(d.id.as_str()) == bound_id { "*" } else { " " }),
                Cell::from(format!("P{}", d.priority_score)),
                Cell::from(d.status.as_str()).style(Style::new().fg(status_color)),
                Cell::from(format!("{:>4}d", d.staleness_days)),
                Cell::from(r.tokens.map_or("?".to_string(), |t| format!("{:>6}", compact(t)))),
                Cell::from(crate::term::fit_middle(name, w[0])).style(if d.open_conflicts > 0 {
                    Style::new().fg(Color::Yellow)
                } else {
                    Style::new()
                }),
                Cell::from(crate::term::fit_middle(&d.slug, w[1])),
                Cell::from(truncate(next, w[2])),
            ])
        })
        .collect();
    let header = Row::new(vec!["", "PRI", "STATUS", "STALE", "TOKENS", "NAME", "SLUG", "NEXT ACTION"])
        .style(Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED));
    let t = Table::new(rows, widths).header(header).column_spacing(1).row_highlight_style(Style::new().reversed());
    let mut st = TableState::default().with_selected(Some(s.selected)).with_offset(s.list_offset);
    f.render_stateful_widget(t, table, &mut st);
    s.list_offset = st.offset();
    if s.merge_source.is_some() {
        "↑↓ select target  Enter merge into it  Esc cancel  q quit"
    } else {
        "↑↓ Enter open  / search  b bind  u unbind  m merge  c conflicts  1-5 filter  a all  q quit"
    }
}

/// 1234 → "1234", 12345 → "12.3k".
fn compact(t: u64) -> String {
    if t < 10_000 { t.to_string() } else { format!("{:.1}k", t as f64 / 1000.0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn wraps_at_spaces_and_keeps_every_character() {
        assert_eq!(wrap("hello world again", 11), vec!["hello ", "world again"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\n\nb\n", 10), vec!["a", "", "b"]);
        assert_eq!(wrap("漢字漢字", 4), vec!["漢字", "漢字"]);
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abcd", 4), "abcd");
    }

    proptest! {
        #[test]
        fn wrapping_never_drops_text(text in "([a-z é漢]{0,40}\n?){0,20}", width in 1usize..30) {
            let lines = wrap(&text, width);
            for l in &lines {
                prop_assert!(l.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>() <= width.max(2), "{:?}", l);
            }
            // Rejoining the pieces of each source line gives the text back.
            let source: Vec<&str> = text.strip_suffix('\n').unwrap_or(&text).split('\n').collect();
            let joined = lines.concat();
            prop_assert_eq!(joined, source.concat());
        }
    }
}
