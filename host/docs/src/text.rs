//! Text helpers of the resolver: the words of a text (identifiers split at `_`, `-`, `::` and
//! camelCase, lowercased, stop words and words under three letters dropped), the concept-match
//! factor, the excerpt of a source that matches a concept best, and HTML reduced to plain text.
//!
//! The same [`words`] function is what codecall's lesson validation uses to decide whether a
//! cited excerpt shares content with a claim, so "shares a word" means one thing everywhere.
//!
//! Not for: reading files or the network (the providers), or any judgment of meaning.

use std::collections::BTreeSet;

/// English function words and common programming keywords: too common to show that two texts
/// are about the same thing.
const STOP: &[&str] = &[
    "the",
    "and",
    "for",
    "with",
    "that",
    "this",
    "from",
    "into",
    "are",
    "was",
    "were",
    "not",
    "but",
    "its",
    "it's",
    "has",
    "have",
    "had",
    "can",
    "will",
    "would",
    "should",
    "could",
    "may",
    "might",
    "must",
    "does",
    "did",
    "done",
    "any",
    "all",
    "each",
    "every",
    "when",
    "then",
    "than",
    "there",
    "their",
    "them",
    "they",
    "what",
    "which",
    "who",
    "why",
    "how",
    "where",
    "only",
    "also",
    "just",
    "more",
    "most",
    "less",
    "some",
    "such",
    "very",
    "over",
    "under",
    "after",
    "before",
    "about",
    "because",
    "while",
    "other",
    "same",
    "one",
    "two",
    "new",
    "use",
    "used",
    "uses",
    "using",
    "here",
    "you",
    "your",
    "our",
    "out",
    "get",
    "set",
    "let",
    "mut",
    "pub",
    "impl",
    "self",
    "return",
    "true",
    "false",
    "none",
    "null",
    "else",
    "def",
    "var",
    "const",
    "function",
    "struct",
    "enum",
    "type",
    "class",
    "import",
    "export",
    "crate",
    "super",
    "where",
    "match",
    "loop",
    "while",
    "async",
    "await",
    "string",
    "str",
    "bool",
    "u32",
    "u64",
    "i32",
    "i64",
    "usize",
    "vec",
    "option",
    "some",
    "result",
    "err",
    "std",
    "code",
    "change",
    "changes",
    "changed",
    "line",
    "lines",
    "file",
    "files",
    "how",
    "make",
    "makes",
    "like",
    "into",
    "need",
    "needs",
    "needed",
    "without",
    "within",
    "shown",
    "show",
    "shows",
    "excerpt",
    "implementation",
    "concept",
];

fn is_stop(w: &str) -> bool {
    STOP.contains(&w)
}

/// The words of `text` (module doc), in order of appearance, with repeats.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for raw in text.split(|c: char| !c.is_alphanumeric()) {
        if raw.is_empty() {
            continue;
        }
        // camelCase and PascalCase: split before an upper-case letter that follows a lower-case one.
        let mut part = String::new();
        let mut prev_lower = false;
        for c in raw.chars() {
            if c.is_uppercase() && prev_lower {
                push_word(&mut out, &part);
                part.clear();
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            part.extend(c.to_lowercase());
        }
        push_word(&mut out, &part);
    }
    out
}

fn push_word(out: &mut Vec<String>, w: &str) {
    if w.chars().count() >= 3 && !w.chars().all(|c| c.is_ascii_digit()) && !is_stop(w) {
        out.push(w.to_string());
    }
}

/// The set of [`words`] of `text`.
pub fn word_set(text: &str) -> BTreeSet<String> {
    words(text).into_iter().collect()
}

/// Share of `terms` that occur among the words of `text` (0 when there are no terms).
pub fn concept_match(terms: &[String], text: &str) -> f64 {
    if terms.is_empty() {
        return 0.0;
    }
    let have = word_set(text);
    let hit = terms.iter().filter(|t| have.contains(*t)).count();
    hit as f64 / terms.len() as f64
}

