//! Lightweight symbol recognition: "does this line define a function, type or module, and what
//! is its name?" for common languages, by per-line regular expressions chosen from the file
//! extension.
//!
//! Used to name the symbols a change touches (the definitions on changed lines and the nearest
//! enclosing definition above a hunk), to extend an excerpt up to that definition, and to tell a
//! definition hit from a reference in level-3 search.
//!
//! Not for: parsing. There is no scope tracking, no multi-line signatures, no macro expansion;
//! a definition written across lines or in an unusual style is missed, and a line that merely
//! looks like a definition is taken for one. Names found are data: they only ever become
//! escaped literal search terms.

use std::sync::LazyLock;

use regex::Regex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    Rust,
    Python,
    JavaScript,
    Go,
    JvmLike,
    CLike,
    Ruby,
    Php,
    Swift,
    Shell,
    Other,
}

pub(crate) fn language(path: &str) -> Lang {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "rs" => Lang::Rust,
        "py" | "pyi" => Lang::Python,
        "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" | "vue" | "svelte" => Lang::JavaScript,
        "go" => Lang::Go,
        "java" | "kt" | "kts" | "scala" | "cs" | "groovy" | "dart" => Lang::JvmLike,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "m" | "mm" => Lang::CLike,
        "rb" | "rake" => Lang::Ruby,
        "php" => Lang::Php,
        "swift" => Lang::Swift,
        "sh" | "bash" | "zsh" => Lang::Shell,
        _ => Lang::Other,
    }
}

/// A pattern whose first capture group is the defined name, and the kind it defines.
struct Def {
    kind: &'static str,
    re: Regex,
}

fn def(kind: &'static str, pattern: &str) -> Def {
    Def { kind, re: Regex::new(pattern).expect("symbol pattern compiles") }
}

const RUST_VIS: &str = r"^\s*(?:pub(?:\([^)]*\))?\s+)?";

static RUST: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def(
            "fn",
            &format!(
                r#"{RUST_VIS}(?:(?:const|async|unsafe|default|extern(?:\s+"[^"]*")?)\s+)*fn\s+([A-Za-z_][A-Za-z0-9_]*)"#
            ),
        ),
        def("type", &format!(r"{RUST_VIS}(?:struct|enum|union|trait|type)\s+([A-Za-z_][A-Za-z0-9_]*)")),
        def("module", &format!(r"{RUST_VIS}mod\s+([A-Za-z_][A-Za-z0-9_]*)")),
        def("const", &format!(r"{RUST_VIS}(?:const|static(?:\s+mut)?)\s+([A-Z_][A-Za-z0-9_]*)\s*:")),
        def(
            "impl",
            r"^\s*(?:unsafe\s+)?impl(?:\s*<[^>]*>)?\s+(?:[A-Za-z_][\w:]*(?:<[^>]*>)?\s+for\s+)?(?:[A-Za-z_]\w*::)*([A-Za-z_]\w*)",
        ),
        def("macro", r"^\s*macro_rules!\s*([A-Za-z_]\w*)"),
    ]
});

static PYTHON: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![def("fn", r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)"), def("class", r"^\s*class\s+([A-Za-z_]\w*)")]
});

static JAVASCRIPT: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def("fn", r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)"),
        def("class", r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)"),
        def("type", r"^\s*(?:export\s+)?(?:declare\s+)?(?:interface|type|enum)\s+([A-Za-z_$][\w$]*)"),
        def(
            "fn",
            r"^\s*(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function(?-u:\b)|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)",
        ),
        def(
            "method",
            r"^\s+(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::\s*[^{]+)?\{\s*$",
        ),
    ]
});

static GO: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![def("fn", r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)"), def("type", r"^\s*type\s+([A-Za-z_]\w*)\s")]
});

static JVM: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def(
            "class",
            r"^\s*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|inner|partial|case)\s+)*(?:class|interface|enum|record|struct|object|trait)\s+([A-Za-z_]\w*)",
        ),
        def(
            "fn",
            r"^\s*(?:(?:public|private|protected|internal|override|open|suspend|inline|private)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+\.)?([A-Za-z_]\w*)",
        ),
        def("fn", r"^\s*(?:(?:override|private|protected|final)\s+)*def\s+([A-Za-z_]\w*)"),
        def(
            "method",
            r"^\s*(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|override|async|virtual|sealed)\s+)+[\w<>\[\],.?\s]*?\s*([A-Za-z_]\w*)\s*\(",
        ),
    ]
});

