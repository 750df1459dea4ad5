//! Item-writing flaws a deterministic rule can catch (issue 21, item 4): the wording cues and
//! stem problems of Haladyna, Downing & Rodriguez (2002), Tarrant et al. (2006) and Moore et
//! al. (2023), checked on an item's text only. [`check`] is called by `item::check_item` with
//! the prompt, the choices' texts and the key's index; it returns one finding per flaw, with a
//! message saying what is wrong and how to rewrite it.
//!
//! The rules, their codes and severities (`error`: the item is refused and the agent rewrites
//! it; `warning`: recorded, the item is still asked), with the measures as named constants:
//!
//! - `negative-stem` (error): the question sentence (the one holding the last `?`, else the
//!   last sentence; the sentences before it set the scene) asks with NOT, EXCEPT, LEAST,
//!   "cannot", a "n't" form, or for the false/incorrect/untrue statement, and the word is not
//!   emphasised (capitals, or inside `*…*` / `**…**` / `_…_`). "at least" and "not only" are
//!   not negatives.
//! - `combination-option` (error): a choice combines others: two choice names joined by
//!   and/or/plus or a comma ("A and B", "a, b and c", "all of a, b", "options 1 and 3"), "Both",
//!   "Neither", "Both are correct", or "both X and Y" where X and Y repeat words (or
//!   derivations: [`AKIN_PREFIX`] common letters) of two different other choices. It rewards
//!   elimination and its references break when the runtime shuffles and relabels the choices.
//!   "Both/neither of the above" is left to `all-or-none-of-the-above`.
//! - `absolute-terms` (warning): a distractor says always, never, forever, only, all, none,
//!   completely, entirely, absolutely, guaranteed/guarantees, impossible or totally, and the key
//!   none of them: test-wise learners strike such distractors unread. ("all/none of the
//!   above" is not counted.)
//! - `vague-qualifier` (warning): the prompt or a choice says usually, often, sometimes, may,
//!   might, generally, frequently, rarely, occasionally, typically, commonly, seldom or some:
//!   frequency words mean different things to different readers, so the key is arguable.
//! - `stem-cue` (warning): at least [`MIN_CUE_TERMS`] terms of the prompt recur in the key and in
//!   no distractor — a clang association that points at the key. Terms: stemmed words of at
//!   least [`MIN_CUE_WORD`] letters outside [`STOPWORDS`], and code-like compounds joined by
//!   `-`, `_`, `+` or `.` ("idempotency_key", "N+1") of any length.
//! - `convergence` (warning): the key sits at the centre of the options, the distractors each
//!   varying part of it. Measure: an option's features are its stemmed words (but a/an/the) and
//!   its word bigrams (so word order counts); its *spread* is its mean Jaccard distance to the
//!   other options. The finding needs the key's spread strictly below every distractor's (the
//!   key is the medoid) and at most [`CONVERGENCE_MAX_DISTANCE`] (the options really are
//!   variants: sound items with a central key measured 0.78 and more on the dev set,
//!   convergent ones 0.60 and less).
//! - `grammar-cue` (error for a/an, warning for is/are): the prompt ends in, or puts before a
//!   blank (`___`, `…`), "a" or "an", and the key's first word takes that article while a
//!   distractor's takes the other; words whose sound the spelling does not settle (acronyms
//!   starting with F, H, L, M, N, R, S or X, numbers, mixed-case code) are not judged. Or the
//!   prompt asks "which … is/are" or ends in "is"/"are", and the key agrees in number while a
//!   distractor does not (number judged on a leading a/an/one or plural determiner, or on a head
//!   noun phrase of at most four words).
//! - `short-distractor` (warning): a distractor is under [`SHORT_KEY_RATIO`] of the key's
//!   length *and* under [`SHORT_MEDIAN_RATIO`] of the options' median length (characters), or
//!   is one word while every other option has at least [`SENTENCE_WORDS`] words. "All/none of
//!   the above" is not judged (it is another rule's).
//!
//! Errors are the rules whose wording test is exact and whose fix is mechanical (emphasise or
//! drop the negative, split the combination, end the stem before the article); warnings are
//! the measures and word lists with legitimate uses ("only two retries", "may" in a
//! scenario), so a false finding costs a note, not a rewrite.
//!
//! Not for: plausibility of distractors, whether the key is right, whether exactly one option
//! is correct, or whether the stem is focused and grounded: those need the content and remain
//! the agent's and the evaluator's judgment (docs/learning-policy.md).

