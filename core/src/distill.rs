//! Distillation validation (SPEC §4.2, §10, §14.3): check a Distilled State against the
//! Distillation Guide and return findings with 1-based line numbers. Findings are advice:
//! the host still commits the save (no human gate) and returns them as warnings.
//!
//! The rules, exactly (docs/distill.md repeats them for agents and users):
//!
//! - **Structure.** An H1 title (`# Name`) before the sections; the H2 sections `Situation`,
//!   `Decisions`, `Findings`, `Current State`, `Next Steps`, each once, in that order
//!   (`missing-title`, `missing-section`, `duplicate-section`, `section-out-of-order`; other H2
//!   sections are allowed and reported as `extra-section`, info).
//! - **Material claims** are the list items (with their continuation lines) and the
//!   paragraphs under `Decisions`, `Findings` and `Current State`, outside fenced code blocks.
//!   Each needs at least one citation, unless it is marked as an assumption (it starts with
//!   `Assumption:` or contains `(assumption)`): `missing-provenance`, reported on the claim's
//!   first line. A list item whose sub-items all carry citations counts as cited.
//! - **Citations** are `[src:<artifact-id>]` or `[src:<artifact-id>#L<a>-L<b>]` with
//!   `1 <= a <= b`. Anything else starting with `[src:` is `malformed-provenance`; an id not in
//!   the archive is `unknown-artifact`; `b` beyond the artifact's line count is
//!   `line-range-beyond-artifact`; a line range on an artifact without line support is
//!   `line-range-unsupported` (warning).
//! - **Decisions** (items under `Decisions`) need a rationale — a word such as *because*,
//!   *rationale*, *since*, *due to*, *so that*, *reason*, *why* — (`decision-without-rationale`)
//!   and an attribution — *decided*, *agreed*, *approved*, *owner*, *by <Name>*, *per <Name>*,
//!   or an `@handle` — (`decision-without-attribution`). These are lexical checks: they catch a
//!   bare "Annual commits." and cannot judge whether a stated reason is a good one.
//! - **Next Steps** with no item or text is `empty-next-steps`.
//!
//! Not for: deciding what a Distilled State should say (the agent, guided by the guide), or
//! reading artifacts (the host passes their ids and line counts).

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    /// 1-based line in the validated document; 0 for the whole document.
    pub line: u32,
    pub message: String,
}

/// An archived artifact, for resolving citations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArtifactInfo {
    pub id: String,
    /// Lines, when the artifact is line-addressable text.
    pub line_count: Option<u32>,
}

pub const REQUIRED_SECTIONS: [&str; 5] = ["Situation", "Decisions", "Findings", "Current State", "Next Steps"];
const CLAIM_SECTIONS: [&str; 3] = ["Decisions", "Findings", "Current State"];
const RATIONALE_WORDS: [&str; 9] =
    ["because", "rationale", "since", "due to", "so that", "reason", "why", "given that", "to avoid"];
const ATTRIBUTION_WORDS: [&str; 7] = ["decided", "agreed", "approved", "owner", "signed off", "confirmed", "chose"];

/// One line of the document with its number and the section it is in.
pub(crate) struct Line<'a> {
    pub(crate) no: u32,
    pub(crate) text: &'a str,
    pub(crate) section: Option<usize>,
    pub(crate) in_fence: bool,
}

/// A material claim: its first line number, its text (continuation lines joined), and
/// whether it is a list item.
struct Claim {
    line: u32,
    text: String,
    section: String,
    list_item: bool,
    indent: usize,
}

