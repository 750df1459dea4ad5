//! Claim analysis: what one claim says, for conflict detection — its subject, whether it is
//! negated, its predicate's choice words, qualifiers and typed values, and its polarity-free
//! word set.
//!
//! What it is for: [`Scratch::analyse`] / [`Scratch::analyse_tokens`] (the rules, step by step,
//! are on `analyse` and in docs/merge.md), with buffers reused across claims.
//!
//! What it is not for: comparing two claims (`detection`), Markdown structure (`claims`) or
//! semantic understanding: the analysis is lexical.

use super::tokens::{Tk, Toks, fold_hash, words_key};
use super::values::{Value, value_at};
use super::words::*;

/// What a claim says, for conflict detection. Words are hashes of their folded forms.
#[derive(Clone, Debug, Default)]
pub(super) struct Analysis {
    pub(super) decision: bool,
    /// Key of the subject's content words (sorted), or `None` when no subject was found.
    pub(super) subject: Option<u64>,
    /// The subject's content words, sorted (empty when there is no subject).
    pub(super) subject_words: Vec<u64>,
    /// The subject's head word: its last content word before any *for*/*in* (0 when none).
    pub(super) head: u64,
    /// The head word's [`stem`] (0 when none): "bedding" meets the verb "bed" (fifth round).
    pub(super) head_stem: u64,
    /// A sub-claim's subject is its claim's, carried because it names none (fifth round).
    pub(super) subject_carried: bool,
    /// The stem of a first word followed by an article or a determiner: an imperative's verb
    /// ("*Bed* the cubicles with sand"; 0 otherwise; fifth round).
    pub(super) verb_stem: u64,
    /// Sorted content words of the whole main clause, negations and typed values set aside.
    pub(super) pol_words: Vec<u64>,
    /// Key of `pol_words` (0 when empty).
    pub(super) pol_key: u64,
    /// An odd number of negations in the main clause.
    pub(super) negated: bool,
    /// Sorted content words of the predicate (the choice, for a decision), values and
    /// qualifiers excluded.
    pub(super) choice: Vec<u64>,
    /// Words after `for`/`in` in the predicate ("for enterprise", "in the EU"), sorted.
    pub(super) qualifiers: Vec<u64>,
    /// Words after `for`/`in` in the subject ("Price for enterprise"), sorted: with
    /// `qualifiers`, the claim's scope for the possible tier.
    pub(super) scope: Vec<u64>,
    /// `pol_words` without link verbs (*is, moved, will*, ...) and value-type nouns (*date,
    /// current*, ...): what the possible tier compares.
    pub(super) core_words: Vec<u64>,
    /// Opposition-lexicon members in the main clause (`group << 8 | member`, sorted), rejected
    /// alternatives excluded.
    pub(super) poles: Vec<u16>,
    /// Keys of the words that are opposition-lexicon members, sorted.
    pub(super) pole_words: Vec<u64>,
    /// The `pole_words` that are a later member of their group (*closed, paused, withdrawn*;
    /// not *open, started, published*), sorted: what ends a progress log.
    pub(super) later_pole_words: Vec<u64>,
    /// Keys of the words of alternatives-table forms ([`ALTERNATIVES`]) in the main clause,
    /// sorted (their groups are in `poles`, after the lexicon's).
    pub(super) alt_words: Vec<u64>,
    /// Content words of rejected alternatives and past values (", not X", ", never X",
    /// "rather than X", "(was X)" ...), sorted.
    pub(super) rejected: Vec<u64>,
    /// A decision of the bare shape "<verb> <choice>" without a subject: the verb's family
    /// (its first two letters; 0 otherwise).
    pub(super) bare_verb: u16,
    /// Stems ([`stem`]) of the main clause's content words (values, negations and link verbs
    /// aside), sorted: what the widened possible tier compares ("exported" = "export",
    /// "localisation" = "localization").
    pub(super) stems: Vec<u64>,
    /// The main clause uses the negative member of a polarity group of the lexicon (*drop,
    /// remove, disable, block, reject, stop, hold* …): "Drop support for X" says what "X is
    /// no longer supported" says.
    pub(super) neg_pole: bool,
    /// The main clause states a cause (*caused, attributed, due, driven, blamed, traced,
    /// triggered*).
    pub(super) cause: bool,
    /// The subject's words before its first preposition ("handover success" in "Handover
    /// success on the Leeds cluster"), sorted; empty when the subject has no preposition
    /// after a content word: what is measured of the thing the rest names.
    pub(super) attribute: Vec<u64>,
    /// Words of the qualifier table ([`QUALIFIER_TABLE`]) in the main clause, as (category,
    /// key), sorted: platforms, customer tiers and segments, regions.
    pub(super) scoped: Vec<(u8, u64)>,
    /// The main clause's content words in order, as (first letter, stem): for acronyms.
    pub(super) seq: Vec<(u8, u64)>,
    /// Short capitalised words of the main clause (2 to 5 letters, as written lower-cased) with
    /// their stem: possible acronyms ("BTO", "LC", "MS").
    pub(super) acronyms: Vec<(Acronym, u64)>,
    /// The main clause asserts a state to the exclusion of another ([`EXCLUSIVE_STATE`]:
    /// *still, yet, only, all, complete, blocked, waiting* …): not a step of a progress log.
    pub(super) exclusive: bool,
    /// The stems of scope words (qualifiers, and the subject's words after *for*/*in*), sorted.
    pub(super) scope_stems: Vec<u64>,
    /// Capitalised content words of the main clause (names: "Mailchimp", "Zaragoza", "Ana"),
    /// as `fold_hash` of the lower-cased word, sorted.
    pub(super) names: Vec<u64>,
    /// The stems of `names`, sorted: a capitalised first word ("Interviewers never ask …") is
    /// the same word as the other claim's "interviews".
    pub(super) name_stems: Vec<u64>,
    /// The stem of the past participle that opens the predicate after a link verb ("are
    /// *labelled* by …", "are *dried* to …"; 0 when none, or when it is a word of the
    /// opposition lexicon): what is done to the subject (fourth round).
    pub(super) action: u64,
    /// A log entry's stamp: the hash of a leading label before `:` that holds a number or a
    /// month ("Week 12 (20 March): …", "February: …"); 0 otherwise (fourth round).
    pub(super) log_label: u64,
    /// The stamp is an entry's (thirteenth round): a label before `:` ("Week 12 (20 March):
    /// …", "Wed: …") or a leading "As of …," / "On …," — not "From January, …", which says
    /// when a rule starts rather than when a step was recorded.
    pub(super) entry_stamp: bool,
    /// Typed values of the predicate, past ones ("was June 30") excluded.
    pub(super) values: Vec<Value>,
    /// The main clause says that something takes another's place ([`W_REPLACEMENT`]: *instead,
    /// replaced, switched, migrated, swapped, superseded, anymore*, "no longer"):
    /// a change, not one more fact (eighth round).
    pub(super) replaces: bool,
    /// The subject ends at a link verb, `:` or `=` ("The studio *is* …", "Owner: …"): what
    /// follows is the subject's value or state (eighth round).
    pub(super) linked: bool,
    /// Stems of the predicate's content words (its *for*/*in* phrases too), sorted: what is
    /// said of the subject (eighth round).
    pub(super) pred_stems: Vec<u64>,
    /// Stems of the main clause's words of the opposition lexicon, sorted (eighth round: a
    /// span of words that holds one is a change, not a scope).
    pub(super) pole_stems: Vec<u64>,
    /// Words of the main clause that name a deployment environment or a plan tier
    /// ([`W_ENVIRONMENT`]: *production, staging, sandbox, free, pro* …), as keys, sorted: scopes
    /// the qualifier table does not list (eighth round; they do not take part in relating or
    /// listing, only in the class `classes::other_scope`).
    pub(super) environments: Vec<u64>,
    /// Stems of the words after "% of" / "percent of" (up to three content words: "70 % of
    /// *flaky failures*"), sorted: the whole a percentage is of (eighth round).
    pub(super) pct_wholes: Vec<u64>,
    /// The stems of the words that are units of measure of its typed values (*hours, days,
    /// GB, euros, percent*), sorted (ninth round): what two claims share when they share only
    /// the unit of their values.
    pub(super) unit_stems: Vec<u64>,
    /// The claim opens with a leading adverbial of scope ("At the Poplar office, …"), or a
    /// qualifier is a word of the qualifier table ("in the US"): its qualifiers say which part
    /// of the world it is about (fifth round).
    pub(super) leading_scope: bool,
    /// Only when asked for (conflicts): the subject's words, and the main clause's content words.
    pub(super) subject_display: String,
    pub(super) pol_display: String,
}

/// A short capitalised word, lower-cased (at most 5 letters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Acronym {
    letters: [u8; 5],
    len: u8,
}

impl Acronym {
    pub(super) fn letters(&self) -> &[u8] {
        &self.letters[..self.len as usize]
    }
}

