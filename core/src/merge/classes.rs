//! Classes of claim pairs (issue 19, eighth round): what two related claims are, by the shape
//! of what they say rather than by their words — the opposition and the change between them
//! ([`opposed`], [`change_of`]), and the classes of compatible pairs the rules can name:
//! **different facts about one subject** ([`different_facts`]), **the same claim for another
//! scope** ([`other_scope`]), **one claim in other spellings** ([`same_words`]), **the same
//! value in other words** ([`same_value`]), **the same choice over the same alternative**
//! ([`same_alternative`]) and **two entries of one log** ([`log_entries`]); since the ninth
//! round also **the same sentence for another kind** (`opening_scope`, part of
//! [`other_scope`]), **one claim reworded unevenly** ([`reworded`]), **only the unit in
//! common** ([`only_units_shared`]), **percentages of different wholes about different
//! subjects** ([`other_wholes_measured`]) and **entries of two stamped claims**
//! ([`stamped_entries`]); since the thirteenth round **a log entry beside a standing fact**
//! ([`entry_beside_fact`]) and **one thing named in two different findings**
//! ([`one_thing_two_facts`]).
//!
//! What it is for: those predicates and the sorted-set helpers the rules share ([`inter`],
//! [`minus`], [`subset`], [`high_overlap`]; with [`opposed`], moved here from `detection`, which
//! uses them).
//! `detection::eighth_round` applies the classes to conflicts already chosen for listing: a
//! possible conflict with no hint gains one, a certain conflict in a class becomes possible
//! with one. They never decide whether a pair is listed, so no related pair leaves the list or
//! the count.
//!
//! What it is not for: relating claims (`detection::related`, the widened tier), deciding that
//! a pair contradicts (the certain rules), or reading a claim (`analysis`). The classes are
//! lexical guesses about shape: they demote, with a hint the user reads; they never drop.

use super::analysis::Analysis;
use super::claims::CURRENT_STATE;
use super::values::{U_PERCENT, Value, slots_meet, values_clash};
use super::words::ALTERNATIVES_BASE;

/// Sorted `a` without the words in sorted `b`.
pub(super) fn minus(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().copied().filter(|w| b.binary_search(w).is_err()).collect()
}

/// Sorted `a` ∩ sorted `b`.
pub(super) fn inter(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().copied().filter(|w| b.binary_search(w).is_ok()).collect()
}

/// Whether sorted `a` is contained in sorted `b`.
pub(super) fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().all(|x| b.binary_search(x).is_ok())
}

/// At least 3 shared words, at least three quarters of the smaller list's.
pub(super) fn high_overlap(a: &[u64], b: &[u64]) -> bool {
    let n = inter(a, b).len();
    n >= 3 && 4 * n >= 3 * a.len().min(b.len())
}

/// Whether, for some group of the opposition lexicon, both claims use a member and none in
/// common ("weekly" / "monthly", "raise" / "lower").
pub(super) fn opposed(s: &Analysis, t: &Analysis) -> bool {
    s.poles.iter().any(|&p| opposed_in(s, t, p >> 8))
}

/// Whether both claims use members of group `g` (of the lexicon or the alternatives table)
/// and none in common.
fn opposed_in(s: &Analysis, t: &Analysis, g: u16) -> bool {
    s.poles.iter().any(|&p| p >> 8 == g)
        && t.poles.iter().any(|q| q >> 8 == g)
        && !s.poles.iter().any(|q| q >> 8 == g && t.poles.contains(q))
}

/// [`opposed`], in a group of the opposition lexicon (not the alternatives table).
pub(super) fn opposed_lexicon(s: &Analysis, t: &Analysis) -> bool {
    s.poles.iter().any(|&p| (p >> 8) < ALTERNATIVES_BASE as u16 && opposed_in(s, t, p >> 8))
}

/// A unit's typed values, without its percentages when both claims say what theirs are of and
/// the wholes share no word ("70 % of flaky failures" / "18 % of merges": two measures, not
/// two values of one).
fn other_wholes(x: &Analysis, y: &Analysis) -> Vec<Value> {
    let apart = !x.pct_wholes.is_empty() && !y.pct_wholes.is_empty() && inter(&x.pct_wholes, &y.pct_wholes).is_empty();
    x.values.iter().filter(|v| !(apart && matches!(v, Value::Num { unit: U_PERCENT, .. }))).copied().collect()
}

/// Which change there is between the two claims, if any: one negated and not the other (or a
/// negative verb on one side only), a claim that says something takes another's place
/// ("instead of", "no longer", "switched"), opposite members of one group, typed values of one
/// kind and unit that differ (not the loose reading of two numbers, one without a unit: "Two
/// vendors added …" / "27 vendors have signed …"; not percentages of different wholes), or a
/// word that one claim sets aside and the other says.
pub(super) fn change_of(s: &Analysis, t: &Analysis) -> Option<&'static str> {
    Some(if s.negated != t.negated || s.neg_pole != t.neg_pole {
        "polarity"
    } else if s.replaces || t.replaces {
        "replacement"
    } else if opposed(s, t) {
        "opposition"
    } else if values_clash(&other_wholes(s, t), &other_wholes(t, s)) {
        "values"
    } else if !inter(&s.rejected, &t.core_words).is_empty() || !inter(&t.rejected, &s.core_words).is_empty() {
        "rejected"
    } else {
        return None;
    })
}

