//! Finding secrets: the prefilter, the windows, the per-rule matching and the choice between
//! overlapping candidates.
//!
//! One Aho-Corasick pass (overlapping matches, so `sk-ant-` is seen under `sk-` too) over
//! every rule's anchors and keywords, plus the marker prefix. Each anchor hit opens a window
//! for the rules that own it: `back` bytes before it to `fwd` bytes after it, clipped to its
//! line. Windows of one rule are merged and only they are matched, so text without any
//! anchor costs one automaton pass and nothing else. A rule's regex is compiled the first
//! time one of its anchors is seen (a component instance is fresh per call: a text with no
//! anchors compiles no regex at all).
//!
//! Not for: writing markers (`super`).

use std::sync::{LazyLock, OnceLock};

use aho_corasick::dfa::DFA;
use aho_corasick::{MatchKind, StartKind};
use regex_automata::meta::Regex;
use regex_automata::util::syntax;
use regex_automata::{Input, PatternID};

use super::after;
use super::anchors;
use super::checks;
use super::labels;
use super::marker;
use super::net;
use super::position;
use super::public;
use super::rules::{Gate, Matcher, Pre, RULES, Rule};
use super::sql;

/// A secret to replace: bytes `start..end` of the input (on char boundaries).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

struct Prefilter {
    /// Walked by `anchors::hits`.
    dfa: DFA,
    /// Per automaton pattern: the rules it opens windows for and the pre-check each needs
    /// (empty: the marker prefix).
    owners: Vec<Vec<(u16, Check)>>,
}

/// What a hit must pass before its rule's window is opened (`plausible`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// A literal anchor, `auth_header`'s keyword: nothing.
    None,
    /// `private_key`: the block is parsed by hand.
    PrivateKey,
    /// `cli_secret`'s keywords: a `--` before.
    Cli,
    /// Other keywords: a key name, an operator and a value.
    Generic,
    /// `prose_secret`'s keywords: a word on its own, then a space or punctuation.
    Prose,
    /// `base64_secret`: decoded by hand.
    Base64,
    /// Hand-parsed structures (`Matcher::Sibling`, `HeaderList`, `Ppk`): parsed at the hit.
    Hand,
    /// Round 6: a directive line's name (`position::directive_plausible`).
    Directive,
    /// Round 6: a JAAS option (`position::jaas_plausible`).
    Jaas,
    /// Round 6: a quoted literal after a name (`literal_plausible`).
    Literal,
    /// Round 7: a secret word in a comment closing a value's line (`after::trailing_plausible`).
    Trailing,
    /// `Pre::Userinfo`: `userinfo_plausible`.
    Userinfo,
    /// `Pre::Hex(n)`: `n` lowercase hex digits after the anchor.
    Hex(u8),
    /// Round 8: a short anchor that starts its token (`checks::left_boundary`).
    Boundary,
    /// Tenth round: a typed declaration (`position::typed_plausible`).
    Typed,
}

fn check_of(rule: &Rule) -> Check {
    match rule.pre {
        Pre::Directive => return Check::Directive,
        Pre::Jaas => return Check::Jaas,
        Pre::Literal => return Check::Literal,
        Pre::Trailing => return Check::Trailing,
        Pre::Userinfo => return Check::Userinfo,
        Pre::Hex(n) => return Check::Hex(n),
        Pre::Boundary => return Check::Boundary,
        Pre::Typed => return Check::Typed,
        _ => {}
    }
    if let Matcher::PrivateKey = rule.matcher {
        Check::PrivateKey
    } else if let Matcher::Base64 = rule.matcher {
        Check::Base64
    } else if matches!(
        rule.matcher,
        Matcher::Sibling
            | Matcher::HeaderList
            | Matcher::Ppk
            | Matcher::Block
            | Matcher::Vendor
            | Matcher::Pair
            | Matcher::K8sSecret
            | Matcher::LabelPair
            | Matcher::CommentAbove
            | Matcher::SqlInsert
    ) {
        Check::Hand
    } else if rule.kind == "prose_secret" && !rule.keywords.is_empty() {
        Check::Prose
    } else if rule.keywords.is_empty() || !rule.anchors.is_empty() || rule.kind == "auth_header" {
        Check::None
    } else if rule.kind == "cli_secret" {
        Check::Cli
    } else {
        Check::Generic
    }
}

fn case_variants(word: &str) -> [String; 3] {
    let mut cap = word.to_string();
    if let Some(first) = cap.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    [word.to_string(), cap, word.to_ascii_uppercase()]
}

static PREFILTER: LazyLock<Prefilter> = LazyLock::new(|| {
    let mut patterns: Vec<String> = vec![marker::PREFIX.to_string()];
    let mut owners: Vec<Vec<(u16, Check)>> = vec![Vec::new()];
    let mut add = |p: String, rule: usize| {
        let owner = (rule as u16, check_of(&RULES[rule]));
        match patterns.iter().position(|q| *q == p) {
            Some(i) => {
                if !owners[i].contains(&owner) {
                    owners[i].push(owner)
                }
            }
            None => {
                patterns.push(p);
                owners.push(vec![owner]);
            }
        }
    };
    for (i, r) in RULES.iter().enumerate() {
        for a in r.anchors {
            add((*a).to_string(), i);
        }
        for k in r.keywords {
            for v in case_variants(k) {
                add(v, i);
            }
        }
    }
    let dfa = DFA::builder()
        .match_kind(MatchKind::Standard)
        .start_kind(StartKind::Unanchored)
        .prefilter(false)
        .build(&patterns)
        .expect("the redaction anchors build an automaton");
    Prefilter { dfa, owners }
});

/// A rule's compiled regex and the indices of its `s` (secret) and `n` (name) groups.
struct Compiled {
    re: Regex,
    secret: Option<usize>,
    /// `s2`: the secret of a pattern's second alternative (a group name is used once).
    secret2: Option<usize>,
    name: Option<usize>,
}

static COMPILED: LazyLock<Vec<OnceLock<Option<Compiled>>>> =
    LazyLock::new(|| RULES.iter().map(|_| OnceLock::new()).collect());

fn compiled(rule: usize) -> Option<&'static Compiled> {
    COMPILED[rule]
        .get_or_init(|| {
            let Matcher::Regex(pattern) = RULES[rule].matcher else { return None };
            let re = Regex::builder()
                .syntax(syntax::Config::new().unicode(false).utf8(false))
                .configure(Regex::config().utf8_empty(false))
                .build(pattern)
                .unwrap_or_else(|e| panic!("redaction rule `{}` compiles: {e}", RULES[rule].kind));
            let index = |n: &str| re.group_info().to_index(PatternID::ZERO, n);
            let (secret, secret2, name) = (index("s"), index("s2"), index("n"));
            Some(Compiled { re, secret, secret2, name })
        })
        .as_ref()
}

/// Compile every rule (tests: a pattern that does not compile fails here, not in a user's text).
#[cfg(test)]
pub fn compile_all() {
    for i in 0..RULES.len() {
        let _ = compiled(i);
    }
}

struct Candidate {
    start: usize,
    end: usize,
    rule: usize,
}

/// The secrets of `text`, in order, not overlapping each other or an existing marker.
pub fn find(text: &str, allow: &[String]) -> Vec<Span> {
    find_at(text, allow, 0)
}

/// How deep base64 values are decoded and scanned again (`nested_base64`).
const MAX_BASE64_DEPTH: u8 = 3;

fn find_at(text: &str, allow: &[String], depth: u8) -> Vec<Span> {
    let bytes = text.as_bytes();
    let pf = &*PREFILTER;
    let mut windows: Vec<(u16, usize, usize)> = Vec::new();
    let mut markers: Vec<(usize, usize)> = Vec::new();
    let mut keys: Vec<usize> = Vec::new();
    let mut b64: Vec<(u16, usize)> = Vec::new();
    let mut hand: Vec<(u16, usize, usize)> = Vec::new();
    for m in anchors::hits(&pf.dfa, bytes) {
        let owners = &pf.owners[m.pattern()][..];
        if owners.is_empty() {
            if let Some(len) = marker::marker_len(&bytes[m.start()..]) {
                markers.push((m.start(), m.start() + len));
            }
            continue;
        }
        // The generic part of `plausible` is the same for every rule of this hit: once.
        let mut generic: Option<Option<Look>> = None;
        for &(r, check) in owners {
            let ok = match check {
                Check::PrivateKey => {
                    keys.push(m.start());
                    continue;
                }
                Check::Base64 => {
                    if depth < MAX_BASE64_DEPTH && b64.last().is_none_or(|&(_, at)| at != m.start()) {
                        b64.push((r, m.start()));
                    }
                    continue;
                }
                Check::Hand => {
                    hand.push((r, m.start(), m.end()));
                    continue;
                }
                Check::Prose => prose_plausible(bytes, m.start(), m.end()),
                Check::None => true,
                Check::Cli => cli_plausible(bytes, m.start()),
                // A name followed by an operator (the generic look found one) is an assignment.
                Check::Directive => {
                    !matches!(generic, Some(Some(_))) && position::directive_plausible(bytes, m.start(), m.end())
                }
                Check::Jaas => position::jaas_plausible(bytes, m.start()),
                Check::Literal => literal_plausible(bytes, m.end()),
                Check::Trailing => after::trailing_plausible(bytes, m.start()),
                Check::Userinfo => userinfo_plausible(bytes, m.end()),
                Check::Hex(n) => bytes
                    .get(m.end()..m.end() + n as usize)
                    .is_some_and(|run| run.iter().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'))),
                Check::Boundary => checks::left_boundary(bytes, m.start()),
                Check::Typed => position::typed_plausible(bytes, m.end()),
                Check::Generic => {
                    let look = *generic.get_or_insert_with(|| plausible(bytes, m.end()));
                    match (look, RULES[r as usize].pre) {
                        (None, _) => false,
                        (Some(l), Pre::Escaped) => l.op == Op::Assign && l.escaped,
                        (Some(l), Pre::XHeader) => l.op == Op::Assign && x_header_before(bytes, m.start()),
                        (Some(l), Pre::Auto) => l.op == Op::Assign,
                        (Some(l), Pre::Xml) => l.op == Op::Xml,
                        (Some(l), Pre::KeyValue) => l.op == Op::KeyValue,
                        // The pattern's literal is quoted.
                        (Some(l), Pre::Call) => l.op == Op::Call && l.quoted_value,
                        (Some(l), Pre::DashedName) => l.op == Op::Assign && dashed_name_before(bytes, m.start()),
                        (Some(l), Pre::Kwarg) => l.op == Op::Assign && kwarg_before(bytes, m.start()),
                        (
                            Some(_),
                            Pre::Directive
                            | Pre::Jaas
                            | Pre::Literal
                            | Pre::Trailing
                            | Pre::Userinfo
                            | Pre::Hex(_)
                            | Pre::Boundary
                            | Pre::Typed,
                        ) => false,
                    }
                }
            };
            if !ok {
                continue;
            }
            let rule = &RULES[r as usize];
            let (ws, we) = window(bytes, m.start(), m.end(), rule);
            windows.push((r, ws, we));
        }
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    for &k in &keys {
        if let Some((s, e)) = private_key(bytes, k) {
            candidates.push(Candidate { start: s, end: e, rule: 0 });
        }
    }
    for &(r, a, b) in &hand {
        let r = r as usize;
        match RULES[r].matcher {
            Matcher::Ppk => {
                if let Some((s, e)) = ppk(bytes, b) {
                    candidates.push(Candidate { start: s, end: e, rule: r });
                }
            }
            Matcher::Sibling => {
                if let Some((n, (s, e))) = sibling_value(bytes, a, b) {
                    let name = &bytes[n.0..n.1];
                    if secretish(name) {
                        consider(bytes, r, s, e, Some(name), &mut candidates);
                    } else {
                        // A session cookie's value (`{"name": "_shop_session", "value": …}`, a
                        // HAR's `cookies`): random values only (round 6).
                        consider_gated(bytes, r, s, e, Some(b"session_token"), Gate::Context, &mut candidates);
                    }
                }
            }
            Matcher::CommentAbove => {
                if let Some(((ns, ne), (s, e))) = labels::comment_above(bytes, a, b) {
                    consider(bytes, r, s, e, Some(&bytes[ns..ne]), &mut candidates);
                }
            }
            Matcher::LabelPair => {
                if let Some(((ns, ne), (s, e))) = labels::label_pair(bytes, a, b)
                    && secretish(&bytes[ns..ne])
                {
                    consider(bytes, r, s, e, Some(&bytes[ns..ne]), &mut candidates);
                }
            }
            Matcher::HeaderList => header_list(bytes, r, b, &mut candidates),
            Matcher::Block => block(bytes, r, a, b, &mut candidates),
            Matcher::Vendor => vendor(bytes, r, a, b, &mut candidates),
            Matcher::Pair => {
                if let Some((n, values)) = pair(bytes, a, b) {
                    for (i, (s, e)) in values.into_iter().flatten().enumerate() {
                        // A later element is a value only as one token (a list of words is
                        // not a password: `["token", "password", "api key"]`).
                        if i > 0 && bytes[s..e].iter().any(u8::is_ascii_whitespace) {
                            break;
                        }
                        let before = candidates.len();
                        consider(bytes, r, s, e, Some(&bytes[n.0..n.1]), &mut candidates);
                        if candidates.len() > before {
                            break;
                        }
                    }
                }
            }
            Matcher::K8sSecret => k8s_secret(bytes, r, a, &mut candidates),
            Matcher::SqlInsert => {
                for ((ns, ne), (s, e)) in sql::insert_values(bytes, b) {
                    if secretish(&bytes[ns..ne]) {
                        consider(bytes, r, s, e, Some(&bytes[ns..ne]), &mut candidates);
                    }
                }
            }
            _ => {}
        }
    }
    let mut decoded_until = 0usize;
    for &(r, at) in &b64 {
        if at < decoded_until {
            continue;
        }
        if let Some((s, e)) = nested_base64(bytes, at, allow, depth) {
            candidates.push(Candidate { start: s, end: e, rule: r as usize });
            decoded_until = e;
        }
    }
    windows.sort_unstable();
    let mut i = 0;
    while i < windows.len() {
        let (r, ws, mut we) = windows[i];
        let mut j = i + 1;
        while j < windows.len() && windows[j].0 == r && windows[j].1 <= we {
            we = we.max(windows[j].2);
            j += 1;
        }
        match_window(bytes, r as usize, ws, we, &mut candidates);
        i = j;
    }
    candidates.sort_unstable_by_key(|c| (c.start, c.rule));
    let mut spans = Vec::new();
    let mut last_end = 0usize;
    let mut mi = 0usize;
    for c in candidates {
        if c.start < last_end {
            continue;
        }
        while mi < markers.len() && markers[mi].1 <= c.start {
            mi += 1;
        }
        if markers[mi..].iter().take_while(|m| m.0 < c.end).any(|m| m.1 > c.start) {
            continue;
        }
        let secret = &text[c.start..c.end];
        if allow.iter().any(|a| !a.is_empty() && secret.contains(a.as_str())) {
            continue;
        }
        spans.push(Span { start: c.start, end: c.end, kind: RULES[c.rule].kind });
        last_end = c.end;
    }
    if depth == 0 {
        add_net(text, allow, &markers, &mut spans);
    }
    spans
}

/// The high-entropy net's runs (`net.rs`) that no rule's span or marker overlaps, added to
/// `spans` (kept in order).
fn add_net(text: &str, allow: &[String], markers: &[(usize, usize)], spans: &mut Vec<Span>) {
    let runs = net::find(text.as_bytes());
    if runs.is_empty() {
        return;
    }
    let overlaps = |list: &[(usize, usize)], s: usize, e: usize| {
        let i = list.partition_point(|m| m.1 <= s);
        list.get(i).is_some_and(|m| m.0 < e)
    };
    let taken: Vec<(usize, usize)> = spans.iter().map(|sp| (sp.start, sp.end)).collect();
    let mut added = false;
    for (s, e) in runs {
        if overlaps(&taken, s, e) || overlaps(markers, s, e) {
            continue;
        }
        let secret = &text[s..e];
        if allow.iter().any(|a| !a.is_empty() && secret.contains(a.as_str())) {
            continue;
        }
        spans.push(Span { start: s, end: e, kind: net::KIND });
        added = true;
    }
    if added {
        spans.sort_unstable_by_key(|sp| sp.start);
    }
}

/// `cli_secret`'s look at a keyword hit at `a`: a `--` in the 40 bytes before.
fn cli_plausible(bytes: &[u8], a: usize) -> bool {
    // By hand: a `memmem` finder costs more to build than 40 bytes take to scan.
    let lo = a.saturating_sub(40);
    bytes[lo..a].windows(2).any(|w| w == b"--")
}

/// `Pre::Literal`'s look at a keyword hit ending at `b`: the rest of the name, a closing
/// quote or none, blanks, `=`, `:`, `,` or `=>`, blanks, then an opening quote followed by at
/// least 24 bytes before the line ends.
fn literal_plausible(bytes: &[u8], b: usize) -> bool {
    let n = bytes.len();
    let mut p = b;
    while p < n && p - b < 24 && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b'_' | b'.' | b'-')) {
        p += 1;
    }
    if p < n && bytes[p] == b'\\' {
        p += 1;
    }
    if p < n && matches!(bytes[p], b'"' | b'\'') {
        p += 1;
    }
    while p < n && matches!(bytes[p], b' ' | b'\t') {
        p += 1;
    }
    match bytes.get(p) {
        Some(b'=') if bytes.get(p + 1) == Some(&b'>') => p += 2,
        Some(b'=' | b':' | b',') => p += 1,
        _ => return false,
    }
    while p < n && matches!(bytes[p], b' ' | b'\t') {
        p += 1;
    }
    if !matches!(bytes.get(p), Some(b'"' | b'\'')) {
        return false;
    }
    let end = n.min(p + 26);
    end - p == 26 && !bytes[p + 1..end].iter().any(|&c| c == b'\n' || c == bytes[p])
}