/// Role of a token in the main clause.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Other,
    Subject,
    Predicate,
}

/// Buffers reused across claims.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) tk: Toks,
    skip: Vec<bool>,
    role: Vec<Role>,
    pub(super) used: Vec<bool>,
    qual: Vec<bool>,
}

impl Scratch {
    /// Analyse a claim's own text, given as its lines (`decision`: it is under `## Decisions`).
    ///
    /// 1. Tokens: words, numbers, punctuation; `[src:...]` and emphasis dropped.
    /// 2. Leading labels (`Assumption:`, `Decision:`, `Note:` ...) and decision leads ("We
    ///    decided to", "Team agreed on") are skipped.
    /// 3. The **main clause** ends at `;`, `—`, a sentence end (`.` then a capital), a
    ///    condition (*until*, *unless*, *if*) or what starts a rationale or attribution
    ///    (*because*, *since*, *due to*, *so that*, *given that*, *to avoid*;
    ///    *rationale*/*reason* before `:` or after punctuation; *decided*, *agreed*,
    ///    *approved*, *confirmed* before *by/with/on/in/at/during/upon* or after punctuation;
    ///    *signed off*). The rest is not this analysis's: since issue 19's fifth round the
    ///    later clauses are read as sub-claims ([`Scratch::analyse_clause`], `claims::parse`).
    /// 4. **Rejected alternatives** are set aside: ", not X", "(not X)", "rather than X",
    ///    "instead of X", "(was X)", and in decisions "A over B"; up to the next punctuation
    ///    or, after its first word, a preposition or conjunction.
    /// 5. **Subject.** Decisions first try "[we will|do not|...] <verb> <choice> for|in|as|on
    ///    <subject>" with verbs *use, adopt, choose, pick, select, prefer, keep, go with, stay
    ///    with, stick with, switch to, move to, migrate to, standardise on, settle on, opt
    ///    for*. Then every claim tries the first `:` (followed by a space), `=`, or link verb
    ///    (*is, are, was, were, stays, remains, becomes, equals, costs, takes*, "<modal> be",
    ///    "has been", "<moved|set|changed|slipped|pushed|raised|...> to|from"): the subject is
    ///    the text before it when that has 1 to 8 content words. Decisions finally try
    ///    "<choice> for <subject>". The subject key is its content words (stop words and
    ///    value-type nouns or modifiers such as *date, value, current, new* removed, plurals
    ///    folded), sorted.
    /// 6. **Values** in the predicate: dates (ISO, "July 14", "14 July 2026", a capitalised
    ///    month alone), quarters (`Q3`, `Q3 2026`), versions (`v1.2`, `1.2.3`),
    ///    yes/no/true/false/enabled/disabled, numbers with units (`%`, `x`, currency,
    ///    durations in seconds, the next word). A value right after *was, were, from,
    ///    previously, formerly, originally, replacing, superseded* is a past one and ignored.
    /// 7. **Qualifiers**: up to 4 content words after `for`/`in` in the predicate.
    pub(super) fn analyse<'t>(
        &mut self,
        parts: impl Iterator<Item = &'t str>,
        decision: bool,
        display: bool,
    ) -> Analysis {
        self.tk.clear();
        for p in parts {
            self.tk.push_text(p);
        }
        self.analyse_tokens(decision, display)
    }

    /// The words of `parts` whose content-word key is in sorted `keys`, in order of first
    /// appearance, once each, joined by spaces (what two related claims share, for display).
    pub(super) fn shared_display<'t>(&mut self, parts: impl Iterator<Item = &'t str>, keys: &[u64]) -> String {
        self.tk.clear();
        for p in parts {
            self.tk.push_text(p);
        }
        let tk = &self.tk;
        let mut seen: Vec<u64> = Vec::new();
        let mut out = String::new();
        for i in 0..tk.len() {
            if !tk.is_text(i) || tk.has(i, W_STOP | W_NEG) {
                continue;
            }
            let k = tk.key(i);
            if keys.binary_search(&k).is_ok() && !seen.contains(&k) {
                seen.push(k);
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(tk.w(i));
            }
        }
        out
    }

    /// When the clause of `self.tk` starting at token `from` is a rationale, an attribution, a
    /// reason or a condition ([`Scratch::analyse_clause`]), the index of the token that ends it:
    /// what a later clause needs without analysing it.
    pub(super) fn aside_end(&self, from: usize) -> Option<usize> {
        aside_at(&self.tk, from).then(|| clause_end(&self.tk, lead_from(&self.tk, from)))
    }

    /// [`Scratch::analyse`] of the tokens already in `self.tk`.
    pub(super) fn analyse_tokens(&mut self, decision: bool, display: bool) -> Analysis {
        self.analyse_clause(decision, display, 0).0
    }

    /// The clause of the tokens in `self.tk` that starts at token `from` (after leading
    /// punctuation and labels), analysed as a claim of its own (fifth round: every clause of
    /// a claim is read); returns it with the index of the token that ends it (`len` at the end),
    /// and whether it is a rationale, an attribution, a reason or a condition (*Rationale: …*,
    /// *Decided by …*, *because …*, *if …*, *, as …*) rather than a statement.
    pub(super) fn analyse_clause(&mut self, decision: bool, display: bool, from: usize) -> (Analysis, usize, bool) {
        let Scratch { tk, skip, role, used, qual } = self;
        let tk = &*tk;
        let n = tk.len();
        for v in [&mut *skip, &mut *used, &mut *qual] {
            v.clear();
            v.resize(n, false);
        }
        role.clear();
        role.resize(n, Role::Other);
        let start = lead_from(tk, from);
        let end = clause_end(tk, start);
        let aside = aside_at(tk, from);
        mark_alternatives(tk, start, end, decision, skip);
        let shaped = decision && decision_shape(tk, start, end, skip, role);
        let mut participle = None;
        let mut log_label = 0;
        let mut linked = false;
        if !shaped {
            if let Some((se, ps)) = generic_split(tk, start, end, skip) {
                role[start..se].fill(Role::Subject);
                role[ps..end].fill(Role::Predicate);
                // "Week 12 (20 March): …", "2026-10-15: …", "February: …": a log entry's stamp.
                if tk.punct(se) == Some(':')
                    && se - start <= 12
                    && (start..se).any(|k| tk.toks[k].kind == Tk::Num || tk.has(k, W_MONTH) || tk.is_any(k, WEEKDAYS))
                {
                    let mut h = 0xcbf2_9ce4_8422_2325_u64;
                    for k in start..se {
                        h = (h ^ tk.toks[k].h).wrapping_mul(0x100_0000_01b3);
                        if tk.toks[k].kind == Tk::Num {
                            h = h.wrapping_add(crate::hash::fnv64(tk.w(k).as_bytes()));
                        }
                    }
                    log_label = h | 1;
                }
                participle = participle_at(tk, ps, end);
                linked = true;
            } else if decision
                && let Some(f) = (start + 1..end).find(|&i| {
                    // "runs for six weeks": a duration, not what the decision is for.
                    !skip[i]
                        && tk.is(i, "for")
                        && !tk.toks.get(i + 1).is_some_and(|t| t.kind == Tk::Num)
                        && super::values::number_words(tk, i + 1, end).is_none()
                })
            {
                role[start..f].fill(Role::Predicate);
                // The subject also ends at a number: what follows is the value ("The slow
                // anneal cycle for thick bowls runs 14 hours …", seventh round).
                let m = (f + 1..end)
                    .find(|&i| {
                        tk.has(i, W_QUAL_STOP)
                            || matches!(tk.punct(i), Some(',' | '('))
                            || tk.toks[i].kind == Tk::Num
                            || super::values::number_words(tk, i, end).is_some()
                    })
                    .unwrap_or(end);
                role[f + 1..m].fill(Role::Subject);
                role[m..end].fill(Role::Predicate);
            } else {
                role[start..end].fill(Role::Predicate);
            }
        }
        let mut a = Analysis { decision, ..Analysis::default() };
        a.action = participle.map_or(0, |k| stem(tk.w(k)));
        a.linked = linked;
        a.log_label = log_label;
        a.entry_stamp = log_label != 0;

        // A leading adverbial ("At the Poplar office, …", "On the Team plan, …", "For
        // enterprise customers, …", "During peak season, …"): the claim's scope, not its
        // subject (fourth round).
        if (tk.is_any(start, LEADING_SCOPE) || (tk.is(start, "as") && tk.is(start + 1, "of")))
            && let Some(p) = (start + 1..end.min(start + 8)).find(|&k| tk.punct(k) == Some(','))
            && p > start + 1
        {
            // "As of 16 March, …", "On 2 March, …": a date stamps a log entry; it is not a scope.
            if (start..p).any(|k| tk.toks[k].kind == Tk::Num || tk.has(k, W_MONTH)) {
                let mut h = 0x9e37_79b9_7f4a_7c15_u64;
                for k in start..p {
                    h = (h ^ tk.toks[k].h).wrapping_mul(0x100_0000_01b3);
                    if tk.toks[k].kind == Tk::Num {
                        h = h.wrapping_add(crate::hash::fnv64(tk.w(k).as_bytes()));
                    }
                }
                a.log_label = h | 1;
                a.entry_stamp = tk.is(start, "as") || tk.is(start, "on");
            }
            for k in start..=p {
                role[k] = Role::Other;
                if tk.toks[k].kind == Tk::Word && !tk.has(k, W_STOP | W_NEG) {
                    qual[k] = true;
                    a.qualifiers.push(tk.key(k));
                    a.leading_scope = true;
                }
            }
        }

        // Subject.
        let mut subject: Vec<u64> = Vec::new();
        let mut any_subject = false;
        let mut head_done = false; // the head is the last content word before for/in
        let mut attribute_done = false;
        for i in start..end {
            if role[i] != Role::Subject || skip[i] || !tk.is_text(i) {
                continue;
            }
            head_done |= tk.has(i, W_FOR_IN);
            if !subject.is_empty() && !attribute_done && tk.is_any(i, ATTRIBUTE_ENDS) {
                attribute_done = true;
                a.attribute = subject.clone();
            }
            if display && !(a.subject_display.is_empty() && tk.has(i, W_ARTICLE)) {
                if !a.subject_display.is_empty() {
                    a.subject_display.push(' ');
                }
                a.subject_display.push_str(tk.w(i));
            }
            any_subject = true;
            if !tk.has(i, W_STOP | W_NEG | W_NOISE) {
                subject.push(tk.key(i));
                if !head_done {
                    a.head = tk.key(i);
                    let w = tk.w(i);
                    a.head_stem = stem(synonym_of(w).unwrap_or(w));
                }
            }
        }
        if a.attribute.is_empty() && subject.is_empty() {
            // No subject ("Busy-hour traffic on the Leeds cluster grew 14 %"): the words before
            // the first preposition, when one follows a content word.
            let mut words: Vec<u64> = Vec::new();
            for i in (start..end).filter(|&i| !skip[i] && tk.is_text(i)) {
                if tk.is_any(i, ATTRIBUTE_ENDS) {
                    if !words.is_empty() {
                        a.attribute = words;
                    }
                    break;
                }
                if tk.toks[i].kind == Tk::Word && !tk.has(i, W_STOP | W_NEG | W_NOISE) {
                    words.push(tk.key(i));
                }
            }
        }
        a.attribute.sort_unstable();
        a.attribute.dedup();
        if any_subject && !subject.is_empty() {
            subject.sort_unstable();
            subject.dedup();
            a.subject = Some(words_key(&subject));
            a.subject_words = subject;
        }

        // Values, then qualifiers and choice words in the predicate.
        values(tk, start, end, skip, role, used, &mut a.values);
        let mut i = start;
        while i < end {
            if role[i] != Role::Other && !skip[i] && tk.has(i, W_FOR_IN) {
                let in_subject = role[i] == Role::Subject;
                // "in real time", "in a nightly batch", "in phases": how, not which part of the
                // world — the phrase is the choice, not a qualifier (fourth round).
                let manner =
                    (i + 1..end.min(i + 6)).take_while(|&j| tk.toks[j].kind == Tk::Word && !skip[j]).any(|j| {
                        !tk.has(j, W_STOP)
                            && (tk.has(j, W_OPPOSITE)
                                || (tk.has(j, W_ALT_FIRST)
                                    && alternative_at(tk, j, end, skip, &mut Vec::new()).is_some()))
                    });
                if manner {
                    i += 1;
                    continue;
                }
                let mut j = i + 1;
                let mut taken = 0;
                while j < end && taken < 4 && tk.toks[j].kind == Tk::Word && !skip[j] && !used[j] {
                    if tk.has(j, W_ARTICLE) {
                        j += 1;
                        continue;
                    }
                    // A capitalised stop word is a name here ("in the US").
                    if (tk.has(j, W_STOP) && !tk.toks[j].cap) || tk.has(j, W_NEG | W_MONTH) {
                        break;
                    }
                    if in_subject {
                        a.scope.push(tk.key(j));
                    } else {
                        qual[j] = true;
                        a.qualifiers.push(tk.key(j));
                        a.leading_scope |= tk.has(j, W_QUALIFIER);
                    }
                    taken += 1;
                    j += 1;
                }
                i = j.max(i + 1);
            } else {
                i += 1;
            }
        }
        a.qualifiers.sort_unstable();
        a.qualifiers.dedup();
        a.scope.sort_unstable();
        a.scope.dedup();
        let mut negations = 0;
        a.pol_words.reserve_exact(end - start);
        a.choice.reserve_exact(end - start);
        for i in start..end {
            if used[i]
                && !skip[i]
                && tk.toks[i].kind == Tk::Word
                && !tk.has(i, W_STOP | W_NEG | W_MONTH)
                && tk.w(i).len() > 3
            {
                // A number's unit that is a noun ("4 *episodes*", "eight *seasons*") names what is
                // counted: a stem for relatedness, not a word of the claim's choice (fifth round).
                let w = tk.w(i);
                a.stems.push(stem(synonym_of(w).unwrap_or(w)));
                if super::values::measure_unit(w) {
                    a.unit_stems.push(stem(w));
                }
                continue;
            }
            if skip[i] || used[i] || !tk.is_text(i) {
                continue;
            }
            if tk.has(i, W_NEG) {
                // "… random tokens that cannot be reversed", "… the clinics that do not have
                // them yet": a negation in a relative clause is not the claim's (fourth round).
                // "no more than 4 hours", "not later than Friday": a bound, not a negation
                // (eighth round).
                let bound = tk.is_any(i + 1, &["more", "less", "later", "earlier", "fewer", "sooner", "longer"])
                    && tk.is(i + 2, "than");
                if !in_relative(tk, start, i) && !bound {
                    negations += 1;
                }
                continue;
            }
            if tk.has(i, W_STOP) {
                continue;
            }
            let k = tk.key(i);
            if role[i] == Role::Predicate && !qual[i] {
                // A word of the opposition lexicon is its member: "kept" = "retained".
                let pole = if tk.has(i, W_OPPOSITE) { first_pole(tk.w(i)) } else { None };
                a.choice.push(pole.map_or(k, |p| u64::from(p) << 32 | 1 << 62 | 1));
            }
            a.pol_words.push(k);
            if !tk.has(i, W_LINK1 | W_LINK_TO | W_LINK_BE | W_HAVE | W_NOISE) {
                a.core_words.push(k);
                if tk.toks[i].kind == Tk::Word {
                    let w = tk.w(i);
                    let st = stem(synonym_of(w).unwrap_or(w));
                    a.stems.push(st);
                    a.seq.push((w.as_bytes()[0], st));
                    if role[i] == Role::Predicate {
                        a.pred_stems.push(st);
                    }
                    if tk.has(i, W_OPPOSITE) {
                        a.pole_stems.push(st);
                    }
                    if tk.has(i, W_QUALIFIER)
                        && let Some(c) = QUALIFIER_TABLE.iter().position(|(_, ws)| ws.contains(&w))
                    {
                        a.scoped.push((c as u8, k));
                    }
                    if tk.toks[i].cap && (2..=5).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_alphabetic()) {
                        let mut letters = [0u8; 5];
                        letters[..w.len()].copy_from_slice(w.as_bytes());
                        a.acronyms.push((Acronym { letters, len: w.len() as u8 }, st));
                    }
                    if qual[i] || a.scope.binary_search(&k).is_ok() {
                        a.scope_stems.push(st);
                    }
                    if tk.toks[i].cap
                        && !tk.has(i, W_DEC_VERB | W_MONTH | W_OPPOSITE)
                        && super::values::number_words(tk, i, end).is_none()
                    {
                        a.names.push(fold_hash(w.strip_suffix("'s").unwrap_or(w)));
                        a.name_stems.push(st);
                    }
                }
            }
            if display && a.pol_words.len() <= 10 {
                if !a.pol_display.is_empty() {
                    a.pol_display.push(' ');
                }
                a.pol_display.push_str(tk.w(i));
            }
        }
        a.negated = negations % 2 == 1;
        for i in start..end {
            if (tk.punct(i) == Some('%') || (tk.toks[i].kind == Tk::Word && tk.is_any(i, &["percent", "pct"])))
                && tk.is(i + 1, "of")
            {
                for k in (i + 2..end.min(i + 8))
                    .take_while(|&k| tk.toks[k].kind == Tk::Word)
                    .filter(|&k| !tk.has(k, W_STOP | W_NEG))
                    .take(3)
                {
                    a.pct_wholes.push(stem(tk.w(k)));
                }
            }
            if tk.toks[i].kind != Tk::Word {
                continue;
            }
            if skip[i] {
                if !tk.has(i, W_STOP | W_NEG | W_PAST | W_HISTORY)
                    && !tk.is_any(i, &["rather", "instead"])
                    && !tk.is_any(i, REPLACE_VERBS)
                {
                    a.rejected.push(tk.key(i));
                }
            } else if let Some(pole) = direction_particle(tk, i, start, end) {
                // Ninth round: "go *up*", "come *down*" say a direction of change.
                a.poles.push(pole);
                a.pole_words.push(tk.key(i));
            } else if tk.has(i, W_OPPOSITE) && !used[i] {
                let from = a.poles.len();
                poles_of(tk.w(i), &mut a.poles);
                if !tk.has(i, W_NEG) {
                    a.pole_words.push(tk.key(i));
                    if a.poles[from..].iter().any(|p| p & 0xff != 0) {
                        a.later_pole_words.push(tk.key(i));
                    }
                }
            }
            if !skip[i]
                && tk.is_any(i, &["caused", "attributed", "due", "driven", "blamed", "traced", "triggered", "cause"])
            {
                a.cause = true;
            }
            if !skip[i] && tk.is_any(i, EXCLUSIVE_STATE) && !frequency(tk, i, end) {
                a.exclusive = true;
            }
            if !skip[i] && tk.has(i, W_ENVIRONMENT) {
                a.environments.push(tk.key(i));
            }
            if tk.has(i, W_REPLACEMENT) || (tk.is(i, "longer") && i > start && tk.is(i - 1, "no")) {
                a.replaces = true;
            }
        }
        // The alternatives table (fourth round): members read as poles of their groups.
        let mut i = start;
        while i < end {
            if skip[i] || !tk.has(i, W_ALT_FIRST) {
                i += 1;
                continue;
            }
            match alternative_at(tk, i, end, skip, &mut a.poles) {
                Some(next) => {
                    for k in i..next {
                        if tk.toks[k].kind == Tk::Word && !tk.has(k, W_STOP) {
                            a.alt_words.push(tk.key(k));
                        }
                    }
                    i = next;
                }
                None => i += 1,
            }
        }
        a.rejected.sort_unstable();
        a.rejected.dedup();
        a.poles.sort_unstable();
        a.poles.dedup();
        a.neg_pole = a.poles.iter().any(|&p| {
            p & 0xff == 1 && OPPOSITES.get((p >> 8) as usize).is_some_and(|(g, _)| NEGATIVE_POLES.contains(g))
        });
        a.pole_words.sort_unstable();
        a.pole_words.dedup();
        a.later_pole_words.sort_unstable();
        a.later_pole_words.dedup();
        a.alt_words.sort_unstable();
        a.alt_words.dedup();
        if shaped && a.subject.is_none() {
            let verb = (start..end).find(|&i| tk.has(i, W_DEC_VERB | W_DEC_WITH | W_DEC_TO | W_DEC_ON | W_DEC_FOR));
            if let Some(v) = verb {
                let b = tk.w(v).as_bytes();
                a.bare_verb = u16::from_le_bytes([b[0], *b.get(1).unwrap_or(&0)]);
            }
        }
        a.choice.sort_unstable();
        a.choice.dedup();
        a.pol_words.sort_unstable();
        a.pol_words.dedup();
        a.core_words.sort_unstable();
        a.core_words.dedup();
        a.stems.sort_unstable();
        a.stems.dedup();
        a.pred_stems.sort_unstable();
        a.pred_stems.dedup();
        a.pole_stems.sort_unstable();
        a.pole_stems.dedup();
        a.environments.sort_unstable();
        a.environments.dedup();
        a.unit_stems.sort_unstable();
        a.unit_stems.dedup();
        a.pct_wholes.sort_unstable();
        a.pct_wholes.dedup();
        a.scope_stems.sort_unstable();
        a.scope_stems.dedup();
        a.names.sort_unstable();
        a.names.dedup();
        a.name_stems.sort_unstable();
        a.name_stems.dedup();
        a.scoped.sort_unstable();
        a.scoped.dedup();
        // "Bed the cubicles with sand": a first word followed by an article or a determiner is
        // an imperative's verb (fifth round).
        if tk.toks.get(start).is_some_and(|t| t.kind == Tk::Word)
            && start + 1 < end
            && (tk.has(start + 1, W_ARTICLE)
                || tk.is_any(start + 1, &["our", "their", "its", "all", "each", "every", "both"]))
        {
            let w = tk.w(start);
            a.verb_stem = stem(synonym_of(w).unwrap_or(w));
        }
        // "The delay happened because …": an observation cut at *because* states a cause (a
        // decision's *because* is its rationale; fifth round).
        // (Ninth round: also at *due to*: "Lyon date cancelled due to the rail strike".)
        a.cause |= !decision && (tk.is(end, "because") || (tk.is(end, "due") && tk.is(end + 1, "to")));
        a.pol_key = words_key(&a.pol_words);
        (a, end, aside)
    }
}