use crate::distill::{Finding, Severity};

/// `stem-cue` ignores shared words shorter than this (after stemming).
pub const MIN_CUE_WORD: usize = 4;
/// `stem-cue` needs at least this many shared terms (one shared word is common in sound items).
pub const MIN_CUE_TERMS: usize = 2;
/// `convergence`: the key's mean Jaccard distance to the other options is at most this.
pub const CONVERGENCE_MAX_DISTANCE: f64 = 0.7;
/// `combination-option`: words sharing this many first letters are one word's derivations.
pub const AKIN_PREFIX: usize = 6;
/// `short-distractor`: a distractor shorter than this share of the key's characters...
pub const SHORT_KEY_RATIO: f64 = 0.3;
/// ... and of the median option's characters.
pub const SHORT_MEDIAN_RATIO: f64 = 0.4;
/// `short-distractor`: a one-word distractor is flagged when every other option has at least
/// this many words.
pub const SENTENCE_WORDS: usize = 4;

const NEGATIVES: [&str; 4] = ["not", "except", "least", "cannot"];
const NEGATIVE_ADJECTIVES: [&str; 4] = ["false", "incorrect", "untrue", "inaccurate"];
const ABSOLUTES: [&str; 13] = [
    "always",
    "never",
    "forever",
    "only",
    "all",
    "none",
    "completely",
    "entirely",
    "absolutely",
    "guaranteed",
    "guarantees",
    "impossible",
    "totally",
];
const VAGUE: [&str; 14] = [
    "usually",
    "often",
    "sometimes",
    "may",
    "might",
    "generally",
    "frequently",
    "rarely",
    "occasionally",
    "typically",
    "commonly",
    "seldom",
    "some",
    "sometime",
];

/// Function words and question words, space-separated: never content.
pub const STOPWORDS: &str = "a about above after again against all also am an and any are as at be because been before being \
     below between both but by can could did do does doing done down during each either else even ever \
     every few for from further had has have having he her here hers him his how however i if in into is \
     it its itself just last least less let like made make makes many may me might more most much must my \
     neither no nor not now of off on once one only or other others our out over own same shall she \
     should so some such than that the their them then there these they this those though through thus to \
     too under until up upon us use used uses using very via was we were what when where whether which \
     while who whom whose why will with within without would yet you your following statement statements \
     option options choice choices answer best describes describe true correct happen happens instead way \
     get gets go goes new first next still already always never often usually sometimes because rather \
     cannot can't don't doesn't isn't won't it's there's what's per two three";

fn is_stopword(w: &str) -> bool {
    STOPWORDS.split_whitespace().any(|s| s == w)
}

fn finding(code: &'static str, severity: Severity, message: String) -> Finding {
    Finding { code, severity, line: 0, message }
}

/// A word of the text: lowercased, with its original spelling and byte span.
struct Word<'a> {
    lower: String,
    raw: &'a str,
    start: usize,
    end: usize,
}

/// Words: runs of alphanumerics with inner apostrophes (typographic ones as `'`).
fn words(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let inner_apostrophe =
            (c == '\'' || c == '’') && start.is_some() && chars.get(k + 1).is_some_and(|(_, n)| n.is_alphanumeric());
        if c.is_alphanumeric() || inner_apostrophe {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            out.push(word(text, s, i));
        }
    }
    if let Some(s) = start {
        out.push(word(text, s, text.len()));
    }
    out
}

fn word(text: &str, start: usize, end: usize) -> Word<'_> {
    let raw = &text[start..end];
    Word { lower: raw.to_lowercase().replace('’', "'"), raw, start, end }
}

fn lower_words(text: &str) -> Vec<String> {
    words(text).into_iter().map(|w| w.lower).collect()
}

/// A light English stemmer, enough to match "retries"/"retry", "locks"/"locked"/"locking".
fn stem(w: &str) -> String {
    let w = w.strip_suffix("'s").unwrap_or(w);
    let n = w.chars().count();
    if !w.is_ascii() || n <= 3 {
        return w.to_string();
    }
    let w = if n > 5 { w.strip_suffix("ly").unwrap_or(w) } else { w };
    let base = if let Some(s) = w.strip_suffix("ies").filter(|_| n > 4) {
        format!("{s}y")
    } else if let Some(s) = ["sses", "shes", "ches", "xes", "zes"].iter().find_map(|x| w.strip_suffix(x)) {
        let kept = &w[s.len()..w.len() - 2];
        format!("{s}{kept}")
    } else if let Some(s) = w.strip_suffix("ing").filter(|s| s.len() >= 3) {
        undouble(s)
    } else if let Some(s) = w.strip_suffix("ed").filter(|s| s.len() >= 3) {
        undouble(s)
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w[..w.len() - 1].to_string()
    } else {
        w.to_string()
    };
    // A final "e" goes, so "cache"/"caches"/"cached" and "release"/"released" meet.
    match base.strip_suffix('e') {
        Some(s) if s.len() >= 3 => s.to_string(),
        _ => base,
    }
}

