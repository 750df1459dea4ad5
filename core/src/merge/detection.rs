//! Detection: which disagreements between the two sides are conflicts — the lifecycle table,
//! divergent next actions, and claim conflicts (contradictory decisions, incompatible values)
//! found through subject and word-set indexes, so only claims sharing a key are compared.
//!
//! What it is for: [`lifecycle`], [`material_next_action`] (public), [`detect_claims`] and the
//! [`Found`] conflicts before ids and grouping. Only a new source claim can conflict, and only
//! with a target claim.
//!
//! What it is not for: ids (`ids`), applying resolutions (`resolution`) or judging which side is
//! right.

use super::analysis::{Analysis, Scratch};
use super::claims::{Block, CURRENT_STATE, DECISIONS, Doc, FINDINGS, Kind, NEXT_STEPS, PREAMBLE, SITUATION};
use super::classes::{
    different_facts, entry_beside_fact, high_overlap, inter, log_entries, minus, one_thing_two_facts,
    only_units_shared, opposed, opposed_lexicon, other_scope, other_wholes_measured, reworded, same_alternative,
    same_value, same_words, stamped_entries, subset,
};
use super::ids::norm_hash;
use super::tokens::{fold_hash, words_key};
use super::types::{Certainty, ConflictKind, ConflictSide, Status};
use super::values::Value;
use super::values::{slots_meet, values_agree, values_clash, values_incompatible};
use super::weak::{detail_added, exception, kinds_apart, other_times, target_and_reading};
use super::words::synonym_of;
use crate::maps::{KeyMap, KeySet};

/// The lifecycle compatibility table. `None` means incompatible (a conflict); otherwise the
/// converged status.
///
/// | source \ target | open (`active`, `waiting`, `blocked`) | closed (`resolved`, `archived`) |
/// |---|---|---|
/// | open | compatible: the more restrictive, `blocked` > `waiting` > `active` | **conflict** |
/// | closed | **conflict** | compatible: the target's |
///
/// Equal statuses are always compatible. Open vs closed is a conflict because one side says
/// the work goes on and the other that it is over; which is true after the merge is the
/// user's call. Among open states, a merged Dossier is blocked if either part is blocked
/// (the blocker's claims come along), else waiting if either waits.
pub fn lifecycle(source: Status, target: Status) -> Option<Status> {
    if source == target {
        return Some(target);
    }
    match (source.is_open(), target.is_open()) {
        (true, true) => {
            let rank = |s: Status| match s {
                Status::Blocked => 2,
                Status::Waiting => 1,
                _ => 0,
            };
            Some(if rank(source) > rank(target) { source } else { target })
        }
        (false, false) => Some(target),
        _ => None,
    }
}

/// A side's next action: its frontmatter `next_action`, or when that is empty the first item
/// of its `## Next Steps` (with that item's line).
pub(super) fn effective_next_action(next_action: &str, doc: &Doc) -> (String, u32) {
    if !next_action.trim().is_empty() {
        return (next_action.trim().to_string(), 0);
    }
    match doc.blocks.iter().find(|b| b.sec == NEXT_STEPS && matches!(b.kind, Kind::Item | Kind::Paragraph)) {
        Some(b) => (doc.own_parts(b).collect::<Vec<_>>().join(" "), doc.lines[b.start].0),
        None => (String::new(), 0),
    }
}

/// Whether two next actions differ materially (a conflict): neither is empty, they are not
/// equal after normalisation, and neither restates the other — unless their typed values are
/// incompatible ("by June 30" / "by July 14") or one is negated and the other not, a next
/// action whose core words (content words without link verbs and value-type nouns) are all
/// among the other's is a restatement (a more detailed one), not a conflict. Any other pair
/// is the user's choice: a merged Dossier has one next action.
pub fn material_next_action(source: &str, target: &str) -> bool {
    next_action_conflict(source, target).is_some()
}

/// The tier of two next actions that differ materially ([`material_next_action`]): certain
/// when a rule says they cannot both be the plan — incompatible typed values, one negated and
/// the other not, or opposite members of one opposition group ("Enable …" / "Disable …") —
/// and possible otherwise: two actions in other words may reword one plan ("Email the vendor
/// about X" / "Call the vendor about X"), so keeping both (the source's becomes a next
/// step) is the suggested answer.
pub fn next_action_conflict(source: &str, target: &str) -> Option<Certainty> {
    next_action_relation(source, target).filter(|r| r.1 != Some(H_SAME_ACTION)).map(|r| r.0)
}

/// Issue 19, sixth round: next actions are always compared. Two that are neither empty, nor
/// equal after normalisation, nor one a more detailed restatement of the other (its core words
/// all among the other's) are listed: as [`next_action_conflict`] says, or — when the rules
/// read them as one action in other words (verb classes, generic verbs, reordered verbs) —
/// possible with the compatible hint [`H_SAME_ACTION`].
pub fn next_action_relation(source: &str, target: &str) -> Option<(Certainty, Option<&'static str>)> {
    match next_action_tier(source, target) {
        NextTier::Conflict(c) => Some((c, None)),
        NextTier::OtherVerb => Some((Certainty::Possible, Some(H_OTHER_VERB))),
        NextTier::Reworded => Some((Certainty::Possible, Some(H_SAME_ACTION))),
        NextTier::Same => None,
    }
}

/// What [`next_action_tier`] reads two next actions as.
enum NextTier {
    /// Empty, equal after normalisation, or one containing the other: nothing to ask.
    Same,
    /// One action in other words (verb classes, generic verbs, reordered verbs).
    Reworded,
    /// The same objects with another verb, neither a word of the opposition lexicon nor one
    /// that halts or undoes a plan (eighth round): probably one action in other words, listed
    /// with the hint [`H_OTHER_VERB`].
    OtherVerb,
    Conflict(Certainty),
}

fn next_action_tier(source: &str, target: &str) -> NextTier {
    match next_action_tier_inner(source, target) {
        Ok(None) => NextTier::OtherVerb,
        Ok(Some(c)) => NextTier::Conflict(c),
        Err(reworded) => {
            if reworded {
                NextTier::Reworded
            } else {
                NextTier::Same
            }
        }
    }
}

/// `Ok(Some(tier))` for a conflict, `Ok(None)` for the same objects with another verb;
/// `Err(true)` for one action reworded, `Err(false)` for nothing.
fn next_action_tier_inner(source: &str, target: &str) -> Result<Option<Certainty>, bool> {
    // Ninth round: a next action written as a quoted string ("\"At week four, go through …\"")
    // is read without its quotes (a leading adverbial is found after them).
    let unquote =
        |x: &'_ str| -> String { x.trim().trim_matches(|c| matches!(c, '"' | '\'' | '“' | '”')).to_string() };
    let (source, target) = (&unquote(source)[..], &unquote(target)[..]);
    if source.trim().is_empty() || target.trim().is_empty() || norm_hash(source) == norm_hash(target) {
        return Err(false);
    }
    let mut scratch = Scratch::default();
    let a = scratch.analyse([source].into_iter(), false, false);
    let b = scratch.analyse([target].into_iter(), false, false);
    if values_incompatible(&a.values, &b.values) || a.negated != b.negated || opposed(&a, &b) {
        return Ok(Some(Certainty::Certain));
    }
    // One verb with other particles ("Roll back release 4.2" / "Roll forward release 4.2 …",
    // "Scale up" / "Scale down"): two actions, whatever else they share (fifth round).
    if let (Some(pa), Some(pb)) = (particle(source), particle(target))
        && pa.0 == pb.0
        && pa.1 != pb.1
    {
        return Ok(Some(Certainty::Possible));
    }
    let (wa, wb) = (action_words(&a.core_words), action_words(&b.core_words));
    if subset(&wa, &wb) || subset(&wb, &wa) {
        return Err(false);
    }
    // Fourth round: one action named by verbs of one class, or by a generic verb ("Handle the
    // vendor renewal" / "Renew the vendor contract"), on the same objects after normalisation
    // (stems, word order aside): a restatement.
    let ((va, oa), (vb, ob)) = (action_parts(source, &a), action_parts(target, &b));
    let one_action =
        va.map(|v| v.class) == vb.map(|v| v.class) || va.is_none_or(|v| v.generic) || vb.is_none_or(|v| v.generic);
    // Each side's names among the other's words: "Book the venue in Leeds" / "… in York" differ.
    // (A capitalised first word is the verb, not a name.)
    let first_stem = |x: &str| {
        x.split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty())
            .map(|w| super::analysis::stem(&w.to_lowercase()))
    };
    let (na, nb) = (
        a.name_stems.iter().copied().filter(|&w| Some(w) != first_stem(source)).collect::<Vec<_>>(),
        b.name_stems.iter().copied().filter(|&w| Some(w) != first_stem(target)).collect::<Vec<_>>(),
    );
    let names = subset(&na, &b.stems) && subset(&nb, &a.stems);
    let shared = inter(&oa, &ob).len();
    let smaller = oa.len().min(ob.len());
    let objects = subset(&oa, &ob)
        || subset(&ob, &oa)
        || (names && shared >= 2 && 2 * shared >= smaller + usize::from(smaller > 3));
    // The same words in another order ("Pack and label …" / "Label and pack …").
    let crossed =
        |v: Option<ActionVerb>, other: &Analysis| v.is_some_and(|v| other.stems.binary_search(&v.stem).is_ok());
    let reordered = crossed(va, &b) && crossed(vb, &a);
    if (one_action && objects) || ((one_action || reordered) && names && high_overlap(&a.stems, &b.stems)) {
        return Err(true);
    }
    // Eighth round: the same objects and names with verbs of other classes ("Trial the Citra dry
    // hop in FV4" / "Run the Citra dry-hop trial on fermenter 4"), when neither action uses a
    // word of the opposition lexicon nor a verb that halts or undoes a plan ("Hold the DPA" /
    // "Send the DPA"; "Reopen the period" / "Lock the period").
    let halts = |x: &str| first_stem(x).is_some_and(|w| HALTING.iter().any(|h| super::analysis::stem(h) == w));
    if objects && names && a.poles.is_empty() && b.poles.is_empty() && !halts(source) && !halts(target) {
        return Ok(None);
    }
    // Ninth round: the same things named in other words ("Finish casting show four" / "Cast
    // the fourth show"; "Move six more clinics onto central booking" / "Migrate the next six
    // clinics to the central booking tool"), when the verbs are linked — one class, a generic
    // verb, one's verb among the other's words ("casting"), or one the other's with *re-*
    // ("Reorder" / "Order") — neither halts a plan, and not both name something the other
    // does not.
    let linked = one_action || reordered || crossed(va, &b) || crossed(vb, &a) || re_verb(va, vb) || re_verb(vb, va);
    let names_apart = !subset(&na, &b.stems) && !subset(&nb, &a.stems);
    if linked && !names_apart && !halts(source) && !halts(target) && same_things(source, target, &oa, &ob) {
        return Ok(None);
    }
    // Thirteenth round: one action's objects inside the other's ("Rewrite the settings screen
    // in Jetpack Compose" / "Migrate the settings screen to Compose"), whatever the verbs —
    // not a word of the opposition lexicon on one side only ("Release the booking" / "Confirm
    // the booking", "Enable INT8" / "Roll back INT8": one undoes the other), no particle, not
    // names apart, not a verb that halts.
    let contained = !oa.is_empty() && !ob.is_empty() && (subset(&oa, &ob) || subset(&ob, &oa));
    let plain = a.poles == b.poles && particle(source).is_none() && particle(target).is_none();
    if contained && plain && !names_apart && !halts(source) && !halts(target) {
        return Ok(None);
    }
    Ok(Some(Certainty::Possible))
}

/// Whether verb `x` is verb `y` with *re-* ("reorder" / "order", "reschedule" / "schedule").
fn re_verb(x: Option<ActionVerb>, y: Option<ActionVerb>) -> bool {
    let (Some(x), Some(y)) = (x, y) else { return false };
    x.re_stem != 0 && x.re_stem == y.stem
}

/// Ninth round: whether two next actions' objects (`oa`, `ob`: stems without the verb) name
/// the same things — counts read as numbers whether written as digits, words or ordinals
/// ("show four" / "the fourth show", "incubator number three" / "the third incubator", "18 pt"
/// / "18pt") — sharing at least 2 and at least two thirds of the smaller side's.
fn same_things(source: &str, target: &str, oa: &[u64], ob: &[u64]) -> bool {
    let things = |text: &str, objects: &[u64]| {
        let mut counts: Vec<u64> = Vec::new();
        let mut drop: Vec<u64> = Vec::new();
        for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            let lw = w.to_lowercase();
            if let Some(n) = super::values::count_of(&lw) {
                counts.push(n | 1 << 63);
                drop.push(super::analysis::stem(&lw));
            }
        }
        drop.sort_unstable();
        let mut v = minus(objects, &drop);
        v.extend(counts);
        v.sort_unstable();
        v.dedup();
        v
    };
    let (a, b) = (things(source, oa), things(target, ob));
    let shared = inter(&a, &b).len();
    shared >= 2 && 3 * shared >= 2 * a.len().min(b.len())
}

/// A next action's verb and the particle right after it ("roll *back*", "scale *down*"),
/// lower-cased, when it has one.
fn particle(text: &str) -> Option<(String, &'static str)> {
    let mut words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .skip_while(|w| ["to", "we", "will", "next", "then", "first", "please", "i", "let's"].contains(&w.as_str()));
    let verb = words.next()?;
    let next = words.next()?;
    const PARTICLES: &[&str] = &["back", "forward", "up", "down", "in", "out", "off", "on", "away", "over"];
    PARTICLES.iter().find(|p| **p == next).map(|p| (verb, *p))
}

/// The verb of a next action: its class in [`ACTION_CLASSES`] (or its stem), and whether it
/// is generic ([`GENERIC_ACTIONS`]: "handle", "sort out", "follow up on").
#[derive(Clone, Copy, PartialEq, Eq)]
struct ActionVerb {
    class: u64,
    generic: bool,
    stem: u64,
    /// The verb's stem without a leading *re-* ("reorder": *order*), 0 when it has none.
    re_stem: u64,
}