/// The longest forms of the alternatives table ([`ALTERNATIVES`]) starting at word `i` (not
/// set aside): pushes their groups (after the opposition lexicon's) and members packed as in
/// `poles` (a form may be in several groups: "hybrid"), and returns the token after them.
/// Words of a form may be joined by a hyphen or a slash ("in-house", "blue/green").
fn alternative_at(tk: &Toks, i: usize, end: usize, skip: &[bool], poles: &mut Vec<u16>) -> Option<usize> {
    let forms = ALTERNATIVE_INDEX.get(&tk.toks[i].h)?;
    let mut best: Option<usize> = None;
    let from = poles.len();
    for (pole, words) in forms {
        let mut k = i + 1;
        let mut ok = true;
        for &w in &words[1..] {
            while k < end && matches!(tk.punct(k), Some('-' | '/')) && !tk.toks[k].space {
                k += 1;
            }
            if k >= end || skip[k] || tk.toks[k].kind != Tk::Word || tk.toks[k].h != w {
                ok = false;
                break;
            }
            k += 1;
        }
        if !ok {
            continue;
        }
        match best {
            Some(e) if k < e => {}
            Some(e) if k == e => poles.push(*pole),
            _ => {
                poles.truncate(from);
                poles.push(*pole);
                best = Some(k);
            }
        }
    }
    best
}