/// Validate `document` (a whole `dossier.md` with frontmatter, or just its body) against
/// the archive `artifacts`. Findings are ordered by line.
pub fn validate(document: &str, artifacts: &[ArtifactInfo]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let lines = classify(document, &mut findings);

    // Structure.
    let mut headings: Vec<(u32, String)> = Vec::new();
    let mut title = None;
    for l in lines.iter().filter(|l| !l.in_fence) {
        if let Some(t) = l.text.strip_prefix("# ") {
            title.get_or_insert(l.no);
            let _ = t;
        } else if let Some(h) = l.text.strip_prefix("## ") {
            headings.push((l.no, h.trim().to_string()));
        }
    }
    let first_section = headings.first().map_or(u32::MAX, |h| h.0);
    if title.is_none_or(|t| t > first_section) {
        findings.push(finding("missing-title", Severity::Error, 0, "no `# <Dossier Name>` title before the sections"));
    }
    let mut seen: Vec<(&str, u32)> = Vec::new();
    for (no, h) in &headings {
        match REQUIRED_SECTIONS.iter().find(|r| r.eq_ignore_ascii_case(h)) {
            Some(r) if seen.iter().any(|(s, _)| s == r) => {
                findings.push(finding("duplicate-section", Severity::Warning, *no, &format!("`## {r}` appears again")))
            }
            Some(r) => seen.push((r, *no)),
            None => findings.push(finding(
                "extra-section",
                Severity::Info,
                *no,
                &format!("`## {h}` is not one of the five sections; it is kept, but agents look for the five"),
            )),
        }
    }
    for r in REQUIRED_SECTIONS {
        if !seen.iter().any(|(s, _)| *s == r) {
            findings.push(finding("missing-section", Severity::Error, 0, &format!("`## {r}` is missing")));
        }
    }
    let order: Vec<usize> =
        seen.iter().map(|(s, _)| REQUIRED_SECTIONS.iter().position(|r| r == s).expect("required")).collect();
    for (i, w) in order.windows(2).enumerate() {
        if w[1] < w[0] {
            let (name, no) = seen[i + 1];
            findings.push(finding(
                "section-out-of-order",
                Severity::Warning,
                no,
                &format!("`## {name}` comes after `## {}`; the order is {}", seen[i].0, REQUIRED_SECTIONS.join(", ")),
            ));
        }
    }

    // Citations everywhere (outside code fences).
    for l in lines.iter().filter(|l| !l.in_fence) {
        check_citations(l.no, l.text, artifacts, &mut findings);
    }

    // Claims.
    let claims = claims(&lines, &headings);
    for (i, c) in claims.iter().enumerate() {
        if !CLAIM_SECTIONS.contains(&c.section.as_str()) {
            continue;
        }
        let assumption = c.text.trim_start().to_ascii_lowercase().starts_with("assumption:")
            || c.text.to_ascii_lowercase().contains("(assumption)");
        let cited = has_citation(&c.text)
            || (c.list_item && {
                // A parent item whose sub-items all carry citations.
                let subs: Vec<&Claim> =
                    claims[i + 1..].iter().take_while(|s| s.list_item && s.indent > c.indent).collect();
                !subs.is_empty() && subs.iter().all(|s| has_citation(&s.text))
            });
        if !cited && !assumption {
            findings.push(finding(
                "missing-provenance",
                Severity::Warning,
                c.line,
                &format!(
                    "claim under `## {}` has no citation: end it with [src:<artifact-id>#L<a>-L<b>] or [src:<artifact-id>], or mark it `Assumption:`",
                    c.section
                ),
            ));
        }
        if c.section == "Decisions" && c.list_item && c.indent == 0 {
            let lower = c.text.to_ascii_lowercase();
            if !RATIONALE_WORDS.iter().any(|w| contains_word(&lower, w)) {
                findings.push(finding(
                    "decision-without-rationale",
                    Severity::Warning,
                    c.line,
                    "decision gives no rationale (why it was decided: \"because ...\", \"Rationale: ...\")",
                ));
            }
            if !ATTRIBUTION_WORDS.iter().any(|w| contains_word(&lower, w)) && !has_named_agent(&c.text) {
                findings.push(finding(
                    "decision-without-attribution",
                    Severity::Warning,
                    c.line,
                    "decision does not say who made it (\"Decided by Alice\", \"approved by ...\", \"@alice\")",
                ));
            }
        }
    }
    if let Some((no, _)) = seen.iter().find(|(s, _)| *s == "Next Steps").map(|(s, n)| (*n, *s))
        && !claims.iter().any(|c| c.section == "Next Steps" && !c.text.trim().is_empty())
    {
        findings.push(finding(
            "empty-next-steps",
            Severity::Warning,
            no,
            "`## Next Steps` is empty: give the next concrete action, first one first",
        ));
    }
    findings.sort_by_key(|f| f.line);
    findings
}

fn finding(code: &'static str, severity: Severity, line: u32, message: &str) -> Finding {
    Finding { code, severity, line, message: message.to_string() }
}

