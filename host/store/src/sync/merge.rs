//! Dossier's merge semantics for sync (docs/sync.md, "Merge rules"): three flattened git trees
//! (base, ours, theirs) in, one tree and a report out.
//!
//! What this is for: deciding every path both sides changed — `audit.log` as the union of
//! lines in timestamp order, artifacts as a union that never overwrites a clash, `dossier.md`
//! by SPEC §11.5 (auto-merge of non-overlapping frontmatter fields, else one side stays head
//! and the other becomes a `concurrent_edit` conflict file), the same slug created twice by the
//! §12.2 suffix, conflict files, and git's text merge for anything else. Every rule is
//! symmetric in ours and theirs, and every id, timestamp and file name it writes is derived
//! from the inputs, so two machines merging the same trees produce the same bytes.
//!
//! Not for: running git beyond reading and writing blobs (`super::run` builds the commit) or
//! touching the working tree: nothing here writes a file of the store.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};

use super::git::{Entry, Git, Tree};
use crate::error::Result;
use crate::ids;
use crate::model::{self, AuditEvent, DossierDoc, EventKind};
use crate::save::revision_from;

/// The audit actor of lines the sync merge writes.
pub const ACTOR: &str = "sync";

/// A concurrent-edit conflict file the merge created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    pub slug: String,
    pub dossier_id: String,
    pub conflict_id: String,
    /// Relative to the store.
    pub path: String,
}

/// Two different contents for one path the merge could not combine: `path` keeps one, `other`
/// (relative to the store) the other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Clash {
    pub path: String,
    pub other: String,
    /// `artifact` (same id, different content) or `file`.
    pub kind: &'static str,
}

/// A Dossier moved to a suffixed slug because the same slug was created on two machines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Renamed {
    pub dossier_id: String,
    pub from: String,
    pub to: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub conflicts: Vec<Conflict>,
    /// Dossiers whose `dossier.md` was auto-merged (§11.5).
    pub auto_merged: Vec<String>,
    pub clashes: Vec<Clash>,
    pub renamed: Vec<Renamed>,
    /// Paths changed on one side and deleted on the other: kept.
    pub kept_over_delete: Vec<String>,
}

/// The merged tree and what the merge did.
#[derive(Debug)]
pub struct Merged {
    pub tree: Tree,
    pub report: Report,
}

const BLOB: &str = "100644";

/// A new blob's entry.
fn blob_entry(git: &Git, bytes: &[u8]) -> Result<Entry> {
    Ok(Entry { mode: BLOB.to_string(), oid: git.write_blob(bytes)?, size: bytes.len() as u64 })
}

/// The Dossier directory (top-level name) a path belongs to, and the rest of the path.
fn split_top(path: &str) -> Option<(&str, &str)> {
    path.split_once('/').filter(|(top, _)| !top.starts_with('.') && !crate::layout::RESERVED_NAMES.contains(top))
}

/// The revision of the Dossier `dir` in `tree` with `dossier_md` as its `dossier.md`.
pub fn tree_revision(tree: &Tree, dir: &str, dossier_md: &[u8]) -> String {
    let prefix = format!("{dir}/artifacts/");
    let manifest = tree
        .range(prefix.clone()..)
        .take_while(|(p, _)| p.starts_with(&prefix))
        .filter_map(|(p, e)| {
            let name = &p[prefix.len()..];
            (!name.contains('/') && !name.starts_with('.')).then(|| (name.to_string(), e.size))
        })
        .collect();
    revision_from(dossier_md, manifest)
}