/// First-word hash → (pole, the hashes of the form's words).
type AlternativeIndex = crate::maps::HashMap<u64, Vec<(u16, Vec<u64>)>>;

/// The alternatives table by the hash of each form's first word: (group and member packed as
/// in `poles`, the hashes of the form's words), built once.
static ALTERNATIVE_INDEX: std::sync::LazyLock<AlternativeIndex> = std::sync::LazyLock::new(|| {
    let mut map: AlternativeIndex = Default::default();
    for (g, (_, members)) in ALTERNATIVES.iter().enumerate() {
        for (m, forms) in members.iter().enumerate() {
            for form in forms.iter() {
                let words: Vec<u64> = form.split(' ').map(|w| crate::hash::fnv64(w.as_bytes()) | 1).collect();
                let pole = (((ALTERNATIVES_BASE + g) as u16) << 8) | m as u16;
                map.entry(words[0]).or_default().push((pole, words));
            }
        }
    }
    map
});

/// The past participle right after a link verb at `ps` (an adverb such as *now, usually* may
/// come first): a word ending in *-ed* or *-en* (5 letters or more) or an irregular one, not a
/// word of the opposition lexicon or the alternatives table (those are states the rules
/// compare: "frozen", "closed", "outsourced").
fn participle_at(tk: &Toks, ps: usize, end: usize) -> Option<usize> {
    let mut k = ps;
    while k < end && tk.is_any(k, &["now", "usually", "always", "currently", "also", "then", "only", "first", "being"])
    {
        k += 1;
    }
    if k >= end || tk.toks[k].kind != Tk::Word || tk.has(k, W_OPPOSITE | W_ALT_FIRST | W_STOP | W_NEG) {
        return None;
    }
    let w = tk.w(k);
    let regular = w.len() >= 5 && (w.ends_with("ed") || w.ends_with("en"));
    (regular || IRREGULAR_PARTICIPLES.contains(&w)).then_some(k)
}

/// Irregular past participles that open a predicate ("is *drawn* from", "are *sent* by").
const IRREGULAR_PARTICIPLES: &[&str] = &[
    "built", "bought", "brought", "caught", "drawn", "done", "dealt", "given", "kept", "left", "made", "meant", "paid",
    "put", "read", "run", "said", "seen", "sent", "set", "shown", "sold", "spent", "split", "sung", "taken", "taught",
    "told", "thrown", "worn", "won", "written", "grown", "known", "led", "held", "found", "fed", "cut", "hung",
];