/// Number the lines, skip the frontmatter, track fences and the current H2 section.
pub(crate) fn classify<'a>(document: &'a str, findings: &mut Vec<Finding>) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    let mut iter = document.lines().enumerate().peekable();
    if document.starts_with("---\n") || document.starts_with("---\r\n") {
        iter.next();
        let mut closed = false;
        for (_, l) in iter.by_ref() {
            if l.trim_end() == "---" {
                closed = true;
                break;
            }
        }
        if !closed {
            findings.push(finding("unclosed-frontmatter", Severity::Error, 1, "frontmatter is not closed by `---`"));
        }
    }
    let mut section = None;
    let mut sections = 0usize;
    let mut in_fence = false;
    for (i, text) in iter {
        let fence = text.trim_start().starts_with("```") || text.trim_start().starts_with("~~~");
        if fence {
            in_fence = !in_fence;
            out.push(Line { no: i as u32 + 1, text, section, in_fence: true });
            continue;
        }
        if !in_fence && text.starts_with("## ") {
            section = Some(sections);
            sections += 1;
        } else if !in_fence && text.starts_with("# ") {
            section = None;
        }
        out.push(Line { no: i as u32 + 1, text, section, in_fence });
    }
    out
}

pub(crate) fn list_marker(text: &str) -> Option<(usize, &str)> {
    let indent = text.len() - text.trim_start().len();
    let t = text.trim_start();
    for m in ["- ", "* ", "+ "] {
        if let Some(rest) = t.strip_prefix(m) {
            return Some((indent, rest));
        }
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") ")) {
        return Some((indent, &t[digits + 2..]));
    }
    None
}

/// The claims of each section: list items with their continuation lines, and paragraphs.
fn claims(lines: &[Line], headings: &[(u32, String)]) -> Vec<Claim> {
    let name_of = |section: Option<usize>| {
        section.and_then(|s| headings.get(s)).map(|(_, h)| {
            REQUIRED_SECTIONS.iter().find(|r| r.eq_ignore_ascii_case(h)).map_or(h.clone(), |r| r.to_string())
        })
    };
    let mut out: Vec<Claim> = Vec::new();
    let mut open = false;
    for l in lines {
        let Some(section) = name_of(l.section) else {
            open = false;
            continue;
        };
        if l.in_fence || l.text.starts_with('#') {
            open = false;
            continue;
        }
        if l.text.trim().is_empty() {
            open = false;
            continue;
        }
        if let Some((indent, rest)) = list_marker(l.text) {
            out.push(Claim { line: l.no, text: rest.to_string(), section, list_item: true, indent });
            open = true;
        } else if open {
            let last = out.last_mut().expect("open implies a claim");
            last.text.push(' ');
            last.text.push_str(l.text.trim());
        } else {
            out.push(Claim { line: l.no, text: l.text.trim().to_string(), section, list_item: false, indent: 0 });
            open = true;
        }
    }
    out
}

fn has_citation(text: &str) -> bool {
    let mut rest = text;
    while let Some(p) = rest.find("[src:") {
        if parse_citation(&rest[p..]).is_ok() {
            return true;
        }
        rest = &rest[p + 5..];
    }
    false
}

/// A parsed citation: artifact id and optional line range.
type Citation<'a> = (&'a str, Option<(u32, u32)>);

/// Parse a citation at the start of `s` (which starts with `[src:`).
fn parse_citation(s: &str) -> Result<Citation<'_>, String> {
    let body = &s[5..];
    let Some(end) = body.find(']') else { return Err("no closing `]`".into()) };
    let inner = &body[..end];
    let (id, range) = match inner.split_once('#') {
        Some((id, r)) => (id, Some(r)),
        None => (inner, None),
    };
    let id_ok = id.strip_prefix("art_").is_some_and(|u| !u.is_empty() && u.bytes().all(|b| b.is_ascii_alphanumeric()));
    if !id_ok {
        return Err(format!("`{id}` is not an artifact id (art_...)"));
    }
    let range = match range {
        None => None,
        Some(r) => {
            let parsed = r
                .strip_prefix('L')
                .and_then(|r| r.split_once("-L"))
                .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
            match parsed {
                Some((a, b)) if a >= 1 && a <= b => Some((a, b)),
                Some(_) => return Err(format!("line range `{r}` must satisfy 1 <= a <= b")),
                None => return Err(format!("`#{r}` is not `#L<a>-L<b>` (a single line is `#L12-L12`)")),
            }
        }
    };
    Ok((id, range))
}