static CLIKE: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def(
            "type",
            r"^\s*(?:typedef\s+)?(?:struct|class|union|enum(?:\s+class)?|namespace)\s+([A-Za-z_]\w*)\s*(?:[:{]|$)",
        ),
        def("fn", r"^[A-Za-z_][\w:<>,*&\s]*?[\s*&]\**([A-Za-z_][\w:]*)\s*\([^;]*$"),
        def("macro", r"^\s*#\s*define\s+([A-Za-z_]\w*)"),
    ]
});

static RUBY: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def("fn", r"^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)"),
        def("class", r"^\s*(?:class|module)\s+(?:[A-Z]\w*::)*([A-Z]\w*)"),
    ]
});

static PHP: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def("fn", r"^\s*(?:(?:public|private|protected|static|final|abstract)\s+)*function\s+&?([A-Za-z_]\w*)"),
        def("class", r"^\s*(?:(?:final|abstract|readonly)\s+)*(?:class|interface|trait|enum)\s+([A-Za-z_]\w*)"),
    ]
});

static SWIFT: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def(
            "fn",
            r"^\s*(?:(?:public|private|internal|fileprivate|open|static|class|override|mutating|final)\s+)*func\s+([A-Za-z_]\w*)",
        ),
        def(
            "type",
            r"^\s*(?:(?:public|private|internal|fileprivate|open|final)\s+)*(?:class|struct|enum|protocol|extension|actor)\s+([A-Za-z_]\w*)",
        ),
    ]
});