/// Whether the token at `i` follows a relative pronoun (*that, which, who, whom, whose*) that
/// itself follows a content word other than a verb of saying or deciding ("the clinics *that*
/// do not …"; not "agreed that", "confirmed that").
fn in_relative(tk: &Toks, start: usize, i: usize) -> bool {
    (start + 1..i).any(|k| {
        tk.is_any(k, &["that", "which", "who", "whom", "whose"])
            && tk.toks[k - 1].kind == Tk::Word
            && !tk.has(k - 1, W_STOP | W_LEAD_VERB | W_ATTRIBUTION | W_LINK1 | W_LINK_BE | W_NEG)
            && !tk.is_any(
                k - 1,
                &[
                    "said", "says", "say", "ensure", "ensures", "means", "mean", "states", "stated", "noted", "note",
                    "shows", "show", "found", "find", "so",
                ],
            )
    })
}

/// Verbs of replacement: "replace A with B" rejects A.
const REPLACE_VERBS: &[&str] = &["replace", "replaces", "replacing", "swap", "swaps", "swapping", "substitute"];

/// Prepositions that open a leading adverbial of scope, up to a comma ("At the Bow office,
/// …").
const LEADING_SCOPE: &[&str] = &["at", "on", "for", "in", "during", "across", "within", "under", "from"];

/// Words that end a subject's attribute: what follows names the thing measured.
const ATTRIBUTE_ENDS: &[&str] = &["of", "on", "at", "in", "for", "across", "over", "per", "within", "under"];

/// Words by which a Current State claim asserts that a state holds to the exclusion of
/// another — it persists (*still, yet, remains*), covers everything or only part (*all,
/// every, none, only, fully, entirely*), is over (*complete, done, finished*), is held up (*blocked, stuck, pending,
/// waiting*), or holds again (*back, again, restored, resumed, reinstated*: ninth round). Two Current State claims on one thing without any of these (nor a negation or
/// an opposition) read as steps of a progress log: "The draft is ready" / "The draft was
/// reviewed on 3 May".
const EXCLUSIVE_STATE: &[&str] = &[
    "still",
    "yet",
    "remains",
    "remain",
    "only",
    "all",
    "every",
    "none",
    "fully",
    "entirely",
    "complete",
    "completed",
    "done",
    "finished",
    "blocked",
    "stuck",
    "pending",
    "waiting",
    // Ninth round: a state that holds again ("back in service", "running again", "restored")
    // says the one before it is over.
    "back",
    "again",
    "restored",
    "resumed",
    "reinstated",
];

/// Words after *every* that make it a frequency ("every six months", "every 10 years", "on
/// every use", "every second day"), not a claim that covers everything.
const FREQUENCY_UNITS: &[&str] = &[
    "second",
    "minute",
    "hour",
    "day",
    "night",
    "morning",
    "evening",
    "week",
    "weekday",
    "weekend",
    "fortnight",
    "month",
    "quarter",
    "year",
    "season",
    "shift",
    "use",
    "time",
    "visit",
    "run",
    "cycle",
    "batch",
    "other",
];

/// Ninth round (issue 19): *every* at token `i` opens a frequency — a number or a unit of
/// time or of repetition follows it (its plural folded) — so that "The escapement needs
/// oiling every six months" or "Refresh tokens are rotated on every use" do not read as an
/// exclusive state ("*every* tenant has moved" still does).
fn frequency(tk: &Toks, i: usize, end: usize) -> bool {
    if !tk.is(i, "every") || i + 1 >= end {
        return false;
    }
    let unit = |k: usize| {
        k < end && {
            let w = tk.w(k);
            let w = w.strip_suffix('s').unwrap_or(w);
            FREQUENCY_UNITS.contains(&w)
        }
    };
    tk.toks[i + 1].kind == Tk::Num
        || super::values::number_words(tk, i + 1, end).is_some()
        || unit(i + 1)
        || unit(i + 2)
}

/// Verbs after which "over" says how something travels, not what is preferred ("ship over
/// USB").
const OVER_CARRIERS: &[&str] = &[
    "ship",
    "ships",
    "shipped",
    "send",
    "sends",
    "sent",
    "deliver",
    "delivers",
    "delivered",
    "run",
    "runs",
    "ran",
    "stream",
    "streams",
    "streamed",
    "travel",
    "travels",
    "go",
    "goes",
    "move",
    "moves",
    "moved",
    "push",
    "pushed",
    "connect",
    "connects",
    "sync",
    "syncs",
    "synced",
    "talk",
    "communicate",
    "broadcast",
    "served",
    "serve",
    "update",
    "updates",
    "updated",
    "distributed",
    "transmitted",
];

/// A word's stem for the widened possible tier: `'s`, then one of *-ing, -ed, -ly, -es, -s*
/// stripped (leaving at least 3 letters), *-is-* read as *-iz-* (British spelling), and the
/// first 5 letters kept ("exported", "exports" → *expor*; "localisation", "localization" →
/// *local*; "remotely" → *remot*). Coarse on purpose: it is evidence of relatedness, never
/// of a contradiction.
pub(super) fn stem(w: &str) -> u64 {
    let w = w.strip_suffix("'s").unwrap_or(w);
    // British spellings read as American ones: "anaesthesia" = "anesthesia", "paediatric" =
    // "pediatric", "centre" = "center", "colour" = "color", "analyse" = "analyze",
    // "catalogue" = "catalog".
    let mut us = [0u8; 48];
    if w.len() < us.len() && w.is_ascii() {
        let b = w.as_bytes();
        let mut n = 0;
        let mut k = 0;
        while k < b.len() {
            let rest = &b[k..];
            if k > 0 && (rest.starts_with(b"ae") || rest.starts_with(b"oe")) {
                us[n] = b'e';
                n += 1;
                k += 2;
                continue;
            }
            // (Ninth round: also before a suffix: "colourised" = "colorized", "favourite",
            // "honoured", "behavioural".)
            const OUR_SUFFIXES: &[&[u8]] = &[
                b"ed", b"ing", b"ite", b"ites", b"ise", b"ised", b"ises", b"ising", b"ize", b"ized", b"izes", b"izing",
                b"able", b"ably", b"ful", b"less", b"er", b"ers", b"al",
            ];
            if k > 1
                && rest.len() >= 3
                && rest.starts_with(b"our")
                && (rest[3..].iter().all(|&c| c == b's') || OUR_SUFFIXES.contains(&&rest[3..]))
            {
                us[n..n + 2].copy_from_slice(b"or");
                n += 2;
                k += 3;
                continue;
            }
            if k > 1 && (rest == b"tre" || rest == b"tres" || rest == b"bre" || rest == b"bres") {
                us[n] = rest[0];
                us[n + 1..n + 3].copy_from_slice(b"er");
                n += 3;
                k += 3;
                continue;
            }
            if k > 1 && (rest == b"yse" || rest == b"ysed" || rest == b"ysing") {
                us[n..n + 2].copy_from_slice(b"yz");
                n += 2;
                k += 2;
                continue;
            }
            if k > 1 && (rest == b"ogue" || rest == b"ogues") {
                us[n..n + 2].copy_from_slice(b"og");
                n += 2;
                k += 4;
                continue;
            }
            us[n] = b[k];
            n += 1;
            k += 1;
        }
        if let Ok(x) = std::str::from_utf8(&us[..n]) {
            return stem_us(x);
        }
    }
    stem_us(w)
}

/// Words in *-ly* that are no adverbs (ninth round): their *-ly* is not stripped, so that
/// "reply" and "replies" share a stem (*repli*).
const NOT_ADVERBS: &[&str] = &[
    "reply", "apply", "supply", "comply", "imply", "multiply", "rely", "ally", "rally", "tally", "assembly", "anomaly",
];

/// [`stem`] after the spelling fold.
fn stem_us(w: &str) -> u64 {
    let mut w = w;
    for suf in ["ing", "ed", "ly", "es", "s"] {
        if let Some(r) = w.strip_suffix(suf)
            && r.len() >= 3
            && !(suf == "s" && r.ends_with('s'))
            && !(suf == "ly" && NOT_ADVERBS.contains(&w))
        {
            w = r;
            // A consonant doubled before *-ing*/*-ed* is one: "bedding" = "bed", "shipped" =
            // "ship" (fifth round; not *ll, ss, zz, ff*: "called", "passed").
            let b = w.as_bytes();
            if matches!(suf, "ing" | "ed")
                && b.len() >= 4
                && b[b.len() - 1] == b[b.len() - 2]
                && !b"aeiouylszf".contains(&b[b.len() - 1])
            {
                w = &w[..w.len() - 1];
            }
            break;
        }
    }
    // A final *e* is not part of the stem (seventh round): "frame" = "frames" (*-es* stripped:
    // "fram"), "rate" = "rates", "site" = "sites", "framed", "framing".
    if w.len() >= 4 && w.ends_with('e') {
        w = &w[..w.len() - 1];
    }
    // Ninth round: a final *y* after a consonant is the *i* of its plural and past ("retry" =
    // "retries" = "retried": *retri*; "copy" = "copied"; "reply" = "replies").
    let mut yi = [0u8; 48];
    let b = w.as_bytes();
    if b.len() >= 3 && b.len() <= yi.len() && b[b.len() - 1] == b'y' && !b"aeiouy".contains(&b[b.len() - 2]) {
        yi[..b.len()].copy_from_slice(b);
        yi[b.len() - 1] = b'i';
        if let Ok(x) = std::str::from_utf8(&yi[..b.len()]) {
            return prefix_stem(x);
        }
    }
    prefix_stem(w)
}