/// `prose_secret`'s look at a keyword hit `a..b`, by hand (secret words are frequent in
/// prose and code): the keyword is a word of its own (not `monkey`, not `api_key`, whose
/// assignment is another rule's), then, after at most four glue words (`is`, `was`, `for
/// <word>`, …) and punctuation, a word of 8+ characters with a digit, a capital after a
/// lowercase letter or a symbol — what the regex and `Gate::Context` could accept.
fn prose_plausible(bytes: &[u8], a: usize, b: usize) -> bool {
    if a > 0 && (bytes[a - 1].is_ascii_alphanumeric() || bytes[a - 1] == b'_') {
        return false;
    }
    let n = bytes.len().min(b + 140);
    let mut p = b;
    if bytes.get(p) == Some(&b's') {
        p += 1;
    }
    if !matches!(bytes.get(p), Some(b' ' | b'\t' | b':' | b'=' | b'`' | b'"' | b'\'' | b'-')) {
        return false;
    }
    // Tenth round: a hyphen glued to the word makes a compound (`password-reset`, a URL
    // path's `/password-reset?user=…`), not a name and its value; only the arrow `->` names —
    // and a random-looking token after the hyphen (`secret-<43 random characters>`, the shape
    // of several vendors' server keys), which no compound has.
    if bytes[p] == b'-'
        && bytes.get(p + 1) != Some(&b'>')
        && !checks::generated_run(
            &bytes[p + 1..p + 1 + bytes[p + 1..n].iter().take_while(|c| c.is_ascii_alphanumeric()).count()],
        )
    {
        return false;
    }
    let mut words = 0;
    let mut after_for = false;
    while p < n && words < 5 {
        while p < n && matches!(bytes[p], b' ' | b'\t' | b':' | b'=' | b'`' | b'"' | b'\'' | b'*' | b'>' | b'-') {
            if bytes[p] == b'-' && bytes.get(p + 1) != Some(&b'>') {
                break;
            }
            p += 1;
        }
        let start = p;
        while p < n && is_token_byte(bytes[p]) {
            p += 1;
        }
        let w = &bytes[start..p];
        if w.is_empty() {
            return false;
        }
        words += 1;
        if after_for {
            after_for = false;
            continue;
        }
        if matches!(
            w,
            b"is" | b"was" | b"are" | b"were" | b"of" | b"here" | b"now" | b"reads" | b"being" | b"to" | b"set"
        ) {
            continue;
        }
        if w == b"for" {
            after_for = true;
            continue;
        }
        let digit = w.iter().any(u8::is_ascii_digit);
        let symbol = w.iter().any(|c| !c.is_ascii_alphanumeric() && !matches!(c, b'-' | b'_' | b'.'));
        let camel = w.windows(2).any(|x| x[0].is_ascii_lowercase() && x[1].is_ascii_uppercase());
        return w.len() >= 8 && (digit || symbol || camel);
    }
    false
}

/// A byte of `prose_secret`'s token (`[A-Za-z0-9+/=_\-.~!@#$%^&*?]`).
fn is_token_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"+/=_-.~!@#$%^&*?".contains(&c)
}

/// Longest base64 run decoded (bytes of base64 text).
const MAX_BASE64: usize = 64 * 1024;

/// A base64 value starting at `a` (standard or URL-safe alphabet, padding optional) whose
/// decoded text holds a secret: the value's span. Not when it is part of a JWT (a `.` and
/// more base64 follow: the `jwt` rule's), shorter than 24 characters, or does not decode to
/// UTF-8 text.
fn nested_base64(bytes: &[u8], a: usize, allow: &[String], depth: u8) -> Option<(usize, usize)> {
    if !checks::left_boundary(bytes, a) {
        return None;
    }
    let limit = bytes.len().min(a + MAX_BASE64);
    let mut e = a;
    while e < limit && (bytes[e].is_ascii_alphanumeric() || matches!(bytes[e], b'+' | b'/' | b'-' | b'_')) {
        e += 1;
    }
    let body_end = e;
    while e < limit && e - body_end < 2 && bytes[e] == b'=' {
        e += 1;
    }
    if body_end - a < 24 || (bytes.get(e) == Some(&b'.') && bytes.get(e + 1).is_some_and(u8::is_ascii_alphanumeric)) {
        return None;
    }
    if e < bytes.len() && (bytes[e].is_ascii_alphanumeric() || bytes[e] == b'=') {
        return None;
    }
    let decoded = checks::decode_base64(&bytes[a..body_end])?;
    let text = std::str::from_utf8(&decoded).ok()?;
    if text.bytes().any(|c| c < 0x09 || (c > 0x0d && c < 0x20)) {
        return None;
    }
    let inner = find_at(text, allow, depth + 1);
    (!inner.is_empty()).then_some((a, e))
}

/// A cheap look at a keyword hit ending at `b` before any regex: the rest of a key name, an
/// assignment operator and a value of at least 4 characters that is not a number
/// (`"input_tokens": 1200` and `tokenizer.next()` stop here). Rules with literal anchors
/// and `auth_header` are not filtered; `cli_secret` has its own (`cli_plausible`).
fn plausible(bytes: &[u8], b: usize) -> Option<Look> {
    let n = bytes.len();
    let mut p = b;
    let name_end = (b + 48).min(n);
    while p < name_end && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b'_' | b'.' | b'-')) {
        p += 1;
    }
    let skip = |p: &mut usize, set: &[u8]| {
        while *p < n && set.contains(&bytes[*p]) {
            *p += 1;
        }
    };
    let before_quotes = p;
    skip(&mut p, b"\\\"']");
    let quoted = p > before_quotes;
    skip(&mut p, b" \t");
    let op = match bytes.get(p) {
        Some(b'=') => {
            p += if bytes.get(p + 1) == Some(&b'>') { 2 } else { 1 };
            Op::Assign
        }
        Some(b':') => {
            p += if bytes.get(p + 1) == Some(&b'=') { 2 } else { 1 };
            Op::Assign
        }
        // Tenth round: Make's `?=`/`+=`, R's `<-`.
        Some(b'?' | b'+') if bytes.get(p + 1) == Some(&b'=') => {
            p += 2;
            Op::Assign
        }
        Some(b'<') if !quoted && bytes.get(p + 1) == Some(&b'-') => {
            p += 2;
            Op::Assign
        }
        // An element's text: `<password>…` and (tenth round) `<entry key="password">…`.
        Some(b'>') => {
            p += 1;
            Op::Xml
        }
        Some(b'(') if !quoted => {
            p += 1;
            Op::Call
        }
        Some(b',') if quoted => {
            p += 1;
            Op::Call
        }
        Some(b'v') if quoted && bytes[p..].starts_with(b"value=") => {
            p += 6;
            Op::KeyValue
        }
        _ => return None,
    };
    skip(&mut p, b" \t");
    let opening = p;
    skip(&mut p, b"\\\"'");
    let quoted_value = bytes[opening..p].iter().any(|&c| c == b'"' || c == b'\'');
    let start = p;
    let mut digits = true;
    let mut escaped = false;
    // `ident` while the value is an identifier path (`lexer.next_token`), for the call test.
    let mut ident = bytes.get(p).is_some_and(u8::is_ascii_alphabetic);
    let mut code_marks = false;
    let mut upper_or_digit = false;
    let limit = n.min(start + 64);
    while p < limit {
        let c = bytes[p];
        // An escaped quote or backslash inside a quoted value (`"a\"b"`) is part of it.
        if c == b'\\' && p > start && matches!(bytes.get(p + 1), Some(b'"' | b'\\')) {
            digits = false;
            escaped = true;
            ident = false;
            p += 2;
            continue;
        }
        if c.is_ascii_whitespace()
            || matches!(
                c,
                b'"' | b'\''
                    | b'\\'
                    | b','
                    | b';'
                    | b'&'
                    | b'('
                    | b')'
                    | b'{'
                    | b'}'
                    | b'['
                    | b']'
                    | b'<'
                    | b'>'
                    | b'|'
                    | b'`'
            )
        {
            break;
        }
        digits &= c.is_ascii_digit();
        ident &= c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.');
        code_marks |= matches!(c, b'_' | b'.');
        upper_or_digit |= c.is_ascii_uppercase() || c.is_ascii_digit();
        p += 1;
    }
    if p - start < 4 || digits {
        return None;
    }
    // A call (`lexer.next_token()`, `getpass()`): code, not a value.
    if ident && bytes.get(p) == Some(&b'(') && (code_marks || !upper_or_digit) {
        return None;
    }
    Some(Look { escaped, op, quoted_value })
}

