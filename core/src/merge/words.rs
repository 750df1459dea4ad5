//! Word classes: one compile-time table of the English words merge's analysis treats
//! specially (stop words, negations, value-type nouns, link verbs, decision verbs, months ...),
//! looked up once per token by the word's FNV-1a hash.
//!
//! What it is for: the `W_*` class flags and [`word_flags`], so the tokenizer can tag every
//! word with its classes without hashing a string set per class.
//!
//! What it is not for: splitting text into tokens (`tokens`) or deciding what a claim says
//! (`analysis`). Changing a list changes what merge detects: docs/merge.md documents the lists.

use crate::hash::fnv64;

pub(super) const W_STOP: u64 = 1 << 0;
pub(super) const W_NEG: u64 = 1 << 1;
/// Dropped from subject keys.
pub(super) const W_NOISE: u64 = 1 << 2;
/// Leading label when followed by `:`.
pub(super) const W_LABEL: u64 = 1 << 3;
/// Ends the main clause after punctuation or before by/with/on/in/at/during/upon.
pub(super) const W_ATTRIBUTION: u64 = 1 << 4;
/// Always ends the main clause.
pub(super) const W_CUT: u64 = 1 << 5;
/// Ends the main clause after punctuation or before `:`.
pub(super) const W_REASON: u64 = 1 << 6;
/// Ends the main clause with the right next word (due to, so that, given that, to avoid, signed off).
pub(super) const W_PAIR_CUT: u64 = 1 << 7;
pub(super) const W_LINK1: u64 = 1 << 8;
pub(super) const W_LINK_TO: u64 = 1 << 9;
pub(super) const W_LINK_BE: u64 = 1 << 10;
pub(super) const W_HAVE: u64 = 1 << 11;
pub(super) const W_DEC_PREFIX: u64 = 1 << 12;
pub(super) const W_DEC_VERB: u64 = 1 << 13;
pub(super) const W_DEC_WITH: u64 = 1 << 14;
pub(super) const W_DEC_TO: u64 = 1 << 15;
pub(super) const W_DEC_ON: u64 = 1 << 16;
pub(super) const W_DEC_FOR: u64 = 1 << 17;
pub(super) const W_SUBJECT_PREP: u64 = 1 << 18;
pub(super) const W_QUAL_STOP: u64 = 1 << 19;
pub(super) const W_HISTORY: u64 = 1 << 20;
pub(super) const W_ARTICLE: u64 = 1 << 21;
/// Opens a past value in parentheses: "(was June 30)".
pub(super) const W_PAST: u64 = 1 << 22;
pub(super) const W_LEAD_VERB: u64 = 1 << 23;
pub(super) const W_LEAD_WORD: u64 = 1 << 24;
pub(super) const W_LEAD_PARTICLE: u64 = 1 << 25;
/// Ends a rejected alternative after its first word.
pub(super) const W_ALT_STOP: u64 = 1 << 26;
/// `for`/`in`: start qualifiers.
pub(super) const W_FOR_IN: u64 = 1 << 27;
pub(super) const W_MONTH: u64 = 1 << 28;
pub(super) const MONTH_SHIFT: u32 = 56;

/// Stop words. Negations are not stop words.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "being", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "during", "each", "for", "from", "had", "has", "have",
    "having", "he", "her", "here", "his", "i", "if", "in", "into", "is", "it", "it's", "its", "just", "let's", "lets",
    "may", "me", "might", "must", "my", "of", "on", "onto", "or", "our", "over", "per", "shall", "she", "should", "so",
    "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to",
    "too", "up", "upon", "us", "very", "via", "was", "we", "we'll", "were", "what", "when", "where", "which", "while",
    "who", "whom", "whose", "will", "with", "would", "yes", "you", "your",
];

const NEGATIONS: &[&str] = &[
    "aren't",
    "can't",
    "cannot",
    "cant",
    "couldn't",
    "didn't",
    "doesn't",
    "doesnt",
    "don't",
    "dont",
    "hasn't",
    "haven't",
    "isn't",
    "isnt",
    "mustn't",
    "never",
    "no",
    "none",
    "nor",
    "not",
    "shouldn't",
    "wasn't",
    "weren't",
    "won't",
    "wont",
    "wouldn't",
];

/// Value-type nouns and modifiers that do not change what a claim is about ("launch date" ≡
/// "launch", "current budget" ≡ "budget").
const SUBJECT_NOISE: &[&str] = &[
    "amount",
    "count",
    "current",
    "currently",
    "date",
    "day",
    "estimated",
    "expected",
    "figure",
    "final",
    "latest",
    "level",
    "new",
    "now",
    "number",
    "official",
    "planned",
    "rate",
    "revised",
    "total",
    "updated",
    "value",
];

const MONTHS: [&[&str]; 12] = [
    &["january", "jan"],
    &["february", "feb"],
    &["march", "mar"],
    &["april", "apr"],
    &["may"],
    &["june", "jun"],
    &["july", "jul"],
    &["august", "aug"],
    &["september", "sept", "sep"],
    &["october", "oct"],
    &["november", "nov"],
    &["december", "dec"],
];

const fn month_flag(m: u64) -> u64 {
    W_MONTH | (m << MONTH_SHIFT)
}