fn check_citations(no: u32, text: &str, artifacts: &[ArtifactInfo], findings: &mut Vec<Finding>) {
    let mut rest = text;
    while let Some(p) = rest.find("[src:") {
        let at = &rest[p..];
        match parse_citation(at) {
            Err(why) => findings.push(finding(
                "malformed-provenance",
                Severity::Error,
                no,
                &format!("malformed citation: {why}; use [src:<artifact-id>] or [src:<artifact-id>#L<a>-L<b>]"),
            )),
            Ok((id, range)) => match artifacts.iter().find(|a| a.id == id) {
                None => findings.push(finding(
                    "unknown-artifact",
                    Severity::Error,
                    no,
                    &format!("cites `{id}`, which is not in this Dossier's archive"),
                )),
                Some(a) => match (range, a.line_count) {
                    (Some((_, b)), Some(n)) if b > n => findings.push(finding(
                        "line-range-beyond-artifact",
                        Severity::Error,
                        no,
                        &format!("cites lines up to {b} of `{id}`, which has {n} line(s)"),
                    )),
                    (Some(_), None) => findings.push(finding(
                        "line-range-unsupported",
                        Severity::Warning,
                        no,
                        &format!("cites a line range of `{id}`, which has no line support; cite [src:{id}]"),
                    )),
                    _ => {}
                },
            },
        }
        rest = &at[5..];
    }
}