/// What `plausible` saw of a value.
#[derive(Clone, Copy)]
struct Look {
    /// An escaped quote or backslash inside it (the `Pre::Escaped` rules run only then).
    escaped: bool,
    /// What joined the name to the value.
    op: Op,
    /// The value opens with a quote (a call's literal argument: `Pre::Call`).
    quoted_value: bool,
}

/// How a value follows its name: `=`/`:` (assignments, headers), `>` (an XML element),
/// `(` or `", "` (a call's literal argument), ` value=` (a key/value attribute pair).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Assign,
    Xml,
    Call,
    KeyValue,
}

/// An `X-` header name ends at the keyword hit at `a` (`X-Postmark-Server-Token`).
fn x_header_before(bytes: &[u8], a: usize) -> bool {
    let lo = a.saturating_sub(64);
    let mut p = a;
    while p > lo && (bytes[p - 1].is_ascii_alphanumeric() || bytes[p - 1] == b'-') {
        p -= 1;
    }
    bytes.len() > p + 2 && matches!(&bytes[p..p + 2], b"x-" | b"X-")
}

/// `Pre::DashedName`: the name ending at the keyword hit at `a` holds a `-` (`x-api-key`,
/// `private-token`, `ocp-apim-subscription-key`).
fn dashed_name_before(bytes: &[u8], a: usize) -> bool {
    let lo = a.saturating_sub(64);
    let mut p = a;
    while p > lo && (bytes[p - 1].is_ascii_alphanumeric() || bytes[p - 1] == b'-') {
        p -= 1;
        if bytes[p] == b'-' {
            return true;
        }
    }
    false
}

/// `Pre::Userinfo`: after a `://` ending at `b`, the URL's user information, `name:secret@`,
/// before its first `/`, blank, quote, `<`, `>` or backslash (the pattern's own classes; 385
/// bytes at most: a name of 128, `:`, a secret of 256).
fn userinfo_plausible(bytes: &[u8], b: usize) -> bool {
    let end = bytes.len().min(b + 386);
    let mut colon = false;
    for &c in &bytes[b..end] {
        match c {
            b'@' => return colon,
            b':' => colon = true,
            b'/' | b'"' | b'\'' | b'<' | b'>' | b'\\' => return false,
            c if c.is_ascii_whitespace() => return false,
            _ => {}
        }
    }
    false
}

/// A call's keyword argument: the name ending at the keyword hit at `a` starts right after
/// `(` or `,` (spaces between).
fn kwarg_before(bytes: &[u8], a: usize) -> bool {
    let lo = a.saturating_sub(64);
    let mut p = a;
    while p > lo && (bytes[p - 1].is_ascii_alphanumeric() || bytes[p - 1] == b'_') {
        p -= 1;
    }
    while p > lo && matches!(bytes[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    p > 0 && matches!(bytes[p - 1], b'(' | b',')
}

/// Vendors' key headers whose names say neither key nor token, read as `api-key`.
const VENDOR_KEY_HEADERS: &[&str] = &["x-honeycomb-team"];

/// A name a sibling value or a header pair could be secret by: a secret word in it, or a
/// vendor's key header (the gate then reads its words).
fn secretish(name: &[u8]) -> bool {
    // One pass by bytes, no allocation (tenth round: it runs at every structural anchor, and
    // ten more words made a search per word cost more than the rest of the look).
    let at = |i: usize, w: &[u8]| name.len() >= i + w.len() && name[i..i + w.len()].eq_ignore_ascii_case(w);
    (0..name.len()).any(|i| match name[i] | 0x20 {
        // `pass` (and `passwort`, `passe`), `pwd`, tenth round: `pw` (`admin_pw`, `adminPw`).
        b'p' => at(i, b"pass") || at(i, b"pw"),
        b's' => at(i, b"secret") || at(i, b"seed") || at(i, b"senha") || at(i, b"salasana"),
        b't' => at(i, b"token"),
        b'k' => at(i, b"key") || at(i, b"kennwort"),
        b'c' => at(i, b"cred") || at(i, b"cookie") || at(i, b"contrasena"),
        b'a' => at(i, b"auth"),
        b'w' => at(i, b"wachtwoord"),
        b'h' => at(i, b"haslo") || at(i, b"heslo"),
        b'l' => at(i, b"losenord"),
        b'j' => at(i, b"jelszo"),
        _ => false,
    }) || VENDOR_KEY_HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h.as_bytes()))
}

/// A cookie's name that says it holds a session (round 6: a HAR's cookies, `{"name":
/// "_shop_session", "value": …}`): a word starting `sess`, or `sid`, `remember`, `jwt`.
fn sessionish(name: &[u8]) -> bool {
    // One pass by bytes, no allocation: this runs at every `"name"` of a transcript.
    let at = |i: usize, w: &[u8]| name.len() >= i + w.len() && name[i..i + w.len()].eq_ignore_ascii_case(w);
    let word_at = |i: usize, w: &[u8]| {
        at(i, w)
            && (i == 0 || !name[i - 1].is_ascii_alphabetic())
            && name.get(i + w.len()).is_none_or(|c| !c.is_ascii_alphabetic())
    };
    (0..name.len()).any(|i| match name[i] | 0x20 {
        b's' => at(i, b"sess") || word_at(i, b"sid"),
        b'r' => at(i, b"remember"),
        b'j' => word_at(i, b"jwt"),
        _ => false,
    })
}

/// Skip an optional backslash and a quote at `p`; whether one was there.
fn skip_quote(bytes: &[u8], p: &mut usize) -> bool {
    let q = if bytes.get(*p) == Some(&b'\\') { *p + 1 } else { *p };
    if matches!(bytes.get(q), Some(b'"' | b'\'')) {
        *p = q + 1;
        true
    } else {
        false
    }
}

fn skip_spaces(bytes: &[u8], p: &mut usize) {
    while matches!(bytes.get(*p), Some(b' ' | b'\t')) {
        *p += 1;
    }
}

/// A quoted string's body starting at `p` (after its opening quote; `escaped`: the quotes are
/// `\"`): its end, on the same line, at most `max` bytes.
fn quoted_end(bytes: &[u8], p: usize, escaped: bool, max: usize) -> Option<usize> {
    let limit = bytes.len().min(p + max);
    let mut q = p;
    while q < limit {
        match bytes[q] {
            b'\n' | b'\r' => return None,
            b'\\' if escaped && bytes.get(q + 1) == Some(&b'"') => return Some(q),
            b'\\' => q += 2,
            b'"' if !escaped => return Some(q),
            _ => q += 1,
        }
    }
    None
}

/// `Matcher::Sibling` at an anchor `a..b` (`"key"`, `"name"`, `"type"`, `- name: `): the
/// name it gives and the span of its sibling value, when the name could be secret.
/// JSON: `"key": "<name>"` then, before any `{`, `}` or other `"key"`/`"name"`, `"value":
/// "<v>"`; a tfstate `"type": "<resource type>"` then, past `"attributes"` and before the next
/// `"type"`/`"mode"`, `"value"`/`"result"`/`"plaintext_value"`. YAML: `- name: <name>`, then
/// `value: <v>` on the next line.
type Range = (usize, usize);
fn sibling_value(bytes: &[u8], a: usize, b: usize) -> Option<(Range, Range)> {
    if &bytes[a..b] == b"\"value\"" {
        return output_value(bytes, a, b);
    }
    let yaml = bytes[a] == b'-';
    let escaped = !yaml && bytes[a] == b'\\';
    let word = if yaml { &b"name"[..] } else { &bytes[a + 1 + escaped as usize..b - 1 - escaped as usize] };
    let mut p = b;
    let (ns, ne) = if yaml {
        let quoted = skip_quote(bytes, &mut p);
        let s = p;
        while p < bytes.len() && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b'_' | b'-' | b'.')) {
            p += 1;
        }
        let e = p;
        if quoted {
            skip_quote(bytes, &mut p);
        }
        (s, e)
    } else {
        skip_spaces(bytes, &mut p);
        if bytes.get(p) != Some(&b':') {
            return None;
        }
        p += 1;
        skip_spaces(bytes, &mut p);
        if !skip_quote(bytes, &mut p) {
            return None;
        }
        let e = quoted_end(bytes, p, escaped, 96)?;
        let r = (p, e);
        p = e + 1 + escaped as usize;
        r
    };
    let (mut ns, mut ne) = (ns, ne);
    // Postman's API-key auth: `"apikey": [{"key": "value", "value": "<the key>"}, {"key":
    // "key", "value": "<header name>"}]` — the `value` entry of an `apikey` list is the key
    // (round 5); the name is taken from the list's `apikey`.
    if word == b"key" && &bytes[ns..ne] == b"value" {
        let lo = a.saturating_sub(600);
        if let Some(i) = memchr::memmem::rfind(&bytes[lo..a], b"apikey\"")
            .or_else(|| memchr::memmem::rfind(&bytes[lo..a], b"apikey\\\""))
        {
            let between = &bytes[lo + i..a];
            if !between.contains(&b']') {
                (ns, ne) = (lo + i, lo + i + 6);
            }
        }
    }
    let name = &bytes[ns..ne];
    if name.len() < 2
        || !name.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        || !(secretish(name) || sessionish(name))
    {
        return None;
    }
    if yaml {
        // The next line: `value: <v>`.
        let nl = memchr::memchr(b'\n', &bytes[p..bytes.len().min(p + 200)])? + p + 1;
        let mut q = nl;
        skip_spaces(bytes, &mut q);
        if !bytes[q..].starts_with(b"value:") {
            return None;
        }
        q += 6;
        skip_spaces(bytes, &mut q);
        let quote = match bytes.get(q) {
            Some(&c @ (b'"' | b'\'')) => {
                q += 1;
                Some(c)
            }
            _ => None,
        };
        let s = q;
        match quote {
            Some(c) => {
                while q < bytes.len() && !matches!(bytes[q], b'\n' | b'\r') && bytes[q] != c {
                    q += 1;
                }
                if bytes.get(q) != Some(&c) {
                    return None;
                }
            }
            None => {
                while q < bytes.len() && !matches!(bytes[q], b'\n' | b'\r' | b' ' | b'\t' | b'"' | b'\'') {
                    q += 1;
                }
            }
        }
        return Some(((ns, ne), strip_scheme(bytes, s, q)));
    }
    let tf = word == b"type";
    let limit = bytes.len().min(p + if tf { 2000 } else { 600 });
    let hay = &bytes[p..limit];
    // A resource whose type names a secret (`datadog_api_key`, `aws_iam_access_key`,
    // `random_password`, `*_token`, `*_secret`) keeps it in its `key`/`secret`/`password`/
    // `token` attribute too (round 5).
    let secret_type =
        tf && [&b"_api_key"[..], b"_access_key", b"_password", b"_token", b"_secret"].iter().any(|s| name.ends_with(s));
    let members: &[&[u8]] = if secret_type {
        &[b"\"value", b"\"result", b"\"plaintext_value", b"\"key", b"\"secret", b"\"password", b"\"token"]
    } else if tf {
        &[b"\"value", b"\"result", b"\"plaintext_value"]
    } else if word == b"ParameterKey" {
        // CloudFormation parameters: `{"ParameterKey": "DbPassword", "ParameterValue": "…"}`.
        &[b"\"ParameterValue"]
    } else {
        &[b"\"value"]
    };
    let (at, len) = members
        .iter()
        .filter_map(|m| memchr::memmem::find(hay, m).map(|i| (i, m.len())))
        .filter(|&(i, l)| matches!(hay.get(i + l), Some(b'"' | b'\\')))
        .min()?;
    let between = &hay[..at];
    let found = |w: &[u8]| memchr::memmem::find(between, w).is_some();
    if tf {
        if !found(b"attributes") || found(b"\"type") || found(b"\"mode") {
            return None;
        }
    } else if between.iter().any(|c| matches!(c, b'{' | b'}')) || found(b"\"key") || found(b"\"name") {
        return None;
    }
    let mut q = p + at + len;
    skip_quote(bytes, &mut q);
    skip_spaces(bytes, &mut q);
    if bytes.get(q) != Some(&b':') {
        return None;
    }
    q += 1;
    skip_spaces(bytes, &mut q);
    let esc = bytes.get(q) == Some(&b'\\');
    if !skip_quote(bytes, &mut q) {
        return None;
    }
    let e = quoted_end(bytes, q, esc, 4096)?;
    Some(((ns, ne), strip_scheme(bytes, q, e)))
}