/// Merge `ours` and `theirs` over `base` (see the module doc).
pub fn merge(git: &Git, base: &Tree, ours: &Tree, theirs: &Tree) -> Result<Merged> {
    let mut ours = ours.clone();
    let mut theirs = theirs.clone();
    let mut report = Report::default();
    // Audit lines to add per Dossier directory, once the tree is known.
    let mut pending: BTreeMap<String, Vec<Pending>> = BTreeMap::new();
    rename_same_slugs(git, base, &mut ours, &mut theirs, &mut report, &mut pending)?;

    let paths: BTreeSet<&String> = base.keys().chain(ours.keys()).chain(theirs.keys()).collect();
    let mut out = Tree::new();
    for path in paths {
        let (b, o, t) = (base.get(path), ours.get(path), theirs.get(path));
        let chosen = if o == t {
            o.cloned()
        } else if o == b {
            t.cloned()
        } else if t == b {
            o.cloned()
        } else {
            both_changed(git, path, b, o, t, &ours, &theirs, base, &mut out, &mut report, &mut pending)?
        };
        if let Some(e) = chosen {
            out.insert(path.clone(), e);
        }
    }
    // The audit lines the merge itself records, with revisions of the merged tree.
    for (dir, lines) in pending {
        let mut new_lines = Vec::new();
        for p in lines {
            let mut ev = p.event;
            if p.after_revision {
                let md = out.get(&format!("{dir}/dossier.md")).map(|e| git.blob(&e.oid)).transpose()?;
                ev.after_revision = md.map(|md| tree_revision(&out, &dir, &md));
            }
            new_lines.push(serde_json::to_string(&ev).expect("audit events serialize"));
        }
        let path = format!("{dir}/audit.log");
        let current = match out.get(&path) {
            Some(e) => git.blob(&e.oid)?,
            None => Vec::new(),
        };
        // After both sides' lines (the merge happened after them), each once.
        let mut merged = current;
        if !merged.is_empty() && !merged.ends_with(b"\n") {
            merged.push(b'\n');
        }
        for line in new_lines {
            if !merged.split(|&c| c == b'\n').any(|l| l == line.as_bytes()) {
                merged.extend_from_slice(line.as_bytes());
                merged.push(b'\n');
            }
        }
        out.insert(path, blob_entry(git, &merged)?);
    }
    report.conflicts.sort_by(|a, b| a.path.cmp(&b.path));
    report.auto_merged.sort();
    report.auto_merged.dedup();
    Ok(Merged { tree: out, report })
}

struct Pending {
    event: AuditEvent,
    /// Fill `after_revision` from the merged tree.
    after_revision: bool,
}

fn sync_event(kind: EventKind, ts: &str, dossier_id: &str) -> AuditEvent {
    let mut ev = crate::save::event(kind, dossier_id, ACTOR, &None);
    ev.ts = ts.to_string();
    ev.details.insert("origin".into(), json!("sync"));
    ev
}

/// Both sides added `<slug>/dossier.md` for different Dossiers: the one created later (then the
/// larger id) moves to `<slug>-<last 6 of its id>` (SPEC §12.2) on its side, before paths merge.
fn rename_same_slugs(
    git: &Git,
    base: &Tree,
    ours: &mut Tree,
    theirs: &mut Tree,
    report: &mut Report,
    pending: &mut BTreeMap<String, Vec<Pending>>,
) -> Result<()> {
    let candidates: Vec<String> = ours
        .iter()
        .filter_map(|(p, e)| {
            let (top, rest) = split_top(p)?;
            let other = theirs.get(p)?;
            (rest == "dossier.md" && !base.contains_key(p) && other.oid != e.oid).then(|| top.to_string())
        })
        .collect();
    for slug in candidates {
        let path = format!("{slug}/dossier.md");
        let parse = |tree: &Tree| -> Result<Option<DossierDoc>> {
            let bytes = git.blob(&tree[&path].oid)?;
            Ok(std::str::from_utf8(&bytes).ok().and_then(|t| DossierDoc::parse(t, Path::new(&path)).ok()))
        };
        let (Some(a), Some(b)) = (parse(ours)?, parse(theirs)?) else { continue };
        if a.frontmatter.id == b.frontmatter.id {
            continue; // one Dossier, edited on both sides: merged as a dossier.md
        }
        let key = |d: &DossierDoc| (model::parse_timestamp(&d.frontmatter.created_at), d.frontmatter.id.clone());
        let (side, doc) = if key(&a) > key(&b) { (&mut *ours, a) } else { (&mut *theirs, b) };
        let to = ids::with_suffix(&slug, &doc.frontmatter.id);
        let prefix = format!("{slug}/");
        let moved: Vec<String> = side.keys().filter(|p| p.starts_with(&prefix)).cloned().collect();
        for p in moved {
            let e = side.remove(&p).expect("listed");
            side.insert(format!("{to}/{}", &p[prefix.len()..]), e);
        }
        let mut renamed = doc.clone();
        renamed.frontmatter.slug = to.clone();
        side.insert(format!("{to}/dossier.md"), blob_entry(git, renamed.render().as_bytes())?);
        let mut ev = sync_event(EventKind::Save, &doc.frontmatter.updated_at, &doc.frontmatter.id);
        ev.fields_changed = vec!["slug".into()];
        ev.details.insert("from".into(), json!(slug));
        ev.details.insert("to".into(), json!(to));
        ev.details.insert("reason".into(), json!("the same slug was created on another machine (SPEC 12.2)"));
        pending.entry(to.clone()).or_default().push(Pending { event: ev, after_revision: true });
        report.renamed.push(Renamed { dossier_id: doc.frontmatter.id.clone(), from: slug, to });
    }
    Ok(())
}

