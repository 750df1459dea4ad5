//! Tenth round: the positions where a value is named a secret by its context, enumerated by
//! structure rather than by corpus — every common config syntax, source language literal,
//! tabular form, command line and header, crossed with the secret-name vocabulary in each
//! case convention (`docs/privacy.md`, "Tenth round"). Every value here is invented.
//!
//! Not for: vendor formats (their own tests in `tests.rs`).

use super::*;

const KEY: [u8; 32] = [9; 32];

fn caught(text: &str, value: &str) -> bool {
    let r = redact(text, &Options { key: &KEY, allow: &[] }).expect("redacts");
    r.text.is_some_and(|o| !o.contains(value))
}

/// A name's words in the case conventions configs and code use.
#[derive(Clone, Copy, Debug)]
enum Case {
    Snake,
    Screaming,
    Camel,
    Pascal,
    Kebab,
    Dotted,
}

fn spell(words: &[&str], case: Case) -> String {
    let cap = |w: &str| {
        let mut c = w.to_string();
        if let Some(f) = c.get_mut(0..1) {
            f.make_ascii_uppercase();
        }
        c
    };
    match case {
        Case::Snake => words.join("_"),
        Case::Screaming => words.join("_").to_ascii_uppercase(),
        Case::Camel => {
            let mut s = words[0].to_string();
            for w in &words[1..] {
                s.push_str(&cap(w));
            }
            s
        }
        Case::Pascal => words.iter().map(|w| cap(w)).collect(),
        Case::Kebab => words.join("-"),
        Case::Dotted => words.join("."),
    }
}

/// The secret-name vocabulary: the last words of a name that make its value a secret, with a
/// service word before them (`billing_api_key`).
const NAMES: &[&[&str]] = &[
    &["billing", "api", "key"],
    &["billing", "apikey"],
    &["billing", "token"],
    &["billing", "secret"],
    &["db", "password"],
    &["db", "passwd"],
    &["db", "pwd"],
    &["smtp", "pass"],
    &["service", "credential"],
    &["service", "credentials"],
    &["proxy", "auth"],
    &["storage", "access", "key"],
    &["deploy", "private", "key"],
    &["release", "signing", "key"],
    &["oauth", "client", "secret"],
    &["github", "webhook", "secret"],
    &["wallet", "seed"],
    &["backup", "passphrase"],
    &["auth", "token"],
    &["secret", "key"],
    &["encryption", "key"],
    &["master", "key"],
    &["hmac", "key"],
    &["jwt", "secret"],
    &["session", "secret"],
    &["app", "secret"],
    &["refresh", "token"],
    &["access", "token"],
    &["api", "token"],
    &["admin", "pw"],
];

const CASES: &[Case] = &[Case::Snake, Case::Screaming, Case::Camel, Case::Pascal, Case::Kebab, Case::Dotted];

/// A value of each shape: random, and a password of words and digits.
const RANDOM: &str = "Vq7Rk2Lm9Xw4Pz8Tb3Nc";
const PASSWORD: &str = "Harbor!Quill-7731";

/// The templates: `{n}` the name, `{v}` the value.
const TEMPLATES: &[(&str, &str)] = &[
    ("env", "{n}={v}"),
    ("env quoted", "{n}=\"{v}\""),
    ("shell export", "export {n}='{v}'"),
    ("shell local", "  local {n}=\"{v}\""),
    ("shell default", "DB_URL=${{n}:-{v}}"),
    ("yaml", "{n}: {v}"),
    ("yaml nested quoted", "app:\n  {n}: \"{v}\""),
    ("yaml list name/value", "env:\n  - name: {n}\n    value: {v}"),
    ("compose env list", "environment:\n  - {n}={v}"),
    ("json", "{\"{n}\": \"{v}\", \"x\": 1}"),
    ("json pretty", "{\n  \"{n}\": \"{v}\"\n}"),
    ("toml", "{n} = \"{v}\""),
    ("ini", "[svc]\n{n} = {v}"),
    ("hcl block", "variable \"{n}\" {\n  default = \"{v}\"\n}"),
    ("xml attr add", "<add key=\"{n}\" value=\"{v}\" />"),
    ("xml attr setting", "<setting name=\"{n}\" value=\"{v}\"/>"),
    ("xml attr property", "<property name=\"{n}\" value=\"{v}\"/>"),
    ("xml element", "<{n}>{v}</{n}>"),
    ("xml entry", "<entry key=\"{n}\">{v}</entry>"),
    ("plist", "<key>{n}</key>\n<string>{v}</string>"),
    ("properties", "{n}={v}"),
    ("properties colon", "{n}: {v}"),
    ("properties space", "{n} {v}"),
    ("java", "    private static final String {n} = \"{v}\";"),
    ("kotlin", "const val {n} = \"{v}\""),
    ("swift", "static let {n}: String = \"{v}\""),
    ("go short", "\t{n} := \"{v}\""),
    ("go struct", "\t\t{n}: \"{v}\","),
    ("python", "{n} = \"{v}\""),
    ("python kwarg", "client = Client(host=\"h\", {n}=\"{v}\")"),
    ("python environ", "os.environ[\"{n}\"] = \"{v}\""),
    ("python getenv default", "x = os.getenv(\"{n}\", \"{v}\")"),
    ("ruby hash rocket", "  :{n} => \"{v}\","),
    ("ruby ENV fetch", "x = ENV.fetch(\"{n}\", \"{v}\")"),
    ("js object", "  {n}: '{v}',"),
    ("js env default", "const x = process.env.{n} ?? \"{v}\";"),
    ("csharp", "private const string {n} = \"{v}\";"),
    ("csharp initializer", "    {n} = \"{v}\","),
    ("csharp setenv", "Environment.SetEnvironmentVariable(\"{n}\", \"{v}\");"),
    ("php array", "    '{n}' => '{v}',"),
    ("rust const", "const {n}: &str = \"{v}\";"),
    ("r assign", "{n} <- \"{v}\""),
    ("perl", "my ${n} = '{v}';"),
    ("powershell env", "$env:{n} = \"{v}\""),
    ("cmd set", "set {n}={v}"),
    ("dockerfile env", "ENV {n}={v}"),
    ("dockerfile env space", "ENV {n} {v}"),
    ("makefile", "{n} ?= {v}"),
    ("elixir", "config :app, {n}: \"{v}\""),
    ("spring default", "@Value(\"${{n}:{v}}\")"),
    ("java setProperty", "System.setProperty(\"{n}\", \"{v}\");"),
    ("sql insert", "INSERT INTO settings (id, {n}) VALUES (1, '{v}');"),
    ("csv header", "id,{n}\n1,{v}"),
    ("markdown table", "| service | {n} |\n|---|---|\n| billing | {v} |"),
    ("cli flag space", "tool run --{n} {v}"),
    ("cli flag equals", "tool run --{n}={v}"),
    ("http header", "{n}: {v}"),
    ("http x header", "X-{n}: {v}"),
    ("label above", "{n}:\n{v}"),
    ("query string", "GET /v1/items?page=2&{n}={v} HTTP/1.1"),
];