/// A next action's verb (its first word, after "To", "We will", "Next:") and its objects: the
/// stems of its other content words, the words of a generic verb ("care" in "take care of")
/// left out.
fn action_parts(text: &str, a: &Analysis) -> (Option<ActionVerb>, Vec<u64>) {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    // A leading adverbial ("At week four, go through …") says when, not what.
    let lead = match text.split_once(',') {
        Some((head, _))
            if ["at", "on", "in", "by", "after", "before", "during", "from", "once", "when"]
                .contains(&head.split_whitespace().next().unwrap_or("").to_lowercase().as_str())
                && head.split_whitespace().count() <= 5 =>
        {
            head.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-')).filter(|w| !w.is_empty()).count()
        }
        _ => 0,
    };
    let first = words
        .iter()
        .enumerate()
        .skip(lead)
        .find(|(_, w)| !["to", "we", "will", "next", "then", "first", "please", "i", "let's"].contains(&w.as_str()))
        .map(|(k, _)| k);
    let Some(f) = first else { return (None, a.stems.clone()) };
    let verb = words[f].as_str();
    let generic = GENERIC_ACTIONS.iter().find(|g| {
        let parts: Vec<&str> = g.split(' ').collect();
        words[f..].iter().map(String::as_str).take(parts.len()).eq(parts.iter().copied())
    });
    let mut drop: Vec<u64> = vec![super::analysis::stem(verb)];
    if let Some(g) = generic {
        drop.extend(g.split(' ').map(super::analysis::stem));
    }
    drop.sort_unstable();
    let objects = minus(&a.stems, &drop);
    let class = ACTION_CLASSES
        .iter()
        .position(|row| {
            row.iter().any(|v| {
                let parts: Vec<&str> = v.split(' ').collect();
                words[f..].iter().map(String::as_str).take(parts.len()).eq(parts.iter().copied())
            })
        })
        .map_or(super::analysis::stem(verb), |c| c as u64 | 1 << 63);
    let re_stem = verb.strip_prefix("re").filter(|r| r.len() >= 3).map_or(0, super::analysis::stem);
    (Some(ActionVerb { class, generic: generic.is_some(), stem: super::analysis::stem(verb), re_stem }), objects)
}

/// Verbs that name one action in a next action (fourth round): a class per action, the
/// third round's [`ACTION_SYNONYMS`] rows widened.
const ACTION_CLASSES: &[&[&str]] = &[
    &["send", "share", "email", "forward", "circulate", "distribute", "mail", "submit", "deliver", "hand"],
    &["schedule", "set", "arrange", "organise", "organize", "book", "reserve", "plan", "convene", "hold", "run"],
    &[
        "check",
        "validate",
        "verify",
        "cross-check",
        "confirm",
        "review",
        "audit",
        "inspect",
        "test",
        "assess",
        "evaluate",
        "examine",
        "go through",
        "go over",
        "look over",
        "look at",
    ],
    &["draft", "write", "prepare", "compile", "produce", "put", "create", "author"],
    &[
        "ask", "request", "query", "chase", "remind", "ping", "contact", "reach", "message", "call", "phone", "ring",
        "email",
    ],
    &["fix", "repair", "correct", "resolve", "patch", "mend"],
    &["update", "revise", "amend", "edit", "change", "refresh", "modify", "adjust", "rework"],
    &["finalise", "finalize", "finish", "complete", "close", "wrap", "conclude"],
    &["buy", "order", "purchase", "procure", "source"],
    &["meet", "discuss", "talk", "sync"],
    &["analyse", "analyze", "investigate", "study", "explore", "research", "examine", "dig"],
    &["install", "fit", "deploy", "roll", "ship", "release", "launch", "extend", "expand", "introduce", "bring"],
    &["sign", "countersign", "execute", "sign off", "approve"],
    // Ninth round: moving something somewhere.
    &["move", "migrate", "transfer", "relocate", "shift", "port"],
    &["agree", "decide", "settle", "align"],
    &["get", "obtain", "collect", "gather", "fetch", "retrieve"],
    &["train", "onboard", "brief", "coach"],
];

/// Generic verbs of a next action: they name no action of their own ("Handle the vendor
/// renewal", "Sort out the rota", "Follow up on the invoice").
const GENERIC_ACTIONS: &[&str] = &[
    "follow up on",
    "follow up with",
    "follow up",
    "take care of",
    "sort out",
    "deal with",
    "look into",
    "work on",
    "handle",
    "do",
    "action",
    "progress",
    "tackle",
    "address",
    "own",
    "pick up",
];

/// Verbs that name one action in a next action (issue 19, third round), folded to the first
/// of their row: "Send the director the shortlist" / "Share the shortlist with the director";
/// "Set up the review meeting" / "Schedule the review"; "Check the maps against the probes" /
/// "Validate the maps against the probes". Only next actions are compared this way: as
/// nouns, several of these words say other things ("market share", "a check").
const ACTION_SYNONYMS: &[&[&str]] = &[
    &["send", "share", "email", "forward", "circulate"],
    &["schedule", "set", "arrange", "organise", "organize", "book", "plan"],
    &["check", "validate", "verify", "cross-check", "confirm"],
    &["draft", "write", "prepare"],
    &["ask", "request"],
    &["call", "phone", "ring"],
    &["fix", "repair", "correct"],
];