pub(super) const WORD_CLASSES: &[(u64, &[&str])] = &[
    (W_STOP, STOP),
    (W_NEG, NEGATIONS),
    (W_NOISE, SUBJECT_NOISE),
    (W_LABEL, &["agreed", "assumption", "decided", "decision", "fact", "finding", "note", "update"]),
    (W_ATTRIBUTION, &["agreed", "approved", "confirmed", "decided"]),
    (W_CUT, &["because", "if", "since", "unless", "until"]),
    (W_REASON, &["rationale", "reason"]),
    (W_PAIR_CUT, &["due", "given", "signed", "so", "to"]),
    (
        W_LINK1,
        &[
            "are", "become", "becomes", "costs", "equals", "is", "remain", "remains", "stay", "stays", "takes", "was",
            "were",
        ],
    ),
    (
        W_LINK_TO,
        &[
            "bumped",
            "changed",
            "changes",
            "cut",
            "decreased",
            "dropped",
            "grew",
            "increased",
            "lowered",
            "move",
            "moved",
            "moves",
            "pushed",
            "raised",
            "reduced",
            "set",
            "shifted",
            "shifts",
            "slipped",
            "slips",
        ],
    ),
    (W_LINK_BE, &["can", "could", "may", "might", "must", "shall", "should", "will", "would"]),
    (W_HAVE, &["had", "has", "have"]),
    (
        W_DEC_PREFIX,
        &[
            "also", "always", "are", "continue", "do", "does", "going", "i", "let's", "lets", "now", "shall", "should",
            "still", "team", "the", "to", "we", "we'll", "will",
        ],
    ),
    (
        W_DEC_VERB,
        &[
            "adopt",
            "adopted",
            "adopting",
            "adopts",
            "choose",
            "chooses",
            "chose",
            "chosen",
            "keep",
            "keeping",
            "keeps",
            "kept",
            "pick",
            "picked",
            "picks",
            "prefer",
            "preferred",
            "prefers",
            "select",
            "selected",
            "selects",
            "use",
            "used",
            "uses",
            "using",
        ],
    ),
    (
        W_DEC_WITH,
        &[
            "go", "goes", "going", "gone", "went", "stay", "stayed", "staying", "stays", "stick", "sticking", "sticks",
            "stuck",
        ],
    ),
    (
        W_DEC_TO,
        &[
            "migrate",
            "migrated",
            "migrates",
            "migrating",
            "move",
            "moved",
            "moves",
            "moving",
            "switch",
            "switched",
            "switches",
            "switching",
        ],
    ),
    (W_DEC_ON, &["settle", "settled", "standardise", "standardised", "standardize", "standardized"]),
    (W_DEC_FOR, &["opt", "opted", "opting"]),
    (W_SUBJECT_PREP, &["across", "as", "for", "in", "on", "within"]),
    (W_QUAL_STOP, &["across", "after", "at", "before", "by", "during", "for", "from", "in", "on", "until", "within"]),
    (
        W_HISTORY,
        &[
            "formerly",
            "from",
            "originally",
            "previously",
            "replaced",
            "replaces",
            "replacing",
            "superseded",
            "supersedes",
            "was",
            "were",
        ],
    ),
    (W_ARTICLE, &["a", "an", "the"]),
    (W_PAST, &["formerly", "originally", "previously", "was", "were"]),
    (W_LEAD_VERB, &["agreed", "chose", "decided", "opted", "resolved"]),
    (W_LEAD_WORD, &["all", "finally", "has", "have", "i", "jointly", "team", "the", "we"]),
    (W_LEAD_PARTICLE, &["on", "that", "to", "upon"]),
    (W_ALT_STOP, &["and", "as", "because", "but", "for", "in", "on", "since", "to"]),
    (W_FOR_IN, &["for", "in"]),
    (month_flag(1), MONTHS[0]),
    (month_flag(2), MONTHS[1]),
    (month_flag(3), MONTHS[2]),
    (month_flag(4), MONTHS[3]),
    (month_flag(5), MONTHS[4]),
    (month_flag(6), MONTHS[5]),
    (month_flag(7), MONTHS[6]),
    (month_flag(8), MONTHS[7]),
    (month_flag(9), MONTHS[8]),
    (month_flag(10), MONTHS[9]),
    (month_flag(11), MONTHS[10]),
    (month_flag(12), MONTHS[11]),
];

const TABLE_SIZE: usize = 1024;

struct WordTable {
    pub(super) hash: [u64; TABLE_SIZE],
    pub(super) word: [&'static str; TABLE_SIZE],
    pub(super) flags: [u64; TABLE_SIZE],
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Built at compile time: open addressing on the FNV-1a hash, flags of every list a word is in.
const fn build_table() -> WordTable {
    let mut t = WordTable { hash: [0; TABLE_SIZE], word: [""; TABLE_SIZE], flags: [0; TABLE_SIZE] };
    let mut c = 0;
    while c < WORD_CLASSES.len() {
        let (flag, words) = WORD_CLASSES[c];
        let mut k = 0;
        while k < words.len() {
            let w = words[k];
            let h = fnv64(w.as_bytes()) | 1;
            let mut i = h as usize & (TABLE_SIZE - 1);
            loop {
                if t.hash[i] == 0 {
                    t.hash[i] = h;
                    t.word[i] = w;
                    t.flags[i] = flag;
                    break;
                }
                if t.hash[i] == h && str_eq(t.word[i], w) {
                    t.flags[i] |= flag;
                    break;
                }
                i = (i + 1) & (TABLE_SIZE - 1);
            }
            k += 1;
        }
        c += 1;
    }
    t
}

static WORD_TABLE: WordTable = build_table();

/// The classes of lowercase word `w` whose FNV-1a hash (| 1) is `h`.
pub(super) fn word_flags(h: u64, w: &str) -> u64 {
    let t = &WORD_TABLE;
    let mut i = h as usize & (TABLE_SIZE - 1);
    loop {
        if t.hash[i] == 0 {
            return 0;
        }
        if t.hash[i] == h && t.word[i] == w {
            return t.flags[i];
        }
        i = (i + 1) & (TABLE_SIZE - 1);
    }
}