fn fill(t: &str, n: &str, v: &str) -> String {
    t.replace("{n}", n).replace("{v}", v)
}

/// Survey: which (template, case) pairs miss, over every name (run with `--ignored
/// --nocapture`; the asserted subset is `every_natural_position_is_caught`).
#[test]
#[ignore]
fn survey_positions() {
    let mut total = 0;
    let mut missed = 0;
    for (label, t) in TEMPLATES {
        for case in CASES {
            let mut miss: Vec<String> = Vec::new();
            for words in NAMES {
                let n = spell(words, *case);
                for v in [RANDOM, PASSWORD] {
                    total += 1;
                    if !caught(&fill(t, &n, v), v) {
                        missed += 1;
                        miss.push(format!("{n}/{}", if v == RANDOM { "r" } else { "p" }));
                    }
                }
            }
            if !miss.is_empty() {
                println!("{label:24} {case:?}: {} missed: {}", miss.len(), miss.join(" "));
            }
        }
    }
    println!("{missed} of {total} missed");
}

/// Every (template, case, name, value) of the matrix is caught, except a JavaScript env lookup
/// with a kebab or dotted name (`process.env.billing-api-key` is no JavaScript).
#[test]
fn every_position_of_the_matrix_is_caught() {
    let mut missed = Vec::new();
    for (label, t) in TEMPLATES {
        for case in CASES {
            if *label == "js env default" && matches!(case, Case::Kebab | Case::Dotted) {
                continue;
            }
            for words in NAMES {
                let n = spell(words, *case);
                for v in [RANDOM, PASSWORD] {
                    let text = fill(t, &n, v);
                    if !caught(&text, v) {
                        missed.push(text);
                    }
                }
            }
        }
    }
    assert!(missed.is_empty(), "{} missed, e.g. {:?}", missed.len(), &missed[..missed.len().min(10)]);
}

/// The same positions holding what is not a secret stay: a name that only contains a secret
/// word (`max_tokens`, `token_count`, `keyboard`), a secret-named setting holding a number, a
/// boolean, a path or a reference, and the new operators and structures on ordinary code.
#[test]
fn the_matrix_positions_keep_their_near_misses() {
    for text in [
        // Typed declarations.
        "let maxTokens: Int = 4096",
        "static let tokenCount: String = \"none\"",
        "const KEY_PREFIX: &str = \"cfg_\";",
        "var passwordMinLength string = \"12\"",
        "let secretManagerRegion: String = \"eu-west-1\"",
        // Make and R operators.
        "CFLAGS ?= -O2 -Wall",
        "PWD := $(shell pwd)",
        "LDFLAGS += -L/usr/local/lib",
        "token_count <- nrow(df)",
        "api_key <- Sys.getenv(\"BILLING_API_KEY\")",
        // XML by attribute name.
        "<entry key=\"db.password.min-length\">12</entry>",
        "<setting name=\"PasswordExpiryDays\" value=\"90\"/>",
        "<property name=\"token.ttl\" value=\"3600\"/>",
        "<param name=\"keyStoreType\">PKCS12</param>",
        // CSV with a secret-named column holding no secret.
        "id,name,token_count\n1,alpha,12\n2,beta,40",
        "user,password_changed,last_login\nops,true,2026-11-02",
        "service,api_key_id\nbilling,key-2024-primary",
        // Seeds, pw.
        "random_seed = 42",
        "seed: \"fixed-dev-seed\"",
        "seed_data_path = db/seeds/dev.sql",
        "showPw = false",
        "cd $PWD && make",
        // Foreign words on ordinary values.
        "kennwort_mindestlaenge = 12",
        "senha: ${SENHA_DB}",
        // A password-reset URL.
        "open https://app.example.test/account/password-reset?user=ops:42 to reset it",
    ] {
        let r = redact(text, &Options { key: &KEY, allow: &[] }).expect("redacts");
        assert_eq!(r.text, None, "{text}: {:?}", r.hits);
    }
}
