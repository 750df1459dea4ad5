//! Every MCP reply bounded under Claude Code's ~48 KB cap (issue 18, defect 4), in one place:
//! the envelope passes through [`bound`] before it is serialised.
//!
//! Two steps, each saying what it did and how to see the rest — nothing is cut silently:
//! 1. Repeated warnings of one kind (a save's distillation findings: one per uncited claim)
//!    are grouped: the first [`KEEP`] with their lines, then one line
//!    "… and N more `<kind>` findings (lines a–b); call dossier_recall id=<slug> …".
//! 2. If the envelope is still over [`BUDGET`], the longest list in `data` (search hits, list
//!    items) keeps only as many items as fit, and a `reply_capped:` warning says how many of
//!    how many and which parameter brings the rest. Strings (a Distilled State) are never cut:
//!    recall and session payloads are already paged under the cap (≤ 40,000 bytes a page).
//!
//! Not for: choosing what an operation returns (the operations do), or the CLI's output.

use serde_json::Value;

/// The serialised envelope's budget in bytes, under the 48 KB (49,152-byte) cap with room for
/// the transport's framing.
pub const BUDGET: usize = 46_000;

/// How many warnings of one kind are kept, with their lines, before the rest are counted.
pub const KEEP: usize = 3;

/// Bound `envelope` (the SPEC §8.2 envelope as JSON) in place.
pub fn bound(envelope: &mut Value) {
    let slug = envelope.pointer("/data/slug").and_then(Value::as_str).map(str::to_string);
    if let Some(Value::Array(warnings)) = envelope.get_mut("warnings") {
        let strings: Vec<String> = warnings.iter().filter_map(|w| w.as_str().map(str::to_string)).collect();
        if strings.len() == warnings.len() {
            *warnings = group(strings, slug.as_deref()).into_iter().map(Value::String).collect();
        }
    }
    // Cut the longest list by a tenth at a time until the envelope, with a warning for each
    // list cut, fits.
    let mut cuts: Vec<(String, usize)> = Vec::new();
    loop {
        let mut trial = envelope.clone();
        if let Some(Value::Array(w)) = trial.get_mut("warnings") {
            for (path, total) in &cuts {
                let kept = trial_len(envelope, path);
                w.push(Value::String(format!(
                    "reply_capped: {path} holds the first {kept} of {total} items, to stay under the 48 KB reply \
                     cap; call again with a smaller limit or a narrower query (or dossier) to see the rest"
                )));
            }
        }
        let longest = envelope.get("data").and_then(|d| longest_list(d, "data"));
        let (true, Some(path)) = (size(&trial) > BUDGET, longest) else {
            *envelope = trial;
            return;
        };
        let pointer = pointer_of(&path);
        if let Some(Value::Array(items)) = envelope.pointer_mut(&pointer) {
            if !cuts.iter().any(|(p, _)| *p == path) {
                cuts.push((path, items.len()));
            }
            items.truncate(items.len() * 9 / 10);
        }
    }
}

/// The JSON pointer of a path such as `data.results[0].hits`.
fn pointer_of(path: &str) -> String {
    format!("/{}", path.replace(['.', '['], "/").replace(']', ""))
}

fn trial_len(v: &Value, path: &str) -> usize {
    v.pointer(&pointer_of(path)).and_then(Value::as_array).map_or(0, Vec::len)
}

fn size(v: &Value) -> usize {
    serde_json::to_string(v).map_or(0, |s| s.len())
}

/// The kind of a warning: its text before the first `:`, without a trailing ` line N`; and N.
fn kind_of(w: &str) -> (&str, Option<u64>) {
    let head = w.split_once(':').map_or(w, |(h, _)| h);
    match head.rsplit_once(" line ") {
        Some((kind, n)) if n.parse::<u64>().is_ok() => (kind, n.parse().ok()),
        _ => (head, None),
    }
}