/// Sorted `words` with [`ACTION_SYNONYMS`] folded and the words they make redundant
/// (*up*, *meeting*, *readings*) left as they are.
fn action_words(words: &[u64]) -> Vec<u64> {
    let mut out: Vec<u64> = words
        .iter()
        .map(|&w| {
            ACTION_SYNONYMS.iter().find(|row| row.iter().any(|v| fold_hash(v) == w)).map_or(w, |row| fold_hash(row[0]))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A detected disagreement before ids and grouping.
pub(super) struct Found {
    pub(super) kind: ConflictKind,
    /// Hash of the normalised subject (bucket key), part of the id.
    pub(super) key: u64,
    pub(super) subject: String,
    pub(super) source: ConflictSide,
    pub(super) target: ConflictSide,
    /// Hashes of both claims' normalised texts.
    pub(super) norms: (u128, u128),
    /// (source block, target block) pairs this conflict covers (none for status/next action).
    pub(super) pairs: Vec<(usize, usize)>,
    /// Sort key: (group, target line, source line). Groups: 0 status, 1 next action, 2
    /// certain claims, 3–4 possible (strongest relation first), 5–6 possible with a hint.
    pub(super) order: (u8, u32, u32),
    pub(super) certainty: Certainty,
    /// Why the rules think the pair compatible (possible conflicts only; sixth round).
    pub(super) hint: Option<String>,
    /// How related the two claims are (shared stems, subject, head): ranks a source claim's
    /// pairs for the cap of [`MAX_LISTED`].
    pub(super) strength: u32,
    /// The (source, target) units the conflict was found on (claim conflicts only): what the
    /// eighth round's classes read ([`eighth_round`]).
    pub(super) units: Option<(Unit, Unit)>,
}

/// Each source claim is listed against at most this many target claims (issue 19, sixth
/// round: bound the burden), its most related first; certain conflicts are always listed. The
/// rest are counted (`MergePlan::unlisted_related`), never dropped silently.
pub(super) const MAX_LISTED: usize = 2;

/// How related two units are, for ranking: shared stems, and more for a shared subject key
/// (or, since the ninth round, a cause on both sides) or head word.
fn strength(s: &Analysis, t: &Analysis) -> u32 {
    let n = inter(&s.stems, &t.stems).len() as u32;
    // Ninth round: two causes are one slot ("Batch 44 was held because …" / "The hold on batch
    // 44 was caused by …"): related through a shared word, they rank as a shared subject.
    let causes = s.cause && t.cause && n > 0;
    n + if (s.subject.is_some() && s.subject == t.subject) || causes { 4 } else { 0 }
        + if s.head != 0 && s.head == t.head { 2 } else { 0 }
}

/// Possible tier and extensions: a word, subject, head word or bare decision verb found in
/// more target claims than this is too common to relate two claims: it is not looked up
/// (the subject and word-set rules of the certain tier still compare every claim).
const MAX_POSTING: usize = 64;

/// Possible tier: two claims share enough content words when they share at least this many...
const MIN_SHARED: usize = 2;

/// Scope words of a claim: its qualifiers and the words after *for*/*in* in its subject.
fn scope(x: &Analysis) -> Vec<u64> {
    let mut q = [&x.qualifiers[..], &x.scope[..]].concat();
    q.sort_unstable();
    q.dedup();
    q
}

/// Whether two claims can be compared beyond their subject and word-set keys: same section or
/// both in Decisions, Findings or Current State, and scopes that do not rule each other out.
fn comparable(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> bool {
    if s_sec != t_sec && !(cross_section(s_sec) && cross_section(t_sec)) {
        return false;
    }
    // One subject and no leading adverbial (fifth round): an *in*/*for* phrase of the
    // predicate is what is said of the subject ("Disputes are heard in Dublin" / "… in
    // London"; "MV Ailsa is back in service" / "… waiting for a replacement propeller"), not
    // which part of the world the claim is about; the subjects' own scopes still are.
    let (qs, qt) = if s.subject.is_some() && s.subject == t.subject && !s.leading_scope && !t.leading_scope {
        (s.scope.clone(), t.scope.clone())
    } else {
        (scope(s), scope(t))
    };
    (qs.is_empty() || qt.is_empty() || subset(&qs, &qt) || subset(&qt, &qs)) && !scoped_apart(s, t)
}

/// Whether two claims name words of one category of the qualifier table
/// ([`super::words::QUALIFIER_TABLE`]: platform, customer tier or segment, region) and
/// neither's words of it contain the other's: scoped differently ("on Android" / "on iOS").
fn scoped_apart(s: &Analysis, t: &Analysis) -> bool {
    scoped_apart_in(s, t).is_some()
}

/// [`scoped_apart`], with the category of the qualifier table that keeps them apart.
fn scoped_apart_in(s: &Analysis, t: &Analysis) -> Option<u8> {
    if s.scoped.is_empty() || t.scoped.is_empty() {
        return None;
    }
    // Both sorted by (category, word): words of category `c` of one all among the other's.
    let within = |x: &Analysis, y: &Analysis, c: u8| {
        x.scoped.iter().filter(|p| p.0 == c).all(|p| y.scoped.binary_search(p).is_ok())
    };
    s.scoped
        .iter()
        .map(|&(c, _)| c)
        .find(|&c| t.scoped.iter().any(|p| p.0 == c) && !within(s, t, c) && !within(t, s, c))
}

/// Different measures of one thing (issue 19, third round): both claims state typed values
/// and none of one family ([`slots_meet`]: "Availability … was 99.7 %" / "Median downlink …
/// is 180 Mbit/s"), or at least one states a value and both name what they measure before a
/// preposition with words that share nothing ("Handover success on the Leeds cluster is
/// 98.9 %" / "The dropped-call rate on the Leeds cluster is 0.4 %"; "… the October drive test
/// of the Leeds cluster is complete"). Not when they have the same subject key.
fn other_measures(s: &Analysis, t: &Analysis) -> bool {
    if s.subject.is_some() && s.subject == t.subject {
        return false;
    }
    if s.values.is_empty() && t.values.is_empty() {
        return false; // a measure states a value
    }
    if s.cause && t.cause {
        return false; // two causes of one thing (fifth round)
    }
    let attributes = !s.attribute.is_empty() && !t.attribute.is_empty() && inter(&s.attribute, &t.attribute).is_empty();
    let quantities = !s.values.is_empty() && !t.values.is_empty() && !slots_meet(&s.values, &t.values);
    quantities || attributes
}

/// Different things done to one subject (fourth round): both predicates open with a past
/// participle after a link verb, and they differ ("Accessions are labelled by storage
/// temperature" / "New accessions are dried to 15 % relative humidity"), with no clash stated
/// outright — additive facts, like two measures with different attributes.
fn other_actions(s: &Analysis, t: &Analysis) -> bool {
    s.action != 0 && t.action != 0 && s.action != t.action && !stated_clash(s, t)
}

/// A decision against a finding or a Current State claim: a choice and an observation.
fn across_kinds(s_sec: usize, t_sec: usize) -> bool {
    (s_sec == DECISIONS) != (t_sec == DECISIONS)
}

/// A clash the two claims state outright: typed values of one kind and unit that differ, one
/// negated and the other not, or opposite members of one group of the lexicon.
fn stated_clash(s: &Analysis, t: &Analysis) -> bool {
    values_clash(&s.values, &t.values) || s.negated != t.negated || opposed(s, t)
}

/// Additive claims (issue 19, third round): a decision and a finding or Current State claim
/// about one thing are a choice and an observation of it ("The Hamburg lane is dual-sourced"
/// / "The Hamburg lane carries 220 pallets a week"; "First response target: 120 minutes" /
/// "Median first response is 95 minutes"): related only when they share the subject key or
/// head word and state a clash.
fn additive(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> bool {
    if !across_kinds(s_sec, t_sec) {
        return false;
    }
    let same = (s.subject.is_some() && s.subject == t.subject) || (s.head != 0 && s.head == t.head);
    !(same && stated_clash(s, t))
}

/// Progress-log steps (issue 19, third round): two Current State claims with the same
/// polarity, neither asserting its state to the exclusion of another (`exclusive`: *still,
/// yet, only, all, complete, blocked* …), without opposite lexicon members or clashing
/// values, are successive states of one thing ("The draft is ready" / "The draft was reviewed
/// by the CFO on 3 May"; "Rev B boards are ordered" / "Rev B boards arrived on 12 March").
fn progress_steps(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> bool {
    // Two log entries with different stamps ("Week 10 (6 March): units fitted in 190 vans" /
    // "Week 12 (20 March): … in 210 vans"): successive steps, in any section (fourth round).
    if s.log_label != 0 && t.log_label != 0 && s.log_label != t.log_label && s.negated == t.negated && !opposed(s, t) {
        return true;
    }
    if s_sec != CURRENT_STATE || t_sec != CURRENT_STATE || s.negated || t.negated || opposed(s, t) {
        return false;
    }
    // Each naming someone or something the other does not ("Kezia Obi owns the log" / "The
    // log is owned by Tom Bellamy"): one value swapped for another, not a step (fourth round).
    if !subset(&s.name_stems, &t.stems) && !subset(&t.name_stems, &s.stems) {
        return false;
    }
    let dated = |x: &Analysis| x.values.iter().any(|v| matches!(v, Value::Date { .. }));
    let undated =
        |x: &Analysis| x.values.iter().filter(|v| !matches!(v, Value::Date { .. })).copied().collect::<Vec<_>>();
    if values_clash(&undated(s), &undated(t)) {
        return false;
    }
    // A dated log: each step says when ("started on 4 August" / "finished on 20 October").
    if dated(s) && dated(t) && !values_agree(&s.values, &t.values) {
        return true;
    }
    // Otherwise neither asserts its state to the exclusion of another, nor uses a word of the
    // lexicon the other does not (one of two exclusive states: "closed", "paused").
    // (Fourth round: a first member, "published", "started", is a step; a later one, "closed",
    // "paused", "withdrawn", one of two exclusive states.)
    !s.exclusive && !t.exclusive && s.later_pole_words == t.later_pole_words && !values_clash(&s.values, &t.values)
}

/// Restatement by overlap (issue 19, third round): the same polarity, the same typed value
/// (or none on either side), no opposition, the same lexicon words, the same names (a capitalised word of one is among the other's words), and at
/// least 3 shared stems that are at least three quarters of the smaller claim's ("Interviewers
/// never ask candidates about their previous salary" / "We do not ask for salary history in
/// interviews").
fn restated(s: &Analysis, t: &Analysis) -> bool {
    // A yes/no (enabled, disabled) on one side only is a state the other does not state.
    let lone_bool = |x: &Analysis, y: &Analysis| {
        x.values.iter().any(|v| matches!(v, Value::Bool(_))) && !y.values.iter().any(|v| matches!(v, Value::Bool(_)))
    };
    let same_values = values_agree(&s.values, &t.values)
        || (!values_incompatible(&s.values, &t.values) && !lone_bool(s, t) && !lone_bool(t, s));
    if s.negated != t.negated || opposed(s, t) || !same_values {
        return false;
    }
    // The negative member of a polarity group on one side only ("retire", "pause", "remove")
    // is what a change says; so are lexicon words on both sides that differ ("Decrease the
    // rate" / "Increase the rate … to shorten each run").
    let both_poles = !s.pole_words.is_empty() && !t.pole_words.is_empty();
    if s.neg_pole != t.neg_pole || (both_poles && s.pole_words != t.pole_words) {
        return false;
    }
    if s.acronyms.is_empty() && t.acronyms.is_empty() {
        return subset(&s.name_stems, &t.stems) && subset(&t.name_stems, &s.stems) && high_overlap(&s.stems, &t.stems);
    }
    let ((a, sa), (b, sb)) = (expand_acronyms(s, t), expand_acronyms(t, s));
    subset(&minus(&s.name_stems, &sa), &b) && subset(&minus(&t.name_stems, &sb), &a) && high_overlap(&a, &b)
}

/// `x`'s stems, with each short capitalised word of `x` that spells the initials of
/// consecutive content words of `y` ("BTO" / "British Trust (for) Ornithology", "LC-MS" /
/// "liquid chromatography-mass spectrometry") replaced by those words' stems, sorted; and the
/// acronym's own stem kept when it is also `y`'s; and the stems replaced (sorted).
fn expand_acronyms(x: &Analysis, y: &Analysis) -> (Vec<u64>, Vec<u64>) {
    let mut out = x.stems.clone();
    let mut replaced = Vec::new();
    for (word, st) in &x.acronyms {
        let letters = word.letters();
        if y.stems.binary_search(st).is_ok() || letters.len() > y.seq.len() {
            continue;
        }
        if let Some(p) = (0..=y.seq.len() - letters.len())
            .find(|&p| y.seq[p..p + letters.len()].iter().map(|c| c.0).eq(letters.iter().copied()))
        {
            out.retain(|w| w != st);
            out.extend(y.seq[p..p + letters.len()].iter().map(|c| c.1));
            replaced.push(*st);
        }
    }
    out.sort_unstable();
    out.dedup();
    replaced.sort_unstable();
    (out, replaced)
}

/// A negation met by a negative verb that says the same thing (issue 19, third round): the
/// words other than the lexicon's overlap as for [`restated`] ("The next release no longer
/// supports Python 3.8" / "Drop support for Python 3.8 in the next release"), and no typed
/// values clash. Not a conflict at all.
fn negation_restated(s: &Analysis, t: &Analysis) -> bool {
    let (a, b) = (minus(&s.core_words, &s.pole_words), minus(&t.core_words, &t.pole_words));
    !values_incompatible(&s.values, &t.values) && (subset(&a, &b) || subset(&b, &a) || high_overlap(&a, &b))
}

/// One negated and the other using the negative member of a polarity group ("X is no
/// longer supported" / "Drop support for X"): the same sense in other words.
fn same_sense(s: &Analysis, t: &Analysis) -> bool {
    s.negated != t.negated && (s.negated ^ s.neg_pole) == (t.negated ^ t.neg_pole)
}

/// Compatible hints (issue 19, sixth round): why the rules think a listed pair is compatible.
/// The compatible filters of rounds 3–5 no longer drop a related pair; they demote it, with
/// one of these as its `compatible_hint`.
pub(super) const H_SITUATION: &str = "framing of the situation, not a claim to choose between";
pub(super) const H_SCOPE: &str = "the same claim for something else (their for/in phrases differ)";
pub(super) const H_SUBJECTS: &str = "about different subjects";
pub(super) const H_SAME_VALUE: &str = "the same value, in other units or words";
pub(super) const H_ADDITIVE: &str = "a decision and an observation of it";
pub(super) const H_ACTIONS: &str = "different things done to one subject";
pub(super) const H_MEASURES: &str = "other measures of one thing";
pub(super) const H_STEPS: &str = "a later step of the same log";
pub(super) const H_RESTATED: &str = "a restatement in other words";
pub(super) const H_NEG_VERB: &str = "the same said with a negative verb";
pub(super) const H_SAME_ACTION: &str = "the same action in other words";
/// Ninth round: two claims whose only shared words are the units of their values.
pub(super) const H_ONLY_UNITS: &str = "little in common (only the unit of their values)";
/// Eighth round: two next actions on the same objects with verbs of other classes.
pub(super) const H_OTHER_VERB: &str = "the same objects with another verb: probably one action in other words";

/// Verbs that halt, postpone or undo a plan (eighth round): a next action opening with one is
/// not the other's action in other words, whatever objects they share.
const HALTING: &[&str] = &[
    "hold", "pause", "postpone", "defer", "delay", "stop", "halt", "cancel", "withdraw", "withhold", "revert", "undo",
    "reopen", "lock", "freeze", "drop", "reject", "decline", "scrap", "abandon", "suspend", "recall", "keep", "retire",
    "remove", "close", "write", "skip", "block", "reverse",
];

/// Why the rules think two related claims are compatible, if they do (the filters of rounds
/// 3–5, first that applies): a Situation framing sentence, scopes of the qualifier table or
/// *for*/*in* phrases that differ, two subjects with nothing in common, the same value, a
/// decision and an observation, different actions or measures of one thing, progress-log
/// steps, a restatement by overlap, a negation met by a negative verb.
pub(super) fn compatible_hint(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> Option<String> {
    if s_sec == SITUATION || t_sec == SITUATION {
        return Some(H_SITUATION.into());
    }
    if let Some(c) = scoped_apart_in(s, t) {
        let category = super::words::QUALIFIER_TABLE[c as usize].0;
        return Some(format!("the same claim for another {category}"));
    }
    if !comparable(s, t, s_sec, t_sec) {
        return Some(H_SCOPE.into());
    }
    let same_head = s.head != 0 && s.head == t.head;
    if s.subject.is_some() && t.subject.is_some() && !same_head && inter(&s.subject_words, &t.subject_words).is_empty()
    {
        return Some(H_SUBJECTS.into());
    }
    let hint = if s.negated == t.negated && values_agree(&s.values, &t.values) {
        H_SAME_VALUE
    } else if additive(s, t, s_sec, t_sec) {
        H_ADDITIVE
    } else if other_actions(s, t) {
        H_ACTIONS
    } else if other_measures(s, t) {
        H_MEASURES
    } else if progress_steps(s, t, s_sec, t_sec) {
        H_STEPS
    } else if restated(s, t) {
        H_RESTATED
    } else if same_sense(s, t) && negation_restated(s, t) {
        H_NEG_VERB
    } else {
        return None;
    };
    Some(hint.into())
}

/// The hint of a pair only weakly related: no rule relates it, and no compatible filter says
/// why it is compatible; it shares `n` words.
fn weak_hint(n: usize) -> String {
    if n == 1 { "little in common (one shared word)".into() } else { format!("little in common ({n} shared words)") }
}

/// The certain tier's extensions (docs/merge.md, "Certain tier: extensions"), for two
/// comparable claims that the subject and word-set rules did not flag, in this order:
///
/// 0. **place** — the same subject, no typed values, the same predicate words with a verb of
///    place (*hosted, based, located, stored, runs* …) and different *in* qualifiers ("hosted
///    in Frankfurt" / "hosted in Dublin"); checked before scopes rule a pair out;
/// 1. **textual value** (same subject) — no typed values, the same polarity, predicates that
///    share a word and each have 1 to 3 words the other lacks ("The outage was caused by a
///    DNS change" / "... by an expired certificate");
/// 2. **nested subjects** — one's subject words inside the other's ("database" / "primary
///    database"): the subject rules apply;
/// 3. **opposition** — the same polarity, about the same thing (same subject or head word, or
///    shared core words outside the lexicon at least half of the smaller claim's), and for a
///    group of the opposition lexicon both use members of it but no common one ("weekly" /
///    "monthly", "raise" / "lower");
/// 4. **mirrored alternatives** — a word one claim says (core words) is one the other rejects
///    (", not X", ", never X", "rather than X", "(was X)"), and it is not also among that
///    claim's own words; both decisions, or sharing a core word ("A, never B" / "B, never A");
/// 5. **substitution** — not two different subjects, the same polarity, each has 1 or 2 core
///    words the other lacks, and they share at least twice as many ("Priya owns the billing migration" / "Marco owns the
///    billing migration", "hosted in Frankfurt" / "hosted in Dublin");
/// 6. **bare decisions** — two decisions of the shape "<verb> <choice>" with no subject,
///    neither negated, the same verb family, and no choice word in common ("Use Postgres." /
///    "Use SQLite.").
///
/// Returns the conflict's kind and the words it is about (sorted; may be empty).
pub(super) fn extended_conflict(
    s: &Analysis,
    t: &Analysis,
    s_sec: usize,
    t_sec: usize,
) -> Option<(ConflictKind, Vec<u64>)> {
    let kind =
        if s.decision && t.decision { ConflictKind::ContradictoryDecision } else { ConflictKind::IncompatibleValue };
    let same_subject = s.subject.is_some() && s.subject == t.subject;
    let sections = s_sec == t_sec || (cross_section(s_sec) && cross_section(t_sec));
    if sections
        && same_subject
        && s.scope == t.scope
        && s.values.is_empty()
        && t.values.is_empty()
        && s.negated == t.negated
        && !s.qualifiers.is_empty()
        && !t.qualifiers.is_empty()
        && !subset(&s.qualifiers, &t.qualifiers)
        && !subset(&t.qualifiers, &s.qualifiers)
        && LOCATED.iter().any(|w| {
            let k = fold_hash(synonym_of(w).unwrap_or(w));
            s.choice.contains(&k) && t.choice.contains(&k)
        })
    {
        // "The warehouse is hosted in Frankfurt" / "... in Dublin": the place is the value.
        return Some((kind, s.subject_words.clone()));
    }
    // Mirrored alternatives before scopes: "in spring, never in autumn" / "in autumn rather
    // than in spring" differ in scope precisely because they mirror each other.
    let mirrored = |x: &Analysis, y: &Analysis| {
        x.core_words.iter().any(|w| y.rejected.binary_search(w).is_ok() && y.core_words.binary_search(w).is_err())
    };
    // Both decisions suffice when neither names what it is about (fourth round: "Attendance goes
    // into the LMS within a day of each lesson" / "Placement tests are taken before enrolment,
    // not in the first lesson" share a rejected word and two subjects).
    let subjects_apart =
        s.subject.is_some() && t.subject.is_some() && inter(&s.subject_words, &t.subject_words).is_empty();
    if sections
        && (mirrored(s, t) || mirrored(t, s))
        && ((s.decision && t.decision && !subjects_apart) || !inter(&s.core_words, &t.core_words).is_empty())
    {
        return Some((kind, inter(&s.core_words, &t.core_words)));
    }
    if !comparable(s, t, s_sec, t_sec) {
        return None;
    }
    if same_subject && s.values.is_empty() && t.values.is_empty() && s.negated == t.negated {
        let common = inter(&s.choice, &t.choice).len();
        let (d1, d2) = (minus(&s.choice, &t.choice).len(), minus(&t.choice, &s.choice).len());
        if common >= 1 && (1..=3).contains(&d1) && (1..=3).contains(&d2) {
            // "The outage was caused by a DNS change" / "... by an expired certificate".
            return Some((kind, s.subject_words.clone()));
        }
    }
    let (ss, ts) = (&s.subject_words, &t.subject_words);
    if !ss.is_empty()
        && !ts.is_empty()
        && s.subject != t.subject
        && (subset(ss, ts) || subset(ts, ss))
        && subject_conflict(s, t).is_some()
    {
        return Some((kind, inter(ss, ts)));
    }
    let shared = inter(&s.core_words, &t.core_words);
    if s.negated == t.negated && !s.poles.is_empty() && !t.poles.is_empty() {
        let (a, b) = (
            minus(&minus(&s.core_words, &s.pole_words), &s.alt_words),
            minus(&minus(&t.core_words, &t.pole_words), &t.alt_words),
        );
        let common = inter(&a, &b).len();
        let same_thing = (s.subject.is_some() && s.subject == t.subject)
            || (s.head != 0 && s.head == t.head)
            || (common >= 1 && 2 * common >= a.len().min(b.len()));
        // Alternatives of the table (fourth round) oppose only claims that measure one thing:
        // "free trials last 14 days" / "Trial-to-paid conversion is 9 %" do not pick a price.
        // A decision and an observation oppose each other only on one subject (`additive`).
        if same_thing
            && !additive(s, t, s_sec, t_sec)
            && (opposed_lexicon(s, t) || (opposed(s, t) && !other_measures(s, t)))
        {
            return Some((kind, inter(&a, &b)));
        }
    }
    if s.bare_verb != 0
        && s.bare_verb == t.bare_verb
        && !s.negated
        && !t.negated
        && s_sec == DECISIONS
        && t_sec == DECISIONS
        && inter(&s.choice, &t.choice).is_empty()
    {
        return Some((ConflictKind::ContradictoryDecision, Vec::new()));
    }
    // Substitution cannot tell a changed value ("Priya owns …" / "Marco owns …") from a
    // restatement or a progress step ("Design review done" / "Security review done"): a
    // possible conflict (`RelatedClaims`).
    let different_subjects = s.subject.is_some() && t.subject.is_some() && s.subject != t.subject;
    // Not what the third round reads as compatible (docs/merge.md, "Third round").
    let compatible = additive(s, t, s_sec, t_sec)
        || progress_steps(s, t, s_sec, t_sec)
        || other_measures(s, t)
        || ((values_agree(&s.values, &t.values) || subset(&s.stems, &t.stems) || subset(&t.stems, &s.stems))
            && restated(s, t));
    if s.negated == t.negated && !different_subjects && !compatible {
        let (d1, d2) = (minus(&s.core_words, &t.core_words).len(), minus(&t.core_words, &s.core_words).len());
        if (1..=2).contains(&d1) && (1..=2).contains(&d2) && shared.len() >= 2 * d1.max(d2) {
            return Some((ConflictKind::RelatedClaims, shared));
        }
    }
    None
}

/// Verbs of place: with the same subject and no other difference, the place after *in* is
/// the claim's value, not a qualifier.
const LOCATED: &[&str] = &[
    "based",
    "headquartered",
    "hosted",
    "housed",
    "kept",
    "located",
    "lives",
    "resides",
    "run",
    "runs",
    "stored",
    // Fourth round: where a record is kept ("tracked in a shared spreadsheet" / "… in the case
    // management system").
    "tracked",
    "recorded",
    "logged",
    "filed",
    "archived",
    "managed",
    "held",
    "saved",
    "published",
    "documented",
];

/// Sections whose claims are compared across sections in the possible tier.
fn cross_section(sec: usize) -> bool {
    // Seventh round: and any other `##` section ("Open Questions", "Risks"): a question
    // answered there ("What will the adult day ticket cost? Probably EUR 68 …") states what a
    // Decision or Finding states.
    matches!(sec, DECISIONS | FINDINGS | CURRENT_STATE) || sec > NEXT_STEPS
}

/// The possible tier's relation (docs/merge.md, "Possible conflicts"): two claims, not a
/// certain conflict, are *related* when they are in the same section or both in Decisions,
/// Findings or Current State, their scopes do not rule each other out (scope: the qualifier
/// words after *for*/*in*, in the predicate or the subject; both present and neither
/// containing the other), they do not state the same typed value with the same polarity,
/// neither restates the other (one's core words — content words without link verbs and
/// value-type nouns — all in the other's, with the same polarity), and they share the subject
/// key, or the subject's head word, or — unless both have subjects with no word in common —
/// at least [`MIN_SHARED`] core words outside the scopes
/// that are at least half of the smaller claim's core words. Returns the shared words
/// (sorted), when related.
pub(super) fn related(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> Option<Vec<u64>> {
    if !comparable(s, t, s_sec, t_sec) {
        return None;
    }
    let (qs, qt) = (scope(s), scope(t));
    if s.negated == t.negated && values_agree(&s.values, &t.values) {
        return None;
    }
    let (a, b) = (&s.core_words, &t.core_words);
    if s.negated == t.negated && (subset(a, b) || subset(b, a)) {
        return None;
    }
    if additive(s, t, s_sec, t_sec)
        || other_actions(s, t)
        || other_measures(s, t)
        || progress_steps(s, t, s_sec, t_sec)
        || restated(s, t)
        || (same_sense(s, t) && negation_restated(s, t))
    {
        return None;
    }
    // Scope words are evidence of what a claim is about only together with other words.
    let shared: Vec<u64> = a
        .iter()
        .copied()
        .filter(|w| b.binary_search(w).is_ok() && qs.binary_search(w).is_err() && qt.binary_search(w).is_err())
        .collect();
    // A subject a sub-claim carries from its claim is no evidence that the two say something
    // of one thing (fifth round).
    let carried = s.subject_carried || t.subject_carried;
    let same_subject = s.subject.is_some() && s.subject == t.subject && !carried;
    let same_head = s.head != 0 && s.head == t.head && !carried;
    if s.subject.is_some() && t.subject.is_some() && !same_head && inter(&s.subject_words, &t.subject_words).is_empty()
    {
        return None; // about two different things ("Use Postgres for X" / "Use Postgres for Y")
    }
    if s_sec == SITUATION || t_sec == SITUATION {
        // What the work is about, in the words of each side: framing sentences that share
        // words ("Save system design review." / "The game's save system.") are not claims to
        // choose between; only one subject stated twice is.
        return same_subject.then_some(shared);
    }
    let enough = shared.len() >= MIN_SHARED && 2 * shared.len() >= a.len().min(b.len());
    // Fifth round: two decisions, the head of one's subject, stemmed, the verb of the other,
    // which names no subject: the thing decided named as an action ("Use recycled manure
    // solids for bedding" / "Bed the cubicles with sand").
    let head_in = |x: &Analysis, y: &Analysis| {
        x.decision && y.decision && x.head_stem != 0 && y.subject.is_none() && y.verb_stem == x.head_stem
    };
    (same_subject || same_head || enough || head_in(s, t) || head_in(t, s)).then_some(shared)
}

/// The widened possible tier (issue 19, second round): for two comparable claims that
/// [`related`] did not relate, neither restating the other nor stating the same value, a
/// possible conflict when they share a word stem ([`super::analysis::stem`]: "exported" =
/// "export", "rebranded" = "rebrand") and
///
/// - their typed values of one kind and unit differ ("retained for ninety days" / "retention:
///   6 months"; "The ICU has 24 staffed beds" / "The intensive care unit has 30 staffed beds");
/// - or both are under `## Current State` (two states of one thing);
/// - or one is negated and the other not, in the same section, sharing at least 2 stems and
///   a third of the smaller claim's;
/// - or they use opposite members of one group of the lexicon, sharing at least 2 stems;
/// - or both state a cause (*caused, attributed, due, driven* …), sharing at least 2 stems
///   ("The readmission spike on Ward 4 is attributed to …" / "… rise on Ward 4 is due to …");
/// - or, both under `## Decisions` and even without a shared stem, the target claim names
///   something (a capitalised word) the source's whole document never mentions and the source
///   claim a name the target claim does not ("Choose Moodle as the learning platform" / "The
///   LMS will be Canvas");
/// - or the target claim names something (a capitalised word) the source's whole document
///   never mentions, and the source claim a name the target claim does not ("Use HubSpot for
///   the email campaigns" / "Email tool: Mailchimp");
/// - or they share at least 2 stems outside both scopes that are at least half of the smaller
///   claim's.
///
/// `s_words` are the lower-cased words of the source's whole document.
/// Returns the shared stems (sorted).
pub(super) fn widened(
    s: &Analysis,
    t: &Analysis,
    s_sec: usize,
    t_sec: usize,
    s_words: &KeySet<u64>,
) -> Option<Vec<u64>> {
    if !(cross_section(s_sec) && cross_section(t_sec) && comparable(s, t, s_sec, t_sec)) {
        return None;
    }
    // (Fourth round: more words and another value are not a restatement: "lapsed after
    // eighteen months" / "lapsed after 2 years …, in line with the sector benchmark".)
    if s.negated == t.negated
        && (values_agree(&s.values, &t.values)
            || ((subset(&s.core_words, &t.core_words) || subset(&t.core_words, &s.core_words))
                && !values_clash(&s.values, &t.values)))
    {
        return None;
    }
    if restated(s, t)
        || other_measures(s, t)
        || progress_steps(s, t, s_sec, t_sec)
        || (same_sense(s, t) && negation_restated(s, t))
    {
        return None;
    }
    // A stem in both claims' scopes says only that they are about the same scope.
    let both_scopes = inter(&s.scope_stems, &t.scope_stems);
    let shared = minus(&inter(&s.stems, &t.stems), &both_scopes);
    let n = shared.len();
    // The target's name is checked against the source's whole document, the source's against
    // the target claim only: the converged state holds the source's words, and merging it again
    // must find the same conflicts.
    let names = |x: &Analysis, other: &KeySet<u64>| x.names.iter().any(|w| !other.contains(w));
    let new_name = s.names.iter().any(|w| t.names.binary_search(w).is_err() && t.core_words.binary_search(w).is_err())
        && s.name_stems.iter().any(|w| t.stems.binary_search(w).is_err());
    if s_sec == DECISIONS && t_sec == DECISIONS && new_name && names(t, s_words) {
        // Two decisions naming different things, each unknown to the other side: one choice
        // in other words ("Choose Moodle as the learning platform" / "The LMS will be Canvas";
        // "Use Postgres." / "Go with SQLite.").
        return Some(shared);
    }
    if n == 0 {
        return None;
    }
    // A decision and an observation: only a stated clash on one subject, or a name the other
    // side never mentions, relates them.
    if additive(s, t, s_sec, t_sec) && !(new_name && names(t, s_words)) {
        return None;
    }
    // Stems outside either claim's scope ("in performance mode" says where, not what).
    let outside = minus(&minus(&shared, &s.scope_stems), &t.scope_stems).len();
    let hit = values_clash(&s.values, &t.values)
        // Two states of one thing (progress steps returned above): sharing the subject or its
        // head, at least 2 stems outside the scopes, or one stem when either asserts its state
        // to the exclusion of another (fourth round: "Two paralegals staff the housing desk" /
        // "Walk-in housing intake runs on Mondays" share one word and name two things).
        || (s_sec == CURRENT_STATE
            && t_sec == CURRENT_STATE
            && (outside >= 2
                || s.exclusive
                || t.exclusive
                || (s.subject.is_some() && s.subject == t.subject)
                || (s.head != 0 && s.head == t.head)
                // Fifth round: subjects sharing a word, one state negated or opposed to the
                // other's ("The Japanese build is on hold: legal has not signed off" / "Japanese
                // strings are live in the production app").
                || (!inter(&s.subject_words, &t.subject_words).is_empty()
                    && (s.negated != t.negated || opposed(s, t)))))
        || (s.negated != t.negated && s_sec == t_sec && n >= 2 && 3 * n >= s.stems.len().min(t.stems.len()))
        || (s.cause && t.cause && n >= 2)
        || (opposed(s, t) && (n >= 2 || (s_sec == DECISIONS && t_sec == DECISIONS)))
        || (new_name && names(t, s_words))
        || (outside >= 2 && 2 * outside >= s.stems.len().min(t.stems.len()));
    hit.then_some(shared)
}

/// The lower-cased words of a document (`fold_hash`), for [`widened`]'s names test.
pub(super) fn doc_words(doc: &Doc, extra: &str) -> KeySet<u64> {
    let mut set = KeySet::default();
    let mut w = String::new();
    for text in doc.lines.iter().map(|l| l.1).chain([extra]) {
        for part in text.split(|c: char| !c.is_alphanumeric()) {
            if part.is_empty() {
                continue;
            }
            w.clear();
            w.extend(part.chars().flat_map(char::to_lowercase));
            set.insert(fold_hash(&w));
        }
    }
    set
}

/// Blocks whose content can conflict: claims (items and paragraphs) outside the preamble
/// and `Next Steps`.
pub(super) fn eligible(b: &Block) -> bool {
    matches!(b.kind, Kind::Item | Kind::Paragraph) && b.sec != PREAMBLE && b.sec != NEXT_STEPS
}

/// A claim unit: (block, 0) is a block's own first clause, (block, k) its k-th sub-claim (a
/// later clause or sentence, a nested item; fifth round).
pub(super) type Unit = (usize, usize);

/// The analysis of a unit of an analysed block.
fn unit_an<'d>(doc: &'d Doc, (b, k): Unit) -> &'d Analysis {
    let block = &doc.blocks[b];
    if k == 0 { block.an.as_ref().expect("indexed blocks are analysed") } else { &block.subs[k - 1].0 }
}

/// Seventh round: the sub-claims (a table's rows, nested items, later clauses) of two blocks
/// that share a subject key and state incompatible typed values, if any: where a conflict found
/// on the blocks' first clauses is shown.
fn clashing_units(s: &Doc, si: usize, t: &Doc, ti: usize) -> Option<(Unit, Unit)> {
    let (n, m) = (s.blocks[si].subs.len(), t.blocks[ti].subs.len());
    if n == 0 && m == 0 {
        return None;
    }
    for sk in 0..=n {
        for tk in 0..=m {
            if sk == 0 && tk == 0 {
                continue;
            }
            let (sa, ta) = (unit_an(s, (si, sk)), unit_an(t, (ti, tk)));
            if sa.subject.is_some()
                && sa.subject == ta.subject
                && !(sa.subject_carried && ta.subject_carried)
                && values_incompatible(&sa.values, &ta.values)
            {
                return Some(((si, sk), (ti, tk)));
            }
        }
    }
    None
}

/// Seventh round: a possible conflict points at the units of its two claims that state a
/// clash — members of one group of the opposition lexicon that differ ("cadence: fortnightly"
/// nested under "Client reporting:" / "Progress reports go to the client weekly"), or typed
/// values of one kind that differ between units sharing a word — when the units it was found
/// on (by their lines) state none.
pub(super) fn show_the_clash(f: &mut Found, s: &Doc, si: usize, t: &Doc) {
    clash_units(f, s, si, t);
    point_at_rows(f, s, t);
}

fn clash_units(f: &mut Found, s: &Doc, si: usize, t: &Doc) {
    let Some(&(_, ti)) = f.pairs.first() else { return };
    let (n, m) = (s.blocks[si].subs.len(), t.blocks[ti].subs.len());
    if n == 0 && m == 0 {
        return;
    }
    let clash = |sa: &Analysis, ta: &Analysis| {
        sa.stems.len() >= 2
            && ta.stems.len() >= 2
            && (opposed_lexicon(sa, ta)
                || (values_clash(&sa.values, &ta.values) && !inter(&sa.stems, &ta.stems).is_empty()))
    };
    let line = |doc: &Doc, (b, k): Unit| {
        if k == 0 { doc.lines[doc.blocks[b].start].0 } else { doc.lines[doc.blocks[b].subs[k - 1].1].0 }
    };
    let units = |n: usize, b: usize| (0..=n).map(move |k| (b, k));
    let shown = |su: Unit, tu: Unit| line(s, su) == f.source.line && line(t, tu) == f.target.line;
    let mut best: Option<(Unit, Unit)> = None;
    for su in units(n, si) {
        for tu in units(m, ti) {
            let (sa, ta) = (unit_an(s, su), unit_an(t, tu));
            if shown(su, tu) && sa.subject.is_some() && sa.subject == ta.subject && !sa.subject_carried {
                return; // the shown units share their stated subject: they are the point
            }
            if clash(sa, ta) {
                if shown(su, tu) {
                    return; // the shown units state a clash already
                }
                best.get_or_insert((su, tu));
            }
        }
    }
    if let Some((su, tu)) = best {
        f.source = unit_side(s, su);
        f.target = unit_side(t, tu);
    }
}

/// Twelfth round: when both sides of a conflict are shown at a table (its header or a row:
/// the whole table is one sub-claim), point each at the row that changed — the first row whose
/// first cell both tables hold with different other cells ("| Full livery | £420 a month |" /
/// "| Full livery | £460 a month |"). Nothing moves when no such row exists; only the lines
/// shown change, never what is listed.
pub(super) fn point_at_rows(f: &mut Found, s: &Doc, t: &Doc) {
    fn rows<'a>(doc: &Doc<'a>, line: u32) -> Vec<(u32, String, String)> {
        let Some(i) = doc.lines.iter().position(|l| l.0 == line) else { return Vec::new() };
        // The table the line belongs to: back to its first row, then every row.
        let is_row = |k: usize| doc.lines[k].1.trim_start().starts_with('|');
        if !is_row(i) {
            return Vec::new();
        }
        let mut a = i;
        while a > 0 && is_row(a - 1) {
            a -= 1;
        }
        let norm = |x: &str| {
            let x = x.find("[src:").map_or(x, |p| &x[..p]);
            x.trim().to_lowercase()
        };
        (a..doc.lines.len())
            .take_while(|&k| is_row(k))
            .filter_map(|k| {
                let cells: Vec<&str> = doc.lines[k].1.trim().trim_matches('|').split('|').collect();
                let first = norm(cells.first()?);
                if cells.len() < 2 || first.is_empty() || first.chars().all(|c| c == '-' || c == ':' || c == ' ') {
                    return None;
                }
                Some((doc.lines[k].0, first, cells[1..].iter().map(|c| norm(c)).collect::<Vec<_>>().join("|")))
            })
            .collect()
    }
    let (sr, tr) = (rows(s, f.source.line), rows(t, f.target.line));
    for (sl, key, rest) in &sr {
        if let Some((tl, _, _)) = tr.iter().find(|(_, k, r)| k == key && r != rest) {
            f.source.line = *sl;
            f.target.line = *tl;
            return;
        }
    }
}

/// The typed values of all of a block's units (its claim and sub-claims).
pub(super) fn block_values(doc: &Doc, b: usize) -> Vec<Value> {
    let block = &doc.blocks[b];
    block.an.iter().chain(block.subs.iter().map(|s| &s.0)).flat_map(|a| a.values.iter().copied()).collect()
}

/// A block as a conflict's side, pointing at the line of the unit the conflict was found in.
pub(super) fn unit_side(doc: &Doc, (b, k): Unit) -> ConflictSide {
    let block = &doc.blocks[b];
    let mut side = doc.side(block);
    if k != 0 {
        side.line = doc.lines[block.subs[k - 1].1].0;
    }
    side
}

/// The stems of all of a block's units, sorted: a sub-claim whose stems are all among another
/// claim's restates part of it (fifth round: "Reefer containers are plugged in after discharge.
/// This happens within 30 minutes" / "… plugged in within 30 minutes of discharge").
pub(super) fn block_stems(doc: &Doc, b: usize) -> Vec<u64> {
    let block = &doc.blocks[b];
    let mut out: Vec<u64> =
        block.an.iter().chain(block.subs.iter().map(|s| &s.0)).flat_map(|a| a.stems.iter().copied()).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The sort group of a possible conflict, strongest relation first (fifth round): a rule's or
/// a shared subject's on the claims' own first clauses (3), then a sub-claim's or the widened
/// tier's (4); pairs with a compatible hint after all of them (5, 6; sixth round). The order
/// only says which to look at first (and which the cap of [`MAX_LISTED`] keeps).
pub(super) fn rank(sub_pair: bool, widened: bool, hinted: bool) -> u8 {
    (if sub_pair || widened { 4 } else { 3 }) + if hinted { 2 } else { 0 }
}

/// A target unit weakly related to a source unit (sixth round): no rule relates them, they
/// share `strength` evidence; listed with a hint only if the cap leaves room.
struct Weak {
    su: Unit,
    tu: Unit,
    strength: u32,
    shared: usize,
    /// Their typed values clash (values of one kind that differ).
    clash: bool,
}

/// Claim conflicts of every new source claim against the target's claims (the certain rules,
/// the related and widened possible tiers, and since the sixth round every other related pair
/// with a compatible hint), each source claim listed against at most [`MAX_LISTED`] target
/// claims (certain conflicts always); `unlisted` counts the rest.
#[allow(clippy::too_many_arguments)]
pub(super) fn detect_claims(
    t: &Doc,
    s: &Doc,
    t_first: &[usize],
    s_new: &[usize],
    s_words: &KeySet<u64>,
    scratch: &mut Scratch,
    out: &mut Vec<Found>,
    unlisted: &mut u32,
) {
    let mut by_stem: KeyMap<u64, Vec<Unit>> = KeyMap::default();
    let mut named_decisions: Vec<Unit> = Vec::new();
    let mut by_subject: KeyMap<u64, Vec<Unit>> = KeyMap::default();
    let mut by_words: KeyMap<u64, Vec<Unit>> = KeyMap::default();
    let mut by_head: KeyMap<u64, Vec<Unit>> = KeyMap::default();
    let mut by_word: KeyMap<u64, Vec<Unit>> = KeyMap::default();
    let mut by_rejected: KeyMap<u64, Vec<Unit>> = KeyMap::default();
    let mut by_bare: KeyMap<u16, Vec<Unit>> = KeyMap::default();
    for &i in t_first {
        if t.blocks[i].an.is_none() {
            continue;
        }
        for k in 0..=t.blocks[i].subs.len() {
            let u = (i, k);
            let a = unit_an(t, u);
            if let Some(subj) = a.subject {
                by_subject.entry(subj).or_default().push(u);
            }
            if a.head != 0 {
                by_head.entry(a.head).or_default().push(u);
            }
            if a.pol_key != 0 {
                by_words.entry(a.pol_key).or_default().push(u);
            }
            for &w in &a.core_words {
                by_word.entry(w).or_default().push(u);
            }
            for &w in &a.rejected {
                by_rejected.entry(w).or_default().push(u);
            }
            for &w in &a.stems {
                by_stem.entry(w).or_default().push(u);
            }
            if a.bare_verb != 0 && t.blocks[i].sec == DECISIONS {
                by_bare.entry(a.bare_verb).or_default().push(u);
            }
            // Decisions naming something the source never mentions (the widened tier's names).
            if t.blocks[i].sec == DECISIONS && a.names.iter().any(|w| !s_words.contains(w)) {
                named_decisions.push(u);
            }
        }
    }
    let mut candidates: Vec<Unit> = Vec::new();
    let mut mine: Vec<Found> = Vec::new();
    let mut wide: Vec<Found> = Vec::new();
    let mut weak: Vec<Weak> = Vec::new();
    let mut weak_of: KeyMap<usize, usize> = KeyMap::default();
    let mut pairs_seen: KeySet<(usize, usize)> = KeySet::default();
    let mut t_stems: KeyMap<usize, Vec<u64>> = KeyMap::default();
    for &si in s_new {
        let sb = &s.blocks[si];
        if sb.an.is_none() {
            continue;
        }
        let s_stems = if sb.subs.is_empty() { Vec::new() } else { block_stems(s, si) };
        let sv = block_values(s, si);
        // A sub-claim restating part of the other claim is no conflict (a containment
        // restatement: it is not even listed).
        let mut contained = |su: Unit, tu: Unit| {
            if su.1 == 0 && tu.1 == 0 {
                return false;
            }
            let (sa, ta) = (unit_an(s, su), unit_an(t, tu));
            if values_incompatible(&sa.values, &ta.values) {
                return false; // the words restate, the values do not
            }
            let ts = t_stems.entry(tu.0).or_insert_with(|| block_stems(t, tu.0));
            (su.1 != 0 && sa.negated == ta.negated && subset(&sa.stems, ts))
                || (tu.1 != 0
                    && sa.negated == ta.negated
                    && subset(&ta.stems, if sb.subs.is_empty() { &sa.stems } else { &s_stems }))
        };
        mine.clear();
        wide.clear();
        weak.clear();
        weak_of.clear();
        for sk in 0..=sb.subs.len() {
            let su = (si, sk);
            let sa = unit_an(s, su);
            let mut hits: Vec<(Unit, ConflictKind, u64, bool)> = Vec::new();
            if let Some(subj) = sa.subject
                && let Some(tus) = by_subject.get(&subj)
            {
                for &tu in tus {
                    let ta = unit_an(t, tu);
                    // A subject carried from the claim says what the clause is about, not which
                    // attribute its words choose: only a stated clash counts (fifth round).
                    if let Some(kind) = subject_conflict(sa, ta)
                        && (!(sa.subject_carried || ta.subject_carried) || stated_clash(sa, ta))
                    {
                        hits.push((tu, kind, subj, true));
                    }
                }
            }
            if sa.pol_key != 0
                && let Some(tus) = by_words.get(&sa.pol_key)
            {
                for &tu in tus {
                    if let Some(kind) = same_words_conflict(sa, unit_an(t, tu)) {
                        hits.push((tu, kind, sa.pol_key, false));
                    }
                }
            }
            for &(tu, kind, key, by_subject) in &hits {
                let ti = tu.0;
                if pairs_seen.contains(&(si, ti)) || contained(su, tu) {
                    continue;
                }
                pairs_seen.insert((si, ti));
                let tb = &t.blocks[ti];
                // One side negated, the other using a negative verb ("X is no longer supported" /
                // "Drop support for X"): the same polarity in other words, so only possible.
                let ta = unit_an(t, tu);
                let negative_verb = sa.negated != ta.negated
                    && (sa.negated ^ sa.neg_pole) == (ta.negated ^ ta.neg_pole)
                    && !values_incompatible(&sa.values, &ta.values);
                // The same thing said twice ("no longer supports X" / "drop support for X"):
                // listed with a hint since the sixth round (it was dropped).
                let hint = (negative_verb && negation_restated(sa, ta)).then(|| H_NEG_VERB.to_string());
                // A later clause or a nested item is read with less context than a claim's
                // own first clause: what it finds is possible (fifth round).
                let sub_pair = sk != 0 || tu.1 != 0;
                let soft = negative_verb || sub_pair;
                let (kind, certainty, group) = if soft {
                    (ConflictKind::RelatedClaims, Certainty::Possible, rank(sub_pair, false, hint.is_some()))
                } else {
                    (kind, Certainty::Certain, 2)
                };
                // Only conflicts need the words for display.
                let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
                // Seventh round: a conflict found on two claims' own first clauses points at the
                // rows or items inside them that state the clashing values, when there are
                // ("| Studio A | £520 |" in a table whose first line is its header).
                let (shown_su, shown_tu) =
                    if sub_pair { (su, tu) } else { clashing_units(s, si, t, ti).unwrap_or((su, tu)) };
                mine.push(Found {
                    kind,
                    key,
                    subject: if by_subject { shown.subject_display } else { shown.pol_display },
                    source: unit_side(s, shown_su),
                    target: unit_side(t, shown_tu),
                    norms: (sb.key, tb.key),
                    pairs: vec![(si, ti)],
                    order: (group, t.lines[tb.start].0, s.lines[sb.start].0),
                    certainty,
                    hint,
                    strength: strength(sa, ta),
                    units: Some((su, tu)),
                });
            }

            // Possible tier: related target claims that no rule says contradict.
            candidates.clear();
            for index in [(sa.subject, &by_subject), (Some(sa.head).filter(|&h| h != 0), &by_head)] {
                if let (Some(k), map) = index
                    && let Some(tus) = map.get(&k)
                    && tus.len() <= MAX_POSTING
                {
                    candidates.extend_from_slice(tus);
                }
            }
            let looked_up = [
                (&sa.core_words, &by_word),
                (&sa.rejected, &by_word),
                (&sa.core_words, &by_rejected),
                (&sa.stems, &by_stem),
            ];
            for (words, map) in looked_up {
                for w in words {
                    if let Some(tus) = map.get(w)
                        && tus.len() <= MAX_POSTING
                    {
                        candidates.extend_from_slice(tus);
                    }
                }
            }
            if sa.bare_verb != 0
                && sb.sec == DECISIONS
                && let Some(tus) = by_bare.get(&sa.bare_verb)
                && tus.len() <= MAX_POSTING
            {
                candidates.extend_from_slice(tus);
            }
            if sb.sec == DECISIONS && !sa.names.is_empty() && named_decisions.len() <= MAX_POSTING {
                candidates.extend_from_slice(&named_decisions);
            }
            candidates.sort_unstable();
            candidates.dedup();
            for &tu in &candidates {
                let ti = tu.0;
                let tb = &t.blocks[ti];
                let ta = unit_an(t, tu);
                if pairs_seen.contains(&(si, ti)) || contained(su, tu) {
                    continue;
                }
                let sub_pair = sk != 0 || tu.1 != 0;
                if let Some((kind, words)) = extended_conflict(sa, ta, sb.sec, tb.sec) {
                    // As for the subject rules: one side negated, the other using a negative verb
                    // is the same polarity in other words.
                    let negative_verb = sa.negated != ta.negated
                        && (sa.negated ^ sa.neg_pole) == (ta.negated ^ ta.neg_pole)
                        && !values_incompatible(&sa.values, &ta.values);
                    let hint = (negative_verb && kind != ConflictKind::RelatedClaims && negation_restated(sa, ta))
                        .then(|| H_NEG_VERB.to_string());
                    let soft = kind == ConflictKind::RelatedClaims || negative_verb || sub_pair;
                    let (kind, certainty, group) = if soft {
                        (ConflictKind::RelatedClaims, Certainty::Possible, rank(sub_pair, false, hint.is_some()))
                    } else {
                        (kind, Certainty::Certain, 2)
                    };
                    pairs_seen.insert((si, ti));
                    let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
                    let subject = if !words.is_empty() {
                        scratch.shared_display(t.own_parts(tb), &words)
                    } else if !shown.subject_display.is_empty() {
                        shown.subject_display
                    } else {
                        shown.pol_display
                    };
                    let key = if words.is_empty() { ta.subject.unwrap_or(ta.pol_key) } else { words_key(&words) };
                    mine.push(Found {
                        kind,
                        key,
                        subject,
                        source: unit_side(s, su),
                        target: unit_side(t, tu),
                        norms: (sb.key, tb.key),
                        pairs: vec![(si, ti)],
                        order: (group, t.lines[tb.start].0, s.lines[sb.start].0),
                        certainty,
                        hint,
                        strength: strength(sa, ta),
                        units: Some((su, tu)),
                    });
                    continue;
                }
                let shared = match related(sa, ta, sb.sec, tb.sec) {
                    Some(shared) => shared,
                    // Through a sub-claim, the widened tier needs two shared stems (fifth round).
                    None => match widened(sa, ta, sb.sec, tb.sec, s_words).filter(|x| !sub_pair || x.len() >= 2) {
                        Some(stems) => {
                            pairs_seen.insert((si, ti));
                            let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
                            let subject = if shown.subject_display.is_empty() {
                                shown.pol_display
                            } else {
                                shown.subject_display
                            };
                            wide.push(Found {
                                kind: ConflictKind::RelatedClaims,
                                key: words_key(&stems),
                                subject,
                                source: unit_side(s, su),
                                target: unit_side(t, tu),
                                norms: (sb.key, tb.key),
                                pairs: vec![(si, ti)],
                                order: (rank(sub_pair, true, false), t.lines[tb.start].0, s.lines[sb.start].0),
                                certainty: Certainty::Possible,
                                hint: None,
                                strength: strength(sa, ta),
                                units: Some((su, tu)),
                            });
                            continue;
                        }
                        None => {
                            // Sixth round: every other related pair is listed too, with why the
                            // rules think it compatible (`compatible_hint`), unless it is a
                            // containment restatement; ranked last, within the cap.
                            // (The hint is computed only for the pairs the cap lists.)
                            let clash_elsewhere = || {
                                let tv = block_values(t, ti);
                                values_clash(&sv, &tv)
                            };
                            if let Some(w) = weak_pair(sa, ta, sb.sec, tb.sec, clash_elsewhere) {
                                // Typed values of one kind that differ are what a contradiction
                                // states: ranked as strongly as a shared subject (seventh round).
                                let clash = values_clash(&sa.values, &ta.values);
                                // Two Current State claims are two states of the same moment:
                                // ranked before a relation across sections (seventh round).
                                let state = sb.sec == CURRENT_STATE && tb.sec == CURRENT_STATE;
                                let strength =
                                    w as u32 + strength(sa, ta) + if clash { 4 } else { 0 } + if state { 2 } else { 0 };
                                match weak_of.get(&ti) {
                                    Some(&k) if weak[k].strength >= strength => {}
                                    Some(&k) => weak[k] = Weak { su, tu, strength, shared: w, clash },
                                    None => {
                                        weak_of.insert(ti, weak.len());
                                        weak.push(Weak { su, tu, strength, shared: w, clash });
                                    }
                                }
                            }
                            continue;
                        }
                    },
                };
                pairs_seen.insert((si, ti));
                let subject = if shared.is_empty() {
                    scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true).subject_display
                } else {
                    scratch.shared_display(t.own_parts(tb), &shared)
                };
                let key = if shared.is_empty() { sa.subject.unwrap_or(sa.head) } else { words_key(&shared) };
                mine.push(Found {
                    kind: ConflictKind::RelatedClaims,
                    key,
                    subject,
                    source: unit_side(s, su),
                    target: unit_side(t, tu),
                    norms: (sb.key, tb.key),
                    pairs: vec![(si, ti)],
                    order: (rank(sub_pair, false, false), t.lines[tb.start].0, s.lines[sb.start].0),
                    certainty: Certainty::Possible,
                    hint: None,
                    strength: strength(sa, ta),
                    units: Some((su, tu)),
                });
            }
        }
        // A source claim with a certain conflict is in front of the user already: its widened
        // and weakly related pairs are counted, not listed (before the sixth round the widened
        // ones were dropped; listing them put pairs related only through the names rule — "Adopt
        // Pulumi" / "Primary DB is Postgres 15" — among those that may contradict).
        weak.retain(|w| !pairs_seen.contains(&(si, w.tu.0)));
        if mine.iter().any(|f| f.certainty == Certainty::Certain) {
            *unlisted += (wide.len() + weak.len()) as u32;
            wide.clear();
            weak.clear();
        }
        mine.append(&mut wide);
        // The cap: certain conflicts always; then the strongest possible ones, unhinted before
        // hinted, up to MAX_LISTED in all; the rest counted.
        weak.sort_by_key(|w| (std::cmp::Reverse(w.strength), w.tu));
        mine.sort_by_key(|f| (f.certainty != Certainty::Certain, f.order.0, std::cmp::Reverse(f.strength)));
        let certain = mine.iter().filter(|f| f.certainty == Certainty::Certain).count();
        let mut room = MAX_LISTED.saturating_sub(certain);
        // The strength of the source claim's first listed possible conflict: a hinted pair
        // at most half as related is not listed after it (seventh round: one listing per
        // source claim when the second target claim is far weaker).
        let mut first: Option<u32> = None;
        for mut f in mine.drain(..) {
            if f.certainty == Certainty::Certain {
                point_at_rows(&mut f, s, t);
                eighth_round(&mut f, s, t);
                out.push(f);
            } else if room > 0 && !(f.hint.is_some() && first.is_some_and(|fs| 2 * f.strength <= fs)) {
                room -= 1;
                first.get_or_insert(f.strength);
                show_the_clash(&mut f, s, si, t);
                eighth_round(&mut f, s, t);
                out.push(f);
            } else {
                *unlisted += 1;
            }
        }
        let mut tries = 0;
        for w in weak.drain(..) {
            if room == 0 || tries == MAX_HINT_TRIES {
                *unlisted += 1;
                continue;
            }
            tries += 1;
            let tb = &t.blocks[w.tu.0];
            let (sa, ta) = (unit_an(s, w.su), unit_an(t, w.tu));
            let hint = compatible_hint(sa, ta, sb.sec, tb.sec);
            // Seventh round: what the rules can show compatible is kept both without a listing
            // (counted in `unlisted`, merged as for `keep-both`).
            if kept_without_listing(hint.as_deref(), &w) || first.is_some_and(|fs| 2 * w.strength <= fs) {
                *unlisted += 1;
                continue;
            }
            room -= 1;
            first.get_or_insert(w.strength);
            let shown = scratch.analyse(t.own_parts(tb), tb.sec == DECISIONS, true);
            let subject = if shown.subject_display.is_empty() { shown.pol_display } else { shown.subject_display };
            let stems = inter(&sa.stems, &ta.stems);
            let sub_pair = w.su.1 != 0 || w.tu.1 != 0;
            out.push(Found {
                kind: ConflictKind::RelatedClaims,
                key: if stems.is_empty() { ta.subject.unwrap_or(ta.head) } else { words_key(&stems) },
                subject,
                source: unit_side(s, w.su),
                target: unit_side(t, w.tu),
                norms: (sb.key, tb.key),
                pairs: vec![(si, w.tu.0)],
                order: (rank(sub_pair, hint.is_none(), true), t.lines[tb.start].0, s.lines[sb.start].0),
                certainty: Certainty::Possible,
                hint: Some(hint.unwrap_or_else(|| weak_hint(w.shared))),
                strength: w.strength,
                units: Some((w.su, w.tu)),
            });
            if let Some(f) = out.last_mut() {
                show_the_clash(f, s, si, t);
            }
        }
    }
}

/// Eighth round: the hint of two choices that set aside the same alternative
/// (`classes::same_alternative`).
pub(super) const H_SAME_ALTERNATIVE: &str = "the same choice over the same alternative";

/// Eighth round: the hint of a scope that differs (`classes::other_scope`).
/// Twelfth round ([`other_times`]).
pub(super) const H_OTHER_TIMES: &str = "the same claim for other times (each names a day or time the other does not)";
/// Thirteenth round ([`one_thing_two_facts`]).
pub(super) const H_ONE_THING: &str = "one thing named in two different facts (what each says of it shares nothing)";
/// Thirteenth round ([`entry_beside_fact`]).
pub(super) const H_ENTRY: &str = "an entry of a log beside a standing fact: a step recorded at its time";
/// Twelfth round ([`target_and_reading`]).
pub(super) const H_TARGET: &str = "a target and a reading: other measures of one thing";
/// Twelfth round ([`kinds_apart`]).
pub(super) const H_KINDS: &str = "values of different kinds: other attributes of one subject";
/// Twelfth round ([`exception`]).
pub(super) const H_EXCEPTION: &str = "a rule and its exception (one opens with a scope the other lacks)";
pub(super) const H_OTHER_SCOPE: &str =
    "the same claim for another scope (a qualifier or a modifier of the subject differs)";

/// Eighth round (issue 19): a conflict already chosen for listing, read for the classes of
/// compatible pairs (`classes`), first that applies: two scopes ([`other_scope`], not between
/// two Current State claims, or the qualifier table's [`scoped_apart`]: [`H_OTHER_SCOPE`]), one claim in other spellings
/// ([`same_words`]: [`H_RESTATED`]), the same value in other words ([`same_value`]:
/// [`H_SAME_VALUE`]), the same choice over the same alternative ([`same_alternative`]:
/// [`H_SAME_ALTERNATIVE`]), two entries of one log ([`log_entries`]: [`H_STEPS`]) — a certain
/// conflict becomes possible, a possible one without a hint gains the hint — and, for a
/// possible one without a hint only, different facts about one subject ([`different_facts`]:
/// "different facts about <subject>"). The listing is decided before and does not change: a
/// demoted pair stays listed, with its hint, in the hinted groups of the order.
///
/// Ninth round: two scopes include the same sentence for another kind (in `other_scope`); the
/// entries of two stamped claims ([`stamped_entries`], the claims' first clauses' stamps) are a
/// log's; and, for possible conflicts only, one claim reworded unevenly ([`reworded`], not
/// between two Current State claims: [`H_RESTATED`]), only the unit of their values in common
/// ([`only_units_shared`]: [`H_ONLY_UNITS`]) and percentages of different wholes about
/// different subjects ([`other_wholes_measured`]: [`H_MEASURES`]).
pub(super) fn eighth_round(f: &mut Found, s: &Doc, t: &Doc) {
    let Some((su, tu)) = f.units else { return };
    if f.hint.is_some() {
        return;
    }
    let (sa, ta) = (unit_an(s, su), unit_an(t, tu));
    let (s_sec, t_sec) = (s.blocks[su.0].sec, t.blocks[tu.0].sec);
    // Two Current State claims are states of one moment: another modifier there may be the
    // same thing renamed, not another scope.
    let states = s_sec == CURRENT_STATE && t_sec == CURRENT_STATE;
    let hint = if (other_scope(sa, ta) && !states) || scoped_apart(sa, ta) {
        H_OTHER_SCOPE.to_string()
    } else if same_words(sa, ta) || (f.certainty == Certainty::Possible && !states && reworded(sa, ta)) {
        H_RESTATED.to_string()
    } else if same_value(sa, ta) {
        H_SAME_VALUE.to_string()
    } else if same_alternative(sa, ta) {
        H_SAME_ALTERNATIVE.to_string()
    } else if log_entries(sa, ta) || stamped_entries(unit_an(s, (su.0, 0)), unit_an(t, (tu.0, 0)), sa, ta) {
        H_STEPS.to_string()
    } else if f.certainty == Certainty::Possible
        && entry_beside_fact(unit_an(s, (su.0, 0)), unit_an(t, (tu.0, 0)), sa, ta)
    {
        // Thirteenth round: a step recorded at its time beside a standing fact.
        H_ENTRY.to_string()
    } else if f.certainty == Certainty::Certain
        && (values_clash(&sa.values, &ta.values) || opposed(sa, ta))
        && other_times(sa, ta)
    {
        // Twelfth round: two values for two times ("on Saturday mornings" / "on weekday evenings").
        H_OTHER_TIMES.to_string()
    } else if f.certainty == Certainty::Certain && values_clash(&sa.values, &ta.values) && target_and_reading(sa, ta) {
        // Twelfth round: what a value should be beside what it is.
        H_TARGET.to_string()
    } else if f.certainty == Certainty::Certain && kinds_apart(sa, ta) && sa.negated == ta.negated && !opposed(sa, ta) {
        // Twelfth round: two attributes of one subject, each with a value of its own kind.
        H_KINDS.to_string()
    } else if f.certainty == Certainty::Certain && values_clash(&sa.values, &ta.values) && exception(sa, ta) {
        // Twelfth round: a value for a part beside the value that holds otherwise.
        H_EXCEPTION.to_string()
    } else if f.certainty == Certainty::Possible
        && sa.decision
        && ta.decision
        && sa.negated == ta.negated
        && detail_added(sa, ta)
        && !values_clash(&sa.values, &ta.values)
        && !opposed(sa, ta)
    {
        // Twelfth round: the same decision, one with a detail the other lacks.
        H_RESTATED.to_string()
    } else if f.certainty == Certainty::Possible && only_units_shared(sa, ta) {
        H_ONLY_UNITS.to_string()
    } else if f.certainty == Certainty::Possible && other_wholes_measured(sa, ta) {
        H_MEASURES.to_string()
    } else if f.certainty == Certainty::Possible && different_facts(sa, ta, s_sec, t_sec) {
        if f.subject.is_empty() {
            "different facts about one subject".to_string()
        } else {
            format!("different facts about {}", f.subject)
        }
    } else if f.certainty == Certainty::Possible && one_thing_two_facts(sa, ta, s_sec, t_sec) {
        // Thirteenth round: one thing named in two facts (a subject here, an object there).
        H_ONE_THING.to_string()
    } else {
        return;
    };
    if f.certainty == Certainty::Certain {
        f.kind = ConflictKind::RelatedClaims;
        f.certainty = Certainty::Possible;
        f.order.0 = rank(false, false, true);
    } else {
        f.order.0 = f.order.0.max(3) + 2;
    }
    f.hint = Some(hint);
}

/// A source claim's weakly related pairs whose compatible hint is computed, at most (the
/// others are counted, as those beyond the cap).
const MAX_HINT_TRIES: usize = 8;

/// Seventh round: whether a weakly related pair (no rule relates it) is kept both without
/// being listed, because what the rules know shows the two claims compatible — unless their
/// typed values clash:
///
/// - one side is in Situation (the framing of the Dossier, not a claim to choose between);
/// - the qualifier table gives them different scopes (another platform, region, customer
///   tier, kind of client, setting, species);
/// - they share one word and no subject or head word, and a compatible filter explains them
///   (a decision and an observation of it, other measures of one thing, the same value in
///   other units, a later step of a log, a restatement, the same claim for something else,
///   different actions, a negative verb) — but not "about different subjects", which says
///   their subjects differ in words, what a renamed subject looks like.
///
/// Measured on the eight development sets before the rule was adopted: no contradiction loses
/// its listing this way (docs/merge.md, "Seventh round").
fn kept_without_listing(hint: Option<&str>, w: &Weak) -> bool {
    let Some(h) = hint else { return false };
    if w.clash {
        return false;
    }
    h == H_SITUATION
        || h.starts_with("the same claim for another ")
        || (w.shared <= 1 && w.strength <= 2 && h != H_SUBJECTS)
}

/// Sixth round: whether two units no rule relates are still related in the issue's sense —
/// the same section, or both in Decisions, Findings or Current State; not a containment
/// restatement (one's core words all among the other's, the same polarity, no typed values
/// clashing); and sharing a subject key, a head word or a content stem. Returns the number of
/// shared stems (at least 1).
fn weak_pair(
    s: &Analysis,
    t: &Analysis,
    s_sec: usize,
    t_sec: usize,
    mut clash_elsewhere: impl FnMut() -> bool,
) -> Option<usize> {
    if s_sec != t_sec && !(cross_section(s_sec) && cross_section(t_sec)) {
        return None;
    }
    // Seventh round: a value the claim states in another clause ("Turnaround … is mostly the
    // battery swap, about 3 min with the quick-release tray" / "A battery swap … takes ninety
    // seconds …") keeps a containment from being a restatement.
    // Ninth round: two claims that each state a cause ("Lyon date cancelled due to the rail
    // strike" / "The Lyon concert was cancelled because the roof repairs overran") name one
    // event and may give two causes: the event's words contained in the other's are no
    // restatement.
    // So is a negative verb on one side only ("The legacy CSV export is removed from the
    // product …" / "… stays in the product …": ninth round), as for `classes::change_of`.
    if contained_restatement(s, t) && !clash_elsewhere() {
        return None;
    }
    let n = inter(&s.stems, &t.stems).len();
    let same = (s.subject.is_some() && s.subject == t.subject) || (s.head != 0 && s.head == t.head);
    (n >= 1 || same).then_some(n.max(1))
}

/// A containment restatement (sixth round, in [`weak_pair`]; tenth round, shared with
/// `counterparts`): the same polarity and negative verb, one's core words all among the
/// other's, no typed values clashing, not both stating a cause.
pub(super) fn contained_restatement(s: &Analysis, t: &Analysis) -> bool {
    s.negated == t.negated
        && s.neg_pole == t.neg_pole
        && (subset(&s.core_words, &t.core_words) || subset(&t.core_words, &s.core_words))
        && !values_clash(&s.values, &t.values)
        && !(s.cause && t.cause)
}

/// Two claims with the same subject key. Not a conflict when both name qualifiers ("for
/// enterprise", "in the EU") and neither's qualifier words contain the other's ("in the EU"
/// vs "in the US", "in the launch region" vs "in the hiring region"): they are about
/// different things. Between two
/// decisions: a conflict when one is negated and the other not, when their choices differ
/// (both non-empty and neither contains the other), or when their typed values are
/// incompatible. Otherwise: a conflict when the typed values are incompatible, or when one is
/// negated and the other not while one's predicate words contain the other's.
pub(super) fn subject_conflict(s: &Analysis, t: &Analysis) -> Option<ConflictKind> {
    if !s.qualifiers.is_empty()
        && !t.qualifiers.is_empty()
        && !subset(&s.qualifiers, &t.qualifiers)
        && !subset(&t.qualifiers, &s.qualifiers)
    {
        return None;
    }
    if s.decision && t.decision {
        // "Accessions are labelled by …" / "New accessions are dried to …": different things
        // done to one subject, not two values of one attribute (fourth round).
        let other_actions = s.action != 0 && t.action != 0 && s.action != t.action;
        // Twelfth round: a choice restated with a detail is no other choice (`weak`).
        let differ = !other_actions
            && !s.choice.is_empty()
            && !t.choice.is_empty()
            && !subset(&s.choice, &t.choice)
            && !subset(&t.choice, &s.choice)
            && !detail_added(s, t);
        if s.negated != t.negated || differ || values_incompatible(&s.values, &t.values) {
            return Some(ConflictKind::ContradictoryDecision);
        }
        return None;
    }
    if values_incompatible(&s.values, &t.values) {
        return Some(ConflictKind::IncompatibleValue);
    }
    if s.negated != t.negated && (subset(&s.choice, &t.choice) || subset(&t.choice, &s.choice)) {
        return Some(ConflictKind::IncompatibleValue);
    }
    None
}

/// Two claims with the same polarity-free word set (same content words once negations and
/// typed values are set aside): a conflict when one is negated and the other not ("We will
/// ship X" / "We will not ship X") or their typed values are incompatible ("churn 3x" /
/// "churn 4x"). Contradictory decision when both are decisions, incompatible value otherwise.
pub(super) fn same_words_conflict(s: &Analysis, t: &Analysis) -> Option<ConflictKind> {
    if s.negated != t.negated || values_incompatible(&s.values, &t.values) {
        Some(if s.decision && t.decision {
            ConflictKind::ContradictoryDecision
        } else {
            ConflictKind::IncompatibleValue
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::analysis::tests::an;

    #[test]
    fn documented_examples_hold() {
        let conflict = |s: &str, t: &str, decision: bool| {
            let (a, b) = (an(s, decision), an(t, decision));
            let by_subject = (a.subject.is_some() && a.subject == b.subject).then(|| subject_conflict(&a, &b));
            let by_words = (a.pol_key != 0 && a.pol_key == b.pol_key).then(|| same_words_conflict(&a, &b));
            by_subject.flatten().or(by_words.flatten())
        };
        use ConflictKind::{ContradictoryDecision as D, IncompatibleValue as V};
        assert_eq!(conflict("SSO is required", "SSO is not required for enterprise", false), Some(V));
        assert_eq!(
            conflict("Monthly deals churn 3x annual ones", "Monthly deals churn 4x annual ones", false),
            Some(V)
        );
        assert_eq!(conflict("Headcount: 6 engineers", "Headcount is 5", false), Some(V));
        assert_eq!(conflict("Launch is July 14 in the US", "Launch is July 21 in the EU", false), None);
        assert_eq!(conflict("Use Postgres for the event store", "Use SQLite for the event store", true), Some(D));
        assert_eq!(conflict("Use Postgres for the event store", "Event store: Postgres 16 on RDS", true), None);
        assert_eq!(
            conflict(
                "We will ship the beta to EU customers in Q3",
                "We will not ship the beta to EU customers until the DPA is signed",
                true
            ),
            Some(D)
        );
        assert_eq!(conflict("Launch moved to July 14 (was June 30)", "Launch date: July 14", false), None);
        assert_eq!(conflict("Launch moved from June 30 to July 14", "Launch date: June 30", false), Some(V));
        assert_eq!(conflict("Cap is 25%, not 20%", "Cap: 20%", false), Some(V));
    }

    #[test]
    fn lifecycle_table() {
        use Status::*;
        assert_eq!(lifecycle(Active, Blocked), Some(Blocked));
        assert_eq!(lifecycle(Waiting, Active), Some(Waiting));
        assert_eq!(lifecycle(Resolved, Archived), Some(Archived));
        assert_eq!(lifecycle(Archived, Resolved), Some(Resolved));
        assert_eq!(lifecycle(Active, Resolved), None);
        assert_eq!(lifecycle(Archived, Blocked), None);
    }

    #[test]
    fn next_actions() {
        assert!(!material_next_action(
            "Compare revised pricing scenarios with sales feedback.",
            "Compare pricing scenarios with the sales team's feedback"
        ));
        assert!(material_next_action("Email Sales the revised deck", "Benchmark Postgres replication lag"));
        assert!(material_next_action("Send the deck by June 30", "Send the deck by July 14"));
        assert!(!material_next_action("Send the deck", "Send the deck to Sales by June 30"));
        assert!(!material_next_action("", "Anything"));
        // Opposite verbs on one object share most words: still the user's choice.
        assert!(material_next_action("Raise the API rate limit for the beta", "Lower the API rate limit for the beta"));
        assert!(material_next_action("Ship the Android build to testers", "Hold the Android build for testers"));
        assert!(material_next_action("Don't send the deck", "Send the deck"));
        // One verb, other particles: two actions (fifth round).
        assert!(material_next_action(
            "Roll back release 4.2 on Android.",
            "Roll forward release 4.2 on Android with the 4.2.1 hotfix."
        ));
    }

    /// Eighth round: the same objects and names with verbs of other classes are listed with a
    /// hint; a verb that halts or undoes a plan, or one of the lexicon, keeps them apart.
    #[test]
    fn eighth_round_next_actions_on_the_same_objects() {
        let other = Some((Certainty::Possible, Some(H_OTHER_VERB)));
        assert_eq!(
            next_action_relation(
                "Photograph the cracked greenhouse panels for the insurer.",
                "Send the insurer photos of the cracked greenhouse panels."
            ),
            other
        );
        assert_eq!(
            next_action_relation(
                "Hold the cracked greenhouse panels claim for the insurer.",
                "File the cracked greenhouse panels claim with the insurer."
            ),
            Some((Certainty::Possible, None))
        );
        // Still a conflict for `next_action_conflict` (it is listed).
        assert_eq!(
            next_action_conflict(
                "Photograph the cracked greenhouse panels for the insurer.",
                "Send the insurer photos of the cracked greenhouse panels."
            ),
            Some(Certainty::Possible)
        );
    }

    /// Thirteenth round: one action's objects inside the other's, with other verbs: probably
    /// one action; not with a lexicon word on one side only or a particle (one undoes the
    /// other).
    #[test]
    fn thirteenth_round_next_actions_with_contained_objects() {
        let other = Some((Certainty::Possible, Some(H_OTHER_VERB)));
        assert_eq!(
            next_action_relation(
                "Rewrite the rota spreadsheet in Google Sheets.",
                "Migrate the rota spreadsheet to Sheets."
            ),
            other
        );
        assert_ne!(
            next_action_relation(
                "Release the hall booking for the spring fair.",
                "Confirm the spring fair booking with the hall."
            ),
            other
        );
        assert_ne!(next_action_relation("Roll back the new pricing page.", "Ship the new pricing page."), other);
    }

    /// Ninth round: next actions naming the same things in other words — counts as digits,
    /// words or ordinals, a verb with *re-*, a verb among the other's words, one verb class,
    /// a quoted action with a leading adverbial — are probably one action; not two verbs that
    /// are neither linked nor generic, nor a verb that halts the plan.
    #[test]
    fn ninth_round_next_actions_naming_the_same_things() {
        let other = Some((Certainty::Possible, Some(H_OTHER_VERB)));
        let plain = Some((Certainty::Possible, None));
        assert_eq!(next_action_relation("Wrap up grading batch two.", "Grade the second batch."), other);
        assert_eq!(
            next_action_relation(
                "Restock 12 mm copper fittings from the wholesaler.",
                "Stock more 12mm copper fittings from the wholesaler."
            ),
            other
        );
        assert_eq!(
            next_action_relation(
                "Shift the three remaining kiosks onto the new till system.",
                "Relocate the last three kiosks to the new till system software."
            ),
            Some((Certainty::Possible, Some(H_SAME_ACTION)))
        );
        assert_eq!(
            next_action_relation(
                "\"On day ten, look over the trial plot yields.\"",
                "Check the trial plot yields on day 10."
            ),
            Some((Certainty::Possible, Some(H_SAME_ACTION)))
        );
        // Neither verb linked to the other: two plans for one booking.
        assert_eq!(
            next_action_relation(
                "Confirm the hall booking for the spring fair.",
                "Release the hall booking for the spring fair."
            ),
            plain
        );
        // A verb that halts the plan.
        assert_eq!(next_action_relation("Postpone grading batch two.", "Grade the second batch."), plain);
    }

    /// Ninth round: a negative verb on one side keeps a containment from being a restatement,
    /// and two causes of one event are compared — both weakly related, two causes ranked as a
    /// shared subject.
    #[test]
    fn ninth_round_negative_verbs_and_causes_relate() {
        let (d, c) = (DECISIONS, CURRENT_STATE);
        let (a, b) = (
            an("The paper timesheet is retired from the depot for agency drivers.", true),
            an("The paper timesheet stays at the depot for agency drivers.", true),
        );
        assert!(weak_pair(&a, &b, d, d, || false).is_some());
        let (a, b) = (
            an("Friday's ferry sailing cancelled due to high winds.", false),
            an("The Friday ferry sailing was cancelled because the crew was short.", false),
        );
        assert!(a.cause && b.cause);
        assert!(weak_pair(&a, &b, c, c, || false).is_some());
        assert!(strength(&a, &b) >= 4 + inter(&a.stems, &b.stems).len() as u32);
        // One cause only: still a containment restatement.
        let (a, b) = (
            an("The Friday ferry sailing was cancelled.", false),
            an("The Friday ferry sailing was cancelled because the crew was short.", false),
        );
        assert!(weak_pair(&a, &b, c, c, || false).is_none());
    }
}

#[cfg(test)]
mod second_round {
    use super::*;
    use crate::merge::analysis::tests::an;

    /// The source document's words for the names test: here, only the source claim's own.
    fn words_of(text: &str) -> KeySet<u64> {
        let mut set = KeySet::default();
        for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            set.insert(fold_hash(&w.to_lowercase()));
        }
        set
    }

    fn wide(s: &str, t: &str, s_sec: usize, t_sec: usize) -> bool {
        let (a, b) = (an(s, s_sec == DECISIONS), an(t, t_sec == DECISIONS));
        related(&a, &b, s_sec, t_sec).is_none() && widened(&a, &b, s_sec, t_sec, &words_of(s)).is_some()
    }

    #[test]
    fn widened_tier_documented_examples() {
        let (d, f, c) = (DECISIONS, FINDINGS, CURRENT_STATE);
        assert!(wide("The LMS will be Canvas.", "Choose Moodle as the learning platform.", d, d));
        assert!(wide("Go with SQLite.", "Use Postgres.", d, d));
        assert!(wide("Email tool: Mailchimp.", "Use HubSpot for the email campaigns.", d, d));
        assert!(wide(
            "Backup retention for the feature store: 6 months.",
            "Feature store snapshots are retained for ninety days.",
            d,
            d
        ));
        assert!(wide(
            "The rebranded website still sits in staging.",
            "The rebrand site went to production on Monday.",
            c,
            c
        ));
        // Restatements and other things stay quiet.
        assert!(!wide("Production runs on EKS in eu-central-1.", "Production runs on EKS.", f, f));
        assert!(!wide("Use Postgres.", "Use Postgres.", d, d));
        assert!(!wide("interviews are held on tuesdays.", "offers go out on fridays.", f, f));
        assert!(!wide("First response target: 2 hours.", "First response target is 120 minutes.", d, d));
    }

    #[test]
    fn next_action_tiers() {
        use Certainty::{Certain, Possible};
        assert_eq!(next_action_conflict("Disable the chatbot handoff", "Enable the chatbot handoff"), Some(Certain));
        assert_eq!(next_action_conflict("Send the deck by June 30", "Send the deck by July 14"), Some(Certain));
        assert_eq!(next_action_conflict("Don't send the deck", "Send the deck"), Some(Certain));
        assert_eq!(
            next_action_conflict("Call the vendor about the SLA", "Email the vendor about the SLA"),
            Some(Possible)
        );
        // Third round: verbs of one action are one word in next actions.
        assert_eq!(
            next_action_conflict("Send the vendor a note about the SLA", "Email the vendor about the SLA"),
            None
        );
        assert_eq!(
            next_action_conflict("Share the shortlist with the director", "Send the director the shortlist"),
            None
        );
        assert_eq!(next_action_conflict("Send the deck", "Send the deck to Sales"), None);
    }

    #[test]
    fn clause_and_alternatives() {
        // "over" after a verb of carrying, or before a number, is not a rejected alternative.
        assert!(an("Ship firmware updates over the air instead of over USB", true).rejected.len() == 1);
        assert!(an("Any discount over twenty percent requires VP sign-off", true).rejected.is_empty());
        assert!(!an("Prefer Kafka over RabbitMQ", true).rejected.is_empty());
        // "so" ends the main clause; "is due to" does not.
        assert!(!an("Use two carriers on the Hamburg lane so one strike cannot stop deliveries", true).negated);
        assert!(an("The readmission rise on Ward 4 is due to the protocol change", false).cause);
        // British spelling: one word key.
        assert_eq!(fold_hash("prioritise"), fold_hash("prioritize"));
        assert_eq!(fold_hash("organisations"), fold_hash("organizations"));
    }
}

#[cfg(test)]
mod probe {
    use super::*;
    use crate::merge::analysis::tests::an;

    /// `MERGE_PROBE="S text|T text|sec"` (sec: d decisions, f findings, c current state).
    #[test]
    fn probe() {
        if let Ok(f) = std::env::var("MERGE_PROBE_FILE") {
            for line in std::fs::read_to_string(f).unwrap().lines() {
                let v: Vec<&str> = line.split('|').collect();
                let sec = if v[2] == "d" { DECISIONS } else { FINDINGS };
                let (s, t) = (an(v[0], sec == DECISIONS), an(v[1], sec == DECISIONS));
                println!(
                    "{:?} scope={} table={} same_alternative={} rejected={:?}/{:?}\n   S {}\n   T {}",
                    super::super::classes::facts_reason(&s, &t, sec, sec),
                    other_scope(&s, &t),
                    scoped_apart(&s, &t),
                    same_alternative(&s, &t),
                    s.rejected,
                    t.rejected,
                    v[0],
                    v[1]
                );
            }
            return;
        }
        let Ok(p) = std::env::var("MERGE_PROBE") else { return };
        let v: Vec<&str> = p.split('|').collect();
        let sec = match v.get(2).copied().unwrap_or("d") {
            "f" => FINDINGS,
            "c" => CURRENT_STATE,
            _ => DECISIONS,
        };
        let (s, t) = (an(v[0], sec == DECISIONS), an(v[1], sec == DECISIONS));
        println!("S {s:#?}\nT {t:#?}");
        println!("subject {:?}", subject_conflict(&s, &t));
        println!("words {:?}", same_words_conflict(&s, &t));
        println!("ext {:?}", extended_conflict(&s, &t, sec, sec).map(|x| x.0));
        println!("related {:?}", related(&s, &t, sec, sec).is_some());
        let mut words = KeySet::default();
        for w in v[0].split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            words.insert(fold_hash(&w.to_lowercase()));
        }
        println!("widened {:?}", widened(&s, &t, sec, sec, &words).is_some());
        println!("facts {} scope {}", different_facts(&s, &t, sec, sec), other_scope(&s, &t));
    }
}

#[cfg(test)]
mod third_round {
    use super::*;
    use crate::merge::analysis::tests::an;

    /// Whether the pair raises any conflict of the claim rules (certain or possible), with the
    /// source's document words taken from the source claim only.
    fn asks(s: &str, t: &str, s_sec: usize, t_sec: usize) -> bool {
        let (a, b) = (an(s, s_sec == DECISIONS), an(t, t_sec == DECISIONS));
        let mut words = KeySet::default();
        for w in s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            words.insert(fold_hash(&w.to_lowercase()));
        }
        let same_subject = a.subject.is_some() && a.subject == b.subject;
        (same_subject && subject_conflict(&a, &b).is_some())
            || (a.pol_key == b.pol_key && same_words_conflict(&a, &b).is_some())
            || extended_conflict(&a, &b, s_sec, t_sec).is_some()
            || related(&a, &b, s_sec, t_sec).is_some()
            || widened(&a, &b, s_sec, t_sec, &words).is_some()
    }

    #[test]
    fn documented_compatible_examples_do_not_ask() {
        let (d, f, c) = (DECISIONS, FINDINGS, CURRENT_STATE);
        // Additive: a decision and an observation; other measures of one thing.
        assert!(!asks(
            "The Hamburg lane is dual-sourced across two carriers.",
            "The Hamburg lane carries 220 pallets a week.",
            d,
            f
        ));
        assert!(!asks(
            "Handover success on the Leeds cluster is 98.9 %.",
            "The dropped-call rate on the Leeds cluster is 0.4 %.",
            f,
            f
        ));
        assert!(!asks(
            "Availability of the new sites in October was 99.7 %.",
            "Median downlink on the new sites is 180 Mbit/s.",
            f,
            f
        ));
        assert!(!asks("The imagery archive grows by 1,500 GB a day.", "The archive holds 3.2 PB.", f, f));
        // Progress-log steps.
        assert!(!asks(
            "The board memo draft was reviewed by the CFO on 3 May.",
            "The board memo draft is ready.",
            c,
            c
        ));
        assert!(!asks(
            "The conservation survey finished on 2026-10-20.",
            "The conservation survey started on 2026-08-04.",
            c,
            c
        ));
        // Restatements: overlap, spelling, acronyms, the 'was' value, a negative verb.
        assert!(!asks(
            "Interviewers never ask candidates about their previous salary.",
            "We do not ask for salary history in interviews.",
            d,
            d
        ));
        assert!(!asks(
            "Refer children needing general anaesthesia to the paediatric centre at St Mary's.",
            "Refer children needing general anesthesia to the pediatric center at St Mary's.",
            d,
            d
        ));
        assert!(!asks(
            "Record species with the BTO two-letter codes.",
            "Record species with the British Trust for Ornithology two-letter codes.",
            d,
            d
        ));
        assert!(!asks(
            "The March audit measured 78% hand-hygiene compliance on Ward 2.",
            "Hand-hygiene compliance on Ward 2 was 78% in the March audit.",
            f,
            f
        ));
        assert!(!asks(
            "The next minor release no longer supports Python 3.8.",
            "Drop support for Python 3.8 in the next minor release.",
            d,
            d
        ));
        // The qualifier table.
        assert!(!asks(
            "Enable Wi-Fi calling on Android from app release 8.4.",
            "Enable Wi-Fi calling on iOS from app release 8.2.",
            d,
            d
        ));
        assert!(!asks(
            "Standard-tier customers get imagery within 24 hours of capture.",
            "Enterprise customers get imagery within 6 hours of capture.",
            d,
            d
        ));
    }

    #[test]
    fn documented_contradictions_still_ask() {
        let (d, f, c) = (DECISIONS, FINDINGS, CURRENT_STATE);
        assert!(asks(
            "All four clinics are now live on the tablet app.",
            "Only the Mbale clinic uses the tablet app.",
            c,
            c
        ));
        assert!(asks("Benchmarks done.", "Benchmarks running.", c, c));
        assert!(asks(
            "The Manchester Deansgate site is trading normally.",
            "The Manchester Deansgate site is closed for the refit.",
            c,
            c
        ));
        assert!(asks(
            "Staging cluster is healthy and serving the QA suite.",
            "The staging k8s cluster has been down since Tuesday.",
            c,
            c
        ));
        assert!(asks(
            "Rural clinics retire the paper intake form.",
            "The paper intake form stays in use at the rural clinics.",
            d,
            d
        ));
        assert!(asks(
            "Decrease the titrant addition rate near the endpoint.",
            "Increase the titrant addition rate near the endpoint to shorten each run.",
            d,
            d
        ));
        assert!(asks(
            "Keep build artifacts for 6 months, then delete them.",
            "Keep build artifacts for ninety days, then delete them.",
            d,
            d
        ));
        assert!(asks(
            "UK merchants are settled in EUR from the Dublin account.",
            "Settlement currency for UK merchants is GBP.",
            d,
            d
        ));
        assert!(asks(
            "The failed sterilisation cycle on 2026-10-04 was caused by a blocked drain filter on autoclave 2.",
            "The failed sterilisation cycle on 2026-10-04 was caused by a worn door gasket on autoclave 2.",
            f,
            f
        ));
        assert!(asks("Record submissions go through Epicollect5.", "Use iNaturalist for the photo records.", d, d));
    }
}

#[cfg(test)]
mod fourth_round {
    use super::*;
    use crate::merge::analysis::tests::an;

    /// The tier of the strongest conflict of the claim rules for the pair, if any (the source's
    /// document words taken from the source claim only).
    fn tier(s: &str, t: &str, s_sec: usize, t_sec: usize) -> Option<Certainty> {
        let (a, b) = (an(s, s_sec == DECISIONS), an(t, t_sec == DECISIONS));
        let mut words = KeySet::default();
        for w in s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            words.insert(fold_hash(&w.to_lowercase()));
        }
        let same_subject = a.subject.is_some() && a.subject == b.subject;
        if (same_subject && subject_conflict(&a, &b).is_some())
            || (a.pol_key == b.pol_key && same_words_conflict(&a, &b).is_some())
        {
            return Some(Certainty::Certain);
        }
        match extended_conflict(&a, &b, s_sec, t_sec) {
            Some((ConflictKind::RelatedClaims, _)) => return Some(Certainty::Possible),
            Some(_) => return Some(Certainty::Certain),
            None => {}
        }
        (related(&a, &b, s_sec, t_sec).is_some() || widened(&a, &b, s_sec, t_sec, &words).is_some())
            .then_some(Certainty::Possible)
    }

    const C: Option<Certainty> = Some(Certainty::Certain);

    #[test]
    fn alternatives_of_one_choice_conflict() {
        let d = |s, t| tier(s, t, DECISIONS, DECISIONS);
        assert_eq!(d("Keep payroll in-house.", "Outsource payroll to an agency."), C);
        assert_eq!(d("The CRM is self-hosted on-premises.", "The CRM runs on AWS."), C);
        assert_eq!(d("Newsletter consent is opt-in.", "Newsletter consent is opt-out."), C);
        assert_eq!(d("Roll out the new tills all at once.", "Roll out the new tills in phases."), C);
        assert_eq!(d("Scores are computed in real time.", "Scores are computed in a nightly batch."), C);
        assert_eq!(d("Exports are delivered as CSV.", "Exports are delivered as JSON."), C);
        assert_eq!(d("Billing moves to microservices.", "Billing stays a monolith."), C);
        // Naming several members picks none of them.
        assert_eq!(d("Hosting is hybrid: cloud and on-premises.", "Hosting is in the cloud."), None);
    }

    #[test]
    fn scopes_and_actions_keep_claims_apart() {
        let c = |s, t| tier(s, t, CURRENT_STATE, CURRENT_STATE);
        // A leading adverbial is the claim's scope.
        assert_eq!(
            c(
                "At the Poplar office, walk-in intake runs on Thursdays.",
                "At the Bow office, walk-in intake runs on Mondays."
            ),
            None
        );
        let d = |s, t| tier(s, t, DECISIONS, DECISIONS);
        // Different participles: different things done to one subject.
        assert_ne!(
            d("Accessions are labelled by storage temperature.", "New accessions are dried to 15% humidity."),
            C
        );
        // A negation in a relative clause is not the claim's.
        assert_ne!(
            d(
                "Player identifiers are replaced by tokens that cannot be reversed.",
                "Player identifiers are replaced by tokens."
            ),
            C
        );
        // "replace A with B" rejects A.
        assert_eq!(d("We will keep printed tickets.", "Replace printed tickets with display screens."), C);
        // Lexicon members folded: kept = retained; a hyphenated unit.
        assert_ne!(d("Trip data is kept for 12 months.", "Trip data is retained for 1 year."), C);
        assert_ne!(d("Species are retested at sixty-month intervals.", "Species are retested every 5 years."), C);
    }

    #[test]
    fn settings_clients_species_logs_and_swapped_names() {
        let d = |s, t| tier(s, t, DECISIONS, DECISIONS);
        let c = |s, t| tier(s, t, CURRENT_STATE, CURRENT_STATE);
        assert_eq!(d("Rural legs of the routes fly at 90 m.", "Urban legs of the routes fly at 60 m."), None);
        assert_eq!(
            d(
                "Institutional clients can withdraw at most $5m a day.",
                "Retail clients can withdraw at most $50k a day."
            ),
            None
        );
        assert_eq!(d("Dog reminders go out two weeks ahead.", "Cat reminders go out four weeks ahead."), None);
        // Log entries with different stamps are steps.
        assert_eq!(
            c("Week 10 (6 March): units fitted in 190 vans.", "Week 12 (20 March): units fitted in 210 vans."),
            None
        );
        assert_eq!(
            c("As of 2 March, the model has flagged 41 leaks.", "As of 16 March, the model has flagged 58 leaks."),
            None
        );
        // Two names for one role: not a step.
        assert!(c("Kezia Obi owns the drying-room log.", "The drying-room log is owned by Tom Bellamy.").is_some());
        // More words and another value: not a restatement.
        assert!(
            d(
                "A donor counts as lapsed after 2 years without a gift, in line with the benchmark.",
                "A donor counts as lapsed after eighteen months without a gift."
            )
            .is_some()
        );
    }

    #[test]
    fn next_actions_reworded() {
        let na = next_action_conflict;
        assert_eq!(
            na(
                "Set up the postmortem review meeting with the field team.",
                "Schedule the postmortem review with the field team."
            ),
            None
        );
        assert_eq!(na("Handle the vendor contract renewal.", "Renew the vendor contract."), None);
        assert_eq!(
            na("Pack and label the accessions for freezing.", "Label and pack the accessions for the freezer."),
            None
        );
        assert_eq!(
            na(
                "Reserve a weekend possession so the balises can be tested.",
                "Book the next weekend possession for balise testing."
            ),
            None
        );
        assert_eq!(
            na("At week four, go through batch 8's stability results.", "Review batch 8 stability results at week 4."),
            None
        );
        assert_eq!(
            na(
                "Extend SMS reminders to the five clinics that do not have them yet.",
                "Roll SMS reminders out to the remaining five clinics."
            ),
            None
        );
        // Other objects, other names, opposite verbs: still the user's choice.
        assert!(na("Book the venue in Leeds for the offsite.", "Book the venue in York for the offsite.").is_some());
        assert_eq!(na("Cancel the extra capacity with Nordfrost.", "Book extra capacity with Nordfrost."), C);
        assert_eq!(na("Withdraw the revised rubric.", "Publish the revised rubric."), C);
    }
}

#[cfg(test)]
mod twelfth_round {
    use super::*;
    use crate::merge::analysis::tests::an;

    /// "from X to Y" after a verb of change sets X aside, as "Replace X with Y" does: the two
    /// say one replacement, no mirror; keeping X against it is one.
    #[test]
    fn twelfth_round_change_from_to_sets_the_old_value_aside() {
        let s = an("The label printer moves from Zebra to Brother for the packing bench", true);
        assert!(s.rejected.contains(&fold_hash("zebra")));
        assert!(!s.core_words.contains(&fold_hash("zebra")));
        let u = an("Replace Zebra with Brother for the packing bench label printer", true);
        assert!(extended_conflict(&s, &u, DECISIONS, DECISIONS).is_none_or(|c| c.0 == ConflictKind::RelatedClaims));
        let k = an("Keep Zebra for the packing bench label printer", true);
        assert!(extended_conflict(&k, &s, DECISIONS, DECISIONS).is_some());
        // A figure after "from" is a past value the values module reads, not set aside here.
        let d = an("Launch moved from June 30 to July 14", false);
        assert_eq!(subject_conflict(&d, &an("Launch date: June 30", false)), Some(ConflictKind::IncompatibleValue));
    }

    /// A choice that, with its qualifiers, lies within the other's restates it with a detail;
    /// two choices that differ still clash.
    #[test]
    fn twelfth_round_choice_within_other_is_no_decision_clash() {
        let s = an("Build cache: shared, in the `gradle-cache` GCS bucket in us-east1", true);
        let t = an("Use a shared GCS cache for all builds (bucket `gradle-cache`, us-east1)", true);
        assert!(detail_added(&s, &t));
        assert_eq!(subject_conflict(&s, &t), None);
        let u = an("Use Postgres for the event store", true);
        let v = an("Use SQLite for the event store", true);
        assert_eq!(subject_conflict(&u, &v), Some(ConflictKind::ContradictoryDecision));
    }
}