/// A `"value"` member first in an object named by its key: a Terraform state output
/// `"db_password": {` then `"value": "…"` (same line or the next).
fn output_value(bytes: &[u8], a: usize, b: usize) -> Option<(Range, Range)> {
    let mut p = a;
    while p > 0 && bytes[p - 1].is_ascii_whitespace() && a - p < 64 {
        p -= 1;
    }
    if p == 0 || bytes[p - 1] != b'{' {
        return None;
    }
    p -= 1;
    while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    if p < 2 || bytes[p - 1] != b':' {
        return None;
    }
    p -= 1;
    while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
        p -= 1;
    }
    if p < 2 || bytes[p - 1] != b'"' {
        return None;
    }
    let ne = p - 1;
    let lo = ne.saturating_sub(96);
    let ns = memchr::memrchr(b'"', &bytes[lo..ne])? + lo + 1;
    let name = &bytes[ns..ne];
    if name.len() < 2
        || !name.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        || !secretish(name)
    {
        return None;
    }
    let mut q = b;
    skip_spaces(bytes, &mut q);
    if bytes.get(q) != Some(&b':') {
        return None;
    }
    q += 1;
    skip_spaces(bytes, &mut q);
    if bytes.get(q) != Some(&b'"') {
        return None;
    }
    let e = quoted_end(bytes, q + 1, false, 4096)?;
    Some(((ns, ne), (q + 1, e)))
}

/// A value's span without an auth scheme in front (`Bearer `, `Basic `, `Bearer%20`).
fn strip_scheme(bytes: &[u8], s: usize, e: usize) -> Range {
    let v = &bytes[s..e];
    for scheme in [&b"bearer"[..], b"basic", b"token", b"bot"] {
        if v.len() > scheme.len() + 1 && v[..scheme.len()].eq_ignore_ascii_case(scheme) {
            let rest = &v[scheme.len()..];
            if rest.starts_with(b" ") {
                return (s + scheme.len() + 1, e);
            }
            if rest.starts_with(b"%20") {
                return (s + scheme.len() + 3, e);
            }
        }
    }
    (s, e)
}

/// `Matcher::HeaderList` after a `headers` keyword ending at `b`: `[name chars]["']?\s*[:=]\s*["']?`
/// then `k=v` pairs joined by `,`; each pair named like a secret (or a vendor's key header) is
/// a candidate of rule `r`, gated with its name.
fn header_list(bytes: &[u8], r: usize, b: usize, out: &mut Vec<Candidate>) {
    let mut p = b;
    while p < bytes.len().min(b + 32) && (bytes[p].is_ascii_alphanumeric() || bytes[p] == b'_') {
        p += 1;
    }
    skip_quote(bytes, &mut p);
    skip_spaces(bytes, &mut p);
    if !matches!(bytes.get(p), Some(b'=' | b':')) {
        return;
    }
    p += 1;
    skip_spaces(bytes, &mut p);
    skip_quote(bytes, &mut p);
    for _ in 0..16 {
        let ns = p;
        while p < bytes.len() && p - ns < 64 && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b'_' | b'-')) {
            p += 1;
        }
        let ne = p;
        if ne - ns < 2 || bytes.get(p) != Some(&b'=') {
            return;
        }
        p += 1;
        let vs = p;
        while p < bytes.len()
            && p - vs < 1024
            && !matches!(bytes[p], b',' | b'"' | b'\'' | b'\\' | b' ' | b'\t' | b'\n' | b'\r' | b';' | b'&')
        {
            p += 1;
        }
        let name = &bytes[ns..ne];
        if secretish(name) {
            let lower = name.to_ascii_lowercase();
            let gate_name: &[u8] =
                if VENDOR_KEY_HEADERS.iter().any(|h| lower == h.as_bytes()) { b"api-key" } else { name };
            let (s, e) = strip_scheme(bytes, vs, p);
            if e > s {
                consider(bytes, r, s, e, Some(gate_name), out);
            }
        }
        if bytes.get(p) != Some(&b',') {
            return;
        }
        p += 1;
        skip_spaces(bytes, &mut p);
    }
}

/// `Matcher::Ppk` after `Private-Lines: ` ending at `b`: the count, then that many lines of
/// base64 (newlines or JSON `\n` escapes between them): their span.
fn ppk(bytes: &[u8], b: usize) -> Option<Range> {
    let digits = bytes[b..].iter().take(3).take_while(|c| c.is_ascii_digit()).count();
    let n: usize = std::str::from_utf8(&bytes[b..b + digits]).ok()?.parse().ok()?;
    if n == 0 || n > 128 {
        return None;
    }
    let mut p = b + digits;
    let mut start = None;
    let mut end = p;
    for _ in 0..n {
        // A line break: `\r\n`, `\n`, or an escaped `\n`.
        if bytes.get(p) == Some(&b'\r') {
            p += 1;
        }
        if bytes.get(p) == Some(&b'\n') {
            p += 1;
        } else if bytes.get(p) == Some(&b'\\') && bytes.get(p + 1) == Some(&b'n') {
            p += 2;
        } else {
            return None;
        }
        let s = p;
        while p < bytes.len() && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b'+' | b'/' | b'=')) {
            p += 1;
        }
        if p - s < 8 {
            return None;
        }
        start.get_or_insert(s);
        end = p;
    }
    Some((start?, end))
}

/// How many lines below a block's or label's name its value may be (`block`), and how many
/// lines above a vendor's token its secret word may be (`vendor`): a bounded look, never the
/// whole file.
const BLOCK_LINES: usize = 6;
/// Rows of a Markdown table read under a secret-named header cell.
const TABLE_ROWS: usize = 16;
/// Members of a block that hold the block's value: Terraform `variable`'s `default`, a
/// Terraform output's or a JSON/YAML object's `value`, a secrets manager's `secret`/
/// `secret_string`, `plaintext`.
const BLOCK_MEMBERS: &[&[u8]] = &[
    b"value",
    b"default",
    b"secret",
    b"secret_string",
    b"secret_value",
    b"plaintext",
    b"plaintext_value",
    b"initial_value",
];

/// The end of the line starting at `p` (a newline, or a JSON-escaped `\n`, or `limit`) and
/// where the next line starts.
fn line_end(bytes: &[u8], p: usize, limit: usize) -> (usize, usize) {
    let mut q = p;
    while q < limit {
        match bytes[q] {
            b'\n' => return (q, q + 1),
            b'\\' if bytes.get(q + 1) == Some(&b'n') => return (q, q + 2),
            b'\\' => q += 2,
            _ => q += 1,
        }
    }
    (limit.min(bytes.len()), limit.min(bytes.len()))
}

/// Skip a line's indentation and a viewer's line-number prefix (`    12→`, `12\u2192`, `12\t`)
/// from `p`; the indentation's width (spaces before the content).
fn skip_indent(bytes: &[u8], p: &mut usize, end: usize) -> usize {
    let start = *p;
    while *p < end && matches!(bytes[*p], b' ' | b'\t') {
        *p += 1;
    }
    let d = *p;
    let mut q = d;
    while q < end && bytes[q].is_ascii_digit() {
        q += 1;
    }
    if q > d {
        let rest = &bytes[q..end];
        let skip = if rest.starts_with("→".as_bytes()) {
            3
        } else if rest.starts_with(b"\\u2192") {
            6
        } else if rest.starts_with(b"\\t") {
            2
        } else if rest.starts_with(b"\t") {
            1
        } else {
            0
        };
        if skip > 0 {
            *p = q + skip;
            let s = *p;
            while *p < end && matches!(bytes[*p], b' ' | b'\t') {
                *p += 1;
            }
            return *p - s;
        }
    }
    d - start
}

/// What follows a block's or label's name at the end of its line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opens {
    /// `{` or `[` (HCL, JSON, a YAML flow or list): members below.
    Object,
    /// `:` alone (YAML mapping, a label in prose or Markdown, a block scalar `|`/`>`):
    /// members below, or the value alone on the next line.
    Label,
    /// A Markdown table header cell (`| token |`): its column below.
    Table,
    /// Tenth round: a CSV header cell (`id,api_token`): its column below.
    Csv,
    /// A secret word ending a line of prose, the sentence going on below ("the SMTP
    /// password" / "is `…`"): a glue word, then the value.
    Wrapped,
}

/// The start of the name around a keyword hit at `a` that ends at `ne`, when the name could be
/// a secret's (3+ bytes, a secret word in it).
fn secret_name_start(bytes: &[u8], a: usize, ne: usize) -> Option<usize> {
    let mut ns = a;
    while ns > a.saturating_sub(64) && checks::is_name_byte(bytes[ns - 1]) {
        ns -= 1;
    }
    let name = &bytes[ns..ne];
    (name.len() >= 3 && secretish(name)).then_some(ns)
}

/// `Matcher::Block` at a keyword hit `a..b`: the name around it must end its line opening
/// a block, a label or a table column (checked first, forward, a few bytes); then at most
/// `BLOCK_LINES` lines below are read for the value.
fn block(bytes: &[u8], r: usize, a: usize, b: usize, out: &mut Vec<Candidate>) {
    let n = bytes.len();
    let mut ne = b;
    while ne < n.min(b + 64) && checks::is_name_byte(bytes[ne]) {
        ne += 1;
    }
    // A list of secrets (round 6): every item, each gated by the name in the singular
    // (`api_keys` → `api_key`).
    let items = position::list_items(bytes, ne);
    if !items.is_empty() {
        let Some(ns) = secret_name_start(bytes, a, ne) else { return };
        let name = &bytes[ns..ne];
        let lower = name.to_ascii_lowercase();
        let plural =
            [&b"keys"[..], b"tokens", b"secrets", b"passwords", b"passphrases"].iter().any(|w| lower.ends_with(w));
        let singular = if plural { &name[..name.len() - 1] } else { name };
        for (s, e) in items {
            consider_gated(bytes, r, s, e, Some(singular), Gate::Assignment, out);
        }
        return;
    }
    // Round 8: a mapping under a plural secret name (`api_keys:` / `cohere: …`, `"tokens":
    // {"github": "…"}`): each leaf, gated by the name in the singular.
    let tail = &bytes[a.saturating_sub(64)..ne];
    let plural = |w: &[u8]| tail.len() >= w.len() && tail[tail.len() - w.len()..].eq_ignore_ascii_case(w);
    if [&b"keys"[..], b"tokens", b"secrets", b"passwords", b"credentials"].iter().any(|w| plural(w)) {
        let items = position::map_items(bytes, ne);
        if !items.is_empty() {
            let Some(ns) = secret_name_start(bytes, a, ne) else { return };
            let name = &bytes[ns..ne - 1];
            for ((ks, ke), (s, e)) in items {
                // A leaf named for itself is its own name's (`algoliaSearchKey`, `appId`: the
                // generic rules gate it); a leaf named for a service or a user (`cohere`,
                // `admin`) is the collection's.
                let key = &bytes[ks..ke];
                let w = checks::words(&String::from_utf8_lossy(key));
                let own = secretish(key)
                    || w.last().is_some_and(|l| {
                        matches!(
                            l.as_str(),
                            "id" | "ids"
                                | "url"
                                | "uri"
                                | "host"
                                | "user"
                                | "username"
                                | "name"
                                | "region"
                                | "email"
                                | "endpoint"
                                | "port"
                                | "account"
                                | "project"
                                | "org"
                        )
                    });
                if !own {
                    consider_gated(bytes, r, s, e, Some(name), Gate::Assignment, out);
                }
            }
            return;
        }
    }
    let mut p = ne;
    // Closing quotes (plain or escaped) and Markdown emphasis.
    while p < n.min(ne + 6) && matches!(bytes[p], b'"' | b'\'' | b'\\' | b'*' | b'`') {
        p += 1;
    }
    skip_spaces(bytes, &mut p);
    let opens = match bytes.get(p) {
        Some(b'{' | b'[') => {
            p += 1;
            Opens::Object
        }
        Some(b':' | b'=') => {
            p += 1;
            skip_spaces(bytes, &mut p);
            match bytes.get(p) {
                Some(b'{' | b'[') => {
                    p += 1;
                    Opens::Object
                }
                Some(b'|' | b'>') => {
                    p += 1;
                    if matches!(bytes.get(p), Some(b'-' | b'+')) {
                        p += 1;
                    }
                    Opens::Label
                }
                _ => {
                    while matches!(bytes.get(p), Some(b'*')) {
                        p += 1;
                    }
                    Opens::Label
                }
            }
        }
        Some(b'|') => Opens::Table,
        // Tenth round: a CSV header's cell (`id,api_token,…`, or its last: `…,api_token`).
        Some(b',') => Opens::Csv,
        _ if at_eol(bytes, p) && csv_last_cell(bytes, a) => Opens::Csv,
        // Round 8: a grid's last column (`… | api_key` ending its line).
        _ if at_eol(bytes, p) && last_cell(bytes, a) => Opens::Table,
        _ if at_eol(bytes, p) && p == ne => Opens::Wrapped,
        _ => match prose_label_end(bytes, ne) {
            Some(e) => {
                p = e;
                Opens::Label
            }
            None => return,
        },
    };
    if opens != Opens::Table && opens != Opens::Csv {
        skip_spaces(bytes, &mut p);
        if bytes.get(p) == Some(&b'\r') {
            p += 1;
        }
        if !at_eol(bytes, p) {
            match (opens, prose_label_end(bytes, ne)) {
                (Opens::Label, Some(e)) => p = e,
                _ => return,
            }
        }
    }
    let Some(ns) = secret_name_start(bytes, a, ne) else { return };
    let name = &bytes[ns..ne];
    // The header line's start and indentation.
    let lo = ns.saturating_sub(400);
    let mut ls = ns;
    while ls > lo && bytes[ls - 1] != b'\n' && !(bytes[ls - 1] == b'n' && ls >= 2 && bytes[ls - 2] == b'\\') {
        ls -= 1;
    }
    let mut q = ls;
    let indent = skip_indent(bytes, &mut q, ns);
    if opens == Opens::Table {
        table(bytes, r, ls, ns, ne, out);
        return;
    }
    if opens == Opens::Csv {
        csv(bytes, r, ls, ns, ne, out);
        return;
    }
    if opens == Opens::Wrapped {
        wrapped(bytes, r, ne, name, out);
        return;
    }
    let (_, mut next) = line_end(bytes, p, n);
    let mut first_content = true;
    let mut member_width: Option<usize> = None;
    for _ in 0..BLOCK_LINES {
        if next >= n {
            return;
        }
        let (le, after) = line_end(bytes, next, n.min(next + 600));
        let mut c = next;
        let width = skip_indent(bytes, &mut c, le);
        next = after;
        if c >= le || bytes[c] == b'\r' {
            continue;
        }
        if matches!(bytes[c], b'}' | b']' | b'{' | b'[') {
            return;
        }
        // Members of this block only: a deeper line is a nested block's (skipped), a line
        // opening one ends the look (its `value` is another object's).
        let level = *member_width.get_or_insert(width);
        let mut t = le;
        while t > c && matches!(bytes[t - 1], b' ' | b'\t' | b'\r' | b',') {
            t -= 1;
        }
        if t > c && matches!(bytes[t - 1], b'{' | b'[') {
            return;
        }
        if width > level {
            continue;
        }
        if let Some((s, e)) = member_value(bytes, c, le) {
            consider_gated(bytes, r, s, e, Some(name), Gate::Assignment, out);
            return;
        }
        if opens == Opens::Label && first_content {
            // The value alone on the next line (a list marker or Markdown quote before it).
            let mut v = c;
            if bytes[v..le].starts_with(b"- ") || bytes[v..le].starts_with(b"> ") {
                v += 2;
            }
            let mut ve = le;
            while ve > v && matches!(bytes[ve - 1], b' ' | b'\t' | b'\r') {
                ve -= 1;
            }
            let (vs, ve) = strip_wrapping(bytes, v, ve);
            if ve > vs && bytes[vs..ve].iter().all(|&c| is_token_byte(c)) {
                consider_gated(bytes, r, vs, ve, Some(name), Gate::Context, out);
                return;
            }
        }
        first_content = false;
        // A YAML mapping ends where the indentation comes back to the name's.
        if opens == Opens::Label && width <= indent {
            return;
        }
    }
}