/// "lock" from "lock", "stop" from "stopp" (of "stopped").
fn undouble(s: &str) -> String {
    let b = s.as_bytes();
    if b.len() >= 2 && b[b.len() - 1] == b[b.len() - 2] && !matches!(b[b.len() - 1], b'l' | b's' | b'z') {
        s[..s.len() - 1].to_string()
    } else {
        s.to_string()
    }
}

/// Stemmed content words of a text, deduplicated, in first-seen order.
fn content(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in lower_words(text) {
        if is_stopword(&w) || w.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let s = stem(&w);
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

fn quoted(words: &[&str]) -> String {
    words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(", ")
}

/// Check the flaws of one item: its prompt, its options (id, text) and the key's index in them
/// (out of range when the correct id is missing). The rules comparing the key with the
/// distractors run only when there is a key and every option has text.
pub fn check(prompt: &str, options: &[(&str, &str)], key: usize) -> Vec<Finding> {
    let mut out = Vec::new();
    negative_stem(prompt, &mut out);
    combination_options(options, &mut out);
    vague_qualifiers(prompt, options, &mut out);
    // The comparisons need a key and every option's text (the structural rules report those).
    if key < options.len() && options.len() >= 2 && options.iter().all(|(_, t)| !t.trim().is_empty()) {
        absolute_terms(options, key, &mut out);
        stem_cue(prompt, options, key, &mut out);
        convergence(options, key, &mut out);
        grammar_cues(prompt, options, key, &mut out);
        short_distractors(options, key, &mut out);
    }
    out
}

// ------------------------------------------------------------------ negative stems

fn emphasised(text: &str, w: &Word<'_>) -> bool {
    let letters: Vec<char> = w.raw.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase()) {
        return true;
    }
    let before = text[..w.start].chars().next_back();
    let after = text[w.end..].chars().next();
    let mark = |c: Option<char>| matches!(c, Some('*') | Some('_'));
    mark(before) && mark(after)
}

/// The byte offset where the prompt's question starts: the sentence holding the last `?`, or
/// the last sentence when there is none. The sentences before it set the scene.
fn question_start(prompt: &str) -> usize {
    let body = prompt.trim_end();
    let end = body.rfind('?').unwrap_or(body.len());
    let before = &body[..end];
    let mut start = 0;
    for (i, c) in before.char_indices() {
        let next = before[i + c.len_utf8()..].chars().next();
        if (matches!(c, '.' | '!' | '?') && next.is_some_and(char::is_whitespace)) || c == '\n' {
            start = i + c.len_utf8();
        }
    }
    start
}

fn negative_stem(prompt: &str, out: &mut Vec<Finding>) {
    let from = question_start(prompt);
    let ws: Vec<Word<'_>> = words(prompt).into_iter().filter(|w| w.start >= from).collect();
    for (i, w) in ws.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| ws[p].lower.as_str());
        let next = ws.get(i + 1).map(|n| n.lower.as_str());
        let negative = match w.lower.as_str() {
            "least" => prev != Some("at"),
            "not" => next != Some("only"),
            l if NEGATIVES.contains(&l) => true,
            l if l.ends_with("n't") => true,
            l if NEGATIVE_ADJECTIVES.contains(&l) => {
                matches!(prev, Some("is" | "are" | "be" | "was" | "were" | "most"))
                    || matches!(
                        next,
                        Some("statement" | "statements" | "claim" | "claims" | "option" | "answer" | "about")
                    )
            }
            _ => false,
        };
        if negative && !emphasised(prompt, w) {
            out.push(finding(
                "negative-stem",
                Severity::Error,
                format!(
                    "the prompt asks with the negative \"{}\", which readers miss and which turns the item into \
                     spotting the odd one out: ask for the correct statement instead, or, if the negative is \
                     essential, write it in capitals or bold (\"{}\")",
                    w.raw,
                    w.raw.to_uppercase()
                ),
            ));
            return;
        }
    }
}