/// A path changed differently on both sides.
#[allow(clippy::too_many_arguments)]
fn both_changed(
    git: &Git,
    path: &str,
    b: Option<&Entry>,
    o: Option<&Entry>,
    t: Option<&Entry>,
    ours: &Tree,
    theirs: &Tree,
    base: &Tree,
    out: &mut Tree,
    report: &mut Report,
    pending: &mut BTreeMap<String, Vec<Pending>>,
) -> Result<Option<Entry>> {
    let (o, t) = match (o, t) {
        (Some(o), Some(t)) => (o, t),
        // Deleted on one side, changed on the other: nothing is deleted.
        (Some(e), None) | (None, Some(e)) => {
            report.kept_over_delete.push(path.to_string());
            return Ok(Some(e.clone()));
        }
        (None, None) => return Ok(None),
    };
    let read = |e: &Entry| git.blob(&e.oid);
    let top = split_top(path);
    match top {
        Some((_, "audit.log")) => {
            let merged = union_lines(&read(o)?, &read(t)?);
            Ok(Some(blob_entry(git, &merged)?))
        }
        Some((dir, "dossier.md")) => {
            let bb = b.map(read).transpose()?;
            let (ob, tb) = (read(o)?, read(t)?);
            match merge_dossier(dir, bb.as_deref(), &ob, &tb, base, ours, theirs) {
                Some(DossierMerge::Merged { bytes, event }) => {
                    report.auto_merged.push(dir.to_string());
                    pending.entry(dir.to_string()).or_default().push(Pending { event, after_revision: true });
                    Ok(Some(blob_entry(git, &bytes)?))
                }
                Some(DossierMerge::Conflict { head_is_ours, file, conflict, event }) => {
                    out.insert(conflict.path.clone(), blob_entry(git, &file)?);
                    pending.entry(dir.to_string()).or_default().push(Pending { event, after_revision: false });
                    report.conflicts.push(conflict);
                    Ok(Some(if head_is_ours { o.clone() } else { t.clone() }))
                }
                // Not a Dossier either side can read: a plain file.
                None => generic(git, path, b, o, t, out, report),
            }
        }
        Some((dir, rest)) if rest.starts_with("artifacts/") => {
            let (keep, other) = if o.oid < t.oid { (o, t) } else { (t, o) };
            let name = &rest["artifacts/".len()..];
            let other_path = format!("{dir}/conflicts/artifacts/{name}.{}", &other.oid[..8]);
            out.insert(other_path.clone(), other.clone());
            report.clashes.push(Clash { path: path.to_string(), other: other_path, kind: "artifact" });
            Ok(Some(keep.clone()))
        }
        Some((_, rest)) if rest.starts_with("conflicts/") && rest.ends_with(".md") => {
            let key = |bytes: &[u8]| {
                let text = String::from_utf8_lossy(bytes).into_owned();
                let header = crate::save::split_conflict(&text).map(|(h, _)| h);
                let resolved = header.as_ref().and_then(|h| h.get("resolved")).and_then(Value::as_bool) == Some(true);
                let at = header
                    .as_ref()
                    .and_then(|h| h.get("resolved_at"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_default();
                (!resolved, at, bytes.to_vec())
            };
            Ok(Some(if key(&read(o)?) <= key(&read(t)?) { o.clone() } else { t.clone() }))
        }
        _ => generic(git, path, b, o, t, out, report),
    }
}

/// git's three-way text merge when it is clean; otherwise the smaller object id stays and the
/// other is kept beside it as `<path>.conflict-<8 hex>`.
fn generic(
    git: &Git,
    path: &str,
    b: Option<&Entry>,
    o: &Entry,
    t: &Entry,
    out: &mut Tree,
    report: &mut Report,
) -> Result<Option<Entry>> {
    let (ob, tb) = (git.blob(&o.oid)?, git.blob(&t.oid)?);
    let bb = b.map(|e| git.blob(&e.oid)).transpose()?.unwrap_or_default();
    let textual = |x: &[u8]| !x.contains(&0) && std::str::from_utf8(x).is_ok();
    if textual(&ob) && textual(&tb) && textual(&bb) && !path.starts_with(".keys/") {
        // Ordered by object id so the text merge is the same whichever side is ours.
        let (x, y) = if o.oid < t.oid { (&ob, &tb) } else { (&tb, &ob) };
        if let Some(merged) = merge_file(x, &bb, y)? {
            return Ok(Some(blob_entry(git, &merged)?));
        }
    }
    let (keep, other) = if o.oid < t.oid { (o, t) } else { (t, o) };
    let other_path = format!("{path}.conflict-{}", &other.oid[..8]);
    out.insert(other_path.clone(), other.clone());
    report.clashes.push(Clash { path: path.to_string(), other: other_path, kind: "file" });
    Ok(Some(keep.clone()))
}

/// `git merge-file -p`: the clean merge, or `None` when it has conflicts.
fn merge_file(x: &[u8], base: &[u8], y: &[u8]) -> Result<Option<Vec<u8>>> {
    let dir = tempfile::tempdir()
        .map_err(|e| crate::error::DossierError::io("create a temp dir in", Path::new("/tmp"), e))?;
    let write = |name: &str, bytes: &[u8]| -> Result<std::path::PathBuf> {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).map_err(|e| crate::error::DossierError::io("write", &p, e))?;
        Ok(p)
    };
    let (xp, bp, yp) = (write("x", x)?, write("base", base)?, write("y", y)?);
    let out = Git::at(dir.path()).output([
        "merge-file".as_ref(),
        "-p".as_ref(),
        "--quiet".as_ref(),
        xp.as_os_str(),
        bp.as_os_str(),
        yp.as_os_str(),
    ])?;
    Ok((out.status.code() == Some(0)).then_some(out.stdout))
}

/// The union of two JSON Lines logs: each side's order kept, the two interleaved by `ts` (then
/// by the line's bytes), every line once. Symmetric: `union_lines(a, b) == union_lines(b, a)`.
pub fn union_lines(a: &[u8], b: &[u8]) -> Vec<u8> {
    let lines = |x: &[u8]| -> Vec<Vec<u8>> {
        x.split(|&c| c == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).map(<[u8]>::to_vec).collect()
    };
    let key = |l: &[u8]| -> (i64, Vec<u8>) {
        let ts = serde_json::from_slice::<Value>(l)
            .ok()
            .and_then(|v| v.get("ts").and_then(Value::as_str).and_then(model::parse_timestamp))
            .unwrap_or(i64::MIN);
        (ts, l.to_vec())
    };
    let (xa, xb) = (lines(a), lines(b));
    let (mut i, mut j) = (0, 0);
    let mut seen: BTreeSet<Vec<u8>> = BTreeSet::new();
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut push = |l: &[u8], out: &mut Vec<u8>| {
        if seen.insert(l.to_vec()) {
            out.extend_from_slice(l);
            out.push(b'\n');
        }
    };
    while i < xa.len() || j < xb.len() {
        let take_a = match (xa.get(i), xb.get(j)) {
            (Some(l), Some(r)) => key(l) <= key(r),
            (Some(_), None) => true,
            _ => false,
        };
        if take_a {
            push(&xa[i], &mut out);
            i += 1;
        } else {
            push(&xb[j], &mut out);
            j += 1;
        }
    }
    out
}

enum DossierMerge {
    Merged { bytes: Vec<u8>, event: AuditEvent },
    Conflict { head_is_ours: bool, file: Vec<u8>, conflict: Conflict, event: AuditEvent },
}

/// Frontmatter keys that record when and on what a write happened, not what it says.
const BOOKKEEPING: [&str; 3] = ["updated_at", "last_touched_at", "base_revision"];
/// The keys a conflict's `frontmatter_updates` can carry (`save::FrontmatterUpdates`).
const UPDATABLE: [&str; 9] =
    ["name", "status", "lead", "next_action", "open_questions", "importance", "urgency", "due_date", "token_target"];

fn fields(doc: &DossierDoc) -> serde_json::Map<String, Value> {
    match serde_json::to_value(&doc.frontmatter).expect("frontmatter serializes") {
        Value::Object(m) => m,
        _ => unreachable!("frontmatter is a map"),
    }
}

/// Three-way merge of one `dossier.md` (§11.5); `None` when a side does not parse.
fn merge_dossier(
    dir: &str,
    base: Option<&[u8]>,
    ours: &[u8],
    theirs: &[u8],
    base_tree: &Tree,
    ours_tree: &Tree,
    theirs_tree: &Tree,
) -> Option<DossierMerge> {
    let file = Path::new("dossier.md");
    let parse = |b: &[u8]| std::str::from_utf8(b).ok().and_then(|t| DossierDoc::parse(t, file).ok());
    let (o, t) = (parse(ours)?, parse(theirs)?);
    let b = base.and_then(parse);
    let (orev, trev) = (tree_revision(ours_tree, dir, ours), tree_revision(theirs_tree, dir, theirs));
    let brev = base.map(|bb| tree_revision(base_tree, dir, bb));
    // The head: the later `updated_at`, then the larger revision — the same on both machines.
    let head_key = |d: &DossierDoc, rev: &str| (model::parse_timestamp(&d.frontmatter.updated_at), rev.to_string());
    let head_is_ours = head_key(&o, &orev) >= head_key(&t, &trev);
    let (head, other, head_rev, other_rev, head_bytes) =
        if head_is_ours { (&o, &t, &orev, &trev, ours) } else { (&t, &o, &trev, &orev, theirs) };
    let (hf, of) = (fields(head), fields(other));
    let bf = b.as_ref().map(fields);

    // Field by field: changed on one side only (or to the same value) merges.
    let mut keys: Vec<String> = Vec::new();
    for k in hf.keys().chain(of.keys()).chain(bf.iter().flat_map(|m| m.keys())) {
        if !BOOKKEEPING.contains(&k.as_str()) && !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    let mut merged = hf.clone();
    let mut overlap = false;
    let mut taken: Vec<String> = Vec::new();
    for k in &keys {
        let (hv, ov) = (hf.get(k), of.get(k));
        let bv = bf.as_ref().and_then(|m| m.get(k));
        if hv == ov || ov == bv {
            continue;
        }
        if hv == bv && b.is_some() {
            match ov {
                Some(v) => merged.insert(k.clone(), v.clone()),
                None => merged.remove(k),
            };
            taken.push(k.clone());
        } else {
            overlap = true;
        }
    }
    let body_taken = head.body != other.body && b.as_ref().is_some_and(|b| b.body == head.body);
    let body_clash = head.body != other.body && !body_taken && b.as_ref().is_none_or(|b| b.body != other.body);
    let later = |a: &str, b: &str| {
        if model::parse_timestamp(a) >= model::parse_timestamp(b) { a.to_string() } else { b.to_string() }
    };
    let created_at = later(&head.frontmatter.updated_at, &other.frontmatter.updated_at);
    let dossier_id = head.frontmatter.id.clone();

    if !overlap && !body_clash {
        merged.insert("updated_at".into(), json!(created_at));
        merged.insert(
            "last_touched_at".into(),
            json!(later(&head.frontmatter.last_touched_at, &other.frontmatter.last_touched_at)),
        );
        merged.insert("base_revision".into(), json!(head_rev));
        let frontmatter = serde_json::from_value(Value::Object(merged)).ok()?;
        let body = if body_taken { other.body.clone() } else { head.body.clone() };
        let doc = DossierDoc { frontmatter, body };
        let mut ev = sync_event(EventKind::Save, &created_at, &dossier_id);
        ev.before_revision = Some(head_rev.clone());
        ev.fields_changed = taken;
        ev.body_changed = body_taken;
        ev.details.insert("auto_merged".into(), json!(true));
        ev.details.insert("base_revision".into(), json!(brev));
        ev.details.insert("merged_revision".into(), json!(other_rev));
        return Some(DossierMerge::Merged { bytes: doc.render().into_bytes(), event: ev });
    }

    // Divergent: the head stays; the other side is kept as a concurrent-edit conflict.
    let mut h = blake3::Hasher::new();
    h.update(b"dossier-sync-conflict-v1\0");
    let (first, second) = if ours <= theirs { (ours, theirs) } else { (theirs, ours) };
    for part in [base.unwrap_or_default(), first, second] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part);
    }
    let conflict_id = format!("{}{}", ids::Prefix::Conflict.as_str(), base32(&h.finalize().as_bytes()[..17]));
    let mut updates = serde_json::Map::new();
    for k in UPDATABLE {
        if let Some(v) = of.get(k).filter(|v| !v.is_null() && hf.get(k) != Some(*v)) {
            updates.insert(k.to_string(), v.clone());
        }
    }
    let header = json!({
        "id": conflict_id,
        "dossier_id": dossier_id,
        "kind": "concurrent_edit",
        "created_at": created_at,
        "base_revision": brev,
        "current_revision": head_rev,
        "actor": ACTOR,
        "session_id": null,
        "frontmatter_updates": updates,
        "artifacts_added": [],
        "resolved": false,
        "origin": "sync",
        "proposal_revision": other_rev,
        "base_state": base.map(|b| String::from_utf8_lossy(b).into_owned()),
        "current_state": String::from_utf8_lossy(head_bytes),
    });
    let yaml = serde_saphyr::to_string(&header).expect("conflict header serializes");
    let file = format!("---\n{yaml}---\n\n{}", other.body).into_bytes();
    let path = format!("{dir}/conflicts/{conflict_id}.md");
    let mut ev = sync_event(EventKind::ConflictCreated, &created_at, &dossier_id);
    ev.before_revision = Some(head_rev.clone());
    ev.details.insert("conflict_id".into(), json!(conflict_id));
    ev.details.insert("base_revision".into(), json!(brev));
    ev.details.insert("proposal_revision".into(), json!(other_rev));
    ev.details.insert("path".into(), json!(format!("conflicts/{conflict_id}.md")));
    Some(DossierMerge::Conflict {
        head_is_ours,
        file,
        conflict: Conflict { slug: dir.to_string(), dossier_id, conflict_id, path },
        event: ev,
    })
}