/// `Opens::Wrapped`: the line after a secret word ending at `ne` opens with a glue word
/// (`is`, `was`, `:` …) and then the value (backticks or quotes around it allowed).
fn wrapped(bytes: &[u8], r: usize, ne: usize, name: &[u8], out: &mut Vec<Candidate>) {
    let n = bytes.len();
    let (_, next) = line_end(bytes, ne, n.min(ne + 4));
    let (le, _) = line_end(bytes, next, n.min(next + 300));
    let mut p = next;
    skip_indent(bytes, &mut p, le);
    let rest = &bytes[p..le];
    let glue: &[&[u8]] = &[b"is ", b"was ", b"are ", b"were ", b"reads ", b"now ", b": ", b"= ", b"set to "];
    let Some(g) = glue.iter().find(|g| rest.starts_with(g)) else { return };
    p += g.len();
    skip_spaces(bytes, &mut p);
    let mut e = p;
    while e < le && (is_token_byte(bytes[e]) || matches!(bytes[e], b'`' | b'"' | b'\'')) {
        e += 1;
    }
    while e > p && matches!(bytes[e - 1], b'.' | b',' | b';' | b'!' | b'?') {
        e -= 1;
    }
    let (s, e) = strip_wrapping(bytes, p, e);
    if e > s && bytes[s..e].iter().all(|&c| is_token_byte(c)) {
        consider_gated(bytes, r, s, e, Some(name), Gate::Context, out);
    }
}

/// A line ends at `p` (a newline, a JSON-escaped `\n`, the end of the text).
fn at_eol(bytes: &[u8], p: usize) -> bool {
    p == bytes.len() || bytes[p] == b'\n' || (bytes[p] == b'\\' && bytes.get(p + 1) == Some(&b'n'))
}

/// A prose label after a secret word ending at `ne`: a few words then `:` ending the line
/// ("token (revoked):", "password for the admin user:"), at most 48 bytes: where the line ends.
fn prose_label_end(bytes: &[u8], ne: usize) -> Option<usize> {
    let limit = bytes.len().min(ne + 48);
    let mut p = ne;
    while p < limit
        && (bytes[p].is_ascii_alphanumeric() || matches!(bytes[p], b' ' | b'(' | b')' | b'-' | b',' | b'\'' | b'/'))
    {
        p += 1;
    }
    if bytes.get(p) != Some(&b':') || p == ne || !bytes[ne..p].contains(&b' ') {
        return None;
    }
    p += 1;
    while p < bytes.len() && matches!(bytes[p], b'*' | b' ' | b'\t' | b'\r') {
        p += 1;
    }
    at_eol(bytes, p).then_some(p)
}

/// A value's span without the backticks, quotes or `**` around it.
fn strip_wrapping(bytes: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    for _ in 0..2 {
        if e >= s + 2 && matches!(bytes[s], b'`' | b'"' | b'\'' | b'*') && bytes[e - 1] == bytes[s] {
            s += 1;
            e -= 1;
        }
    }
    (s, e)
}

/// A block member holding the value at `c..le`: `value = "…"`, `"default": "…"`, `secret: …`
/// (plain or JSON-escaped quotes); the value's span.
fn member_value(bytes: &[u8], c: usize, le: usize) -> Option<Range> {
    let mut p = c;
    skip_quote(bytes, &mut p);
    let ms = p;
    while p < le && (bytes[p].is_ascii_alphanumeric() || bytes[p] == b'_') {
        p += 1;
    }
    let member = bytes[ms..p].to_ascii_lowercase();
    if !BLOCK_MEMBERS.contains(&member.as_slice()) {
        return None;
    }
    skip_quote(bytes, &mut p);
    skip_spaces(bytes, &mut p);
    if !matches!(bytes.get(p), Some(b'=' | b':')) || p >= le {
        return None;
    }
    p += 1;
    skip_spaces(bytes, &mut p);
    let esc = bytes.get(p) == Some(&b'\\');
    if skip_quote(bytes, &mut p) {
        let e = quoted_end(bytes, p, esc, 4096)?;
        return (e <= le).then(|| strip_scheme(bytes, p, e));
    }
    let s = p;
    while p < le && !matches!(bytes[p], b' ' | b'\t' | b'\r' | b',' | b';' | b'"' | b'\'' | b'\\' | b'}' | b']') {
        p += 1;
    }
    (p > s).then_some((s, p))
}

/// A Markdown table whose header cell at `ns..ne` (on the line starting at `ls`) names a
/// secret: after the `|---|` separator, the same column's cells of at most `TABLE_ROWS` rows;
/// round 8: a psql or MySQL grid's too (`----+----`, `+----+`).
fn table(bytes: &[u8], r: usize, ls: usize, ns: usize, ne: usize, out: &mut Vec<Candidate>) {
    let n = bytes.len();
    let column = bytes[ls..ns].iter().filter(|&&c| c == b'|').count();
    if column == 0 {
        return;
    }
    let name = &bytes[ns..ne];
    let (_, sep) = line_end(bytes, ne, n.min(ne + 600));
    let (se, mut next) = line_end(bytes, sep, n.min(sep + 600));
    let mut c = sep;
    skip_indent(bytes, &mut c, se);
    let row = &bytes[c..se];
    let markdown = row.starts_with(b"|") && row.iter().all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t' | b'\r'));
    // Round 8: a database client's grid (psql's `----+----`, MySQL's `+----+----+`), its rows
    // with or without a leading `|`.
    let grid = matches!(row.first(), Some(b'-' | b'+'))
        && row.contains(&b'+')
        && row.iter().all(|b| matches!(b, b'+' | b'-' | b' ' | b'\t' | b'\r'));
    if !markdown && !grid {
        return;
    }
    // Round 8: a column named like a secret (its last word) takes a UUID or hex token too,
    // as a named value does; a `key_id` or bare `key` column of hashes still does not.
    let gate = {
        let w = checks::words(&String::from_utf8_lossy(name));
        let last = w.last().map(String::as_str).unwrap_or("");
        if SECRET_LAST.contains(&last) || SECRET_SUFFIXES.iter().any(|s| last.ends_with(s)) {
            Gate::Named
        } else {
            Gate::Context
        }
    };
    for _ in 0..TABLE_ROWS {
        if next >= n {
            return;
        }
        let (le, after) = line_end(bytes, next, n.min(next + 2000));
        let mut c = next;
        skip_indent(bytes, &mut c, le);
        next = after;
        if bytes.get(c) != Some(&b'|') && !(grid && memchr::memchr(b'|', &bytes[c..le]).is_some()) {
            return;
        }
        let mut cells = memchr::memchr_iter(b'|', &bytes[c..le]).map(|i| c + i);
        let Some(open) = cells.nth(column - 1) else { continue };
        // A grid's last column has no closing `|` (round 8).
        let close = cells.next().unwrap_or(le);
        let (mut s, mut e) = (open + 1, close);
        while s < e && matches!(bytes[s], b' ' | b'\t') {
            s += 1;
        }
        while e > s && matches!(bytes[e - 1], b' ' | b'\t') {
            e -= 1;
        }
        let (s, e) = strip_wrapping(bytes, s, e);
        if e > s && bytes[s..e].iter().all(|&c| is_token_byte(c)) {
            consider_gated(bytes, r, s, e, Some(name), gate, out);
        }
    }
}

/// Tenth round: a name at `a` that is a CSV header's last cell: a `,` right before it (after
/// an optional quote).
fn csv_last_cell(bytes: &[u8], a: usize) -> bool {
    let mut p = a;
    while p > 0 && (checks::is_name_byte(bytes[p - 1])) && a - p < 64 {
        p -= 1;
    }
    if p > 0 && bytes[p - 1] == b'"' {
        p -= 1;
    }
    p > 0 && bytes[p - 1] == b','
}

/// A CSV header line's cells: plain names (letters, digits, `_ .-`, spaces, optional quotes).
fn csv_header(line: &[u8]) -> bool {
    line.contains(&b',')
        && line
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b',' | b'_' | b'.' | b'-' | b' ' | b'"' | b'\r'))
}

/// Tenth round: a CSV file whose header names a column like a secret (`id,user,api_token`): the
/// cell of that column in each row below with as many commas as the header (at most
/// `TABLE_ROWS`), gated as a table's column is.
fn csv(bytes: &[u8], r: usize, ls: usize, ns: usize, ne: usize, out: &mut Vec<Candidate>) {
    let n = bytes.len();
    let (le, mut next) = line_end(bytes, ne, n.min(ne + 600));
    let header = &bytes[ls..le];
    if !csv_header(header) {
        return;
    }
    let commas = header.iter().filter(|&&c| c == b',').count();
    let column = bytes[ls..ns].iter().filter(|&&c| c == b',').count();
    let name = &bytes[ns..ne];
    // Only a column named like a secret by its last word (`api_key_id` is an id's column).
    let w = checks::words(&String::from_utf8_lossy(name));
    let last = w.last().map(String::as_str).unwrap_or("");
    if !(SECRET_LAST.contains(&last) || SECRET_SUFFIXES.iter().any(|s| last.ends_with(s))) {
        return;
    }
    let gate = Gate::Named;
    for _ in 0..TABLE_ROWS {
        if next >= n {
            return;
        }
        let (re, after) = line_end(bytes, next, n.min(next + 2000));
        let row = &bytes[next..re];
        if row.iter().filter(|&&c| c == b',').count() != commas {
            return;
        }
        let mut cells = memchr::memchr_iter(b',', row).map(|i| next + i);
        let s = if column == 0 { next } else { cells.nth(column - 1).map_or(re, |c| c + 1) };
        let e = memchr::memchr(b',', &bytes[s..re]).map_or(re, |i| s + i);
        let e = if bytes.get(e.wrapping_sub(1)) == Some(&b'\r') { e - 1 } else { e };
        next = after;
        let (s, e) = strip_wrapping(bytes, s, e);
        if e > s && bytes[s..e].iter().all(|&c| is_token_byte(c)) {
            consider_gated(bytes, r, s, e, Some(name), gate, out);
        }
    }
}