/// Whether `word` occurs in `lower` on word boundaries.
fn contains_word(lower: &str, word: &str) -> bool {
    lower.match_indices(word).any(|(i, _)| {
        let before = lower[..i].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after = lower[i + word.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        before && after
    })
}

/// "by Alice", "per Bob", or an @handle: a named agent of the decision.
fn has_named_agent(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).any(|w| {
        matches!(w[0].to_ascii_lowercase().as_str(), "by" | "per" | "from")
            && w[1].chars().next().is_some_and(|c| c.is_uppercase())
    }) || words.iter().any(|w| w.starts_with('@') && w.len() > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arts() -> Vec<ArtifactInfo> {
        vec![
            ArtifactInfo { id: "art_01slack".into(), line_count: Some(100) },
            ArtifactInfo { id: "art_01link".into(), line_count: None },
        ]
    }

    const GOOD: &str = "---\nid: dos_x\nname: X\n---\n\n# Pricing\n\n## Situation\n\nPricing refresh for FY27.\n\n\
## Decisions\n\n- Annual commits for enterprise because monthly churn was 3x. Decided by Alice, 2026-06-12. [src:art_01slack#L42-L68]\n\n\
## Findings\n\n- Churn on monthly enterprise deals is 3x annual. [src:art_01slack#L10-L12]\n- Assumption: Sales will accept usage tiers.\n\n\
## Current State\n\nDraft scenarios are with Sales. [src:art_01link]\n\n## Next Steps\n\n- Compare scenarios with sales feedback.\n";

    fn codes(doc: &str) -> Vec<(&'static str, u32)> {
        validate(doc, &arts()).into_iter().map(|f| (f.code, f.line)).collect()
    }

    #[test]
    fn a_good_state_validates_clean() {
        assert_eq!(codes(GOOD), vec![]);
    }

    #[test]
    fn structure_findings_name_the_section_and_line() {
        let doc = GOOD.replace("## Findings", "## Notes");
        let c = codes(&doc);
        assert!(c.contains(&("missing-section", 0)), "{c:?}");
        assert!(c.contains(&("extra-section", 16)), "{c:?}");
        let swapped = GOOD
            .replace("## Situation", "## TMP")
            .replace("## Current State", "## Situation")
            .replace("## TMP", "## Current State");
        assert!(codes(&swapped).iter().any(|(c, _)| *c == "section-out-of-order"), "{:?}", codes(&swapped));
        let dup = format!("{GOOD}\n## Findings\n\n- again [src:art_01link]\n");
        assert!(codes(&dup).iter().any(|(c, _)| *c == "duplicate-section"));
        assert!(codes(&GOOD.replace("# Pricing\n", "")).contains(&("missing-title", 0)));
    }

    #[test]
    fn claims_without_provenance_are_reported_on_their_line() {
        let doc = GOOD.replace(" [src:art_01slack#L10-L12]", "");
        assert_eq!(codes(&doc), vec![("missing-provenance", 18)]);
        // Continuation lines belong to the item; a cited continuation counts.
        let doc = GOOD.replace(" [src:art_01slack#L10-L12]", "\n  continued here [src:art_01slack#L10-L12]");
        assert_eq!(codes(&doc), vec![]);
        // Paragraphs are claims too; code blocks are not.
        let doc = GOOD.replace(
            "Draft scenarios are with Sales. [src:art_01link]",
            "Draft scenarios are with Sales.\n\n```\nnot a claim\n```",
        );
        assert_eq!(codes(&doc), vec![("missing-provenance", 23)]);
        // Situation is context, not a claim section.
        assert!(!codes(GOOD).iter().any(|(c, _)| *c == "missing-provenance"));
    }

    #[test]
    fn citations_are_parsed_and_resolved() {
        let with = |cite: &str| GOOD.replace("[src:art_01link]", cite);
        assert_eq!(codes(&with("[src:art_01nope]")), vec![("unknown-artifact", 23)]);
        assert_eq!(codes(&with("[src:art_01slack#L90-L101]")), vec![("line-range-beyond-artifact", 23)]);
        assert_eq!(codes(&with("[src:art_01link#L1-L2]")), vec![("line-range-unsupported", 23)]);
        for bad in [
            "[src:art_01slack#L12]",
            "[src:art_01slack#L5-L2]",
            "[src:dos_1]",
            "[src:art_01slack#12-14]",
            "[src:art_01x",
        ] {
            let c = codes(&with(bad));
            assert!(c.contains(&("malformed-provenance", 23)), "{bad}: {c:?}");
        }
    }

    #[test]
    fn decisions_need_rationale_and_attribution() {
        let doc = GOOD.replace(
            "Annual commits for enterprise because monthly churn was 3x. Decided by Alice, 2026-06-12.",
            "Annual commits for enterprise.",
        );
        assert_eq!(codes(&doc), vec![("decision-without-rationale", 14), ("decision-without-attribution", 14)]);
        let doc = GOOD.replace("Decided by Alice", "Per @alice");
        assert_eq!(codes(&doc), vec![]);
        // "since" inside another word is not a rationale.
        assert!(!contains_word("sincerely yours", "since"));
    }

    #[test]
    fn empty_next_steps_is_reported() {
        let doc = GOOD.replace("- Compare scenarios with sales feedback.\n", "");
        assert_eq!(codes(&doc), vec![("empty-next-steps", 25)]);
    }

    // Provenance markers at the edges (issue 18): any text, and citations built to be valid,
    // cut or garbled. `PROPTEST_CASES` raises the small default count.

    fn cases(default: u32) -> proptest::test_runner::Config {
        let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
        proptest::test_runner::Config { cases: n, failure_persistence: None, ..Default::default() }
    }

    /// A citation as an agent might write it: well formed, or cut, or with odd parts.
    fn citation() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let id = prop_oneof![
            Just("art_01slack".to_string()),
            Just("art_01link".to_string()),
            "[a-z_0-9]{0,10}",
            any::<String>()
        ];
        let range = prop_oneof![
            Just(String::new()),
            (0u64..200, 0u64..200).prop_map(|(a, b)| format!("#L{a}-L{b}")),
            Just("#L".to_string()),
            Just("#L4294967296-L4294967297".to_string()),
            any::<String>().prop_map(|r| format!("#{r}")),
        ];
        (id, range, any::<bool>(), 0usize..40).prop_map(|(id, range, close, cut)| {
            let c = format!("[src:{id}{range}{}", if close { "]" } else { "" });
            if cut == 0 { c.chars().take(c.chars().count() / 2).collect() } else { c }
        })
    }

    fn check_lines(doc: &str) -> Result<(), proptest::test_runner::TestCaseError> {
        let lines = doc.lines().count() as u32;
        for f in validate(doc, &arts()) {
            proptest::prop_assert!(f.line <= lines.max(1), "{f:?} past line {lines}");
            proptest::prop_assert!(!f.message.is_empty());
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(cases(128))]

        #[test]
        fn spec_10_any_text_gives_findings_on_its_own_lines(text in proptest::prelude::any::<String>()) {
            check_lines(&text)?;
        }

        #[test]
        fn spec_10_garbled_citations_give_findings_never_a_panic(
            cites in proptest::collection::vec(citation(), 1..4),
            at in 0usize..3,
        ) {
            let claim = "- Churn on monthly enterprise deals is 3x annual. [src:art_01slack#L10-L12]";
            let doc = GOOD.replace(claim, &format!("- Churn is 3x. {}", cites.join(" ")));
            check_lines(&doc)?;
            // The same citations at a line's start, end, and inside a fenced block.
            let placed = match at {
                0 => GOOD.replace("Pricing refresh", &cites.join("")),
                1 => format!("{GOOD}{}", cites.join("\n")),
                _ => GOOD.replace("## Next Steps", &format!("```\n{}\n```\n\n## Next Steps", cites.join(" "))),
            };
            check_lines(&placed)?;
        }

        #[test]
        fn spec_10_a_valid_line_range_is_never_malformed(a in 1u32..=100, len in 0u32..100) {
            let b = (a + len).min(100);
            let doc = GOOD.replace("[src:art_01slack#L10-L12]", &format!("[src:art_01slack#L{a}-L{b}]"));
            proptest::prop_assert_eq!(codes(&doc), vec![]);
        }
    }
}