/// The paragraph window of `text` with the most concept terms, cut to `max_bytes` at a char
/// boundary. Falls back to the beginning.
pub fn best_excerpt(text: &str, terms: &[String], max_bytes: usize) -> String {
    let paragraphs: Vec<&str> = text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()).collect();
    if paragraphs.is_empty() {
        return String::new();
    }
    let wanted: BTreeSet<&str> = terms.iter().map(String::as_str).collect();
    let score = |p: &str| words(p).iter().filter(|w| wanted.contains(w.as_str())).count();
    let mut best = 0;
    let mut best_score = 0;
    for (i, p) in paragraphs.iter().enumerate() {
        let s = score(p);
        if s > best_score {
            best = i;
            best_score = s;
        }
    }
    let mut out = String::new();
    for p in &paragraphs[best..] {
        if !out.is_empty() {
            if out.len() + 2 > max_bytes {
                break;
            }
            out.push_str("\n\n");
        }
        out.push_str(p);
        if out.len() >= max_bytes {
            break;
        }
    }
    truncate(&out, max_bytes)
}

/// `s` cut to at most `max` bytes at a char boundary.
pub fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// HTML reduced to text: `script`, `style`, `noscript`, `template`, `iframe`, `svg`, `head`
/// and comments removed with their content; block elements become paragraph breaks; every
/// other tag is dropped; the common entities are decoded; control characters other than
/// newline are removed; runs of blank space are collapsed. Attributes (links, handlers) never
/// survive. The result is data: nothing in it is interpreted.
pub fn html_to_text(html: &str) -> String {
    const DROP: &[&str] = &["script", "style", "noscript", "template", "iframe", "svg", "head", "object"];
    const BLOCK: &[&str] = &[
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "section",
        "article",
        "tr",
        "table",
        "blockquote",
        "dt",
        "dd",
        "hr",
    ];
    let lower = html.to_ascii_lowercase();
    let bytes = html.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' {
            if lower[i..].starts_with("<!--") {
                i = lower[i..].find("-->").map_or(bytes.len(), |e| i + e + 3);
                continue;
            }
            let Some(close) = lower[i..].find('>') else { break };
            let tag = &lower[i + 1..i + close];
            let name: String = tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            i += close + 1;
            if !tag.starts_with('/') && DROP.contains(&name.as_str()) && !tag.ends_with('/') {
                let end = format!("</{name}");
                i = lower[i..].find(&end).map_or(bytes.len(), |e| {
                    let after = i + e;
                    lower[after..].find('>').map_or(bytes.len(), |g| after + g + 1)
                });
                continue;
            }
            if BLOCK.contains(&name.as_str()) {
                out.push_str("\n\n");
            }
            continue;
        }
        let next = lower[i..].find('<').map_or(bytes.len(), |n| i + n);
        out.push_str(&decode_entities(&html[i..next]));
        i = next;
    }
    normalise_space(&out)
}

fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&apos;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
}

/// Control characters out (newlines kept), spaces collapsed, at most one blank line in a row.
pub fn normalise_space(s: &str) -> String {
    let mut out = String::new();
    for para in s.split("\n\n") {
        let line: String = para
            .chars()
            .map(|c| if c.is_control() || c.is_whitespace() { ' ' } else { c })
            .collect::<String>()
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_identifiers_and_drop_stop_words() {
        assert_eq!(words("fn retry_with_backoff(url: &str)"), ["retry", "backoff", "url"]);
        assert_eq!(words("OAuthMiddleware refreshToken"), ["oauth", "middleware", "refresh", "token"]);
    }

    #[test]
    fn html_loses_scripts_styles_attributes_and_comments() {
        let t = html_to_text(
            "<html><head><title>x</title><style>p{}</style></head><body><p onclick=\"evil()\">Retry &amp; \
             backoff</p><script>alert(1)</script><!-- hidden --><div>second</div></body></html>",
        );
        assert_eq!(t, "Retry & backoff\n\nsecond");
    }

    #[test]
    fn the_best_excerpt_is_the_paragraph_with_the_most_terms() {
        let text = "Intro about nothing.\n\nThe retry policy waits with exponential backoff.\n\nOther.";
        let e = best_excerpt(text, &["retry".into(), "backoff".into()], 60);
        assert!(e.starts_with("The retry policy"), "{e}");
        assert!(e.len() <= 60);
    }
}