/// A name at `a` that is a table's last cell: ` | ` between it and its line's start.
fn last_cell(bytes: &[u8], a: usize) -> bool {
    let ls = memchr::memrchr(b'\n', &bytes[a.saturating_sub(400)..a])
        .map_or(a.saturating_sub(400), |i| a.saturating_sub(400) + i + 1);
    memchr::memmem::find(&bytes[ls..a], b" | ").is_some()
}

/// Words of a vendor's sentence that name its secret.
const VENDOR_SECRET_WORDS: &[&[u8]] =
    &[b"token", b"key", b"secret", b"password", b"credential", b"pat", b"passphrase", b"apikey"];

/// `Matcher::Vendor` at a vendor's name `a..b`: on the rest of its line (at most 160 bytes,
/// 10 words), the first token-shaped word of 16+ characters; a secret word on the name's line
/// (before or after the value) or on at most `BLOCK_LINES` lines above; gated as context
/// with the name `<vendor> token`.
fn vendor(bytes: &[u8], r: usize, a: usize, b: usize, out: &mut Vec<Candidate>) {
    if (a > 0 && bytes[a - 1].is_ascii_alphanumeric()) || bytes.get(b).is_some_and(u8::is_ascii_alphanumeric) {
        return;
    }
    let n = bytes.len();
    let (first_le, first_next) = line_end(bytes, b, n.min(b + 160));
    let mut le = first_le;
    let mut wrapped = false;
    let mut p = b;
    let mut value = None;
    for _ in 0..20 {
        while p < le
            && matches!(bytes[p], b' ' | b'\t' | b'|' | b':' | b'=' | b'`' | b'"' | b'\'' | b'*' | b'(' | b',' | b'>')
        {
            p += 1;
        }
        // Round 5: the sentence may go on on the next line ("the one the runner had,\n<uuid>").
        if p == le && !wrapped && first_next > first_le && first_next < n {
            wrapped = true;
            p = first_next;
            le = line_end(bytes, p, n.min(p + 160)).0;
            continue;
        }
        let s = p;
        while p < le && is_token_byte(bytes[p]) {
            p += 1;
        }
        if p == s {
            return;
        }
        let mut e = p;
        while e > s && matches!(bytes[e - 1], b'.' | b',' | b'!' | b'?') {
            e -= 1;
        }
        if e - s >= 16 {
            if bytes[s].is_ascii_alphanumeric() && !matches!(bytes.get(p), Some(b'@' | b'/')) {
                value = Some((s, e));
            }
            break;
        }
    }
    let Some((s, e)) = value else { return };
    // A token has a digit; words joined by hyphens (`X-Honeycomb-Team`, a header's name) do not.
    if !bytes[s..e].iter().any(u8::is_ascii_digit) {
        return;
    }
    let lower = |range: &[u8]| range.to_ascii_lowercase();
    let has_word = |hay: &[u8]| {
        let hay = lower(hay);
        VENDOR_SECRET_WORDS.iter().any(|w| memchr::memmem::find(&hay, w).is_some())
    };
    // The name's line, then up to `BLOCK_LINES` lines above it (at most 800 bytes).
    let lo = a.saturating_sub(800);
    let mut ls = a;
    let mut lines = 0;
    while ls > lo {
        if bytes[ls - 1] == b'\n' || (bytes[ls - 1] == b'n' && ls >= 2 && bytes[ls - 2] == b'\\') {
            lines += 1;
            if lines > BLOCK_LINES {
                break;
            }
        }
        ls -= 1;
    }
    if !has_word(&bytes[b..s]) && !has_word(&bytes[ls..a]) && !has_word(&bytes[e..le]) {
        return;
    }
    let mut name = bytes[a..b].to_vec();
    name.extend_from_slice(b" token");
    // A secret word on the vendor's own line names the value (`SNYK_TOKEN` is …): a UUID or a
    // hex token is one then (round 5); a word lines above leaves the stricter gate.
    let gate =
        if has_word(&bytes[a..first_le.min(s)]) || has_word(&bytes[e..le]) { Gate::Named } else { Gate::Context };
    consider_gated(bytes, r, s, e, Some(&name), gate, out);
}

/// The window of `rule` around an anchor at `a..b`, clipped to the anchor's line.
fn window(bytes: &[u8], a: usize, b: usize, rule: &Rule) -> (usize, usize) {
    let lo = a.saturating_sub(rule.back as usize);
    let ws = match memchr::memrchr(b'\n', &bytes[lo..a]) {
        Some(i) => lo + i + 1,
        None => lo,
    };
    let hi = (b + rule.fwd as usize).min(bytes.len());
    let we = match memchr::memchr(b'\n', &bytes[b..hi]) {
        Some(i) => b + i,
        None => hi,
    };
    (ws, we)
}

fn match_window(bytes: &[u8], r: usize, ws: usize, we: usize, out: &mut Vec<Candidate>) {
    let Some(c) = compiled(r) else { return };
    let hay = &bytes[ws..we];
    if c.secret.is_none() && c.name.is_none() {
        for m in c.re.find_iter(Input::new(hay)) {
            consider(bytes, r, ws + m.start(), ws + m.end(), None, out);
        }
        return;
    }
    for caps in c.re.captures_iter(Input::new(hay)) {
        let Some(s) = c
            .secret
            .and_then(|i| caps.get_group(i))
            .or_else(|| c.secret2.and_then(|i| caps.get_group(i)))
            .or_else(|| caps.get_group(0))
        else {
            continue;
        };
        let name = c.name.and_then(|i| caps.get_group(i)).map(|n| &bytes[ws + n.start..ws + n.end]);
        consider(bytes, r, ws + s.start, ws + s.end, name, out);
    }
}

/// Check one candidate against its rule's boundaries and gate.
fn consider(bytes: &[u8], r: usize, start: usize, end: usize, name: Option<&[u8]>, out: &mut Vec<Candidate>) {
    consider_gated(bytes, r, start, end, name, RULES[r].gate, out)
}

/// `consider` with another gate than the rule's (a hand-parsed rule whose candidates differ:
/// a block's member is an assignment, a label's next line is context).
fn consider_gated(
    bytes: &[u8],
    r: usize,
    start: usize,
    end: usize,
    name: Option<&[u8]>,
    gate: Gate,
    out: &mut Vec<Candidate>,
) {
    let rule = &RULES[r];
    if rule.left && !checks::left_boundary(bytes, start) {
        return;
    }
    if rule.right && !checks::right_boundary(bytes, end) {
        return;
    }
    let Some((mut s, mut e)) = checks::off_escapes(bytes, start, end) else { return };
    // Spans end on char boundaries (patterns are ASCII, but negated classes take any byte).
    while s < e && (bytes[s] & 0xC0) == 0x80 {
        s += 1;
    }
    while e < bytes.len() && (bytes[e] & 0xC0) == 0x80 {
        e += 1;
    }
    if matches!(gate, Gate::Context | Gate::Named | Gate::Line) {
        // Prose: a sentence's closing punctuation is not part of the token.
        while e > s && matches!(bytes[e - 1], b'.' | b',' | b';' | b':' | b'!' | b'?' | b')') {
            e -= 1;
        }
    }
    if s >= e {
        return;
    }
    let Ok(secret) = std::str::from_utf8(&bytes[s..e]) else { return };
    let name = name.and_then(|n| std::str::from_utf8(n).ok());
    let ok = match gate {
        Gate::None => true,
        Gate::Token => !checks::token_placeholder(secret) && !checks::is_documented_example(secret),
        Gate::TokenMixed => {
            !checks::token_placeholder(secret)
                && !checks::is_documented_example(secret)
                && secret.bytes().any(|b| b.is_ascii_digit())
                && secret.bytes().any(|b| b.is_ascii_alphabetic())
        }
        Gate::Loose => loose(secret, name),
        Gate::Context => context(secret, name.unwrap_or("")),
        Gate::Named => named(secret, name.unwrap_or("")),
        Gate::Header => header(secret, name.unwrap_or("")),
        // A `.netrc` password is a credential whatever its shape (a legacy Heroku API key is a UUID).
        Gate::Assignment if rule.kind == "netrc_password" && checks::is_uuid(secret) => true,
        // A flag named like a secret takes any token-shaped value, a hex or UUID one too
        // (round 5: `--token <40 hex>` of an internal CLI).
        Gate::Assignment if rule.kind == "cli_secret" => flag(secret, name.unwrap_or("")),
        Gate::Assignment => assignment(secret, name.unwrap_or("")),
        Gate::Line => assignment(secret, name.unwrap_or("")),
        Gate::Password => password_position(secret, name),
        Gate::Structured => flag(secret, name.unwrap_or("")),
        Gate::Random => random_literal(secret, name.unwrap_or("")),
    };
    // A Supabase anon key is public by design (a JWT whose payload says `"role":"anon"`).
    let ok = ok && !(secret.starts_with("eyJ") && anon_jwt(secret));
    if ok {
        // Round 8: a long value its pattern's bound or its window cut (an AWS session token is
        // ~1 KB) runs on to its token's end: the rest would be stored. Only accepted
        // candidates get here, so the walk costs nothing on text without secrets.
        let mut e = e;
        if e - s >= LONG_VALUE {
            let limit = bytes.len().min(e + 65536);
            while e < limit
                && (bytes[e].is_ascii_alphanumeric() || matches!(bytes[e], b'+' | b'/' | b'=' | b'_' | b'-'))
            {
                e += 1;
            }
        }
        out.push(Candidate { start: s, end: e, rule: r });
    }
}

/// A value this long that a token character follows was cut by its pattern or window.
const LONG_VALUE: usize = 128;

/// A JWT whose payload claims `"role": "anon"` (Supabase's anon key: public by design,
/// supabase.com/docs "API keys"; its `service_role` key is a secret).
fn anon_jwt(v: &str) -> bool {
    let mut parts = v.split('.');
    let (Some(_), Some(payload)) = (parts.next(), parts.next()) else { return false };
    let Some(decoded) = checks::decode_base64(payload.trim_end_matches('=').as_bytes()) else { return false };
    let compact: Vec<u8> = decoded.into_iter().filter(|c| !c.is_ascii_whitespace()).collect();
    memchr::memmem::find(&compact, b"\"role\":\"anon\"").is_some()
}

/// `Gate::Password`: a value in a password's position (round 6) is gated as a `password`
/// assignment's; not the user name (`name`, when the rule captured it) again, and not a
/// port, a number or a port mapping (`-p 8080:80`).
fn password_position(v: &str, name: Option<&str>) -> bool {
    name != Some(v)
        && !v.bytes().all(|c| c.is_ascii_digit() || matches!(c, b':' | b'.' | b'-' | b'/'))
        && assignment(v, "password")
}

/// `Gate::Random`: a quoted literal under a secret's or a salt's name (round 6: frameworks'
/// generated salts and keys hold spaces and punctuation). The name: its last word (modifiers
/// dropped) `salt`, `pepper`, `key` or `secret`, no `public` word, not a non-secret key
/// (`cache_key`). The value: 24+ characters, not a placeholder, URL or path, three classes of
/// lower, upper, digit and punctuation, entropy ≥ 4.0 bits, few blanks and not prose (at
/// most one word of 3+ letters between blanks).
fn random_literal(v: &str, name: &str) -> bool {
    let mut w = checks::words(name);
    strip_modifiers(&mut w);
    let n = w.len();
    let Some(last) = w.last().map(String::as_str) else { return false };
    if !matches!(last, "salt" | "pepper" | "key" | "secret") || w.iter().any(|x| x == "public" || x == "pub") {
        return false;
    }
    if n >= 2 && last == "key" && checks::NOT_SECRET_BEFORE.contains(&w[n - 2].as_str()) && w[n - 2] != "auth" {
        return false;
    }
    let b = v.as_bytes();
    if b.len() < 24
        || checks::is_placeholder_generated(v)
        || public::is_public(v)
        || public::is_public_name(&w)
        || v.contains("://")
        || v.starts_with('/')
        || v.contains("{{")
    {
        return false;
    }
    let classes = [
        b.iter().any(u8::is_ascii_lowercase),
        b.iter().any(u8::is_ascii_uppercase),
        b.iter().any(u8::is_ascii_digit),
        b.iter().any(|c| c.is_ascii_punctuation()),
    ]
    .iter()
    .filter(|&&x| x)
    .count();
    let blanks = b.iter().filter(|&&c| c == b' ').count();
    let words = v.split(' ').filter(|t| t.len() >= 3 && t.bytes().all(|c| c.is_ascii_alphabetic())).count();
    classes >= 3 && blanks * 8 <= b.len() && words <= 1 && checks::shannon_entropy(v) >= 4.0
}