// ------------------------------------------------------------------ combination options

/// Does the word name a choice: one of the item's short ids, a letter a–f or a roman numeral?
fn names_choice(w: &str, ids: &[String]) -> bool {
    ids.iter().any(|id| id == w) || matches!(w, "a" | "b" | "c" | "d" | "e" | "f" | "i" | "ii" | "iii" | "iv" | "v")
}

/// Equal stems, or one word derived from the other ("resubscription", "resubscribes"): a
/// common prefix of at least [`AKIN_PREFIX`] letters.
fn akin(a: &str, b: &str) -> bool {
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    a == b || common >= AKIN_PREFIX
}

fn combination_options(options: &[(&str, &str)], out: &mut Vec<Finding>) {
    let ids: Vec<String> = options.iter().map(|(id, _)| id.trim().to_lowercase()).filter(|id| id.len() <= 3).collect();
    for (id, text) in options {
        let raw = words(text);
        let ws: Vec<String> = raw.iter().map(|w| w.lower.clone()).collect();
        let w = |k: usize| ws.get(k).map(String::as_str);
        let is_number = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        let mut combines = false;
        for k in 0..ws.len() {
            // "a and b", "b or d", "i and iii", "options 1 and 3" (and so "a, b and c")
            let first_is_choice = names_choice(&ws[k], &ids)
                || (is_number(&ws[k])
                    && k > 0
                    && matches!(w(k - 1), Some("option" | "options" | "choice" | "choices" | "answers" | "answer")));
            if first_is_choice
                && matches!(w(k + 1), Some("and" | "or" | "plus"))
                && w(k + 2).is_some_and(|n| names_choice(n, &ids) || is_number(n))
            {
                combines = true;
            }
            // "all of a, b": two ids separated by a comma only.
            if k + 1 < ws.len()
                && names_choice(&ws[k], &ids)
                && names_choice(&ws[k + 1], &ids)
                && text[raw[k].end..raw[k + 1].start].trim() == ","
            {
                combines = true;
            }
        }
        // "Both the backoff and the resubscription": "both X and Y" where X and Y each repeat
        // words of a different other choice.
        if let Some(b) = ws.iter().position(|x| x == "both")
            && let Some(a) = ws[b + 1..].iter().position(|x| x == "and").map(|p| p + b + 1)
        {
            let part =
                |ws: &[String]| -> Vec<String> { ws.iter().filter(|x| !is_stopword(x)).map(|x| stem(x)).collect() };
            let (x, y) = (part(&ws[b + 1..a]), part(&ws[a + 1..]));
            let others: Vec<(usize, Vec<String>)> = options
                .iter()
                .enumerate()
                .filter(|(_, (other, _))| other != id)
                .map(|(i, (_, t))| (i, content(t)))
                .collect();
            let hits = |part: &[String]| -> Vec<usize> {
                others
                    .iter()
                    .filter(|(_, c)| part.iter().any(|w| c.iter().any(|o| akin(w, o))))
                    .map(|(i, _)| *i)
                    .collect()
            };
            let (hx, hy) = (hits(&x), hits(&y));
            if hx.iter().any(|i| hy.iter().any(|j| j != i)) {
                combines = true;
            }
        }
        // "Both", "Neither", "Both are correct", "Both of them", "Neither is right"
        if matches!(w(0), Some("both" | "neither"))
            && (ws.len() == 1
                || matches!(
                    w(1),
                    Some(
                        "are"
                            | "is"
                            | "of"
                            | "options"
                            | "answers"
                            | "choices"
                            | "statements"
                            | "answer"
                            | "approaches"
                            | "explanations"
                    )
                ))
        {
            combines = true;
        }
        // "both/neither of the above" is `all-or-none-of-the-above`'s.
        let above = ws.windows(2).any(|p| p[0] == "the" && p[1] == "above");
        if combines && !above {
            out.push(finding(
                "combination-option",
                Severity::Error,
                format!(
                    "choice `{id}` (\"{}\") combines other choices: it rewards elimination over reasoning and \
                     its references break when the runtime shuffles and relabels the choices; make every \
                     choice a single, self-contained answer",
                    text.trim()
                ),
            ));
        }
    }
}

// ------------------------------------------------------------------ absolute terms, vague qualifiers