/// The first five letters of an inflection-free word, with "-is-" before a vowel read as
/// "-iz-", hashed (the end of [`stem_us`]).
fn prefix_stem(w: &str) -> u64 {
    let mut buf = [0u8; 5];
    let mut n = 0;
    let b = w.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if n == 5 {
            break;
        }
        // "-is-" before a vowel or "-ation" reads as "-iz-": organise = organize.
        buf[n] = if c == b's' && i > 0 && b[i - 1] == b'i' && b.get(i + 1).is_some_and(|&x| b"aeio".contains(&x)) {
            b'z'
        } else {
            c
        };
        n += 1;
    }
    crate::hash::fnv64(&buf[..n]) | 1
}

/// Whether the clause starting at token `from` (after punctuation) opens with a word of a
/// rationale, an attribution, a reason or a condition (*Rationale:*, *Decided by*, *because*,
/// *if*, *so*, *, as* …).
fn aside_at(tk: &Toks, from: usize) -> bool {
    let n = tk.len();
    let first = (from..n).find(|&k| tk.punct(k).is_none()).unwrap_or(n);
    first < n
        && (tk.has(first, W_CUT | W_REASON | W_ATTRIBUTION | W_PAIR_CUT)
            || tk.is_any(first, &["as", "signed", "per", "see", "source", "sources", "approved", "owner"]))
}

/// Index of the first token from `from` after leading punctuation, labels and decision leads.
fn lead_from(tk: &Toks, from: usize) -> usize {
    let mut i = from;
    loop {
        while i < tk.len() && tk.punct(i).is_some() {
            i += 1;
        }
        if tk.has(i, W_LABEL) && tk.punct(i + 1) == Some(':') {
            i += 2;
            continue;
        }
        break;
    }
    // "We (have) decided to", "The team agreed on", "Decided to".
    for k in i..(i + 4).min(tk.len()) {
        if tk.has(k, W_LEAD_VERB) && (i..k).all(|j| tk.has(j, W_LEAD_WORD)) {
            let j = k + 1 + usize::from(tk.has(k + 1, W_LEAD_PARTICLE));
            if j < tk.len() {
                return j;
            }
        }
    }
    i
}

/// End (exclusive) of the main clause that starts at `start`.
fn clause_end(tk: &Toks, start: usize) -> usize {
    let n = tk.len();
    for i in start + 1..n {
        let t = &tk.toks[i];
        match t.kind {
            Tk::Punct(';' | '—' | '–') => return i,
            Tk::Punct('.') => {
                let next = tk.toks.get(i + 1);
                let abbrev = tk.is_text(i - 1) && tk.w(i - 1).chars().count() == 1;
                let ends = next.is_none_or(|t| t.space && (t.cap || matches!(t.kind, Tk::Punct(_))));
                if ends && !abbrev {
                    return i;
                }
            }
            Tk::Word if t.flags & (W_CUT | W_REASON | W_ATTRIBUTION | W_PAIR_CUT) != 0 => {
                let after_punct = matches!(tk.punct(i - 1), Some(',' | '(' | '.'));
                let cut = if t.flags & W_CUT != 0 {
                    true
                } else if t.flags & W_REASON != 0 {
                    after_punct || tk.punct(i + 1) == Some(':')
                } else if t.flags & W_ATTRIBUTION != 0 {
                    after_punct || tk.is_any(i + 1, &["by", "with", "on", "in", "at", "during", "upon"])
                } else {
                    match tk.w(i) {
                        // "X is due to Y" states a cause: the point, not a rationale.
                        "due" => tk.is(i + 1, "to") && !tk.is_any(i - 1, &["is", "was", "are", "were", "be"]),
                        "given" => tk.is(i + 1, "that"),
                        // "… so that …", "…, so …", "… so one strike cannot …": a purpose or a
                        // result; not "so far", "so-called".
                        "so" => {
                            tk.is(i + 1, "that")
                                || (tk.toks.get(i + 1).is_some_and(|t| matches!(t.kind, Tk::Word | Tk::Num))
                                    && !tk.is_any(i + 1, &["far", "much", "many", "long", "called", "few", "on"]))
                        }
                        "to" => tk.is(i + 1, "avoid"),
                        "signed" => tk.is(i + 1, "off"),
                        // ", as the new grease is not holding up": a reason (fifth round).
                        "as" => {
                            tk.punct(i - 1) == Some(',')
                                && tk.is_any(
                                    i + 1,
                                    &[
                                        "the", "a", "an", "we", "it", "they", "this", "these", "those", "our", "their",
                                        "its", "there", "he", "she", "most", "many", "no", "both", "each",
                                    ],
                                )
                        }
                        // ", which …": a non-restrictive clause adds to the point.
                        "which" => tk.punct(i - 1) == Some(','),
                        _ => false,
                    }
                };
                if cut {
                    return i;
                }
            }
            _ => {}
        }
    }
    n
}

/// Verbs of change before "from X to Y": X is the value set aside (twelfth round).
const CHANGE_FROM_VERBS: &[&str] = &[
    "move",
    "moves",
    "moved",
    "moving",
    "switch",
    "switches",
    "switched",
    "switching",
    "migrate",
    "migrates",
    "migrated",
    "migrating",
    "goes",
    "went",
    "changes",
    "changed",
    "shifts",
    "shifted",
];