/// Warnings with every kind of more than `KEEP + 1` occurrences grouped, in first-seen order.
pub fn group(warnings: Vec<String>, slug: Option<&str>) -> Vec<String> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for w in &warnings {
        let (kind, _) = kind_of(w);
        match counts.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((kind.to_string(), 1)),
        }
    }
    if counts.iter().all(|(_, n)| *n <= KEEP + 1) {
        return warnings;
    }
    let mut out = Vec::new();
    let mut seen: Vec<(String, usize, Option<u64>, Option<u64>)> = Vec::new();
    for w in &warnings {
        let (kind, line) = kind_of(w);
        let total = counts.iter().find(|(k, _)| k == kind).map_or(0, |(_, n)| *n);
        let entry = match seen.iter().position(|(k, ..)| k == kind) {
            Some(i) => &mut seen[i],
            None => {
                seen.push((kind.to_string(), 0, None, None));
                seen.last_mut().expect("just pushed")
            }
        };
        entry.1 += 1;
        if total <= KEEP + 1 || entry.1 <= KEEP {
            out.push(w.clone());
            continue;
        }
        if let Some(l) = line {
            entry.2 = Some(entry.2.map_or(l, |a: u64| a.min(l)));
            entry.3 = Some(entry.3.map_or(l, |b: u64| b.max(l)));
        }
        if entry.1 == KEEP + 1 {
            // The summary's place: where the first hidden one was.
            out.push(format!("\u{0}{kind}"));
        }
    }
    out.into_iter()
        .map(|w| match w.strip_prefix('\u{0}') {
            Some(kind) => {
                let (_, n, first, last) = seen.iter().find(|(k, ..)| k == kind).expect("seen").clone();
                let more = n - KEEP;
                let lines = match (first, last) {
                    (Some(a), Some(b)) if a != b => format!(" (lines {a}–{b})"),
                    (Some(a), _) => format!(" (line {a})"),
                    _ => String::new(),
                };
                let see = match slug {
                    Some(s) => format!("; call dossier_recall id={s} to read those lines in the Distilled State"),
                    None => String::new(),
                };
                format!("… and {more} more `{kind}` findings{lines}{see}")
            }
            None => w,
        })
        .collect()
}

/// The path (`data.results[0].hits`) of the list in `v` with the most items.
fn longest_list(v: &Value, path: &str) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    let mut consider = |len: usize, p: String| {
        if best.as_ref().is_none_or(|(n, _)| len > *n) {
            best = Some((len, p));
        }
    };
    match v {
        Value::Array(items) => {
            consider(items.len(), path.to_string());
            for (i, x) in items.iter().enumerate() {
                if let Some(p) = longest_list(x, &format!("{path}[{i}]")) {
                    let len = pointer_len(x, &p, &format!("{path}[{i}]"));
                    consider(len, p);
                }
            }
        }
        Value::Object(map) => {
            for (k, x) in map {
                if let Some(p) = longest_list(x, &format!("{path}.{k}")) {
                    let len = pointer_len(x, &p, &format!("{path}.{k}"));
                    consider(len, p);
                }
            }
        }
        _ => {}
    }
    best.filter(|(n, _)| *n > 0).map(|(_, p)| p)
}

/// The length of the list at `path` (which starts with `prefix`, naming `v`).
fn pointer_len(v: &Value, path: &str, prefix: &str) -> usize {
    let rest = path.strip_prefix(prefix).unwrap_or("");
    let pointer = rest.replace(['.', '['], "/").replace(']', "");
    v.pointer(&pointer).and_then(Value::as_array).map_or(0, Vec::len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn repeated_findings_are_grouped_with_their_lines_and_how_to_see_all() {
        let mut w: Vec<String> =
            (10..20).map(|l| format!("distill warning missing-provenance line {l}: no citation")).collect();
        w.insert(0, "over_token_target: big".into());
        let g = group(w, Some("q"));
        assert_eq!(g.len(), 1 + KEEP + 1, "{g:?}");
        assert_eq!(
            g[KEEP + 1],
            "… and 7 more `distill warning missing-provenance` findings (lines 13–19); call dossier_recall id=q to read those lines in the Distilled State"
        );
        let few = vec!["a line 1: x".to_string(), "a line 2: x".into()];
        assert_eq!(group(few.clone(), None), few);
    }

    #[test]
    fn an_over_budget_list_keeps_what_fits_and_says_so() {
        let hits: Vec<Value> = (0..5000).map(|i| json!({"line": i, "snippet": "x".repeat(40)})).collect();
        let mut e =
            json!({"ok": true, "data": {"slug": "s", "results": [{"hits": hits}]}, "warnings": [], "next_actions": []});
        bound(&mut e);
        assert!(size(&e) <= BUDGET);
        let kept = e["data"]["results"][0]["hits"].as_array().unwrap().len();
        assert!(kept > 100 && kept < 5000, "{kept}");
        let w = e["warnings"][0].as_str().unwrap();
        assert!(
            w.starts_with(&format!("reply_capped: data.results[0].hits holds the first {kept} of 5000 items")),
            "{w}"
        );
    }
}