/// The list's words in the text; "all/none (of) (the) above/these/them" is another rule's
/// (`all-or-none-of-the-above`), so its "all" and "none" are not counted.
fn terms_in(text: &str, list: &[&'static str]) -> Vec<&'static str> {
    let ws = lower_words(text);
    let mut found: Vec<&'static str> = Vec::new();
    for (k, w) in ws.iter().enumerate() {
        let refers_to_options = (w == "all" || w == "none")
            && ws[k + 1..]
                .iter()
                .take(3)
                .find(|n| *n != "of" && *n != "the")
                .is_some_and(|n| n == "above" || n == "these" || n == "them");
        if refers_to_options {
            continue;
        }
        if let Some(t) = list.iter().find(|t| *t == w)
            && !found.contains(t)
        {
            found.push(t);
        }
    }
    found
}

/// "All/None of the above", "all of these", "both of the above": another rule's option.
fn refers_to_options(text: &str) -> bool {
    let ws = lower_words(text);
    ws.windows(2).any(|p| p[0] == "the" && p[1] == "above")
        || ws.windows(3).any(|p| matches!(p[0].as_str(), "all" | "none") && p[1] == "of" && p[2] == "these")
}

fn absolute_terms(options: &[(&str, &str)], key: usize, out: &mut Vec<Finding>) {
    if !terms_in(options[key].1, &ABSOLUTES).is_empty() {
        return;
    }
    let flagged: Vec<(&str, Vec<&str>)> = options
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != key)
        .map(|(_, (id, t))| (*id, terms_in(t, &ABSOLUTES)))
        .filter(|(_, t)| !t.is_empty())
        .collect();
    if flagged.is_empty() {
        return;
    }
    let list = flagged.iter().map(|(id, t)| format!("`{id}` ({})", quoted(t))).collect::<Vec<_>>().join(", ");
    out.push(finding(
        "absolute-terms",
        Severity::Warning,
        format!(
            "distractor(s) {list} use absolute terms the correct choice lacks: test-wise learners strike them \
             without knowing the answer; state what is wrong with each distractor in its own words, without \
             always/never/only/all-style qualifiers (or use them in the correct choice too)"
        ),
    ));
}

fn vague_qualifiers(prompt: &str, options: &[(&str, &str)], out: &mut Vec<Finding>) {
    let mut places: Vec<String> = Vec::new();
    let in_prompt = terms_in(prompt, &VAGUE);
    if !in_prompt.is_empty() {
        places.push(format!("the prompt ({})", quoted(&in_prompt)));
    }
    for (id, text) in options {
        let t = terms_in(text, &VAGUE);
        if !t.is_empty() {
            places.push(format!("choice `{id}` ({})", quoted(&t)));
        }
    }
    if places.is_empty() {
        return;
    }
    out.push(finding(
        "vague-qualifier",
        Severity::Warning,
        format!(
            "{} use vague frequency words, which readers interpret differently, so whether a choice is right \
             becomes arguable; say exactly when it holds (the condition, the count, the case)",
            places.join(", ")
        ),
    ));
}

// ------------------------------------------------------------------ word cues

/// Stem-cue terms: like [`content`], but a token joined by `-`, `_`, `+` or `.` between
/// alphanumerics ("idempotency_key", "half-open", "N+1") is one term, kept whatever its length;
/// plain words need [`MIN_CUE_WORD`] letters.
fn cue_terms(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens: Vec<String> = Vec::new();
    let mut cur = String::new();
    for (k, &c) in chars.iter().enumerate() {
        let joiner = "-_+.".contains(c) && !cur.is_empty() && chars.get(k + 1).is_some_and(|n| n.is_alphanumeric());
        if c.is_alphanumeric() || joiner {
            cur.push(c);
        } else if !cur.is_empty() {
            tokens.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    let mut out: Vec<String> = Vec::new();
    for t in tokens {
        let lower = t.to_lowercase();
        let compound = lower.chars().any(|c| "-_+.".contains(c));
        if is_stopword(&lower) || lower.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let term = if compound { lower } else { stem(&lower) };
        if (compound || term.chars().count() >= MIN_CUE_WORD) && !out.contains(&term) {
            out.push(term);
        }
    }
    out
}

/// The prompt's own spelling of a cue term (its first word with that term).
fn spelling<'a>(prompt: &'a str, term: &'a str) -> &'a str {
    words(prompt).into_iter().find(|w| stem(&w.lower) == term).map_or(term, |w| w.raw)
}

fn stem_cue(prompt: &str, options: &[(&str, &str)], key: usize, out: &mut Vec<Finding>) {
    let stem_words = cue_terms(prompt);
    let key_words = cue_terms(options[key].1);
    let distractor_words: Vec<String> =
        options.iter().enumerate().filter(|(i, _)| *i != key).flat_map(|(_, (_, t))| cue_terms(t)).collect();
    let cues: Vec<&str> = stem_words
        .iter()
        .filter(|w| key_words.contains(w) && !distractor_words.contains(w))
        .map(|term| spelling(prompt, term))
        .collect();
    if cues.len() < MIN_CUE_TERMS {
        return;
    }
    out.push(finding(
        "stem-cue",
        Severity::Warning,
        format!(
            "the correct choice repeats the prompt's {} and no distractor does: the repeated words point at \
             the answer; reword the correct choice, or let distractors use the prompt's terms too",
            quoted(&cues)
        ),
    ));
}

/// An option's features for `convergence`: its stemmed words but "a", "an" and "the", and its
/// word bigrams (so "commit, then process" differs from "process, then commit").
fn features(text: &str) -> Vec<String> {
    let ws: Vec<String> =
        lower_words(text).into_iter().filter(|w| !matches!(w.as_str(), "a" | "an" | "the")).map(|w| stem(&w)).collect();
    let mut out: Vec<String> = Vec::new();
    for f in ws.iter().cloned().chain(ws.windows(2).map(|p| format!("{} {}", p[0], p[1]))) {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Each option's mean Jaccard distance to the other options, on [`features`].
fn mean_distances(options: &[(&str, &str)]) -> Vec<f64> {
    let sets: Vec<Vec<String>> = options.iter().map(|(_, t)| features(t)).collect();
    let distance = |i: usize, j: usize| {
        let shared = sets[i].iter().filter(|f| sets[j].contains(f)).count();
        let union = sets[i].len() + sets[j].len() - shared;
        if union == 0 { 0.0 } else { 1.0 - shared as f64 / union as f64 }
    };
    (0..sets.len())
        .map(|i| (0..sets.len()).filter(|&j| j != i).map(|j| distance(i, j)).sum::<f64>() / (sets.len() - 1) as f64)
        .collect()
}

fn convergence(options: &[(&str, &str)], key: usize, out: &mut Vec<Finding>) {
    if options.len() < 3 {
        return;
    }
    let d = mean_distances(options);
    let nearest_distractor =
        d.iter().enumerate().filter(|(i, _)| *i != key).map(|(_, v)| *v).fold(f64::INFINITY, f64::min);
    if d[key] <= CONVERGENCE_MAX_DISTANCE && d[key] < nearest_distractor {
        out.push(finding(
            "convergence",
            Severity::Warning,
            format!(
                "the distractors are variations of the correct choice, which sits at their centre (mean word \
                 distance {:.2} to the others, the most central distractor {nearest_distractor:.2}): a learner \
                 can pick the option the others converge on; write distractors that differ from each other, not \
                 each a one-element change of the correct choice",
                d[key]
            ),
        ));
    }
}

// ------------------------------------------------------------------ grammar cues

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Article {
    A,
    An,
}

/// The article a word takes, when its sound is clear from its spelling.
fn article_for(raw: &str) -> Option<Article> {
    let letters: Vec<char> = raw.chars().collect();
    let first = *letters.first()?;
    if !first.is_alphabetic() {
        return None;
    }
    let caps = letters.iter().take_while(|c| c.is_alphabetic()).count();
    if caps >= 2 && letters.iter().take(caps).all(|c| c.is_uppercase()) {
        // Capitals: a word ("OPTIONS") from five letters, else an acronym, read as letters
        // ("an IEEE", "a TCP") or as a word ("a FIFO"): judged only where both readings agree.
        if caps < 5 {
            return match first {
                'A' | 'E' | 'I' | 'O' => Some(Article::An),
                'F' | 'H' | 'L' | 'M' | 'N' | 'R' | 'S' | 'X' => None,
                _ => Some(Article::A),
            };
        }
        return Some(if "AEIO".contains(first) { Article::An } else { Article::A });
    }
    if letters.iter().skip(1).any(|c| c.is_uppercase() || c.is_ascii_digit()) {
        return None; // code: "iOS", "eBPF", "x86"
    }
    let w = raw.to_lowercase();
    const A_DESPITE_VOWEL: [&str; 10] = ["uni", "use", "usa", "usu", "uti", "ure", "eu", "one", "once", "ubiq"];
    const AN_DESPITE_H: [&str; 4] = ["hour", "honest", "honou", "heir"];
    if AN_DESPITE_H.iter().any(|p| w.starts_with(p)) {
        return Some(Article::An);
    }
    if A_DESPITE_VOWEL.iter().any(|p| w.starts_with(p)) {
        return Some(Article::A);
    }
    Some(if "aeiou".contains(first.to_ascii_lowercase()) { Article::An } else { Article::A })
}

/// "a"/"an" at the end of the prompt or right before a blank.
fn stem_article(prompt: &str) -> Option<Article> {
    let ws = words(prompt);
    for (i, w) in ws.iter().enumerate() {
        let article = match w.lower.as_str() {
            "a" => Article::A,
            "an" => Article::An,
            _ => continue,
        };
        let rest = match ws.get(i + 1) {
            Some(n) => &prompt[w.end..n.start],
            None => &prompt[w.end..],
        };
        let blank = rest.contains("__") || rest.contains('…') || rest.contains("...");
        let at_end = ws.get(i + 1).is_none() && rest.chars().all(|c| c.is_whitespace() || ":?.-—".contains(c));
        if blank || at_end {
            return Some(article);
        }
    }
    None
}

/// First word of an option, without leading quotes or backticks.
fn first_word(text: &str) -> Option<&str> {
    words(text)
        .into_iter()
        .next()
        .filter(|w| text[..w.start].chars().all(|c| c.is_whitespace() || "\"'(".contains(c)))
        .map(|w| w.raw)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Number {
    Singular,
    Plural,
}

/// "Which of the following is/are", "Which of these is/are", "Which is/are".
fn stem_number(prompt: &str) -> Option<Number> {
    let ws = lower_words(prompt);
    let w = |k: usize| ws.get(k).map(String::as_str);
    for k in ws.iter().enumerate().filter(|(_, x)| *x == "which").map(|(k, _)| k) {
        let verb = match (w(k + 1), w(k + 2), w(k + 3)) {
            (Some("of"), Some("the"), Some("following")) => w(k + 4),
            (Some("of"), Some("these" | "those" | "them"), _) => w(k + 3),
            (Some("one" | "option" | "options" | "choice" | "choices"), v, _) => v,
            (v, _, _) => v,
        };
        match verb {
            Some("is" | "was") => return Some(Number::Singular),
            Some("are" | "were") => return Some(Number::Plural),
            _ => {}
        }
    }
    // "The settings the change added are" (the options complete the sentence).
    match ws.last().map(String::as_str) {
        Some("is" | "was") => Some(Number::Singular),
        Some("are" | "were") => Some(Number::Plural),
        _ => None,
    }
}

/// An option's grammatical number, when it is clear: an article or determiner first, or a
/// short noun phrase.
fn option_number(text: &str) -> Option<Number> {
    let ws = lower_words(text);
    match ws.first().map(String::as_str)? {
        "a" | "an" | "one" | "this" | "that" | "it" | "each" | "every" => return Some(Number::Singular),
        "two" | "three" | "four" | "several" | "many" | "multiple" | "these" | "those" | "both" | "they" => {
            return Some(Number::Plural);
        }
        _ => {}
    }
    // The head noun phrase: the words before a preposition, relative word or verb.
    const BOUNDARY: [&str; 22] = [
        "of", "that", "which", "who", "with", "for", "to", "in", "on", "at", "by", "from", "so", "because", "when",
        "where", "whose", "than", "is", "are", "was", "were",
    ];
    let head: Vec<&String> = ws.iter().take_while(|w| !BOUNDARY.contains(&w.as_str())).collect();
    if head.is_empty() || head.len() > 4 {
        return None;
    }
    if head.iter().any(|w| *w == "and") {
        return Some(Number::Plural);
    }
    let last = head.last()?;
    let plural = last.len() > 3
        && last.ends_with('s')
        && !last.ends_with("ss")
        && !last.ends_with("us")
        && !last.ends_with("is");
    Some(if plural { Number::Plural } else { Number::Singular })
}

fn grammar_cues(prompt: &str, options: &[(&str, &str)], key: usize, out: &mut Vec<Finding>) {
    if let Some(article) = stem_article(prompt)
        && first_word(options[key].1).and_then(article_for) == Some(article)
    {
        let misfits: Vec<&str> = options
            .iter()
            .enumerate()
            .filter(|(i, (_, t))| *i != key && first_word(t).and_then(article_for).is_some_and(|a| a != article))
            .map(|(_, (id, _))| *id)
            .collect();
        if !misfits.is_empty() {
            let word = if article == Article::A { "a" } else { "an" };
            out.push(finding(
                "grammar-cue",
                Severity::Error,
                format!(
                    "the prompt ends in \"{word}\", which fits the correct choice but not choice(s) {}: the article \
                     gives the answer away; end the prompt before the article (\"…is:\") or write \"a(n)\"",
                    misfits.iter().map(|id| format!("`{id}`")).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    if let Some(number) = stem_number(prompt)
        && option_number(options[key].1) == Some(number)
    {
        let misfits: Vec<&str> = options
            .iter()
            .enumerate()
            .filter(|(i, (_, t))| *i != key && option_number(t).is_some_and(|n| n != number))
            .map(|(_, (id, _))| *id)
            .collect();
        if !misfits.is_empty() {
            let (verb, fits) = if number == Number::Singular { ("is", "singular") } else { ("are", "plural") };
            out.push(finding(
                "grammar-cue",
                Severity::Warning,
                format!(
                    "the prompt asks \"which … {verb}\", which agrees with the correct choice ({fits}) but not with \
                     choice(s) {}: the verb gives the answer away; make every choice agree with the prompt, or \
                     ask without the verb's number (\"Which choice describes …\")",
                    misfits.iter().map(|id| format!("`{id}`")).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
}

// ------------------------------------------------------------------ short distractors

fn short_distractors(options: &[(&str, &str)], key: usize, out: &mut Vec<Finding>) {
    let len = |t: &str| t.trim().chars().count();
    let mut lengths: Vec<usize> = options.iter().map(|(_, t)| len(t)).collect();
    lengths.sort_unstable();
    let median = if lengths.len() % 2 == 1 {
        lengths[lengths.len() / 2] as f64
    } else {
        (lengths[lengths.len() / 2 - 1] + lengths[lengths.len() / 2]) as f64 / 2.0
    };
    let key_len = len(options[key].1) as f64;
    let word_counts: Vec<usize> = options.iter().map(|(_, t)| lower_words(t).len()).collect();
    let short: Vec<&str> = options
        .iter()
        .enumerate()
        .filter(|(i, (_, t))| {
            let l = len(t) as f64;
            let by_ratio = l < SHORT_KEY_RATIO * key_len && l < SHORT_MEDIAN_RATIO * median;
            let lone_word =
                word_counts[*i] == 1 && word_counts.iter().enumerate().all(|(j, &c)| j == *i || c >= SENTENCE_WORDS);
            *i != key && !refers_to_options(t) && (by_ratio || lone_word)
        })
        .map(|(_, (id, _))| *id)
        .collect();
    if short.is_empty() {
        return;
    }
    out.push(finding(
        "short-distractor",
        Severity::Warning,
        format!(
            "distractor(s) {} are far shorter than the correct choice and the other options: a terse distractor \
             reads as filler and is struck without thought; write it with the same detail and form as the others",
            short.iter().map(|id| format!("`{id}`")).collect::<Vec<_>>().join(", ")
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_match_inflections() {
        assert_eq!(stem("retries"), stem("retry"));
        assert_eq!(stem("locks"), "lock");
        assert_eq!(stem("locked"), "lock");
        assert_eq!(stem("locking"), "lock");
        assert_eq!(stem("stopped"), "stop");
        assert_eq!(stem("caches"), stem("cache"));
        assert_eq!(stem("cached"), stem("cache"));
        assert_eq!(stem("matches"), stem("match"));
        assert_eq!(stem("released"), stem("release"));
        assert_eq!(stem("status"), "status");
    }

    #[test]
    fn articles_follow_the_sound() {
        assert_eq!(article_for("index"), Some(Article::An));
        assert_eq!(article_for("mutex"), Some(Article::A));
        assert_eq!(article_for("unique"), Some(Article::A));
        assert_eq!(article_for("hour"), Some(Article::An));
        assert_eq!(article_for("LRU"), None);
        assert_eq!(article_for("IEEE-754"), Some(Article::An));
        assert_eq!(article_for("OPTIONS"), Some(Article::An));
        assert_eq!(article_for("TCP"), Some(Article::A));
        assert_eq!(article_for("8-byte"), None);
    }

    #[test]
    fn words_keep_inner_apostrophes() {
        let w: Vec<String> = lower_words("It doesn’t (can't) 'quote'").into_iter().collect();
        assert_eq!(w, ["it", "doesn't", "can't", "quote"]);
    }
}