/// 26 Crockford base32 digits (lowercase) of the first 130 bits of `bytes` (SPEC §12.3 id shape).
fn base32(bytes: &[u8]) -> String {
    const CROCKFORD: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let mut n: u128 = 0;
    for &b in &bytes[..16] {
        n = (n << 8) | u128::from(b);
    }
    // 128 bits give 25 digits and 3 bits; the 26th digit takes 2 more from the next byte.
    let mut digits: String = (0..25).rev().map(|i| CROCKFORD[((n >> (5 * i + 3)) & 31) as usize] as char).collect();
    let last = (((n & 0b111) as u8) << 2) | (bytes[16] >> 6);
    digits.push(CROCKFORD[last as usize] as char);
    digits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_union_keeps_each_sides_order_dedupes_and_is_symmetric() {
        let l = |ts: &str, e: &str| format!("{{\"ts\":\"{ts}\",\"event\":\"{e}\"}}");
        let base = [l("2026-01-01T00:00:00Z", "create")];
        let a = format!("{}\n{}\n{}\n", base[0], l("2026-01-02T00:00:00Z", "save"), l("2026-01-04T00:00:00Z", "a"));
        let b = format!("{}\n{}\n", base[0], l("2026-01-03T00:00:00Z", "b"));
        let ab = union_lines(a.as_bytes(), b.as_bytes());
        assert_eq!(ab, union_lines(b.as_bytes(), a.as_bytes()));
        let text = String::from_utf8(ab).unwrap();
        let events: Vec<&str> = text.lines().map(|x| x.split("\"event\":\"").nth(1).unwrap()).collect();
        assert_eq!(events, ["create\"}", "save\"}", "b\"}", "a\"}"]);
        // Same ts: ordered by bytes, whichever side.
        let x = l("2026-01-05T00:00:00Z", "x");
        let y = l("2026-01-05T00:00:00Z", "y");
        assert_eq!(union_lines(x.as_bytes(), y.as_bytes()), union_lines(y.as_bytes(), x.as_bytes()));
    }

    /// A real repository to hold the blobs (the merge reads and writes them through git).
    fn repo() -> (tempfile::TempDir, Git) {
        let dir = tempfile::tempdir().unwrap();
        let git = Git::at(dir.path());
        git.run(["init", "-q"]).unwrap();
        (dir, git)
    }

    fn doc(id: &str, slug: &str, created: &str, updated: &str, lead: &str, next: &str, finding: &str) -> String {
        format!(
            "---\nid: {id}\nname: Alpha\nslug: {slug}\ncreated_at: {created}\nupdated_at: {updated}\n\
             last_touched_at: {updated}\nstatus: active\nlead: {lead}\nnext_action: {next}\nopen_questions: []\n\
             importance: high\nurgency: low\n---\n\n# Alpha\n\n## Situation\n\n## Decisions\n\n## Findings\n\n\
             - {finding}\n\n## Current State\n\n## Next Steps\n"
        )
    }

    fn tree(git: &Git, files: &[(&str, &str)]) -> Tree {
        files.iter().map(|(p, text)| (p.to_string(), blob_entry(git, text.as_bytes()).unwrap())).collect()
    }

    fn text(git: &Git, t: &Tree, path: &str) -> String {
        String::from_utf8(git.blob(&t[path].oid).unwrap()).unwrap()
    }

    const ID: &str = "dos_01jz8aaaaaaaaaaaaaaaaaaaaa";
    const T0: &str = "2026-01-01T00:00:00Z";

    #[test]
    fn every_rule_gives_the_same_bytes_whichever_side_merges() {
        let (_d, git) = repo();
        let base_md = doc(ID, "alpha", T0, T0, "Ann", "Start", "base");
        let log0 = format!("{{\"ts\":\"{T0}\",\"event\":\"create\"}}\n");
        let base = tree(&git, &[("alpha/dossier.md", &base_md), ("alpha/audit.log", &log0)]);
        let cases: Vec<(Vec<(&str, String)>, Vec<(&str, String)>)> = vec![
            // Non-overlapping fields: auto-merge.
            (
                vec![("alpha/dossier.md", doc(ID, "alpha", T0, "2026-01-02T00:00:00Z", "Bea", "Start", "base"))],
                vec![("alpha/dossier.md", doc(ID, "alpha", T0, "2026-01-03T00:00:00Z", "Ann", "Go", "base"))],
            ),
            // Divergent Distilled States: a conflict file.
            (
                vec![("alpha/dossier.md", doc(ID, "alpha", T0, "2026-01-02T00:00:00Z", "Ann", "Start", "on x"))],
                vec![("alpha/dossier.md", doc(ID, "alpha", T0, "2026-01-03T00:00:00Z", "Ann", "Start", "on y"))],
            ),
            // The same field set to different values: a conflict file too.
            (
                vec![("alpha/dossier.md", doc(ID, "alpha", T0, "2026-01-02T00:00:00Z", "Xavier", "Start", "base"))],
                vec![("alpha/dossier.md", doc(ID, "alpha", T0, "2026-01-02T00:00:00Z", "Yvonne", "Start", "base"))],
            ),
            // The same slug created twice, and an artifact clash.
            (
                vec![
                    ("beta/dossier.md", doc("dos_01jz8xxxxxxxxxxxxxxxxxxxxx", "beta", T0, T0, "A", "a", "x")),
                    ("alpha/artifacts/art_1.txt", "one\n".into()),
                ],
                vec![
                    (
                        "beta/dossier.md",
                        doc("dos_01jz8yyyyyyyyyyyyyyyyyyyyy", "beta", "2026-01-05T00:00:00Z", T0, "B", "b", "y"),
                    ),
                    ("alpha/artifacts/art_1.txt", "two\n".into()),
                ],
            ),
        ];
        for (i, (x, y)) in cases.into_iter().enumerate() {
            let side = |changes: &[(&str, String)], who: &str| {
                let mut t = base.clone();
                for (p, c) in changes {
                    t.insert(p.to_string(), blob_entry(&git, c.as_bytes()).unwrap());
                }
                let log =
                    format!("{log0}{{\"ts\":\"2026-01-0{}T00:00:00Z\",\"event\":\"save\",\"by\":\"{who}\"}}\n", i + 2);
                t.insert("alpha/audit.log".into(), blob_entry(&git, log.as_bytes()).unwrap());
                t
            };
            let (tx, ty) = (side(&x, "x"), side(&y, "y"));
            let xy = merge(&git, &base, &tx, &ty).unwrap();
            let yx = merge(&git, &base, &ty, &tx).unwrap();
            assert_eq!(xy.tree, yx.tree, "case {i}: the same tree whichever side is ours");
            assert_eq!(xy.report, yx.report, "case {i}");
            let log = text(&git, &xy.tree, "alpha/audit.log");
            assert!(log.contains("\"by\":\"x\"") && log.contains("\"by\":\"y\""), "case {i}: audit union\n{log}");
            for p in xy.tree.keys() {
                assert!(!text(&git, &xy.tree, p).contains("<<<<<<<"), "case {i}: {p} holds markers");
            }
            match i {
                0 => {
                    let md = text(&git, &xy.tree, "alpha/dossier.md");
                    assert!(md.contains("lead: Bea") && md.contains("next_action: Go"), "{md}");
                    assert_eq!(xy.report.auto_merged, ["alpha"]);
                }
                1 | 2 => {
                    assert_eq!(xy.report.conflicts.len(), 1, "case {i}");
                    let c = &xy.report.conflicts[0];
                    let file = text(&git, &xy.tree, &c.path);
                    let (header, body) = crate::save::split_conflict(&file).unwrap();
                    assert_eq!(header["kind"], "concurrent_edit");
                    assert_eq!(header["base_state"], base_md.as_str(), "the base is kept whole");
                    assert_eq!(header["current_state"].as_str().unwrap(), text(&git, &xy.tree, "alpha/dossier.md"));
                    if i == 1 {
                        // The later `updated_at` (y) stays head; x is the proposal.
                        assert!(body.contains("on x") && text(&git, &xy.tree, "alpha/dossier.md").contains("on y"));
                    } else {
                        assert!(header["frontmatter_updates"]["lead"].is_string());
                    }
                }
                _ => {
                    assert_eq!(xy.report.renamed.len(), 1);
                    let r = &xy.report.renamed[0];
                    assert_eq!((r.from.as_str(), r.to.as_str()), ("beta", "beta-yyyyyy"), "the later one moves");
                    assert!(text(&git, &xy.tree, "beta-yyyyyy/dossier.md").contains("slug: beta-yyyyyy"));
                    assert!(text(&git, &xy.tree, "beta/dossier.md").contains("slug: beta\n"));
                    assert_eq!(xy.report.clashes.len(), 1);
                    let kept = text(&git, &xy.tree, "alpha/artifacts/art_1.txt");
                    let other = text(&git, &xy.tree, &xy.report.clashes[0].other);
                    let mut both = [kept, other];
                    both.sort();
                    assert_eq!(both, ["one\n", "two\n"]);
                }
            }
        }
    }

    #[test]
    fn conflict_ids_have_the_spec_shape() {
        let id = base32(&[0xff; 17]);
        assert_eq!(id.len(), 26);
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