/// A password in a URL, a connection string or a command line, or a header value.
fn loose(v: &str, name: Option<&str>) -> bool {
    v.len() >= 3
        && name != Some(v)
        && !v.bytes().all(|b| b.is_ascii_digit())
        && !checks::is_placeholder(v)
        // Round 8: a verifier or a ciphertext (`PASSWORD 'SCRAM-SHA-256$…'` in a dump).
        && !public::is_sealed(v)
        && !["pass", "pwd", "user", "username", "root", "admin", "guest", "none", "null", "test"]
            .contains(&v.to_ascii_lowercase().as_str())
}

/// A token found by its context: the word before the secret word (if any) does not make it
/// a non-secret (`public key`, `cache key`), the value is not a placeholder, code, id, path,
/// digest, UUID, public value or a hex string of a hash's length; passwords need letters with
/// digits or symbols (8+), other tokens must look random (16+, entropy ≥ 3.3).
fn context(v: &str, name: &str) -> bool {
    let w = checks::words(name);
    let last = w.last().map(String::as_str).unwrap_or("");
    if w.len() >= 2
        && (checks::NOT_SECRET_BEFORE.contains(&w[w.len() - 2].as_str())
            || CONTEXT_NOT_BEFORE.contains(&w[w.len() - 2].as_str()))
    {
        return false;
    }
    if checks::is_not_a_value(v)
        || checks::is_placeholder(v)
        || public::is_public(v)
        || checks::is_uuid(v)
        || checks::is_dossier_id(v)
        || checks::is_documented_example(v)
    {
        return false;
    }
    let b = v.as_bytes();
    let hex = b.iter().all(u8::is_ascii_hexdigit);
    if hex && (b.len() <= 16 || matches!(b.len(), 40 | 56 | 64 | 96 | 128)) {
        return false;
    }
    if PASSWORD_WORDS.contains(&last.trim_end_matches('s')) {
        let letters = b.iter().any(u8::is_ascii_alphabetic);
        let digit = b.iter().any(u8::is_ascii_digit);
        let mixed = b.iter().any(u8::is_ascii_uppercase) && b.iter().any(u8::is_ascii_lowercase);
        let symbol = b.iter().any(|c| !c.is_ascii_alphanumeric() && !matches!(c, b'-' | b'_' | b'.'));
        // Words joined by hyphens (`required-for-login`) are prose, not a password.
        return b.len() >= 8
            && letters
            && (digit || symbol || (mixed && b.iter().any(|c| !c.is_ascii_alphabetic())))
            && checks::shannon_entropy(v) >= 2.5
            && !checks::repeated(v);
    }
    b.len() >= 16 && checks::random_looking(v) && checks::shannon_entropy(v) >= 3.3
}

/// `Gate::Named`: a value right after a secret word and `is`/`was`/`:`/`=` in prose. As
/// `context`, except that a UUID or a hex string of 24+ (a legacy CircleCI token, a Snyk
/// token) is a secret here: the sentence names it one (round 5, recall first).
fn named(v: &str, name: &str) -> bool {
    if context(v, name) {
        return true;
    }
    let w = checks::words(name);
    let last = w.last().map(String::as_str).unwrap_or("");
    if PASSWORD_WORDS.contains(&last.trim_end_matches('s')) || last == "pw" {
        return context(v, "password");
    }
    if w.len() >= 2
        && (checks::NOT_SECRET_BEFORE.contains(&w[w.len() - 2].as_str())
            || CONTEXT_NOT_BEFORE.contains(&w[w.len() - 2].as_str()))
    {
        return false;
    }
    // A bare `key: <sha>`/`key="<sha>"` is a cache key or a content hash; a qualified name
    // ("circle token was", "snyk token:") names a credential.
    if w.len() < 2 || checks::is_placeholder(v) || checks::is_documented_example(v) || checks::repeated(v) {
        return false;
    }
    let b = v.as_bytes();
    let hex = b.len() >= 24 && b.iter().all(u8::is_ascii_hexdigit) && b.iter().any(u8::is_ascii_digit);
    hex || checks::is_uuid(v)
}

/// Words before a secret word in prose that name something public or an identifier.
const CONTEXT_NOT_BEFORE: &[&str] = &["ssh", "gpg", "pgp", "request", "trace", "correlation"];

/// A header value: the header is not a non-secret key (`X-Idempotency-Key`), then `loose`,
/// at least 8 characters.
fn header(v: &str, name: &str) -> bool {
    let w = checks::words(name);
    if w.len() >= 2
        && (checks::NOT_SECRET_BEFORE.contains(&w[w.len() - 2].as_str())
            || ["request", "correlation", "trace", "ratelimit", "rate", "idempotency", "dedup", "client"]
                .contains(&w[w.len() - 2].as_str()))
    {
        return false;
    }
    // A switch spelled in words (`X-Atlassian-Token: no-check`) is not a secret.
    let words_only =
        v.contains('-') && v.split('-').all(|p| p.len() <= 12 && p.bytes().all(|c| c.is_ascii_lowercase()));
    v.len() >= 8 && !words_only && loose(v, Some(name)) && !public::is_public(v) && !checks::is_documented_example(v)
}

const PASSWORD_WORDS: &[&str] = &[
    "pass",
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "requirepass",
    "masterauth",
    "sshpass",
    "pw",
    // Tenth round: "password" in the languages config keys are written in (`db_kennwort`,
    // `senha`, `mot_de_passe`'s `passe`, `contrasena`, `wachtwoord`, `haslo`, `heslo`,
    // `salasana`, `losenord`, `jelszo`).
    "passwort",
    "kennwort",
    "passe",
    "senha",
    "contrasena",
    "wachtwoord",
    "haslo",
    "heslo",
    "salasana",
    "losenord",
    "jelszo",
];
const SECRET_LAST: &[&str] = &[
    "pw",
    "pass",
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "key",
    "apikey",
    "credential",
    "credentials",
    "cred",
    "creds",
    "pat",
    "auth",
    "requirepass",
    "masterauth",
    "sshpass",
    "authorization",
    "cookie",
    // Round 7: peppers and HMAC keys are secrets of the same kind (not salts: public).
    "pepper",
    "hmac",
    // Tenth round: "password" in other languages (see `PASSWORD_WORDS`), a wallet's or a
    // TOTP's seed.
    "passwort",
    "kennwort",
    "passe",
    "senha",
    "contrasena",
    "wachtwoord",
    "haslo",
    "heslo",
    "salasana",
    "losenord",
    "jelszo",
    "seed",
];
const SECRET_SUFFIXES: &[&str] =
    &["password", "passwd", "secret", "apikey", "secretkey", "accesskey", "privatekey", "token"];

/// Drop the words after a name's secret word that say which copy or encoding it is, not
/// what it is (one notion of a secret-bearing name for every syntax): `SECRET_KEY_BASE`,
/// `API_TOKEN_VALUE`, `ses_smtp_password_v4`, `db_password_old`, `token2`'s `2`, at most 3.
pub(super) fn strip_modifiers(w: &mut Vec<String>) {
    for _ in 0..3 {
        if w.len() < 2 {
            return;
        }
        let last = w[w.len() - 1].as_str();
        let version = last.len() <= 4
            && (last.bytes().all(|c| c.is_ascii_digit())
                || (last.starts_with('v') && last.len() >= 2 && last[1..].bytes().all(|c| c.is_ascii_digit())));
        let modifier = matches!(
            last,
            "base"
                | "value"
                | "string"
                | "str"
                | "b64"
                | "base64"
                | "hex"
                | "raw"
                | "old"
                | "new"
                | "prev"
                | "previous"
                | "current"
                | "primary"
                | "secondary"
                | "backup"
                | "legacy"
                | "plain"
                | "plaintext"
                | "enc"
                | "encoded"
        );
        if !(version || modifier) {
            return;
        }
        w.pop();
    }
}

/// The gate of generic assignments and command-line flags.
fn assignment(v: &str, name: &str) -> bool {
    // Both pure: the cheaper first (code like `lexer.next_token` is most of what gets here).
    if checks::is_not_a_value(v)
        || checks::is_placeholder(v)
        || public::is_public(v)
        || checks::is_documented_example(v)
    {
        return false;
    }
    let mut w = checks::words(name);
    strip_modifiers(&mut w);
    if public::is_public_name(&w) {
        return false;
    }
    // An id is not a secret (a key's id is the public `kid` of every token it signs), except
    // Vault's AppRole `secret_id` and a service account's `private_key_id`: the two held-out
    // authors who met it disagreed, and it always sits beside the private key itself, so the
    // rules lean to recall (a false alarm there costs nothing; a miss would be a stored value).
    if w.last().is_some_and(|l| l == "id") {
        let n = w.len();
        let secret_id = n >= 2 && w[n - 2] == "secret" && (n == 2 || matches!(w[n - 3].as_str(), "vault" | "approle"));
        let secret_id = secret_id || (n >= 3 && w[n - 2] == "key" && w[n - 3] == "private");
        if !secret_id {
            return false;
        }
        w.pop();
    }
    let Some(last) = w.last() else { return false };
    let last = last.as_str();
    if !SECRET_LAST.contains(&last) && !SECRET_SUFFIXES.iter().any(|s| last.ends_with(s)) {
        return false;
    }
    if w.len() >= 2
        && matches!(last, "key" | "token" | "auth")
        && checks::NOT_SECRET_BEFORE.contains(&w[w.len() - 2].as_str())
    {
        return false;
    }
    let b = v.as_bytes();
    let password = PASSWORD_WORDS.contains(&last) || last.ends_with("password") || last.ends_with("passwd");
    // Words joined by `-`, `_` or `.` (`X-Api-Key`, a header's name beside `API_KEY` in a
    // tuple: round 6) are a name, not a key's value; a password may be words.
    if !password
        && v.contains(['-', '_', '.'])
        && v.split(['-', '_', '.']).all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_alphabetic()))
    {
        return false;
    }
    if password {
        let classes = [
            b.iter().any(u8::is_ascii_lowercase),
            b.iter().any(u8::is_ascii_uppercase),
            b.iter().any(u8::is_ascii_digit),
            b.iter().any(|c| !c.is_ascii_alphanumeric()),
        ]
        .iter()
        .filter(|&&x| x)
        .count();
        return b.len() >= 6 && classes >= 2 && checks::shannon_entropy(v) >= 2.3 && !checks::is_uuid(v);
    }
    // An HMAC's algorithm (`hmac: HmacSHA256`, `hmac = sha512`) is not its key.
    if last == "hmac" && b.len() <= 16 {
        let lower = v.to_ascii_lowercase();
        if ["sha", "md5", "hs2", "hs3", "hs5"].iter().any(|a| lower.contains(a)) {
            return false;
        }
    }
    if w.len() == 1 && matches!(last, "key" | "token") {
        // A bare `key:`/`token:` holding a commit or content hash is not a secret.
        let hex = b.iter().all(u8::is_ascii_hexdigit);
        if hex && (b.len() == 40 || b.len() == 64) {
            return false;
        }
    }
    if w.len() == 1 && matches!(last, "key" | "auth") {
        return b.len() >= 16 && checks::random_looking(v) && checks::shannon_entropy(v) >= 3.5;
    }
    checks::random_looking(v) || (checks::is_uuid(v) && w.len() >= 2)
}

/// The gate of a command-line flag named like a secret (`--token`, `--db-password`,
/// `--api-key`): the assignment's gate, or a hex string of 16+ or a UUID (a flag's value is
/// never a commit by its name: recall first, round 5).
fn flag(v: &str, name: &str) -> bool {
    if assignment(v, name) {
        return true;
    }
    let mut w = checks::words(name);
    strip_modifiers(&mut w);
    let Some(last) = w.last() else { return false };
    if !SECRET_LAST.contains(&last.as_str()) && !SECRET_SUFFIXES.iter().any(|s| last.ends_with(s)) {
        return false;
    }
    if w.len() >= 2 && checks::NOT_SECRET_BEFORE.contains(&w[w.len() - 2].as_str()) {
        return false;
    }
    let b = v.as_bytes();
    let hex = b.len() >= 16 && b.iter().all(u8::is_ascii_hexdigit) && b.iter().any(u8::is_ascii_digit);
    (hex || checks::is_uuid(v)) && !checks::is_placeholder(v) && !checks::repeated(v)
}