static SHELL: LazyLock<Vec<Def>> =
    LazyLock::new(|| vec![def("fn", r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{?")]);

/// For files of unknown type: the keyword forms shared by many languages.
static OTHER: LazyLock<Vec<Def>> = LazyLock::new(|| {
    vec![
        def("fn", r"^\s*(?:pub\s+|export\s+)?(?:async\s+)?(?:fn|def|func|function)\s+([A-Za-z_]\w*)"),
        def("type", r"^\s*(?:pub\s+|export\s+)?(?:class|struct|enum|trait|interface|module)\s+([A-Za-z_]\w*)"),
    ]
});

/// Words that are never taken as a definition's name (control flow caught by the method forms).
const KEYWORDS: &[&str] = &[
    "if", "for", "while", "switch", "catch", "return", "function", "else", "do", "try", "match", "new", "sizeof",
    "elif", "when", "with", "until", "unless", "case", "defined",
];

fn defs(lang: Lang) -> &'static [Def] {
    match lang {
        Lang::Rust => &RUST,
        Lang::Python => &PYTHON,
        Lang::JavaScript => &JAVASCRIPT,
        Lang::Go => &GO,
        Lang::JvmLike => &JVM,
        Lang::CLike => &CLIKE,
        Lang::Ruby => &RUBY,
        Lang::Php => &PHP,
        Lang::Swift => &SWIFT,
        Lang::Shell => &SHELL,
        Lang::Other => &OTHER,
    }
}

/// The definition on this line, if it looks like one: `(name, kind)`.
pub(crate) fn definition(lang: Lang, line: &str) -> Option<(&str, &'static str)> {
    if line.len() > 1_000 {
        return None;
    }
    for d in defs(lang) {
        if let Some(caps) = d.re.captures(line) {
            let name = caps.get(1)?.as_str();
            let name = name.rsplit("::").next().unwrap_or(name);
            if KEYWORDS.contains(&name) {
                continue;
            }
            return Some((name, d.kind));
        }
    }
    None
}

/// The names defined on the lines of `text`, a changed snippet of the file at `path` (the
/// language follows the path's extension), in order of appearance and without repeats. For
/// callers that have changed text but no repository diff (e.g. the edits an agent made, read
/// from its transcript); the collector itself looks at whole files and hunks.
pub fn defined_in(path: &str, text: &str) -> Vec<String> {
    let lang = language(path);
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some((name, _)) = definition(lang, line)
            && !out.iter().any(|n| n == name)
        {
            out.push(name.to_owned());
        }
    }
    out
}

/// Names too common to be useful search terms.
const STOP_NAMES: &[&str] = &[
    "main",
    "new",
    "init",
    "__init__",
    "test",
    "tests",
    "default",
    "from",
    "into",
    "drop",
    "clone",
    "fmt",
    "get",
    "set",
    "run",
    "call",
    "apply",
    "update",
    "render",
    "setup",
    "teardown",
    "constructor",
    "toString",
    "equals",
    "hashCode",
    "Self",
    "self",
    "value",
    "data",
    "item",
    "index",
    "handler",
    "it",
    "describe",
    "Error",
    "Result",
    "Ok",
    "Err",
];

/// Is `name` worth searching the repository for? Identifier-like, at least three characters,
/// not a stop name.
pub(crate) fn searchable(name: &str) -> bool {
    name.len() >= 3
        && name.len() <= 100
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !STOP_NAMES.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(lang: Lang, line: &str) -> Option<String> {
        definition(lang, line).map(|(n, _)| n.to_owned())
    }

    #[test]
    fn recognises_common_definitions() {
        let cases: &[(Lang, &str, &str)] = &[
            (Lang::Rust, "pub(crate) async fn load_config(path: &Path) {", "load_config"),
            (Lang::Rust, "    fn helper() -> u32 {", "helper"),
            (Lang::Rust, "pub struct Budget {", "Budget"),
            (Lang::Rust, "impl<'a> Iterator for Lines<'a> {", "Lines"),
            (Lang::Rust, "impl Tracker {", "Tracker"),
            (Lang::Rust, "pub const MAX_FILES: usize = 3;", "MAX_FILES"),
            (Lang::Python, "    async def fetch_rows(self, q):", "fetch_rows"),
            (Lang::Python, "class RetryPolicy(Base):", "RetryPolicy"),
            (Lang::JavaScript, "export async function handleLogin(req, res) {", "handleLogin"),
            (Lang::JavaScript, "export const computeTotal = (items) => {", "computeTotal"),
            (Lang::JavaScript, "export interface SessionState {", "SessionState"),
            (Lang::JavaScript, "  async refreshToken(user) {", "refreshToken"),
            (Lang::Go, "func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {", "ServeHTTP"),
            (Lang::Go, "type Cache struct {", "Cache"),
            (Lang::JvmLike, "public final class OrderService {", "OrderService"),
            (Lang::JvmLike, "    public List<Order> findOrders(String id) {", "findOrders"),
            (Lang::JvmLike, "suspend fun fetchUser(id: Int): User {", "fetchUser"),
            (Lang::CLike, "static int parse_header(const char *buf, size_t len) {", "parse_header"),
            (Lang::CLike, "struct connection {", "connection"),
            (Lang::Ruby, "  def self.build_index!", "build_index!"),
            (Lang::Php, "    public static function createUser($name) {", "createUser"),
            (Lang::Swift, "    private func layoutViews() {", "layoutViews"),
            (Lang::Shell, "deploy_app() {", "deploy_app"),
            (Lang::Other, "def something(x):", "something"),
        ];
        for (lang, line, want) in cases {
            assert_eq!(name(*lang, line).as_deref(), Some(*want), "{lang:?}: {line}");
        }
    }

    #[test]
    fn ignores_control_flow_and_calls() {
        for (lang, line) in [
            (Lang::JavaScript, "  if (x) {"),
            (Lang::JavaScript, "  for (const a of b) {"),
            (Lang::Rust, "    let x = foo();"),
            (Lang::Python, "    return compute(x)"),
            (Lang::CLike, "    return parse_header(buf, n);"),
        ] {
            assert_eq!(name(lang, line), None, "{line}");
        }
    }

    #[test]
    fn searchable_names() {
        assert!(searchable("load_config"));
        assert!(!searchable("new"));
        assert!(!searchable("ab"));
        assert!(!searchable("$el"));
        assert!(!searchable("build_index!"));
    }
}