/// What a unit says of its subject, given the stems two claims share: the predicate's stems
/// when the claim has a subject; otherwise the stems after the shared words it opens with
/// ("*Night calls* peak between 2 and 4 am"; at most two words of its own before them).
/// `None` when a shared stem is part of it (the two claims share a verb or an object: "was
/// caused by X" / "was caused by Y") or when it is empty.
fn predicate(x: &Analysis, shared: &[u64]) -> Option<Vec<u64>> {
    let pred = if x.subject.is_some() {
        x.pred_stems.clone()
    } else {
        // A word or two before them ("*Most* night calls …") may be the claim's own.
        let from = x.seq.iter().position(|&(_, st)| shared.binary_search(&st).is_ok())?;
        if from > 2 {
            return None;
        }
        let run = from + x.seq[from..].iter().take_while(|&&(_, st)| shared.binary_search(&st).is_ok()).count();
        // (A shared word that names a number's unit is not in the sequence: "2026 wildflower
        // intake".)
        if x.seq[run..].iter().any(|p| shared.binary_search(&p.1).is_ok()) {
            return None;
        }
        let mut p: Vec<u64> = x.seq[run..].iter().map(|p| p.1).collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    (!pred.is_empty() && inter(&pred, shared).is_empty()).then_some(pred)
}

/// **Different facts about one subject** (eighth round): two claims about one subject (the
/// same subject key or head word, a subject word in common, or the same words they open with)
/// that say things about different attributes of it, with nothing changed between them
/// ([`change_of`]), neither stating a cause (one slot) nor being a bare decision or an
/// imperative (the words after the verb are the choice):
///
/// - their typed values are of different families — a date against a quantity, a yes/no
///   against an amount, a duration against a percentage ("The kiln batch takes 9 hours" / "The
///   kiln batch is fired at 1,240 °C on a Tuesday");
/// - or what each says of the subject shares no word with the other's (different verbs or
///   complements: "Night calls peak between 2 and 4 am" / "Most night calls come from
///   families") — unless both are a bare value after a link verb or a colon ("The venue is
///   the Arts Centre" / "The venue is the Town Hall": one slot, two values), each names
///   something the other does not (two choices), one states an exclusive or a final state
///   (*only, still, closed, paused*), or both are Current State claims (two states of one
///   moment: "The kiln is firing the glaze batch" / "The kiln is down for a new element").
///
/// Not for: two values of one slot (they clash: a certain rule or the related tier says so),
/// a change ("no longer", "instead of", "switched"), two choices of names, one or two words
/// swapped in a claim otherwise the same (the substitution shape: "… requests go to the on-call
/// registrar" / "… go to the on-call pharmacist").
pub(super) fn different_facts(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> bool {
    facts_reason(s, t, s_sec, t_sec).is_none()
}

/// [`different_facts`], with the reason why not (for the probe and the tests): `None` when
/// they are different facts.
pub(super) fn facts_reason(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> Option<&'static str> {
    if let Some(c) = change_of(s, t) {
        return Some(c);
    }
    let shared = inter(&s.stems, &t.stems);
    if shared.is_empty() {
        return Some("no shared");
    }
    let one_subject = (s.subject.is_some() && s.subject == t.subject)
        || (s.head != 0 && s.head == t.head)
        || !inter(&s.subject_words, &t.subject_words).is_empty()
        || (predicate(s, &shared).is_some() && predicate(t, &shared).is_some());
    if !one_subject {
        return Some("not one subject");
    }
    // A cause is one slot ("… happened because X" / "The root cause … was Y"); so is a bare
    // decision's choice ("Use X for bedding" / "Bed the cubicles with Y").
    if s.cause || t.cause || s.bare_verb != 0 || t.bare_verb != 0 || s.verb_stem != 0 || t.verb_stem != 0 {
        return Some("cause or bare decision");
    }
    if !s.values.is_empty() && !t.values.is_empty() && !slots_meet(&s.values, &t.values) {
        return None;
    }
    if s_sec == CURRENT_STATE && t_sec == CURRENT_STATE {
        return Some("CS x CS");
    }
    if s.exclusive || t.exclusive || !s.later_pole_words.is_empty() || !t.later_pole_words.is_empty() {
        return Some("exclusive or final state");
    }
    // One word or two swapped in a claim otherwise the same (the substitution shape: "…
    // requests go to the on-call registrar" / "… go to the on-call pharmacist").
    let (only_s, only_t) = (s.stems.len() - shared.len(), t.stems.len() - shared.len());
    if only_s.max(only_t) <= 2 && shared.len() >= 2 * only_s.max(only_t) {
        return Some("substitution shape");
    }
    let bare = |x: &Analysis| x.linked && x.action == 0;
    if bare(s) && bare(t) {
        return Some("two bare values");
    }
    // Names each side states that the other does not: two choices of one slot.
    if !minus(&s.name_stems, &t.stems).is_empty() && !minus(&t.name_stems, &s.stems).is_empty() {
        return Some("two names");
    }
    if predicate(s, &shared).is_some() && predicate(t, &shared).is_some() {
        None
    } else {
        Some("predicates share a word")
    }
}

/// A unit's qualifiers when they say which part of the world it is about: the words after
/// *for*/*in* in its subject ("In the winter timetable every sailing …"), a leading adverbial
/// ("In staging, …") or words of the qualifier table ("… in the EU") — not an
/// *in*/*for* phrase of the predicate, which is what is said of the subject ("Disputes are
/// heard in London" / "… in Dublin", fifth round).
fn scope_qualifiers(x: &Analysis) -> Vec<u64> {
    let mut q: Vec<u64> = x.scope.clone();
    if x.leading_scope {
        q.extend_from_slice(&x.qualifiers);
    }
    q.sort_unstable();
    q.dedup();
    q
}

/// The modifiers of a unit's subject: its words other than the head, when the subject is a
/// plain noun phrase of its own (no preposition inside it: in "Memory available to the game on
/// Switch" the head is not the thing measured; not carried from its claim), sorted.
fn modifiers(x: &Analysis) -> Vec<u64> {
    if !x.attribute.is_empty() || x.subject.is_none() || x.subject_carried {
        return Vec::new();
    }
    x.subject_words.iter().copied().filter(|&w| w != x.head).collect()
}

/// Each side has a word the other lacks, and no such word is said anywhere in the other claim
/// (then it is the value, not the scope: "The demo ships first on Windows" / "… on Linux").
fn differ_apart(a: &[u64], b: &[u64], s: &Analysis, t: &Analysis) -> bool {
    let (only_a, only_b) = (minus(a, b), minus(b, a));
    !only_a.is_empty()
        && !only_b.is_empty()
        && inter(&only_a, &t.core_words).is_empty()
        && inter(&only_b, &s.core_words).is_empty()
}

/// **The same claim for another scope** (eighth round): the claims differ in which part of
/// the world they are about while the rest agrees —
///
/// - the same head word of a plain subject, with modifiers that differ both ways ("*Staging*
///   deploys are automatic" / "*Production* deploys are manual, approved by on-call";
///   "*Agency* candidates accept offers 40 % of the time" / "*Referral* candidates …");
/// - or a scope qualifier on both sides (a leading adverbial on one at least, or words of the
///   qualifier table) that differ both ways, with the same head word or a word in common
///   outside both scopes ("In the winter timetable every sailing is off-peak" / "Peak fares
///   apply on weekend sailings in the summer timetable").
///
/// - or words of a deployment environment or a plan tier that differ ("in *staging*" / "in
///   *production*", "*Free* tier" / "*Pro* tier"), neither claim stating an exclusive state
///   ("still in staging");
///
/// In all, no differing word may be said anywhere in the other claim.
///
/// Not for: one scope inside the other ("the database" / "the primary database": the same
/// thing, the subject rules apply), *in*/*for* phrases of the predicate that are what is said
/// ("heard in London" / "heard in Dublin"), subjects with a preposition inside.
pub(super) fn other_scope(s: &Analysis, t: &Analysis) -> bool {
    if opening_scope(s, t) {
        return true;
    }
    let same_head = s.head != 0 && s.head == t.head;
    if same_head && differ_apart(&modifiers(s), &modifiers(t), s, t) {
        return true;
    }
    // Environments or plan tiers that differ ("in staging" / "in production"), unless one
    // claim asserts its state to the exclusion of another ("still in staging", "staging only":
    // where the thing is, not which copy the claim is about).
    if !s.exclusive && !t.exclusive && differ_apart(&s.environments, &t.environments, s, t) {
        return true;
    }
    let (qs, qt) = (scope_qualifiers(s), scope_qualifiers(t));
    let (qs, qt) = match (qs.is_empty(), qt.is_empty()) {
        (true, true) => return false,
        // One scope against the other's for/in phrase ("… in the summer timetable").
        (true, false) => (s.qualifiers.clone(), qt),
        (false, true) => (qs, t.qualifiers.clone()),
        (false, false) => (qs, qt),
    };
    if qs.is_empty() || qt.is_empty() {
        return false;
    }
    let rest = inter(&minus(&s.core_words, &qs), &minus(&t.core_words, &qt));
    (same_head || !rest.is_empty()) && differ_apart(&qs, &qt, s, t)
}

/// **The same sentence for another kind** (ninth round): two units, with or without a subject
/// ("*Agency* candidates accept offers 40 % of the time" / "*Referral* candidates
/// accept offers 70 % of the time"; "*Nordic* division matches start at 20:00" / "*UK*
/// division matches start at 19:00") that open with one or two words of their own — words
/// the other never says — followed by the same word, the rest sharing at least 2 words and
/// two thirds of the shorter rest's; both state typed values, and nothing but the values
/// changed ([`change_of`]). The values are what each kind has: another scope.
///
/// Not for: a unit without typed values ("Marco owns the billing migration" / "Priya owns …":
/// the opening word is the whole subject, the choice), a polarity flip, a replacement or an
/// opposition, an opening word said anywhere in the other claim.
fn opening_scope(s: &Analysis, t: &Analysis) -> bool {
    if s.values.is_empty() || t.values.is_empty() {
        return false;
    }
    if !matches!(change_of(s, t), None | Some("values")) {
        return false;
    }
    let (a, b): (Vec<u64>, Vec<u64>) = (s.seq.iter().map(|p| p.1).collect(), t.seq.iter().map(|p| p.1).collect());
    let rest = |x: &[u64]| {
        let mut v = x.to_vec();
        v.sort_unstable();
        v.dedup();
        v
    };
    for i in 1..=2.min(a.len().saturating_sub(1)) {
        for j in 1..=2.min(b.len().saturating_sub(1)) {
            if a[i] != b[j]
                || a[..i].iter().any(|w| t.stems.binary_search(w).is_ok())
                || b[..j].iter().any(|w| s.stems.binary_search(w).is_ok())
            {
                continue;
            }
            let (ra, rb) = (rest(&a[i..]), rest(&b[j..]));
            let shared = inter(&ra, &rb).len();
            if shared >= 2 && 3 * shared >= 2 * ra.len().min(rb.len()) {
                return true;
            }
        }
    }
    false
}

/// **The same words in the same order** (eighth round): two units whose content stems are the
/// same, in the same order, with the same polarity, no rejected alternative, no opposition and
/// no clashing values — one claim in other spellings or inflections ("We standardise on the
/// organisation-wide colour palette" / "We standardize on the organization-wide color
/// palette"). Not "A over B" / "B over A" (the order differs).
pub(super) fn same_words(s: &Analysis, t: &Analysis) -> bool {
    !s.stems.is_empty()
        && s.stems == t.stems
        && s.seq.iter().map(|p| p.1).eq(t.seq.iter().map(|p| p.1))
        && change_of(s, t).is_none()
        && s.rejected.is_empty()
        && t.rejected.is_empty()
}

/// **One claim reworded unevenly** (ninth round): the same polarity and nothing changed
/// ([`change_of`]), not both naming something the other does not, words that overlap as a
/// restatement (at least 3 shared, three quarters of the smaller claim's), words of its own on
/// at least one side — and no **slot swapped**: no run of one side's own words stands between
/// the same two shared words (or the same end) as a run of the other's ("… is done *on the
/// aspirator*" / "… is done *by hand with sieves*"; "made by *cold* process" / "made by *hot*
/// process": the swapped words are the point). A restatement rewords around the shared words
/// instead: "Researchers can *use* the reading room on Tuesdays and Thursdays" / "The reading
/// room is *open* to researchers *by appointment* on Tuesdays and Thursdays".
///
/// Not for: the same words in another order with none of their own ("A outranks B" / "B
/// outranks A"; one in other spellings is [`same_words`]), a bare decision or an imperative
/// (the words after the verb are the choice), values on both sides that do not agree, two
/// Current State claims (two states of one moment, "Four of the gateways are down" / "All
/// gateways are online": `detection::eighth_round` does not ask), a certain conflict (applied
/// to possible ones only).
pub(super) fn reworded(s: &Analysis, t: &Analysis) -> bool {
    // A bare decision or an imperative: the words after the verb are the choice ("Rehearse in
    // St Jude's hall" / "Book the Lyric Rooms for rehearsals").
    let choice = |x: &Analysis| x.bare_verb != 0 || x.verb_stem != 0;
    if change_of(s, t).is_some() || !high_overlap(&s.stems, &t.stems) || choice(s) || choice(t) {
        return false;
    }
    // Values on both sides must agree ("Hall capacity … is 212 seats" / "The hall holds 240 …":
    // two numbers, read loosely, do not clash but are not one value).
    if !s.values.is_empty() && !t.values.is_empty() && !super::values::values_agree(&s.values, &t.values) {
        return false;
    }
    if !minus(&s.name_stems, &t.stems).is_empty() && !minus(&t.name_stems, &s.stems).is_empty() {
        return false;
    }
    let (only_s, only_t) = (minus(&s.stems, &t.stems), minus(&t.stems, &s.stems));
    if only_s.is_empty() && only_t.is_empty() {
        return false;
    }
    // Each run of a side's own words, as (shared word before it, shared word after it); 0 for
    // an end.
    let slots = |x: &Analysis, own: &[u64]| {
        let mut out: Vec<(u64, u64)> = Vec::new();
        let mut prev = 0;
        let mut open = false;
        for &(_, st) in &x.seq {
            if own.binary_search(&st).is_ok() {
                open = true;
            } else {
                if open {
                    out.push((prev, st));
                    open = false;
                }
                prev = st;
            }
        }
        if open {
            out.push((prev, 0));
        }
        out
    };
    let (a, b) = (slots(s, &only_s), slots(t, &only_t));
    !a.iter().any(|x| b.contains(x))
}

/// **The same value in other words** (eighth round): both units state typed values that agree
/// (some value of one equals one of the other, of the same kind and unit: "one and a half
/// hours" / "90 minutes"), none clash, and nothing changed between them ([`change_of`]), and
/// not both name something the other does not (then the names are the choice: "Launch on 14
/// July with Acme" / "… with Globex").
pub(super) fn same_value(s: &Analysis, t: &Analysis) -> bool {
    // (A capitalised first word is the sentence's, not a name: "Maximum episode length …".)
    let names = |x: &Analysis| -> Vec<u64> {
        x.name_stems.iter().copied().filter(|&w| x.seq.first().is_none_or(|p| p.1 != w)).collect()
    };
    super::values::values_agree(&s.values, &t.values)
        && change_of(s, t).is_none()
        && (subset(&names(s), &t.stems) || subset(&names(t), &s.stems))
}

/// **The same choice over the same alternative** (eighth round): both units set an
/// alternative aside (", not X", "rather than X", "instead of X") and share a word of it, and
/// neither says all the words both set aside, nor do both set aside a word the other says (the
/// mirror: "A, never B" / "B, never A"), nor names a choice the other lacks ("A scaffold
/// licence is used instead of a pavement closure" / "We apply for a scaffold licence rather
/// than a full pavement closure"). Not "Use A rather than C" / "Use B rather than C" (each
/// names its own choice).
pub(super) fn same_alternative(s: &Analysis, t: &Analysis) -> bool {
    let common = inter(&s.rejected, &t.rejected);
    !common.is_empty()
        && !subset(&common, &s.core_words)
        && !subset(&common, &t.core_words)
        // "A, never B" / "B, never A": each sets aside what the other chooses.
        && (inter(&s.rejected, &t.core_words).is_empty() || inter(&t.rejected, &s.core_words).is_empty())
        && s.negated == t.negated
        && !opposed(s, t)
        && !values_clash(&s.values, &t.values)
        && (subset(&s.name_stems, &t.stems) || subset(&t.name_stems, &s.stems))
}

/// **Two entries of one log** (eighth round): both units carry a stamp ("Week 12 (20 March):
/// …", "As of 17 May, …") and the stamps differ, or both state a date and a measure and both
/// differ ("80 % of tenants moved (as of 17 May)" / "30 % … (as of 3 May)") — successive
/// states, with the same polarity and no opposition.
pub(super) fn log_entries(s: &Analysis, t: &Analysis) -> bool {
    let dates = |x: &Analysis, date: bool| {
        x.values.iter().filter(|v| matches!(v, Value::Date { .. }) == date).copied().collect::<Vec<_>>()
    };
    let stamped = s.log_label != 0 && t.log_label != 0 && s.log_label != t.log_label;
    // Dated measures: the dates differ and so do the measures (a date alone is the value:
    // "Conference date: October 16" / "… on 14 October").
    let dated = values_clash(&dates(s, true), &dates(t, true)) && values_clash(&dates(s, false), &dates(t, false));
    (stamped || dated) && s.negated == t.negated && !opposed(s, t)
}

/// **Only the unit in common** (ninth round): every word the two units share is a unit of
/// measure of their values ("Patients get an SMS with a two-*hour* delivery window" / "Gel
/// packs are conditioned for 24 *hours* before packing"): two durations of different things,
/// related by the unit alone. Not when they share any other word.
pub(super) fn only_units_shared(s: &Analysis, t: &Analysis) -> bool {
    let shared = inter(&s.stems, &t.stems);
    !shared.is_empty() && subset(&shared, &s.unit_stems) && subset(&shared, &t.unit_stems)
}

/// **Percentages of different wholes about different subjects** (ninth round): both units
/// state what their percentages are of, the wholes share no word, nothing else changed
/// ([`change_of`], which already reads such percentages as two measures), and the two do not
/// have one subject (the same subject key or head word, or the same opening word): "Creator codes drove 8 % of S6
/// store revenue" / "S6 pass completion was 23 % of buyers" — two measures, not two values of
/// one. Not "Retention is 60 % of sign-ups" / "Retention is 45 % of new users" (one subject:
/// the whole may be renamed).
pub(super) fn other_wholes_measured(s: &Analysis, t: &Analysis) -> bool {
    let opening = |x: &Analysis| x.seq.first().map(|p| p.1);
    let one_subject = (s.subject.is_some() && s.subject == t.subject)
        || (s.head != 0 && s.head == t.head)
        || (opening(s).is_some() && opening(s) == opening(t));
    !s.pct_wholes.is_empty()
        && !t.pct_wholes.is_empty()
        && inter(&s.pct_wholes, &t.pct_wholes).is_empty()
        && !one_subject
        && change_of(s, t).is_none()
}

/// **Entries of two stamped claims** (ninth round): the claims the two units belong to
/// (`sc`, `tc`: their first clauses) each carry a log stamp ("As of 6 November, …", "Week 12
/// (20 March): …") and the stamps differ — so whatever their clauses and nested items say
/// (`s`, `t`) is said at two times: "As of 6 November, … the deploy jobs are not started" /
/// "As of 20 November, … half of the deploy jobs are ported too" is progress, not a
/// contradiction, though one is negated and the other not. Not when the two units use
/// opposite members of one group (the office "opened" / "closed" is listed as it was).
pub(super) fn stamped_entries(sc: &Analysis, tc: &Analysis, s: &Analysis, t: &Analysis) -> bool {
    sc.log_label != 0 && tc.log_label != 0 && sc.log_label != tc.log_label && !opposed(s, t)
}

/// **One thing named in two different facts** (thirteenth round): the words two claims share
/// are one run in each (the name of one thing: "the front desk", "an extra percussionist"),
/// each says at least two words of its own around it, and nothing changed between them
/// ([`change_of`]) — "The front desk has the new poster up" / "Consent form v4 is in use at
/// the front desk": one claim's subject is the other's object or place, two facts.
///
/// Not for: a decision on either side (what to do with the thing: "Lease the van" / "Buy the
/// van"), a cause on either side (one slot), names on each side the other lacks (two
/// choices), an exclusive state (*only, still* …), two Current State claims, shared words scattered over the
/// claims (one claim reworded, or one slot swapped: the other classes read those).
pub(super) fn one_thing_two_facts(s: &Analysis, t: &Analysis, s_sec: usize, t_sec: usize) -> bool {
    // Decisions about one thing are choices of what to do with it ("Lease the van" / "Buy
    // the van"): only observations are read.
    if s.decision || t.decision || change_of(s, t).is_some() || s.cause || t.cause || s.exclusive || t.exclusive {
        return false;
    }
    if s_sec == CURRENT_STATE && t_sec == CURRENT_STATE {
        return false;
    }
    if !minus(&s.name_stems, &t.stems).is_empty() && !minus(&t.name_stems, &s.stems).is_empty() {
        return false;
    }
    let shared = inter(&s.stems, &t.stems);
    if shared.is_empty() || shared.len() > 3 {
        return false;
    }
    // The shared stems stand together, once, in each claim's sequence.
    let one_run = |x: &Analysis| {
        let at: Vec<usize> =
            x.seq.iter().enumerate().filter(|(_, p)| shared.binary_search(&p.1).is_ok()).map(|(i, _)| i).collect();
        !at.is_empty() && at[at.len() - 1] - at[0] + 1 == at.len()
    };
    let own = |x: &Analysis| x.stems.len() - shared.len();
    one_run(s) && one_run(t) && own(s) >= 2 && own(t) >= 2
}

/// **A log entry beside a standing fact** (thirteenth round): exactly one of the two claims
/// is a stamped entry of a log (`sc`/`tc`, the claims' first clauses, carry a stamp: "Week 12
/// (20 March): …", "2026-11-16: …", "As of 15 March, …", "Wed: …") and the other states
/// no stamp, with nothing changed between the two units ([`change_of`]: no polarity flip, no
/// replacement, no opposition, no typed values of one kind that differ, no word set aside
/// that the other says) and not each naming something the other lacks: what was recorded at
/// a time beside what holds ("27 Nov: west face finished; east face started" / "Residents on
/// the west face have been notified"). A step of a log is progress, not a rival value.
///
/// Not for: two stamped entries ([`log_entries`], [`stamped_entries`]), a stamped entry
/// whose measure clashes with the fact's ("Week 12: units fitted in 150 vans" / "Units are
/// fitted in 210 vans": `values`), an entry that opposes or negates the fact.
pub(super) fn entry_beside_fact(sc: &Analysis, tc: &Analysis, s: &Analysis, t: &Analysis) -> bool {
    (sc.log_label != 0) != (tc.log_label != 0)
        && (sc.entry_stamp || tc.entry_stamp)
        && change_of(s, t).is_none()
        && (subset(&s.name_stems, &t.stems) || subset(&t.name_stems, &s.stems))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::merge::analysis::tests::an;
    use crate::merge::claims::{DECISIONS, FINDINGS};

    /// Thirteenth round: one thing named in two observations, the shared words one run in
    /// each, nothing changed; not decisions, not a change, not scattered shared words.
    #[test]
    fn thirteenth_round_one_thing_in_two_facts() {
        let two = |s: &str, t: &str| one_thing_two_facts(&an(s, false), &an(t, false), FINDINGS, FINDINGS);
        assert!(two("Late returns are fined a pound a day.", "The library sends reminders before late returns."));
        assert!(two("The loading bay floods after heavy rain.", "Forklifts charge overnight in the loading bay."));
        // Decisions about one thing are choices.
        assert!(!one_thing_two_facts(
            &an("Rent the marquee for three days.", true),
            &an("Buy the marquee outright from the hire firm.", true),
            DECISIONS,
            DECISIONS
        ));
        // A change between them (a polarity flip) is no second fact.
        assert!(!two("The back stairwell is not lit at night.", "The back stairwell is lit at night by sensors."));
        // Two states of one moment stay questions.
        assert!(!one_thing_two_facts(
            &an("The east lift is back in service.", false),
            &an("Engineers are still waiting on parts for the east lift.", false),
            CURRENT_STATE,
            CURRENT_STATE
        ));
    }

    /// Thirteenth round: a stamped entry of a log beside a claim with no stamp, nothing
    /// changed, is a step recorded at its time; not a rule's start date, not a clash.
    #[test]
    fn thirteenth_round_entry_beside_fact() {
        let entry = |s: &str, t: &str| {
            let (a, b) = (an(s, false), an(t, false));
            entry_beside_fact(&a, &b, &a, &b)
        };
        assert!(entry(
            "Week 6 (9 May): roof felt laid on the east wing.",
            "The east wing scaffold is hired by the week."
        ));
        assert!(entry("Thu: kitchen tiles grouted, splashback primed.", "The kitchen splashback is glass."));
        assert!(entry("As of 4 June, the choir has learnt two of the five anthems.", "The anthems are sung in Latin."));
        // Two stamps are `log_entries`; no stamp is no entry.
        assert!(!entry("Week 6 (9 May): roof felt laid.", "Week 7 (16 May): roof battens fixed."));
        assert!(!entry("The east wing roof is felted.", "The east wing scaffold is hired by the week."));
        // A rule's start date is no entry of a log.
        assert!(!entry("From March, tastings run in the barrel room.", "The barrel room holds 40 casks."));
        // A change between the two is not a step: a clash of values, a polarity flip.
        assert!(!entry("Week 6 (9 May): 40 panels fitted on the barn.", "The barn has 60 panels fitted."));
        assert!(!entry("2027-02-11: the ferry is not running.", "The ferry is running."));
    }

    /// Thirteenth round: temperatures in either scale, and a duration unit in brackets after
    /// a bare number, are the same value as their equal in other units.
    #[test]
    fn thirteenth_round_equal_quantities_in_other_units() {
        use crate::merge::values::{values_agree, values_clash};
        let agree = |s: &str, t: &str| values_agree(&an(s, false).values, &an(t, false).values);
        let clash = |s: &str, t: &str| values_clash(&an(s, false).values, &an(t, false).values);
        assert!(agree("The proving room is held at 77 °F.", "The proving room is kept at 25 °C."));
        assert!(agree("Proving room: 25 degrees Celsius.", "The proving room is kept at 77 °F."));
        assert!(agree("cacheTtl = 600 (seconds).", "Cache TTL: 10 minutes."));
        assert!(clash("The proving room is held at 80 °F.", "The proving room is kept at 25 °C."));
        assert!(agree("Pool water: 84 °F.", "Pool water is held at 29 °C."));
        // Lengths and masses in other units; small values are compared relatively (12 mm is
        // not 20 mm).
        assert!(agree("Keep a 30-foot gap behind the butts.", "The gap behind the butts is 9.1 metres."));
        assert!(agree("Each sack weighs 55 lb.", "Each sack weighs 25 kg."));
        assert!(clash("Mow the green at 12 mm.", "Mow the green at 20 mm."));
        assert!(clash("The bore is 3 inches.", "The bore is 90 mm."));
    }

    fn facts(s: &str, t: &str) -> bool {
        different_facts(&an(s, false), &an(t, false), FINDINGS, FINDINGS)
    }

    fn scope(s: &str, t: &str) -> bool {
        other_scope(&an(s, true), &an(t, true))
    }

    /// Different facts about one subject: different verbs or complements, or values of other
    /// families; not one slot with two values, a change, two names for one slot.
    #[test]
    fn eighth_round_different_facts_about_one_subject() {
        assert!(facts("Night buses call at the hospital entrance.", "Most night buses carry a defibrillator."));
        assert!(facts("The harbour ferry crossing takes 35 minutes.", "The harbour ferry crossing costs £12."));
        assert!(!facts("The harbour ferry crossing takes 35 minutes.", "The harbour ferry crossing takes 50 minutes."));
        assert!(!facts(
            "Night buses now stop at the station instead of the square.",
            "Most night buses carry a defibrillator."
        ));
        assert!(!facts("The venue is the Corn Exchange.", "The venue is the Guildhall."));
        assert!(!facts("Night buses do not stop at hospital entrances.", "Most night buses carry a defibrillator."));
        // Percentages of different wholes are two measures.
        assert!(
            change_of(&an("Refunds are 4 % of orders.", false), &an("Refunds are 30 % of support tickets.", false))
                .is_none()
        );
        assert_eq!(
            change_of(&an("Refunds are 4 % of orders.", false), &an("Refunds are 6 % of orders.", false)),
            Some("values")
        );
    }

    /// The same claim for another scope: modifiers of one head, environments and
    /// plan tiers; not a place that is the value, not one scope inside the other.
    #[test]
    fn eighth_round_the_same_claim_for_another_scope() {
        assert!(scope("Weekday matinee tickets are £8.", "Holiday matinee tickets are £11."));
        assert!(scope("On preview builds, crash analytics are off.", "On production builds, crash analytics are on."));
        assert!(scope("Webhook retries on the free plan: 2.", "Webhook retries on the pro plan: 8."));
        assert!(!scope("Arbitration hearings are held in Geneva.", "Arbitration hearings are held in Vienna."));
        assert!(!scope("The ledger database runs Postgres 16.", "The primary ledger database runs Postgres 15."));
        // The opening words are the change, not the scope.
        assert!(!scope("Increase the glaze firing time.", "Decrease the glaze firing time."));
        // "A over B" / "B over A": the same words, in another order.
        assert!(!scope(
            "Walk-in clients outrank booked clients at the desk.",
            "Booked clients outrank walk-in clients at the desk."
        ));
    }

    /// One claim in other spellings, the same value in other words, two entries of one log.
    #[test]
    fn eighth_round_restatements_values_and_logs() {
        let (a, b) =
            (an("We optimise the catalogue for search.", true), an("We optimize the catalog for search.", true));
        assert!(same_words(&a, &b));
        let (a, b) = (
            an("Walk-in clients outrank booked clients at the desk.", true),
            an("Booked clients outrank walk-in clients at the desk.", true),
        );
        assert!(!same_words(&a, &b));
        assert!(same_value(&an("The probation period is six months.", true), &an("Probation lasts 26 weeks.", true)));
        assert!(!same_value(&an("Launch on 3 May with Northwind.", true), &an("Launch on 3 May with Contoso.", true)));
        assert!(log_entries(
            &an("Week 3 (14 May): 40 of 120 trees pruned.", false),
            &an("Week 5 (28 May): 95 of 120 trees pruned.", false)
        ));
        assert!(!log_entries(
            &an("Harvest supper date: 12 June.", false),
            &an("The harvest supper takes place on 19 June.", false)
        ));
        // "no more than": a bound, not a negation.
        assert!(!an("Seed trays are watered no more than twice a day.", true).negated);
        assert!(an("Seed trays are not watered on Sundays.", true).negated);
        assert!(same_alternative(
            &an("The river crossing uses a temporary footbridge instead of a ferry, for six weeks.", true),
            &an("We hire a temporary footbridge rather than a passenger ferry.", true)
        ));
        assert!(!same_alternative(
            &an("Survey the north bank first, never the south bank first.", true),
            &an("Survey the south bank first, never the north bank first.", true)
        ));
        // "one and a half hours" is 90 minutes (read as 1.5, not as one and another half).
        assert!(same_value(
            &an("Shifts are capped at one and a half hours.", true),
            &an("Shifts are capped at 90 minutes.", true)
        ));
    }

    /// Ninth round: the same sentence for another kind (other opening words before one head,
    /// with values on both sides); not a person who is the whole subject.
    #[test]
    fn ninth_round_the_same_sentence_for_another_kind() {
        assert!(scope("Weekday volunteers cover 6 shifts a month.", "Student volunteers cover 2 shifts a month."));
        assert!(scope("Northern region depots open at 06:00.", "Coastal region depots open at 07:30."));
        // No values: the opening word is the subject, the choice.
        assert!(!scope("Amira chairs the budget review.", "Tomasz chairs the budget review."));
        // An opening word the other says elsewhere is not a scope.
        assert!(!scope("Weekday volunteers cover 6 shifts a month.", "Volunteers cover 2 weekday shifts a month."));
    }

    /// Ninth round: one claim reworded unevenly is a restatement; a slot swapped, a mirror,
    /// an imperative or values that do not agree are not.
    #[test]
    fn ninth_round_one_claim_reworded_unevenly() {
        let r = |a: &str, b: &str| reworded(&an(a, true), &an(b, true));
        assert!(r(
            "Volunteers can borrow the minibus on weekends with a signed log sheet.",
            "The minibus is available to volunteers on weekends once they sign the log sheet."
        ));
        assert!(!r(
            "The glaze is fired in the gas kiln on Fridays.",
            "The glaze is fired in the electric kiln with a cone pack on Fridays."
        ));
        assert!(!r("The minibus goes to the depot, not the school.", "The minibus goes to the school, not the depot."));
        assert!(!r(
            "Borrow the minibus on weekends with a signed log sheet.",
            "Volunteers borrow the minibus on weekends with a signed log sheet."
        ));
        assert!(!r(
            "The hall holds 240 in the winter concert layout.",
            "Hall capacity in the winter concert layout is 212 seats."
        ));
    }

    /// Ninth round: only the unit in common; percentages of different wholes about different
    /// subjects; entries of two stamped claims.
    #[test]
    fn ninth_round_units_wholes_and_stamps() {
        assert!(only_units_shared(
            &an("Members get a reminder call with a four-hour pickup slot.", true),
            &an("Compost is turned for 48 hours before bagging.", false)
        ));
        assert!(!only_units_shared(
            &an("Compost pickup takes 4 hours.", false),
            &an("Compost is turned for 48 hours before bagging.", false)
        ));
        assert!(other_wholes_measured(
            &an("Gift Aid added 12 % of online donations.", false),
            &an("The raffle reached 40 % of members.", false)
        ));
        // One subject: the whole may be renamed.
        assert!(!other_wholes_measured(
            &an("The raffle reached 40 % of members.", false),
            &an("The raffle reached 55 % of supporters.", false)
        ));
        let (s1, t1) =
            (an("As of 2 June, the loft is insulated.", false), an("As of 16 June, the loft is insulated.", false));
        let (s2, t2) = (an("the east wall is not started", false), an("half of the east wall is done", false));
        assert!(stamped_entries(&s1, &t1, &s2, &t2));
        assert!(!stamped_entries(&s1, &s1, &s2, &t2));
        let (s3, t3) = (an("the site office is opened", false), an("the site office is closed", false));
        assert!(!stamped_entries(&s1, &t1, &s3, &t3));
    }
}