/// A private key block starting at `a` (`-----BEGIN `): to its `-----END …-----` line, or,
/// unterminated, over the lines (or JSON-escaped lines) that look like key material.
fn private_key(bytes: &[u8], a: usize) -> Option<(usize, usize)> {
    let head = &bytes[a + 11..bytes.len().min(a + 11 + 48)];
    let close = memchr::memmem::find(head, b"-----")?;
    let label = &head[..close];
    if !label.iter().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b' ')
        || !(label.ends_with(b"PRIVATE KEY") || label.ends_with(b"PRIVATE KEY BLOCK"))
    {
        return None;
    }
    let body_start = a + 11 + close + 5;
    let limit = bytes.len().min(body_start + 64 * 1024);
    let body = &bytes[body_start..limit];
    let end_at = memchr::memmem::find(body, b"-----END ");
    let next_begin = memchr::memmem::find(body, b"-----BEGIN ");
    if let Some(e) = end_at
        && next_begin.is_none_or(|n| n > e)
    {
        let tail = &body[e + 9..];
        let close = memchr::memmem::find(&tail[..tail.len().min(48)], b"-----")?;
        let material = body[..e].iter().filter(|c| c.is_ascii_alphanumeric() || **c == b'+' || **c == b'/').count();
        if material < 20 {
            return None;
        }
        return Some((a, body_start + e + 9 + close + 5));
    }
    // Unterminated: take the following lines while they look like key material.
    let mut p = 0usize;
    let mut end = None;
    loop {
        // Separators: newlines, spaces, JSON escapes of newlines.
        loop {
            match body.get(p) {
                Some(b'\n' | b'\r' | b' ' | b'\t') => p += 1,
                Some(b'\\') => {
                    let run = body[p..].iter().take_while(|&&c| c == b'\\').count();
                    if matches!(body.get(p + run), Some(b'n' | b'r' | b't')) {
                        p += run + 1;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        let seg_len =
            body[p..].iter().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')).count();
        let header = body[p..].iter().take_while(|c| c.is_ascii_alphabetic() || **c == b'-').count();
        if header > 0 && body.get(p + header) == Some(&b':') {
            // `Proc-Type: 4,ENCRYPTED`, `Comment: …`: to the end of the line.
            let n = body[p..].iter().take_while(|c| !matches!(c, b'\n' | b'\\' | b'"')).count();
            p += n;
            end = Some(p);
            continue;
        }
        if seg_len == 0 {
            break;
        }
        let after = body.get(p + seg_len);
        if !matches!(after, None | Some(b'\n' | b'\r' | b'\\' | b'"')) {
            break;
        }
        p += seg_len;
        end = Some(p);
    }
    let end = end?;
    let material = body[..end].iter().filter(|c| c.is_ascii_alphanumeric()).count();
    (material >= 20).then_some((a, body_start + end))
}

/// Skip whitespace forward at `p`, raw or JSON-escaped (`\n`, `\t`, `\r`), up to `limit`.
fn skip_ws_fwd(bytes: &[u8], p: &mut usize, limit: usize) {
    while *p < limit {
        match bytes[*p] {
            b' ' | b'\t' | b'\n' | b'\r' => *p += 1,
            b'\\' if matches!(bytes.get(*p + 1), Some(b'n' | b't' | b'r')) => *p += 2,
            _ => return,
        }
    }
}

/// Skip a line-number gutter at a line start `p` (a `Read` result's `    12→`, `cat -n`'s
/// `    12\t`, raw or JSON-escaped `\t`): the text after it is the file's line.
fn skip_gutter(bytes: &[u8], p: &mut usize, limit: usize) {
    let mut q = *p;
    while q < limit && matches!(bytes[q], b' ' | b'\t') {
        q += 1;
    }
    let digits = q;
    while q < limit && q - digits < 7 && bytes[q].is_ascii_digit() {
        q += 1;
    }
    if q == digits {
        return;
    }
    let rest = &bytes[q..limit];
    let len = if rest.starts_with("→".as_bytes()) {
        3
    } else if rest.starts_with(b"\\t") {
        2
    } else if rest.first() == Some(&b'\t') {
        1
    } else {
        return;
    };
    *p = q + len;
}

/// `skip_ws_fwd` over lines: whitespace, raw or escaped newlines and, after a newline, a
/// line-number gutter.
fn skip_lines_fwd(bytes: &[u8], p: &mut usize, limit: usize) {
    loop {
        let before = *p;
        skip_ws_fwd(bytes, p, limit);
        let skipped = &bytes[before..*p];
        let crossed = skipped.contains(&b'\n') || skipped.windows(2).any(|w| w == b"\\n");
        let at = *p;
        if crossed {
            skip_gutter(bytes, p, limit);
        }
        if *p == at || *p >= limit {
            return;
        }
    }
}

/// `Matcher::Pair` at a secret word `a..b`: the word is inside a string that is an element of
/// a sequence literal — a JSON array `["X-Api-Key", "…"]`, a tuple `("DD_API_KEY", "…")` —
/// first or after a comma, plain or JSON-escaped, over lines (whitespace, escaped newlines and
/// line-number gutters between: round 6); the name's span and the spans of the next strings
/// of the sequence, at most three (an auth scheme dropped): the first its gate accepts is the
/// value (`("DD_API_KEY", "us5", "<key>")`).
fn pair(bytes: &[u8], a: usize, b: usize) -> Option<(Range, [Option<Range>; 3])> {
    let name_byte = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    let mut ns = a;
    while ns > 0 && a - ns < 64 && name_byte(bytes[ns - 1]) {
        ns -= 1;
    }
    if ns == 0 || bytes[ns - 1] != b'"' {
        return None;
    }
    let escaped = ns >= 2 && bytes[ns - 2] == b'\\';
    let mut p = ns - 1 - escaped as usize;
    // Back over whitespace, raw or escaped, and a gutter's digits, to the sequence's `[` or
    // `(`, or the comma after an earlier element.
    let lo = p.saturating_sub(64);
    loop {
        if p <= lo {
            return None;
        }
        match bytes[p - 1] {
            b' ' | b'\t' | b'\n' | b'\r' => p -= 1,
            b'n' | b't' | b'r' if p >= 2 && bytes[p - 2] == b'\\' => p -= 2,
            b'[' | b'(' | b',' => break,
            c if c.is_ascii_digit() => {
                // Round 7: `cat -n`'s gutter (`    12\t`, the tab already skipped): its
                // digits after blanks.
                let mut q = p;
                while q > lo && bytes[q - 1].is_ascii_digit() {
                    q -= 1;
                }
                if q <= lo || !matches!(bytes[q - 1], b' ' | b'\t') {
                    return None;
                }
                p = q;
            }
            _ => {
                // A gutter (`12→`) after a newline: back over it.
                let mut q = p;
                if q >= 3 && &bytes[q - 3..q] == "→".as_bytes() {
                    q -= 3;
                } else {
                    return None;
                }
                let d = q;
                while q > lo && bytes[q - 1].is_ascii_digit() {
                    q -= 1;
                }
                if q == d {
                    return None;
                }
                p = q;
            }
        }
    }
    let mut ne = b;
    while ne < bytes.len() && ne - b < 64 && name_byte(bytes[ne]) {
        ne += 1;
    }
    // A quote at `q` (`\"` when the sequence is JSON-escaped): the byte after it.
    let quote = |q: usize| {
        let q = if escaped { q + (bytes.get(q) == Some(&b'\\')) as usize } else { q };
        (bytes.get(q) == Some(&b'"') && (!escaped || bytes[q - 1] == b'\\')).then_some(q + 1)
    };
    let mut q = ne;
    let mut values: [Option<Range>; 3] = [None; 3];
    for slot in values.iter_mut() {
        // The end of the previous string, a comma, the next string.
        let Some(after) = quote(q) else { break };
        q = after;
        let limit = bytes.len().min(q + 96);
        skip_lines_fwd(bytes, &mut q, limit);
        if bytes.get(q) != Some(&b',') {
            break;
        }
        q += 1;
        let limit = bytes.len().min(q + 96);
        skip_lines_fwd(bytes, &mut q, limit);
        skip_comment_lines(bytes, &mut q);
        let Some(vs) = quote(q) else { break };
        let Some(ve) = quoted_end(bytes, vs, escaped, 4096) else { break };
        *slot = Some(strip_scheme(bytes, vs, ve));
        q = ve;
    }
    values[0]?;
    // Last: it allocates, and most strings after `,` are an object's members (`, "key":`).
    let name = &bytes[ns..ne];
    if name.len() < 3 || !secretish(name) {
        return None;
    }
    Some(((ns, ne), values))
}

/// Round 7: comment lines between a sequence's elements (`# rotated 2026-…`, `// prod`): at
/// most two, each to its line's end (raw or JSON-escaped), then whitespace and gutters again —
/// a comment does not part a name from its value.
fn skip_comment_lines(bytes: &[u8], p: &mut usize) {
    for _ in 0..2 {
        let rest = &bytes[*p..];
        if !(rest.first() == Some(&b'#') || rest.starts_with(b"//")) {
            return;
        }
        let limit = bytes.len().min(*p + 160);
        let (_, next) = next_line(bytes, *p, limit);
        if next >= limit {
            return;
        }
        *p = next;
        skip_gutter(bytes, p, bytes.len().min(next + 16));
        let limit = bytes.len().min(*p + 96);
        skip_lines_fwd(bytes, p, limit);
    }
}

/// The end of the line's content from `p` (a raw newline, `\r` or a `\n` escape) and where
/// the next line starts, within `limit`.
fn next_line(bytes: &[u8], p: usize, limit: usize) -> (usize, usize) {
    let mut q = p;
    while q < limit {
        match bytes[q] {
            b'\n' => return (q, q + 1),
            b'\r' => return (q, if bytes.get(q + 1) == Some(&b'\n') { q + 2 } else { q + 1 }),
            b'\\' if bytes.get(q + 1) == Some(&b'n') => return (q, q + 2),
            b'\\' if bytes.get(q + 1) == Some(&b'r') && bytes.get(q + 2) == Some(&b'\\') => {
                return (q, q + 4);
            }
            _ => q += 1,
        }
    }
    (limit, limit)
}

/// How far from `kind: Secret` its `data:` may be (kubectl sorts the keys: `data` first).
const K8S_SPAN: usize = 16 * 1024;

/// Whether a Secret's member is one: its name is a secret's (`SMTP_PASSWORD`), or its value
/// (decoded, under `data:`) holds a secret the rules find (a database URL with a password) or
/// looks random. A user name (`POSTGRES_USER`) or a settings file under a plain name is not.
fn k8s_member_secret(name: &[u8], value: &[u8], base64: bool) -> bool {
    if secretish(name) {
        return true;
    }
    let decoded;
    let text = if base64 {
        let body = value.strip_suffix(b"==").or_else(|| value.strip_suffix(b"=")).unwrap_or(value);
        let Some(d) = checks::decode_base64(body) else { return true };
        decoded = d;
        &decoded[..]
    } else {
        value
    };
    let Ok(text) = std::str::from_utf8(text) else { return true };
    if text.bytes().any(|c| c < 0x09 || (c > 0x0d && c < 0x20)) {
        // Binary (a keystore, a certificate's DER): a secret by construction.
        return true;
    }
    !find_at(text, &[], MAX_BASE64_DEPTH).is_empty()
        || (text.len() >= 12
            && !text.bytes().any(|c| c.is_ascii_whitespace())
            && checks::random_looking(text)
            && !checks::is_not_a_value(text))
}

/// `Matcher::K8sSecret` at `kind: Secret` (`a`): the same YAML document's top-level
/// `data:`/`stringData:` block, before or after it; each member `  NAME: value` is a secret
/// (gated `Loose`: not a placeholder). Plain YAML and YAML inside a JSON string (a
/// transcript's `kubectl get secret -o yaml`).
fn k8s_secret(bytes: &[u8], r: usize, a: usize, out: &mut Vec<Candidate>) {
    let after = a + b"kind: Secret".len();
    if !checks::line_start(bytes, a)
        || !matches!(bytes.get(after), None | Some(b'\n' | b'\r' | b'\\' | b'"' | b' ' | b'\t'))
    {
        return;
    }
    let lo = a.saturating_sub(K8S_SPAN);
    let hi = bytes.len().min(after + K8S_SPAN);
    for key in [&b"data:"[..], b"stringData:"] {
        for at in memchr::memmem::find_iter(&bytes[lo..hi], key).map(|i| i + lo) {
            if !checks::line_start(bytes, at) {
                continue;
            }
            let (x, y) = if at < a { (at, a) } else { (after, at) };
            let between = &bytes[x..y];
            if memchr::memmem::find(between, b"---").is_some() || memchr::memmem::find(between, b"kind: ").is_some() {
                continue;
            }
            let (ce, mut p) = next_line(bytes, at + key.len(), hi);
            if bytes[at + key.len()..ce].iter().any(|c| !c.is_ascii_whitespace()) {
                continue;
            }
            while p < hi {
                let (le, next) = next_line(bytes, p, hi);
                let mut q = p;
                while q < le && bytes[q] == b' ' {
                    q += 1;
                }
                if q == p || q == le {
                    break;
                }
                let ns = q;
                while q < le && (bytes[q].is_ascii_alphanumeric() || matches!(bytes[q], b'_' | b'-' | b'.')) {
                    q += 1;
                }
                if q == ns || bytes.get(q) != Some(&b':') {
                    break;
                }
                let ne = q;
                q += 1;
                while q < le && bytes[q] == b' ' {
                    q += 1;
                }
                let quote = matches!(bytes.get(q), Some(b'\'')) as usize;
                let vs = q + quote;
                let mut ve = vs;
                while ve < le && !matches!(bytes[ve], b' ' | b'\t' | b'"' | b'\'' | b'\\') {
                    ve += 1;
                }
                if ve > vs && k8s_member_secret(&bytes[ns..ne], &bytes[vs..ve], key == b"data:") {
                    consider(bytes, r, vs, ve, Some(&bytes[ns..ne]), out);
                }
                p = next;
            }
        }
    }
}