/// Set aside rejected alternatives and past values in parentheses: the marker words and the
/// phrase after them, up to punctuation (`,;):.`) or, after its first word, a preposition or
/// conjunction.
fn mark_alternatives(tk: &Toks, start: usize, end: usize, decision: bool, skip: &mut [bool]) {
    let mut i = start;
    while i < end {
        // (first skipped token, first token of the alternative itself)
        let found = match tk.toks[i].kind {
            Tk::Punct(',' | '(') if tk.is(i + 1, "not") || tk.is(i + 1, "never") => Some((i + 1, i + 2)),
            Tk::Punct('(') if tk.has(i + 1, W_PAST) => Some((i + 1, i + 2)),
            Tk::Word => {
                let w = tk.w(i);
                if (w == "rather" && tk.is(i + 1, "than")) || (w == "instead" && tk.is(i + 1, "of")) {
                    Some((i, i + 2))
                } else if tk.is_any(i, REPLACE_VERBS)
                    // A noun, not the verb: "A battery swap at the hangar takes ninety seconds
                    // with the quick-release tray" (seventh round).
                    && !(i > start && tk.is_any(i - 1, &["a", "an", "the"]))
                    && !tk.is_any(i + 1, &["at", "in", "on", "of", "for", "from", "is", "was", "takes", "took"])
                    && let Some(with) = (i + 2..end.min(i + 9)).find(|&k| tk.is_any(k, &["with", "by"]))
                    && (i + 1..with).all(|k| tk.toks[k].kind != Tk::Punct(',') && !tk.has(k, W_NEG))
                {
                    // "Replace printed tickets with kitchen display screens": what is replaced is
                    // the rejected alternative (fourth round).
                    skip[i..with].fill(true);
                    i = with + 1;
                    continue;
                } else if w == "from"
                    && i > start
                    && tk.is_any(i - 1, CHANGE_FROM_VERBS)
                    && let Some(to) = (i + 2..end.min(i + 7)).find(|&k| tk.is(k, "to"))
                    && (i + 1..to).all(|k| tk.toks[k].kind == Tk::Word && !tk.has(k, W_NEG))
                {
                    // Twelfth round: "The bundler moves from webpack to Rspack" sets webpack
                    // aside as "Replace webpack with Rspack" does (words only: a past value in
                    // figures, "moved from June 30 to July 14", is read by `values`).
                    skip[i..to].fill(true);
                    i = to + 1;
                    continue;
                } else if decision
                    && w == "over"
                    && i > start
                    && tk.toks[i - 1].kind == Tk::Word
                    && tk.toks.get(i + 1).is_some_and(|t| t.kind == Tk::Word)
                    && !tk.has(i + 1, W_STOP)
                    && !tk.is_any(i - 1, OVER_CARRIERS)
                    && super::values::number_words(tk, i + 1, end).is_none()
                {
                    // "Prefer Kafka over RabbitMQ", "organic search over paid ads"; not "ship
                    // over USB", "updates over the air", "over twenty percent" (a number: the
                    // token after is a word, so digits never get here).
                    Some((i, i + 1))
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some((from, body)) = found else {
            i += 1;
            continue;
        };
        let mut j = from;
        while j < end {
            let stop = match tk.toks[j].kind {
                Tk::Punct(c) => matches!(c, ',' | ';' | ')' | '.' | ':'),
                // "rather than moving to X": the particle of a verb of choice goes on.
                Tk::Word => {
                    j > body
                        && tk.has(j, W_ALT_STOP)
                        && !(j == body + 1 && tk.has(body, W_DEC_TO | W_DEC_WITH | W_DEC_ON | W_DEC_FOR))
                }
                Tk::Num => false,
            };
            if j >= body && stop {
                break;
            }
            skip[j] = true;
            j += 1;
        }
        i = j.max(i + 1);
    }
}

/// "<lead> <decision verb> <choice> <prep> <subject> [<qualifiers>]": sets roles and
/// returns true when it matches.
fn decision_shape(tk: &Toks, start: usize, end: usize, skip: &[bool], role: &mut [Role]) -> bool {
    let mut i = start;
    while i < end && i < start + 5 && tk.has(i, W_DEC_PREFIX | W_NEG) {
        i += 1;
    }
    if i >= end || tk.toks[i].kind != Tk::Word {
        return false;
    }
    let particle = [(W_DEC_WITH, "with"), (W_DEC_TO, "to"), (W_DEC_ON, "on"), (W_DEC_FOR, "for")]
        .into_iter()
        .find(|&(f, p)| tk.has(i, f) && tk.is(i + 1, p));
    let choice_start = if particle.is_some() {
        i + 2
    } else if tk.has(i, W_DEC_VERB) {
        i + 1
    } else {
        return false;
    };
    if choice_start >= end {
        return false;
    }
    // "Keep build artifacts for 6 months": a quantity after the preposition is a value, not
    // what the decision is for.
    let quantity =
        |k: usize| k < end && (tk.toks[k].kind == Tk::Num || super::values::number_words(tk, k, end).is_some());
    let prep = (choice_start + 1..end).find(|&k| !skip[k] && tk.has(k, W_SUBJECT_PREP) && !quantity(k + 1));
    role[choice_start..end].fill(Role::Predicate);
    if let Some(p) = prep {
        let m = (p + 1..end)
            .find(|&k| tk.has(k, W_QUAL_STOP) || matches!(tk.punct(k), Some(',' | '(' | ':')))
            .unwrap_or(end);
        role[p] = Role::Other;
        role[p + 1..m].fill(Role::Subject);
    }
    true
}

/// The first `:`/`=`/link verb after at least one token: (end of subject, start of predicate),
/// when the subject has 1 to 8 content words.
fn generic_split(tk: &Toks, start: usize, end: usize, skip: &[bool]) -> Option<(usize, usize)> {
    let mut found = None;
    for (i, t) in tk.toks.iter().enumerate().take(end).skip(start + 1) {
        if skip[i] {
            continue;
        }
        found = match t.kind {
            Tk::Punct(':') if tk.toks.get(i + 1).is_none_or(|t| t.space) => Some((i, i + 1)),
            Tk::Punct('=') => Some((i, i + 1)),
            Tk::Word if t.flags & (W_LINK1 | W_LINK_BE | W_HAVE | W_LINK_TO) != 0 => {
                if t.flags & W_LINK1 != 0 {
                    Some((i, i + 1))
                } else if (t.flags & W_LINK_BE != 0 && tk.is(i + 1, "be"))
                    || (t.flags & W_HAVE != 0 && tk.is(i + 1, "been"))
                    || (t.flags & W_LINK_TO != 0 && tk.is(i + 1, "to"))
                {
                    Some((i, i + 2))
                } else if t.flags & W_LINK_TO != 0 && tk.is(i + 1, "from") {
                    // "moved from June 30 to July 14": the predicate keeps `from` (a past value).
                    Some((i, i + 1))
                } else {
                    None
                }
            }
            _ => None,
        };
        if found.is_some() {
            break;
        }
    }
    let (se, ps) = found?;
    // "Clients sign the engagement letter before any advice is given": a link verb after a
    // subordinating word ends a subordinate clause, not the subject (fourth round).
    let subordinate = (start + 1..se).any(|k| {
        tk.is_any(k, &["when", "while", "once", "that", "which", "who", "whom", "whose", "whether"])
            || (tk.is_any(k, &["before", "after"]) && tk.punct(k + 1) != Some('-'))
    });
    if subordinate {
        return None;
    }
    let words = (start..se).filter(|&k| !skip[k] && tk.is_text(k) && !tk.has(k, W_STOP | W_NEG)).count();
    (1..=8).contains(&words).then_some((se, ps.min(end)))
}

/// Verbs of motion whose particle *up* / *down* says a direction of change ("Rents go up",
/// "Fees came down", "Suppliers push prices up").
const MOTION_VERBS: &[&str] = &[
    "go", "goes", "going", "gone", "went", "come", "comes", "coming", "came", "put", "puts", "push", "pushes",
    "pushed", "ramp", "ramps", "ramped", "scale", "scales", "scaled", "step", "steps", "stepped", "bring", "brings",
    "brought", "drive", "drives", "driven", "drove", "move", "moves", "moved", "edge", "edges", "edged",
];

/// Ninth round (issue 19): the particle *up* or *down* right after a verb of motion, or after
/// one word that follows it ("push prices up"), is a member of the opposition lexicon's
/// "direction of change" group — *up* with *increase*, *down* with *decrease* — so that "Plot
/// rents go up from April" and "Plot rents will be reduced from April" are opposite directions
/// of one subject rather than one claim containing the other. Not a bound ("up to 5"), not
/// "put up with", not a particle without such a verb ("set up", "sign up", "shut down" say
/// other things).
fn direction_particle(tk: &Toks, i: usize, start: usize, end: usize) -> Option<u16> {
    let up = tk.is(i, "up");
    if !(up || tk.is(i, "down")) || i <= start || (i + 1 < end && tk.is_any(i + 1, &["to", "with"])) {
        return None;
    }
    let motion = |k: usize| tk.toks[k].kind == Tk::Word && tk.is_any(k, MOTION_VERBS);
    if !(motion(i - 1) || (i >= start + 2 && motion(i - 2) && tk.toks[i - 1].kind == Tk::Word)) {
        return None;
    }
    first_pole(if up { "increase" } else { "decrease" })
}

/// Typed values among the predicate tokens; marks the tokens they use.
fn values(tk: &Toks, start: usize, end: usize, skip: &[bool], role: &[Role], used: &mut [bool], out: &mut Vec<Value>) {
    let ok = |k: usize| k < end && role[k] == Role::Predicate && !skip[k];
    let first_pred = (start..end).find(|&k| ok(k) && tk.is_text(k));
    let mut was: Vec<Value> = Vec::new();
    let mut i = start;
    while i < end {
        if !ok(i) || !tk.is_text(i) {
            i += 1;
            continue;
        }
        // "eu-central-1", "rev-2": a number joined to a word by a hyphen is part of a name.
        let joined = |k: usize| !tk.toks[k].space;
        if tk.toks[i].kind == Tk::Num
            && i >= 2
            && joined(i)
            && tk.punct(i - 1) == Some('-')
            && joined(i - 1)
            && tk.toks[i - 2].kind == Tk::Word
        {
            i += 1;
            continue;
        }
        let Some((value, next)) = value_at(tk, i, end, first_pred == Some(i)) else {
            i += 1;
            continue;
        };
        let mut p = i.saturating_sub(1);
        while p > start && matches!(tk.punct(p), Some('$' | '€' | '£' | '(')) {
            p -= 1;
        }
        let past = i > start && tk.has(p, W_HISTORY);
        // "autoclave 2", "Ward 4": a bare number right after a noun, with nothing after it
        // that reads as a unit, labels the thing rather than stating a value.
        // (Fifth round: a number written with a thousands separator is a quantity, never a
        // label: "The main house seats 1,140".)
        if matches!(value, Value::Num { unit: 0, .. })
            && tk.toks[i].kind == Tk::Num
            && !tk.w(i).contains(',')
            && next == i + 1
            && i > start
            && tk.toks[i - 1].kind == Tk::Word
            && !tk.has(i - 1, W_STOP | W_NEG | W_HISTORY | W_LINK1 | W_LINK_TO | W_LINK_BE | W_HAVE)
        {
            i = next;
            continue;
        }
        used[i..next].fill(true);
        if !past {
            out.push(value);
        } else if tk.is_any(p, &["was", "were"]) && !matches!(tk.punct(p + 1), Some('(')) && !skip[p] {
            // "Compliance was 78%": the past tense of the claim's own value, unless the
            // claim states another value of that kind ("now 85%, was 78%").
            was.push(value);
        }
        i = next;
    }
    for v in was {
        if !out.iter().any(|o| super::values::same_slot(o, &v)) {
            out.push(v);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::merge::tokens::fold_hash;
    use crate::merge::values::*;

    pub(in crate::merge) fn an(text: &str, decision: bool) -> Analysis {
        Scratch::default().analyse([text].into_iter(), decision, true)
    }

    fn key(words: &[&str]) -> u64 {
        let mut k: Vec<u64> = words.iter().map(|w| fold_hash(w)).collect();
        k.sort_unstable();
        words_key(&k)
    }

    /// Seventh round: a final *e* is not part of a stem ("frames" lost it with *-es*).
    #[test]
    fn seventh_round_a_final_e_is_not_part_of_the_stem() {
        for (a, b) in
            [("frames", "frame"), ("rates", "rate"), ("sites", "site"), ("framed", "frame"), ("cases", "case")]
        {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_ne!(stem("frame"), stem("free"));
    }

    /// Ninth round: spellings and inflections that named one word apart — British *-our-*
    /// before a suffix, *-ies* / *-ied* after a consonant.
    #[test]
    fn ninth_round_spellings_and_plurals_in_y() {
        for (a, b) in [
            ("flavoured", "flavored"),
            ("honourable", "honorable"),
            ("favourite", "favorite"),
            ("replies", "reply"),
            ("supplied", "supply"),
            ("copied", "copy"),
            ("batteries", "battery"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        // "movies" is still "movie"; "key" keeps its *y*; "resource" keeps its *-our-*.
        assert_eq!(stem("movies"), stem("movie"));
        assert_eq!(stem("keys"), stem("key"));
        assert_ne!(stem("resources"), stem("resort"));
    }

    /// Ninth round: what a claim's words say about change, state and cause — a particle of
    /// direction after a verb of motion, a number's possessive, a state that holds again,
    /// *every* as a frequency, a cause after *due to*.
    #[test]
    fn ninth_round_direction_possessives_frequency_and_causes() {
        let pole = |w: &str| first_pole(w).expect("a lexicon word");
        let has = |text: &str, decision: bool, w: &str| an(text, decision).poles.contains(&pole(w));
        assert!(has("Ferry fares go up in March.", true, "increase"));
        assert!(has("Ferry fares will be lowered in March.", true, "decrease"));
        assert!(has("Suppliers push prices down.", false, "decrease"));
        // The lexicon's new members: *stay* with *keep* (against *remove*), *widen* against
        // *narrow*.
        assert!(has("The old ramp stays at the east gate.", true, "keep"));
        assert!(has("The old ramp is removed from the east gate.", true, "remove"));
        assert!(has("Widen the cycle lane on Mill Road.", true, "increase"));
        assert!(has("The cycle lane on Mill Road is narrowed.", true, "decrease"));
        // A bound or a particle without a verb of motion says no direction.
        assert!(!has("Ferry fares move by up to 5 %.", false, "increase"));
        assert!(an("We set up the ferry desk.", false).poles.is_empty());
        // "Bay 7's scanner" is the scanner of bay 7.
        assert_eq!(
            an("Bay 7's scanner is offline.", false).subject,
            an("The scanner in bay 7 is offline.", false).subject
        );
        assert!(an("The east lift is back in service.", false).exclusive);
        assert!(!an("The east lift is inspected every six months.", false).exclusive);
        assert!(!an("Filters are swapped on every visit.", false).exclusive);
        assert!(an("Every tenant has moved to the new portal.", false).exclusive);
        assert!(an("Saturday's match called off due to a waterlogged pitch.", false).cause);
    }

    #[test]
    fn subjects_values_and_polarity() {
        let a = an("Launch date: July 14, 2026 [src:art_01a#L1-L2]", false);
        assert_eq!((a.subject, a.subject_display.as_str()), (Some(key(&["launch"])), "launch date"));
        assert_eq!(a.values, vec![Value::Date { y: 2026, m: 7, d: 14 }]);
        let a = an("Launch moved to July 14 (was June 30) because legal review slipped.", false);
        assert_eq!(a.subject, Some(key(&["launch"])));
        assert_eq!(a.values, vec![Value::Date { y: 0, m: 7, d: 14 }]);
        let a = an("p95 latency is 250 ms after the fix", false);
        assert_eq!(a.subject, Some(key(&["latency", "p95"])));
        assert_eq!(a.values, vec![Value::Num { unit: U_SECONDS, v: 0.25 }]);
        let a = an("Budget: $50k", false);
        assert_eq!(a.values, vec![Value::Num { unit: U_USD, v: 50000.0 }]);
        assert_eq!(an("The budget is 50,000 dollars.", false).values, a.values);
        let a = an("Use Postgres, not SQLite, for the event store because of joins. Decided by Alice.", true);
        assert_eq!(a.subject_display, "event store");
        assert_eq!(a.choice, vec![fold_hash("postgres")]);
        assert!(!a.negated);
        let a = an("We will not ship the beta to EU customers.", true);
        assert!(a.negated);
        assert_eq!(a.pol_display, "ship beta eu customers");
        assert_eq!(a.pol_key, key(&["ship", "beta", "europe", "customer"])); // eu = europe (synonyms)
        let a = an("SSO required for enterprise: no", false);
        assert_eq!(a.subject, Some(key(&["sso", "required", "enterprise"])));
        assert_eq!(a.values, vec![Value::Bool(false)]);
        let a = an("Target runtime: Node v20.1", false);
        assert_eq!(a.values, vec![Value::Version { parts: [20, 1, 0, 0], n: 2 }]);
        assert_eq!(an("Launch is July 14 in the US", false).qualifiers, vec![fold_hash("us")]);
        let a = an("Discount cap is 20%, not 25%", false);
        assert_eq!(a.values, vec![Value::Num { unit: U_PERCENT, v: 20.0 }]);
        assert_eq!(an("Launch: Q3 2026", false).values, vec![Value::Quarter { q: 3, y: 2026 }]);
        assert_eq!(an("Renewal date is 2026-06-30.", false).values, vec![Value::Date { y: 2026, m: 6, d: 30 }]);
        // Plurals, case and number formats meet.
        assert_eq!(an("Renewals are 10k", false).subject, an("renewal is 10,000", false).subject);
    }

    #[test]
    fn values_compare_by_kind_and_unit() {
        let v = |s: &str| an(s, false).values;
        assert!(values_incompatible(&v("X is July 14"), &v("X is June 30")));
        assert!(!values_incompatible(&v("X is July 14"), &v("X is 14 July 2026")));
        assert!(!values_incompatible(&v("X is $10k"), &v("X is $10,000")));
        assert!(values_incompatible(&v("X is 5 engineers"), &v("X is 6 engineers")));
        assert!(values_incompatible(&v("X is 5"), &v("X is 6 engineers")));
        assert!(!values_incompatible(&v("X is 3x annual over 12 months"), &v("X is 3x annual")));
        assert!(!values_incompatible(&v("X is 24 months"), &v("X is 2 years")));
        assert!(values_incompatible(&v("X: yes"), &v("X: no")));
        assert!(!values_incompatible(&v("X is v1.2"), &v("X is v1.2.3")));
        assert!(values_incompatible(&v("X is v1.2"), &v("X is v1.3")));
        assert!(!values_incompatible(&v("X is 250ms"), &v("X is 0.25 seconds")));
        assert!(!values_incompatible(&v("X is 16.2"), &v("X is 16.20")));
        // Number words and unit families (issue 19).
        assert_eq!(v("X is twelve months"), v("X is 1 year"));
        assert!(!values_incompatible(&v("X is twelve months"), &v("X is one year")));
        assert!(values_incompatible(&v("X is eighteen months"), &v("X is 2 years")));
        assert!(!values_incompatible(&v("X is half a second"), &v("X is 500 ms")));
        assert!(!values_incompatible(&v("X is three days"), &v("X is 72 hours")));
        assert!(!values_incompatible(&v("X is 40 GB"), &v("X is 40,000 MB")));
        assert!(!values_incompatible(&v("X is 1 GB"), &v("X is 1024 MB")));
        assert!(values_incompatible(&v("X is 1 GB"), &v("X is 512 MB")));
        assert!(!values_incompatible(&v("X is 30 days"), &v("X is one month")));
        assert!(values_incompatible(&v("X is a dozen engineers"), &v("X is 10 engineers")));
        assert_eq!(v("X is twenty-five seats"), v("X is 25 seats"));
        assert_eq!(v("X is two hundred"), v("X is 200"));
        assert!(v("One of the reasons is cost").is_empty());
        // A value both state is common ground; the other values clash (fifth round).
        assert!(values_incompatible(&v("X is 420 ms over the last 7 days"), &v("X is 180 ms over the last 7 days")));
        assert!(!values_incompatible(&v("X is 420 ms over the last 7 days"), &v("X is 420 ms over 7 days")));
    }
}
