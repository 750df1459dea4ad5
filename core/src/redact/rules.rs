//! The rule table: one [`Rule`] per secret format, with the literal anchors the prefilter
//! looks for, the window around an anchor the pattern runs on, the pattern (a byte regex,
//! compiled without Unicode: every rule is ASCII) and the gate its secret must pass.
//!
//! Order matters: when two candidates start at the same byte, the rule listed first wins, so
//! provider formats come before the generic rules (headers, URLs, assignments).
//!
//! Not for: matching (`scan.rs`) or the checks themselves (`checks.rs`).

/// How a rule finds its candidates in a window.
#[derive(Clone, Copy, Debug)]
pub enum Matcher {
    /// A regex; the secret is the capture group named `s`, else the whole match. A group
    /// named `n` is the key name of an assignment (for the name checks).
    Regex(&'static str),
    /// A PEM/OpenSSH/PGP private key block (`scan::private_key`).
    PrivateKey,
    /// A base64 value starting at the anchor, decoded (bounded) and scanned again: a secret
    /// when the decoded text holds one (`scan::nested_base64`).
    Base64,
    /// A JSON/YAML object whose member names the thing and whose sibling `value` holds it:
    /// Postman's `{"key": "x-api-key", "value": "…"}`, Kubernetes `- name: DB_PASSWORD` /
    /// `value: …` (session 13: Render's `- key: NAME` too), a Terraform state resource `"type": "cloudflare_api_token"` and its
    /// `attributes` `value`/`result` (`scan::sibling_value`); round 6: a session cookie's name
    /// (`{"name": "_shop_session", "value": …}`), gated as context.
    Sibling,
    /// A header list in one string, `k1=v1,k2=v2` (OTLP `OTEL_EXPORTER_OTLP_HEADERS`,
    /// .NET `"Headers"`), each pair named like a secret or a vendor's key header
    /// (`scan::header_list`).
    HeaderList,
    /// A PuTTY `.ppk` file's `Private-Lines: <n>` and the n lines after it (`scan::ppk`).
    Ppk,
    /// Context over lines (round 4): a name ending its line that opens a block (`variable
    /// "db_password" {`, `db_password:`, `"api_token": {`), its `value`/`default`/`secret`
    /// member a few lines down; a label ending in `:` (`**Token:**`, `password:`) with the
    /// value alone on the next line; a Markdown table whose header cell names a secret, its
    /// column's cells (`scan::block`).
    Block,
    /// A vendor's name in prose or a table row, a token-shaped value after it on the line,
    /// and a secret word on that line or a few lines above (`scan::vendor`).
    Vendor,
    /// Round 5: a JSON array of two strings whose first names a secret, `["Authorization",
    /// "Bearer …"]`, `["X-Api-Key", "…"]` (a Sentry event's headers, env pairs, form fields),
    /// on one line or pretty-printed over lines, plain or JSON-escaped (`scan::pair`); round 6:
    /// a tuple too, the name after a comma, the value up to two elements on, line-number
    /// gutters between (`("DD_API_KEY",⏎ 42→ "…")`).
    Pair,
    /// Round 5: a Kubernetes `kind: Secret`'s `data:`/`stringData:` members, every value a
    /// secret by construction (YAML, plain or JSON-escaped; `scan::k8s_secret`).
    K8sSecret,
    /// Round 8: a `Value` label whose name is on a `Name`/`Key`/`Property` label line at most
    /// four lines above (`aws ssm get-parameter`, a Spring binding failure, `consul kv get
    /// -detailed`; `labels::label_pair`); session 13: `<Value>` under `<Password>` in XML, a
    /// plist's `<string>` under its `<key>` (`labels::xml_pair`).
    LabelPair,
    /// Round 8: a comment line (`# `, `// `, `-- ` starting its line) with a secret word, the
    /// next line's value (`labels::comment_above`).
    CommentAbove,
    /// Session 13: a SQL dump's `INSERT` row, each value named by its column (the
    /// statement's column list or the table's `CREATE TABLE` above: `sql::insert_values`).
    SqlInsert,
}

/// What a candidate's secret must pass (see `checks.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// A provider format: not a spelled-out placeholder (`ghp_xxxx…`).
    Token,
    /// Like `Token`, and the secret holds a letter and a digit (formats whose alphabet
    /// also spells words: `sk-…`, `SK…`, `cio…`).
    TokenMixed,
    /// A value after a secret-named key: placeholders, code, ids, then the entropy gate.
    Assignment,
    /// A password inside a URL or a connection string, a header's value: not a placeholder,
    /// not the user name again, at least 3 characters.
    Loose,
    /// A token found by its context only (a secret word in prose before it, a webhook's path):
    /// not a placeholder, code, id, digest, hash-length hex or public value, and random
    /// (`scan::contextual`).
    Context,
    /// A header's value (`X-…-Key`, `X-…-Token`): the header name is not a non-secret key
    /// (`X-Idempotency-Key`, `X-Cache-Key`), then `Loose`.
    Header,
    /// A value named by a secret word right before it in prose (`token was …`, `pw is …`,
    /// `snyk token: …`): `Context`, but a UUID or a hex string is a secret here (round 5).
    Named,
    /// A value in a password's position, named by no key (round 6: `AUTH <pw>`, `net use
    /// \\srv\share <pw>`, `-u user -p <pw>`, a relay map's `user:<pw>`, JAAS
    /// `user_<name>="<pw>"`): the assignment gate of a `password`, and not a port, a number or
    /// a port mapping.
    Password,
    /// A value its structure names (round 6: a `[name, value]` or `(name, value)` sequence):
    /// the assignment gate, or a hex string of 16+ or a UUID when the name is a secret's.
    Structured,
    /// A quoted literal that may hold spaces and punctuation (round 6: frameworks' salts and
    /// secret keys, WordPress `AUTH_SALT`): long, of three character classes, random, not
    /// prose (`scan::random_literal`).
    Random,
    /// A value ending a line after a secret word (round 6: a directive, a table row): a
    /// sentence's closing punctuation is not part of it (`… takes a password argument.`),
    /// then `Assignment`.
    Line,
    /// No gate (private keys).
    None,
}

#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub kind: &'static str,
    /// Case-sensitive literals; any of them in the text makes the rule run near it.
    pub anchors: &'static [&'static str],
    /// Keywords: each is looked for as written, Capitalised and UPPERCASE.
    pub keywords: &'static [&'static str],
    pub matcher: Matcher,
    pub gate: Gate,
    /// Bytes before / after an anchor the pattern may need (clipped to the anchor's line).
    pub back: u16,
    pub fwd: u16,
    /// The secret must start at a word boundary (JSON escapes count as one).
    pub left: bool,
    /// The secret must end at a word boundary.
    pub right: bool,
    /// The prefilter's look at an anchor hit before the rule's window is opened.
    pub pre: Pre,
}

/// What an anchor or keyword hit must show before a rule's pattern runs (`scan::plausible`
/// and the others): cheap looks that keep frequent words (`token`, `key`) from costing a
/// regex each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pre {
    /// By the rule's kind and matcher (`scan::check_of`).
    Auto,
    /// A generic assignment whose value holds an escaped quote or backslash.
    Escaped,
    /// An `X-…` header name before the keyword.
    XHeader,
    /// A generic name closing an XML element (`<password>`), its value after `>`.
    Xml,
    /// A generic name in `key="…"`, followed by ` value="…"`.
    KeyValue,
    /// A generic name then `("…"` (a call) or `", "` (a call's second argument).
    Call,
    /// A generic name right after `(` or `,` (a call's keyword argument), then `=`.
    Kwarg,
    /// Round 6: a name starting its line (after indentation or a prompt), then blanks and a
    /// value (`position::directive_plausible`).
    Directive,
    /// Round 6: a JAAS login module's option: `LoginModule` a little before
    /// (`position::jaas_plausible`).
    Jaas,
    /// Round 6: a name, `=`/`:`/`,`/`=>` and an opening quote (a quoted literal that may
    /// hold spaces; `scan::literal_plausible`).
    Literal,
    /// Round 7: a secret word inside a comment closing a value's line
    /// (`after::trailing_plausible`).
    Trailing,
    /// Speed (session 13): a `://` anchor followed by `user:secret@` before the URL's first
    /// `/`, blank or quote (`scan::userinfo_plausible`): the pattern runs on no other URL.
    Userinfo,
    /// Speed (session 13): a generic assignment whose name, ending at the keyword, holds a
    /// `-` (`x-api-key`, `private-token`; `scan::dashed_name_before`).
    DashedName,
    /// Speed (session 13): the anchor is followed by this many lowercase hex digits (the
    /// pattern's own run): `check_`, `stack_` never open the window.
    Hex(u8),
    /// Round 8: a short anchor frequent inside words (`re_` in `store_`): it must start its
    /// token before the window is opened (`checks::left_boundary`).
    Boundary,
    /// Tenth round: a name, a type annotation (`: String`, `: &str`, ` string`), `=` and a
    /// quoted literal (`position::typed_plausible`).
    Typed,
}

const fn tok(kind: &'static str, anchors: &'static [&'static str], pattern: &'static str) -> Rule {
    Rule {
        kind,
        anchors,
        keywords: &[],
        matcher: Matcher::Regex(pattern),
        gate: Gate::Token,
        back: 0,
        fwd: 320,
        left: true,
        right: true,
        pre: Pre::Auto,
    }
}

const fn with_back(mut r: Rule, back: u16) -> Rule {
    r.back = back;
    r
}

const fn with_fwd(mut r: Rule, fwd: u16) -> Rule {
    r.fwd = fwd;
    r
}

const fn mixed(mut r: Rule) -> Rule {
    r.gate = Gate::TokenMixed;
    r
}

const fn with_pre(mut r: Rule, pre: Pre) -> Rule {
    r.pre = pre;
    r
}

/// Round 8: the anchor must start its token (`Pre::Boundary`).
const fn bounded(mut r: Rule) -> Rule {
    r.pre = Pre::Boundary;
    r
}

const fn open_right(mut r: Rule) -> Rule {
    r.right = false;
    r
}

/// A secret assigned to a key naming its provider: `keywords` are the anchors.
const fn named(kind: &'static str, keywords: &'static [&'static str], pattern: &'static str) -> Rule {
    Rule {
        kind,
        anchors: &[],
        keywords,
        matcher: Matcher::Regex(pattern),
        gate: Gate::Token,
        back: 96,
        fwd: 320,
        left: true,
        right: true,
        pre: Pre::Auto,
    }
}

/// A rule of `named`'s form whose names are literal anchors, cased as written: the value may
/// follow its name in prose, without `=` or `:` (which a keyword's prefilter check asks for).
const fn with_anchors(kind: &'static str, anchors: &'static [&'static str], pattern: &'static str) -> Rule {
    let mut r = named(kind, &[], pattern);
    r.anchors = anchors;
    r.back = 0;
    r
}

/// Separator of an assignment: the key's closing quote or bracket, then `=`, `:`, `:=` or `=>`,
/// then the value's opening quote (quotes may be JSON-escaped).
macro_rules! assign {
    ($name:literal, $value:literal) => {
        concat!($name, r#"(?:\\?["'])?\]?\s*(?::=|=>|=|:)\s*(?:\\?["'])?(?P<s>"#, $value, r#")"#)
    };
}

/// Secret-named key words of the generic assignment (also the prefilter keywords).
pub const SECRET_WORDS: &[&str] = &["pass", "pwd", "secret", "token", "key", "cred", "auth", "_pat", "-pat"];

/// Tenth round: `SECRET_WORDS` and the names they miss (`admin_pw`, `adminPw`, `wallet_seed`,
/// "password" in other languages), for the structural rules (a block's label, a sequence's
/// name, a typed declaration) whose name is read by the gate's words.
pub const SECRET_WORDS_WIDE: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "cred",
    "auth",
    "_pat",
    "-pat",
    "_pw",
    "-pw",
    ".pw",
    "Pw",
    "seed",
    "kennwort",
    "senha",
    "contrasena",
    "wachtwoord",
    "haslo",
    "heslo",
    "salasana",
    "losenord",
    "jelszo",
];

/// Vendors and products whose tokens are named in prose (`Matcher::Vendor`), as they are
/// spelled: CI services, hosting, package and monitoring tools (not Sentry: its DSN keys are
/// public by design).
pub const VENDORS: &[&str] = &[
    "CircleCI",
    "circleci",
    "Buildkite",
    "buildkite",
    "Travis",
    "Jenkins",
    "TeamCity",
    "Bitrise",
    "AppVeyor",
    "Drone",
    "Codecov",
    "codecov",
    "Coveralls",
    "Snyk",
    "SonarQube",
    "SonarCloud",
    "Netlify",
    "Vercel",
    "Heroku",
    "Fly.io",
    "DigitalOcean",
    "Cloudflare",
    "Fastly",
    "Datadog",
    "PagerDuty",
    "Opsgenie",
    "Okta",
    "Auth0",
    "Twilio",
    "Postmark",
    "Mailgun",
    "SendGrid",
    "Mailchimp",
    "Doppler",
    "Pulumi",
    "Terraform Cloud",
    "Docker Hub",
    "JFrog",
    "Artifactory",
    "Rollbar",
    "Bugsnag",
    "Honeycomb",
    "New Relic",
    "Grafana",
    "Algolia",
    "Contentful",
    "Airtable",
    "Asana",
    "Atlassian",
    "Jira",
    "Figma",
    "Zendesk",
    "Intercom",
    "Mixpanel",
    "Amplitude",
    "Shopify",
    "Mapbox",
    "BrowserStack",
    "Sauce Labs",
    "Percy",
    "Linear",
    "Notion",
    "Slack",
    "Discord",
    "Telegram",
    "GitHub",
    "GitLab",
    "Bitbucket",
    "npm",
    "PyPI",
    "RubyGems",
    "NuGet",
    "Vault",
    "OpenAI",
    "Anthropic",
];

/// Every rule, most specific first.
pub const RULES: &[Rule] = &[
    Rule {
        kind: "private_key",
        anchors: &["-----BEGIN "],
        keywords: &[],
        matcher: Matcher::PrivateKey,
        gate: Gate::None,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    tok(
        "aws_access_key_id",
        &["A3T", "AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA"],
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}",
    ),
    named(
        "aws_secret_access_key",
        &["secret"],
        assign!(
            r"(?i:(?:aws[_\-.]?)?secret[_\-.]?access[_\-.]?key|aws[_\-.]?secret(?:[_\-.]?key)?)",
            r"[A-Za-z0-9/+]{40}"
        ),
    ),
    tok(
        "github_token",
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        r"(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,255})",
    ),
    open_right(tok(
        "gitlab_token",
        &[
            "glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glsoat-", "glcbt-", "glimt-", "glagent-", "gloas-",
            "glffct-", "glrtr-",
        ],
        r"(?:glpat|gldt|glrt|glrtr|glptt|glft|glsoat|glcbt|glimt|glagent|gloas|glffct)-[A-Za-z0-9_\-]{20,}(?:\.[A-Za-z0-9_\-]+)*",
    )),
    tok("bitbucket_app_password", &["ATBB"], r"ATBB[A-Za-z0-9_\-=]{28,}"),
    open_right(tok("atlassian_api_token", &["ATATT3", "ATCTT3"], r"AT[AC]TT3[A-Za-z0-9_\-=]{50,}")),
    open_right(tok(
        "slack_token",
        &["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-", "xoxc-", "xoxd-"],
        // `xoxc-` (browser client tokens) and `xoxd-` (the `d` session cookie, URL-encoded).
        r"(?:xox[abposrec]-[A-Za-z0-9\-]{10,}|xoxd-[A-Za-z0-9%/+=\-]{20,}|xoxe\.xox[bp]-[A-Za-z0-9\-]{10,}|xapp-[0-9]-[A-Za-z0-9\-]{10,})",
    )),
    with_back(
        open_right(tok(
            "slack_webhook",
            &["hooks.slack.com/"],
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]{8,}",
        )),
        8,
    ),
    with_back(
        open_right(tok(
            "discord_webhook",
            &["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"],
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{5,30}/[A-Za-z0-9_\-]{20,}",
        )),
        24,
    ),
    Rule {
        kind: "discord_bot_token",
        anchors: &["Bot "],
        keywords: &["discord"],
        matcher: Matcher::Regex(r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}"),
        gate: Gate::Token,
        back: 0,
        fwd: 200,
        left: true,
        right: true,
        pre: Pre::Auto,
    },
    with_back(tok("telegram_bot_token", &[":AA"], r"[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}"), 11),
    // The Bot API puts the token in the URL path: `api.telegram.org/bot<id>:<35>/method`
    // (core.telegram.org/bots/api#making-requests), glued to `bot`.
    Rule {
        kind: "telegram_bot_token",
        anchors: &["api.telegram.org/"],
        keywords: &[],
        matcher: Matcher::Regex(r"api\.telegram\.org/(?:file/)?bot(?P<s>[0-9]{5,12}:[A-Za-z0-9_\-]{30,40})"),
        gate: Gate::Token,
        back: 0,
        fwd: 80,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    tok(
        "stripe_key",
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
        r"(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,})",
    ),
    tok(
        "square_token",
        &["sq0atp-", "sq0csp-", "EAAA"],
        r"(?:sq0atp-[A-Za-z0-9_\-]{22,}|sq0csp-[A-Za-z0-9_\-]{40,}|EAAA[A-Za-z0-9_\-]{60,})",
    ),
    tok(
        "braintree_access_token",
        &["access_token$"],
        r"access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}",
    ),
    mixed(tok("twilio_api_key", &["SK"], r"SK[0-9a-fA-F]{32}")),
    tok("sendgrid_key", &["SG."], r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"),
    mixed(tok("mailgun_key", &["key-"], r"key-[0-9a-f]{32}")),
    with_back(mixed(tok("mailchimp_key", &["-us"], r"[0-9a-f]{32}-us[0-9]{1,2}")), 33),
    open_right(tok("anthropic_key", &["sk-ant-"], r"sk-ant-[A-Za-z0-9_\-]{20,}")),
    tok("openrouter_key", &["sk-or-"], r"sk-or-v[0-9]-[0-9a-f]{64}"),
    // Tenth round: Langfuse secret keys (`sk-lf-<uuid>`; its `pk-lf-` key is public), before
    // `openai_key`'s `sk-` so they keep their kind.
    tok("langfuse_key", &["sk-lf-"], r"sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    open_right(mixed(tok("openai_key", &["sk-"], r"sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}"))),
    tok("huggingface_token", &["hf_"], r"hf_[A-Za-z0-9]{34,}"),
    tok("groq_key", &["gsk_"], r"gsk_[A-Za-z0-9]{48,}"),
    tok("replicate_token", &["r8_"], r"r8_[A-Za-z0-9]{37,}"),
    tok("perplexity_key", &["pplx-"], r"pplx-[A-Za-z0-9]{40,}"),
    tok("xai_key", &["xai-"], r"xai-[A-Za-z0-9]{60,}"),
    open_right(tok("google_api_key", &["AIza"], r"AIza[0-9A-Za-z_\-]{35}")),
    open_right(tok(
        "google_oauth_token",
        &["ya29.", "GOCSPX-"],
        r"(?:ya29\.[0-9A-Za-z_\-]{30,}|GOCSPX-[0-9A-Za-z_\-]{28})",
    )),
    tok("npm_token", &["npm_"], r"npm_[A-Za-z0-9]{36}"),
    open_right(tok("pypi_token", &["pypi-AgE"], r"pypi-AgE[A-Za-z0-9_\-]{50,}")),
    tok("rubygems_token", &["rubygems_"], r"rubygems_[0-9a-f]{48}"),
    tok("dockerhub_token", &["dckr_pat_", "dckr_oat_"], r"dckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}"),
    mixed(tok("nuget_key", &["oy2"], r"oy2[a-z0-9]{43}")),
    // Matrix (Synapse) access tokens: `syt_<base64url of the user's localpart>_<20>_<6>`
    // (synapse `generate_access_token`).
    tok("matrix_access_token", &["syt_"], r"syt_[A-Za-z0-9_\-]{1,255}_[A-Za-z0-9]{20}_[A-Za-z0-9]{6}"),
    // WooCommerce REST API keys: consumer key and consumer secret, `ck_`/`cs_` + 40 hex
    // (woocommerce.github.io/woocommerce-rest-api-docs, "Authentication"). Stripe's `cs_live_…`
    // checkout sessions are not hex.
    with_pre(mixed(tok("woocommerce_key", &["ck_", "cs_"], r"c[ks]_[0-9a-f]{40}")), Pre::Hex(40)),
    mixed(tok("crates_io_token", &["cio"], r"cio[A-Za-z0-9]{32}")),
    tok("clojars_token", &["CLOJARS_"], r"CLOJARS_[a-z0-9]{60}"),
    open_right(tok(
        "vault_token",
        &["hvs.", "hvb.", "hvr."],
        r"(?:hvs\.[A-Za-z0-9_\-]{24,}|hvb\.[A-Za-z0-9_\-]{100,}|hvr\.[A-Za-z0-9_\-]{24,})",
    )),
    open_right(with_back(
        tok("terraform_token", &[".atlasv1."], r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}"),
        14,
    )),
    // Doppler (docs.doppler.com/docs/service-tokens): service tokens name their config,
    // `dp.st.<config>.<40+>`; personal, CLI, SCIM, audit and service-account tokens do not.
    tok("doppler_token", &["dp."], r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[A-Za-z0-9_\-]{1,40}\.)?[A-Za-z0-9]{40,}"),
    open_right(tok("onepassword_token", &["ops_ey"], r"ops_ey[A-Za-z0-9+/=_\-]{40,}")),
    tok(
        "newrelic_key",
        &["NRAK-", "NRII-", "NRAA-", "NRJS-", "NRRA-", "NRSP-"],
        r"NR(?:AK|II|AA|JS|RA|SP)-[A-Za-z0-9]{19,40}",
    ),
    open_right(tok("sentry_token", &["sntrys_", "sntryu_"], r"(?:sntrys_[A-Za-z0-9+/=_\-]{40,}|sntryu_[0-9a-f]{64})")),
    Rule {
        kind: "sentry_dsn",
        anchors: &["sentry"],
        keywords: &[],
        // The DSN's key is public by design (docs.sentry.io: "DSNs are safe to keep public");
        // only a legacy DSN's secret part (`<public>:<secret>@`) is a secret.
        matcher: Matcher::Regex(r"https?://[0-9a-f]{32}:(?P<s>[0-9a-f]{32})@[A-Za-z0-9.\-]*sentry"),
        gate: Gate::Token,
        back: 140,
        fwd: 16,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    open_right(tok(
        "grafana_token",
        &["glc_", "glsa_"],
        r"(?:glc_[A-Za-z0-9+/=_\-]{32,}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})",
    )),
    tok("shopify_token", &["shpat_", "shpss_", "shpca_", "shppa_"], r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    tok("linear_key", &["lin_api_"], r"lin_api_[A-Za-z0-9]{40}"),
    mixed(tok("notion_token", &["secret_", "ntn_"], r"(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})")),
    tok("heroku_token", &["HRKU-"], r"HRKU-[A-Za-z0-9_\-]{20,}"),
    named(
        "heroku_token",
        &["heroku"],
        assign!(
            r"(?i:heroku)[A-Za-z0-9_.\-]*(?i:key|token)",
            r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        ),
    ),
    tok("digitalocean_token", &["dop_v1_", "doo_v1_", "dor_v1_"], r"do[por]_v1_[a-f0-9]{64}"),
    tok("netlify_token", &["nfp_"], r"nfp_[A-Za-z0-9]{36,}"),
    named(
        "netlify_token",
        &["netlify"],
        assign!(r"(?i:netlify)[A-Za-z0-9_.\-]*(?i:token|key)", r"[A-Za-z0-9_\-]{40,}"),
    ),
    named("vercel_token", &["vercel"], assign!(r"(?i:vercel)[A-Za-z0-9_.\-]*(?i:token|key)", r"[A-Za-z0-9]{24,}")),
    tok("supabase_token", &["sbp_", "sb_secret_"], r"(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\-]{20,})"),
    tok(
        "planetscale_token",
        &["pscale_tkn_", "pscale_pw_", "pscale_oauth_"],
        r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{30,}",
    ),
    tok("postman_key", &["PMAK-"], r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    named(
        "datadog_key",
        &["datadog", "dd_", "dd-", "DD_", "DD-"],
        assign!(r"(?i:dd|datadog)[_\-.]?(?i:api|app|application)[_\-.]?(?i:key)", r"[a-f0-9]{32}(?:[a-f0-9]{8})?"),
    ),
    // --- Second round (issue 20): more vendors, each from its documented token format
    // (prefix, length, charset); sources are listed per family in docs/privacy.md
    // ("Formats added in the second round"). Cross-checked against public rule lists
    // (gitleaks' config, GitHub secret scanning's partner list) for knowledge only.
    tok("huggingface_token", &["api_org_"], r"api_org_[A-Za-z0-9]{34}"),
    tok("langsmith_key", &["lsv2_"], r"lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}"),
    tok("pinecone_key", &["pcsk_"], r"pcsk_[A-Za-z0-9]{4,10}_[A-Za-z0-9]{40,}"),
    tok("tavily_key", &["tvly-"], r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{32,}"),
    mixed(tok("firecrawl_key", &["fc-"], r"fc-[0-9a-f]{32}")),
    mixed(tok("elevenlabs_key", &["sk_"], r"sk_[0-9a-f]{48}")),
    tok("alibaba_access_key_id", &["LTAI"], r"LTAI[A-Za-z0-9]{12,20}"),
    mixed(tok("tencent_secret_id", &["AKID"], r"AKID[A-Za-z0-9]{32}")),
    tok("scaleway_key", &["SCW"], r"SCW[A-Z0-9]{17}"),
    tok("yandex_key", &["AQVN"], r"AQVN[A-Za-z0-9_\-]{35,38}"),
    tok("flyio_token", &["fo1_", "fm1r_", "fm2_"], r"(?:fo1_[A-Za-z0-9_\-]{43}|fm[12][ar]?_[A-Za-z0-9+/=_\-]{100,})"),
    tok("render_key", &["rnd_"], r"rnd_[A-Za-z0-9]{32}"),
    tok("pulumi_token", &["pul-"], r"pul-[a-f0-9]{40}"),
    tok("infracost_key", &["ico-"], r"ico-[A-Za-z0-9]{32}"),
    tok("scalingo_token", &["tk-us-"], r"tk-us-[A-Za-z0-9_\-]{48}"),
    tok("prefect_key", &["pnu_"], r"pnu_[A-Za-z0-9]{36}"),
    tok("readme_key", &["rdme_"], r"rdme_[a-z0-9]{70}"),
    tok("harness_token", &["pat.", "sat."], r"[ps]at\.[A-Za-z0-9_\-]{22}\.[0-9a-f]{24}\.[A-Za-z0-9]{20}"),
    tok("dynatrace_token", &["dt0c01."], r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"),
    tok("contentful_token", &["CFPAT-"], r"CFPAT-[A-Za-z0-9_\-]{43}"),
    tok("figma_token", &["figd_", "figp_"], r"fig[dp]_[A-Za-z0-9_\-=]{40,}"),
    tok("frameio_token", &["fio-u-"], r"fio-u-[A-Za-z0-9_\-=]{64}"),
    tok("typeform_token", &["tfp_"], r"tfp_[A-Za-z0-9_\-.=]{59}"),
    tok("sourcegraph_token", &["sgp_"], r"sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}"),
    tok("clickup_token", &["pk_"], r"pk_[0-9]{6,10}_[A-Z0-9]{32}"),
    tok("jfrog_token", &["AKCp", "cmVmdGtuOjAxOj"], r"(?:AKCp[A-Za-z0-9]{69}|cmVmdGtuOjAxOj[A-Za-z0-9]{50,})"),
    tok("sendinblue_key", &["xkeysib-", "xsmtpsib-"], r"x(?:key|smtp)sib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    tok("shippo_token", &["shippo_"], r"shippo_(?:live|test)_[a-f0-9]{40}"),
    tok("duffel_token", &["duffel_"], r"duffel_(?:live|test)_[A-Za-z0-9_\-=]{43}"),
    tok("easypost_key", &["EZAK", "EZTK"], r"EZ[AT]K[A-Za-z0-9]{54}"),
    tok("flutterwave_key", &["FLWSECK"], r"FLWSECK(?:_TEST)?-(?:[a-h0-9]{32}-X|[a-h0-9]{12})"),
    tok(
        "plaid_token",
        &["access-sandbox-", "access-development-", "access-production-"],
        r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    ),
    tok("adafruit_key", &["aio_"], r"aio_[A-Za-z0-9]{28}"),
    // CircleCI personal and project API tokens of the current format (`CCIPAT_`, `CCIPRJ_`:
    // circleci.com/docs "Managing API tokens"; GitHub secret scanning's partner list).
    tok("circleci_token", &["CCIPAT_", "CCIPRJ_"], r"CCIP(?:AT|RJ)_[A-Za-z0-9]{16,40}_[A-Fa-f0-9]{32,48}"),
    // Buildkite user (API) and agent access tokens (`bkua_`, `bkaa_`: buildkite.com/docs,
    // "Token security"; the `bkaj_` job token is a JWT, the `jwt` rule's).
    tok("buildkite_token", &["bkua_", "bkaa_"], r"bk(?:ua|aa)_[A-Za-z0-9_.\-]{30,120}"),
    tok("gitlab_token", &["GR1348941"], r"GR1348941[A-Za-z0-9_\-]{20,}"),
    tok("cloudflare_origin_ca_key", &["v1.0-"], r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    // Azure DevOps PATs of the 2024 format: 84 characters with the fixed `AZDO` signature at
    // 76..80 (learn.microsoft.com, "Use personal access tokens").
    with_back(tok("azure_devops_pat", &["AZDO"], r"[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}"), 76),
    // New Relic license (ingest) keys of the current format end in `NRAL`.
    with_back(tok("newrelic_key", &["NRAL"], r"[a-f0-9]{36}NRAL"), 36),
    // Firebase Cloud Messaging legacy server keys (`AAAA<7>:APA91b<134>`).
    with_back(tok("fcm_server_key", &[":APA91b"], r"AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{134}"), 11),
    tok("age_secret_key", &["AGE-SECRET-KEY-1"], r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    open_right(tok("mapbox_token", &["sk.eyJ"], r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}")),
    tok("databricks_token", &["dapi"], r"dapi[0-9a-f]{32}(?:-[0-9])?"),
    tok("airtable_token", &["pat"], r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    tok("facebook_token", &["EAAB", "EAAC", "EAAG", "EAAI", "EAAJ"], r"EAA[BCGIJ][A-Za-z0-9]{80,}"),
    open_right(tok("google_oauth_token", &["1//0"], r"1//0[A-Za-z0-9_\-]{40,}")),
    // --- Eighth round (issue 20): vendor formats the table did not know, each by its
    // documented prefix, length and alphabet (sources per row in docs/privacy.md, "Eighth
    // round"); every prefix here is distinctive enough that a value of its shape is the secret.
    // Cloudflare's scannable API credentials (developers.cloudflare.com, "Token formats"):
    // `cfk_` global keys, `cfut_` user and `cfat_` account tokens, 40 characters + a checksum.
    tok("cloudflare_token", &["cfk_", "cfut_", "cfat_"], r"(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[A-Za-z0-9]{4,16}"),
    // Tailscale auth, API, OAuth-client, SCIM and webhook keys: `tskey-<kind>-<id>-<secret>`.
    tok("tailscale_key", &["tskey-"], r"tskey-(?:[a-z]{3,8}-)?[A-Za-z0-9]{6,24}-[A-Za-z0-9]{20,}"),
    // SonarQube/SonarCloud user, project and global analysis tokens: `squ_`/`sqp_`/`sqa_` + 40 hex.
    tok("sonarqube_token", &["squ_", "sqp_", "sqa_", "sqco_"], r"(?:sq[upa]_[a-f0-9]{40}|sqco_[A-Za-z0-9]{59})"),
    // Honeycomb ingest and management keys (`hcaik_`, `hcxik_`, `hcxmk_`, `hcxlk_`, `hcamk_`).
    tok(
        "honeycomb_key",
        &["hcaik_", "hcxik_", "hcxmk_", "hcxlk_", "hcamk_"],
        r"hc(?:aik|xik|xmk|xlk|amk)_[A-Za-z0-9]{20,}",
    ),
    // HubSpot private-app and personal access tokens: `pat-<region>-<uuid>`.
    tok(
        "hubspot_token",
        &["pat-na", "pat-eu", "pat-ap"],
        r"pat-(?:na|eu|ap)[0-9]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    ),
    // dbt Cloud service and personal tokens.
    tok("dbt_cloud_token", &["dbtc_", "dbtu_"], r"dbt[cu]_[A-Za-z0-9_\-]{30,}"),
    // Amazon Bedrock API keys: long-term `ABSK` + base64 of `BedrockAPIKey-…`, short-term
    // `bedrock-api-key-` + base64.
    open_right(tok(
        "aws_bedrock_key",
        &["ABSKQmVkcm9ja0FQSUtleS", "bedrock-api-key-"],
        r"(?:ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/=]{20,}|bedrock-api-key-[A-Za-z0-9+/=%]{40,})",
    )),
    // Resend (`re_<8>_<24>`), Neon (`napi_`), Together AI (`tgp_v1_`), Cerebras (`csk-`), Deno
    // Deploy (`ddp_`), Honeybadger (`hbp_`), Linear OAuth (`lin_oauth_`), Databricks OAuth
    // secrets (`dose` + 32 hex), PostHog personal and project-secret keys (`phx_`, `phs_`; its
    // `phc_` project key is public by design).
    bounded(with_fwd(mixed(tok("resend_key", &["re_"], r"re_[A-Za-z0-9]{8,10}_[A-Za-z0-9]{20,32}")), 40)),
    mixed(tok("neon_key", &["napi_"], r"napi_[A-Za-z0-9]{40,}")),
    tok("together_key", &["tgp_v1_"], r"tgp_v1_[A-Za-z0-9_\-]{40,}"),
    bounded(mixed(tok("cerebras_key", &["csk-"], r"csk-[a-z0-9]{40,}"))),
    mixed(tok("deno_deploy_token", &["ddp_", "ddw_"], r"dd[pw]_[A-Za-z0-9]{36}")),
    mixed(tok("honeybadger_token", &["hbp_"], r"hbp_[A-Za-z0-9]{36}")),
    tok("linear_key", &["lin_oauth_"], r"lin_oauth_[a-f0-9]{64}"),
    bounded(with_fwd(mixed(tok("databricks_token", &["dose"], r"dose[a-f0-9]{32}")), 40)),
    mixed(tok("posthog_key", &["phx_", "phs_"], r"ph[xs]_[A-Za-z0-9]{40,}")),
    // Intercom access tokens: base64 of `tok:…` (`dG9rO…`).
    tok("intercom_token", &["dG9rO"], r"dG9rO[A-Za-z0-9+/]{40,}={0,2}"),
    // Grafana's legacy API keys: base64 of a JSON object `{"k":"…","n":"…","id":…}`.
    tok("grafana_token", &["eyJrIjoi"], r"eyJrIjoi[A-Za-z0-9+/]{40,}={0,2}"),
    // Salesforce access and session ids: `<15- or 18-character org id>!AQ…`.
    with_back(tok("salesforce_token", &["!AQ"], r"00D[A-Za-z0-9]{12,15}!AQ[A-Za-z0-9._]{80,}"), 18),
    // LaunchDarkly server-side SDK keys and API access tokens: `sdk-`/`api-` + UUID.
    bounded(with_fwd(
        tok(
            "launchdarkly_key",
            &["sdk-", "api-"],
            r"(?:sdk|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        ),
        48,
    )),
    // Paddle Billing API keys, Checkout.com sandbox secret keys, Akamai EdgeGrid tokens,
    // Octopus Deploy API keys.
    tok("paddle_key", &["pdl_"], r"pdl_(?:live|sdbx)_apikey_[A-Za-z0-9_]{20,}"),
    mixed(tok("checkout_key", &["sk_sbox_"], r"sk_sbox_[a-z0-9]{20,}")),
    mixed(tok("akamai_token", &["akab-"], r"akab-[a-z0-9]{16}-[a-z0-9]{16}")),
    bounded(with_fwd(mixed(tok("octopus_key", &["API-"], r"API-[A-Z0-9]{25,32}")), 40)),
    // 1Password account Secret Keys (`A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX`).
    bounded(mixed(tok("onepassword_token", &["A3-"], r"A3-[A-Z0-9]{6}-[A-Z0-9]{6}(?:-[A-Z0-9]{5}){4}"))),
    // X (Twitter) app bearer tokens: 21+ `A`s, then URL-encoded base64 (`%2B`, `%3D`), which
    // base64 of binary zeros (an image) never holds.
    tok("twitter_bearer_token", &["AAAAAAAAAAAAAAAAAAAA"], r"A{20,24}[A-Za-z0-9]{4,}%[A-Za-z0-9%]{30,}"),
    // Dropbox short-lived access tokens (`sl.` + 130+; `sl.u.` for the newer ones).
    bounded(with_fwd(tok("dropbox_token", &["sl."], r"sl\.(?:u\.)?[A-Za-z0-9_\-]{130,}"), 2048)),
    // AWS CodeArtifact authorization tokens: base64url of `{"ver":1,"isu":…` (about 1 KB:
    // past a token rule's usual window), the password of `https://aws:<token>@…codeartifact…`
    // and of `.npmrc`/`pip.conf` entries.
    with_fwd(
        open_right(tok(
            "aws_codeartifact_token",
            &["eyJ2ZXIiOjEsImlzdSI6"],
            r"eyJ2ZXIiOjEsImlzdSI6[A-Za-z0-9_\-.=]{60,}",
        )),
        4096,
    ),
    // AWS STS session tokens (`aws sts assume-role`, `AWS_SESSION_TOKEN`): base64 of a
    // binary structure whose start is fixed (`IQoJb3JpZ2luX2Vj…` since 2019, `FwoGZXIvYXdzE…`
    // and `FQoGZXIvYXdzE…` before), 300–1,300 characters.
    with_fwd(
        open_right(tok(
            "aws_session_token",
            &["IQoJb3JpZ2luX2Vj", "FwoGZXIvYXdzE", "FQoGZXIvYXdzE"],
            r"(?:IQoJb3JpZ2luX2Vj|F[wQ]oGZXIvYXdzE)[A-Za-z0-9+/=]{100,}",
        )),
        4096,
    ),
    // Develocity (Gradle Enterprise) access keys: `<server>=<key>` in `DEVELOCITY_ACCESS_KEY`
    // (several `;`-separated), the key 40–64 lowercase letters and digits.
    named(
        "develocity_access_key",
        &["develocity", "gradle_enterprise", "GRADLE_ENTERPRISE"],
        r#"(?i:develocity|gradle_enterprise)[_\-.]?(?i:access)[_\-.]?(?i:key)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?:[A-Za-z0-9.\-]+=[a-z0-9]{40,64};)*[A-Za-z0-9.\-]+=(?P<s>[a-z0-9]{40,64})"#,
    ),
    // A wallet's BIP-39 mnemonic (its seed: 12–24 lowercase words) under a name saying so
    // (`MNEMONIC`, `SEED_PHRASE`, `recovery_phrase`): words, which the assignment gate reads
    // as prose.
    named(
        "mnemonic_phrase",
        &["mnemonic", "seed_phrase", "seed phrase", "recovery_phrase", "recovery phrase", "seed_words"],
        r#"(?i:mnemonic|seed[_\-. ]?phrase|recovery[_\-. ]?phrase|seed[_\-. ]?words)(?:\\?["'])?\s*(?::=|=>|=|:)\s*(?:\\?["'])?(?P<s>(?:[a-z]{3,8} ){11,23}[a-z]{3,8})"#,
    ),
    // Session 13 (after the ninth corpus): tokens in a URL's path or query at a vendor's
    // integration path, where no name says what they are. anaconda.org channel tokens
    // (`https://conda.anaconda.org/t/<token>/<channel>`, anaconda.org's "token
    // authentication"); PagerDuty Events API v1 integration keys
    // (`events.pagerduty.com/integration/<32 hex>/enqueue`); Render deploy hooks
    // (`api.render.com/deploy/srv-<id>?key=<key>`: the key triggers a deploy).
    tok("anaconda_token", &["anaconda.org/t/"], r"anaconda\.org/t/(?P<s>[A-Za-z0-9][A-Za-z0-9_\-]{15,127})/"),
    tok(
        "pagerduty_integration_key",
        &["pagerduty.com/integration/"],
        r"pagerduty\.com/integration/(?P<s>[a-f0-9]{32})/",
    ),
    tok(
        "render_deploy_hook",
        &["api.render.com/deploy/"],
        r"api\.render\.com/deploy/srv-[a-z0-9]+\?key=(?P<s>[A-Za-z0-9_\-]{8,64})",
    ),
    // Infisical service tokens: `st.<token id (UUID)>.<32 hex>.<32 hex>` (Infisical's
    // "service tokens"); `st.` is frequent inside words (`test.`, `first.`), so the anchor
    // must start its token.
    bounded(with_fwd(
        tok(
            "infisical_service_token",
            &["st."],
            r"st\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[0-9a-f]{32}\.[0-9a-f]{32}",
        ),
        120,
    )),
    // Logz.io shipping and API tokens under a name saying so: 32 ASCII letters (Logz.io's
    // "Manage tokens"), which the assignment gate reads as a word without a digit.
    named(
        "logzio_token",
        &["logzio", "logz_io", "logz.io"],
        r#"(?i:logz[_.]?io)[_\-.]?(?i:shipping[_\-.]?|api[_\-.]?|metrics[_\-.]?|listener[_\-.]?)?(?i:token)(?:\\?["'])?\s*(?::=|=>|=|:)\s*(?:\\?["'])?(?P<s>[A-Za-z]{32})"#,
    ),
    // TeamCity access tokens: a JWT-like token whose header is `{"typ": "TCV2"}` and whose
    // second part is no JSON (the `jwt` rule's `.eyJ` does not match it).
    open_right(tok(
        "teamcity_token",
        &["eyJ0eXAiOiAiVENWMiJ9."],
        r"eyJ0eXAiOiAiVENWMiJ9\.[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}",
    )),
    // Jina AI API keys (`jina_` + 40+), Modal token secrets (`as-` + 20+; the `ak-` token id
    // is an id).
    tok("jina_key", &["jina_"], r"jina_[A-Za-z0-9_\-]{40,}"),
    bounded(mixed(tok("modal_token", &["as-"], r"as-[A-Za-z0-9]{20,40}"))),
    // minisign and signify secret keys, one line of base64: minisign's `Ed` + `Sc` (scrypt) or
    // `\0\0` + `B2` (`RWRTY0Iy…`, `RWQAAEIy…`), signify's `Ed` + `BK` (`RWRCSw…`).
    tok("private_key", &["RWRTY0Iy", "RWQAAEIy", "RWRCSw"], r"(?:RWRTY0Iy|RWQAAEIy|RWRCSw)[A-Za-z0-9+/]{80,}={0,2}"),
    // A private key outside PEM: the base64 of its DER, one line (an Apple `.p8` pasted into a
    // variable, a GitHub App key without its armour): PKCS#8 RSA and EC, PKCS#1 RSA, SEC1 EC,
    // Ed25519. A public key's DER (`…AAOCAQ8A…`, a BIT STRING) never starts so.
    with_back(
        with_fwd(
            tok(
                "private_key",
                &[
                    "IBADANBgkqhkiG9w0BAQEFAASC",
                    "IBAAKCA",
                    "AgEAMBMGByqGSM49AgEGCCqGSM49AwEHB",
                    "MHcCAQEEI",
                    "MC4CAQAwBQYDK2VwBCIEI",
                ],
                r"(?:MII[A-Za-z0-9+/]{2}IBADANBgkqhkiG9w0BAQEFAASC|MII[A-Za-z0-9+/]{2}IBAAKCA[Qg]EA|MIG[HT]AgEAMBMGByqGSM49AgEGCCqGSM49AwEHB|MHcCAQEEI|MC4CAQAwBQYDK2VwBCIEI)[A-Za-z0-9+/]{20,}={0,2}",
            ),
            4096,
        ),
        5,
    ),
    // --- Tenth round (issue 20): documented formats from public catalogues that the table
    // lacked — gitleaks' default rule set, TruffleHog's detectors, GitHub's list of supported
    // secret-scanning patterns, Microsoft's identifiable-key signatures — each written here from
    // its documented prefix, length and alphabet (sources per row in docs/privacy.md, "Tenth
    // round"). Every one runs at its own literal anchor; short anchors that occur inside words
    // must start their token (`bounded`).
    mixed(tok("adobe_client_secret", &["p8e-"], r"p8e-[A-Za-z0-9]{32}")),
    // Authress service-client access keys: `<sc|ext|scauth|authress>_<id>.<4-6>.acc_<id>.<key>`.
    with_back(
        tok(
            "authress_key",
            &[".acc_", ".acc-"],
            r"(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_\-][A-Za-z0-9\-]{10,32}\.[A-Za-z0-9+/_=\-]{30,120}",
        ),
        48,
    ),
    bounded(mixed(tok("clickhouse_key", &["4b1d"], r"4b1d[A-Za-z0-9]{38}"))),
    tok("defined_networking_token", &["dnkey-"], r"dnkey-[A-Za-z0-9=_\-]{26}-[A-Za-z0-9=_\-]{52}"),
    tok("intra42_secret", &["s-s4t2ud-", "s-s4t2af-"], r"s-s4t2(?:ud|af)-[a-f0-9]{64}"),
    with_back(mixed(tok("maxmind_license_key", &["_mmk"], r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk")), 36),
    tok("openshift_token", &["sha256~"], r"sha256~[A-Za-z0-9_\-]{43}"),
    tok("settlemint_token", &["sm_aat_", "sm_pat_", "sm_sat_"], r"sm_(?:aat|pat|sat)_[A-Za-z0-9]{16,64}"),
    // Sidekiq Pro/Enterprise gem-server credentials, `<8 hex>:<8 hex>`, in Bundler's config.
    with_anchors(
        "sidekiq_credentials",
        &["BUNDLE_GEMS__CONTRIBSYS__COM", "BUNDLE_ENTERPRISE__CONTRIBSYS__COM"],
        r#"BUNDLE_(?:GEMS|ENTERPRISE)__CONTRIBSYS__COM(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?P<s>[a-f0-9]{8}:[a-f0-9]{8})"#,
    ),
    // Yandex Cloud IAM tokens: `t1.<header>.<86>`.
    bounded(with_fwd(tok("yandex_key", &["t1."], r"t1\.[A-Za-z0-9_\-]{8,}={0,2}\.[A-Za-z0-9_\-]{86}={0,2}"), 600)),
    tok("apify_token", &["apify_api_"], r"apify_api_[A-Za-z0-9\-]{36}"),
    // Bitbucket Data Center HTTP access tokens.
    tok("bitbucket_dc_token", &["BBDC-"], r"BBDC-[A-Za-z0-9+/@_\-]{40,50}"),
    // AWS AppSync API keys (`da2-` + 26).
    bounded(mixed(tok("aws_appsync_key", &["da2-"], r"da2-[a-z0-9]{26}"))),
    // Microsoft Entra ID refresh tokens: `0.A…` / `1.A…`, a `.Ag…` part of 250+.
    bounded(with_fwd(
        open_right(tok(
            "azure_refresh_token",
            &["0.A", "1.A"],
            r"[01]\.A[A-Za-z0-9_\-]{50,}(?:\.[0-9])?\.Ag[A-Za-z0-9_\-]{250,}",
        )),
        4096,
    )),
    tok("bannerbear_key", &["bb_pr_", "bb_ma_"], r"bb_(?:pr|ma)_[a-f0-9]{30}"),
    tok("endorlabs_key", &["endr+"], r"endr\+[A-Za-z0-9\-]{16}"),
    bounded(mixed(tok("finage_key", &["API_KEY"], r"API_KEY[0-9A-Z]{32}"))),
    tok("fleetbase_key", &["flb_live_"], r"flb_live_[0-9A-Za-z]{20}"),
    tok("flexport_key", &["shltm_"], r"shltm_[0-9A-Za-z_\-]{40}"),
    bounded(open_right(tok("fullstory_key", &["na1."], r"na1\.[A-Za-z0-9+/]{100,}={0,2}"))),
    tok("newrelic_key", &["NRIQ-"], r"NRIQ-[A-Za-z0-9_\-]{25,40}"),
    bounded(mixed(tok("nightfall_key", &["NF-"], r"NF-[A-Za-z0-9]{32}"))),
    tok("nvidia_key", &["nvapi-"], r"nvapi-[A-Za-z0-9_\-]{64}"),
    tok("pagarme_key", &["ak_live_"], r"ak_live_[A-Za-z0-9]{30}"),
    tok("pganalyze_key", &["pgar_"], r"pgar_[A-Za-z0-9]{27}"),
    // PubNub secret keys (`sec-c-` + base64; the `pub-c-`/`sub-c-` keys ship in clients).
    tok("pubnub_secret_key", &["sec-c-"], r"sec-c-[A-Za-z0-9+/]{40,}={0,2}"),
    tok("ramp_secret", &["ramp_sec_"], r"ramp_sec_[A-Za-z0-9]{48}"),
    tok(
        "recharge_token",
        &[
            "sk_1x",
            "sk_2x",
            "sk_3x",
            "sk_5x",
            "sk_10x",
            "sk_test_1x",
            "sk_test_2x",
            "sk_test_3x",
            "sk_test_5x",
            "sk_test_10x",
        ],
        r"sk_(?:test_)?(?:1|2|3|5|10)x[123]_[0-9a-fA-F]{64}",
    ),
    tok(
        "robinhood_key",
        &["rh-api-"],
        r"rh-api-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    ),
    tok("rootly_key", &["rootly_"], r"rootly_[a-f0-9]{64}"),
    tok("saladcloud_key", &["salad_cloud_"], r"salad_cloud_[0-9A-Za-z]{1,7}_[0-9A-Za-z]{7,235}"),
    with_pre(tok("sourcegraph_token", &["slk_"], r"slk_[a-f0-9]{64}"), Pre::Hex(64)),
    mixed(tok("spectralops_token", &["spu-"], r"spu-[a-z0-9]{32}")),
    tok("ubidots_token", &["BBFF-"], r"BBFF-[0-9A-Za-z]{30}"),
    bounded(tok("voiceflow_key", &["VF."], r"VF\.(?:(?:DM|WS)\.)?[a-fA-F0-9]{24}\.[A-Za-z0-9]{16}")),
    // Zoho OAuth access and refresh tokens: `1000.<32 hex>.<32 hex>`.
    bounded(tok("zoho_token", &["1000."], r"1000\.[a-f0-9]{32}\.[a-f0-9]{32}")),
    // Klaviyo private API keys: `pk_` + 34 hex (its 6-character public key is a site id).
    mixed(tok("klaviyo_key", &["pk_"], r"pk_(?:[A-Za-z0-9]{6}_)?[0-9a-f]{34}")),
    // Salesforce refresh tokens (`5AEP861…`).
    tok("salesforce_token", &["5AEP861"], r"5AEP861[A-Za-z0-9._=]{80,}"),
    // Tines webhooks: the path's two 32-character parts are the secret.
    Rule {
        kind: "webhook_url",
        anchors: &[".tines.com/webhook/"],
        keywords: &[],
        matcher: Matcher::Regex(r"\.tines\.com/webhook/(?P<s>[a-z0-9]{32}/[a-z0-9]{32})"),
        gate: Gate::Token,
        back: 0,
        fwd: 120,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // Azure's identifiable keys: a service's four-character signature near the key's end
    // (Microsoft's security-utilities "identifiable secrets": Event Grid `AZEG`, Service Bus
    // `+ASb`, Event Hubs `+AEh`, Relay `+ARm`, Batch `+ABa`, Functions `AzFu`, Cosmos DB
    // `ACDb`, Cache for Redis `AzCa`, Storage `+ASt`, AI Search `AzSe`, ML classic `+AMC`,
    // Container Registry `+ACR`, SQL `+SQL`, IoT `AIoT`, API Management `APIM`), then 5–6
    // characters of checksum and the base64 padding.
    with_back(
        mixed(tok(
            "azure_identifiable_key",
            &[
                "AZEG", "+ASb", "+AEh", "+ARm", "+ABa", "AzFu", "ACDb", "AzCa", "+ASt", "AzSe", "+AMC", "+ACR", "+SQL",
                "AIoT", "APIM",
            ],
            r"[A-Za-z0-9+/_\-]{30,80}(?:AZEG|\+ASb|\+AEh|\+ARm|\+ABa|AzFu|ACDb|AzCa|\+ASt|AzSe|\+AMC|\+ACR|\+SQL|AIoT|APIM)[A-Za-z0-9+/_\-]{5,6}={0,2}",
        )),
        80,
    ),
    // Aiven (and DigitalOcean managed database) service passwords: `AVNS_` + 19.
    tok("aiven_password", &["AVNS_"], r"AVNS_[A-Za-z0-9_\-]{16,40}"),
    // Login with Amazon client secrets (Selling Partner API, Alexa): `amzn1.oa2-cs.v1.` + 64 hex.
    tok("amazon_oauth_secret", &["amzn1.oa2-cs.v1."], r"amzn1\.oa2-cs\.v1\.[a-f0-9]{64}"),
    tok("onesignal_key", &["os_v2_app_", "os_v2_org_"], r"os_v2_(?:app|org)_[a-z2-7]{40,}"),
    // Midtrans server keys (`Mid-server-…`, `SB-Mid-server-…` in the sandbox; `Mid-client-` is public).
    mixed(tok("midtrans_key", &["Mid-server-"], r"Mid-server-[A-Za-z0-9_\-]{20,}")),
    tok("mercury_token", &["secret-token:mercury_"], r"secret-token:mercury_(?:production|sandbox)_[A-Za-z0-9_]{20,}"),
    mixed(tok(
        "persona_key",
        &["persona_production_", "persona_sandbox_"],
        r"persona_(?:production|sandbox)_[A-Za-z0-9_\-]{20,}",
    )),
    mixed(tok("samsara_token", &["samsara_api_"], r"samsara_api_[A-Za-z0-9]{20,}")),
    bounded(mixed(tok(
        "trigger_dev_key",
        &["tr_dev_", "tr_prod_", "tr_stg_", "tr_preview_"],
        r"tr_(?:dev|prod|stg|preview)_[A-Za-z0-9]{20,}",
    ))),
    mixed(tok("devcycle_key", &["dvc_server_"], r"dvc_server_[A-Za-z0-9_\-]{20,}")),
    // Axiom API and personal tokens: `xaat-`/`xapt-` + UUID.
    tok("axiom_token", &["xaat-", "xapt-"], r"xa[ap]t-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    // DataStax Astra DB application tokens: `AstraCS:<24 letters>:<64 hex>`.
    tok("datastax_token", &["AstraCS:"], r"AstraCS:[A-Za-z]{24}:[a-f0-9]{64}"),
    // Docker Swarm join tokens (`SWMTKN-1-<50>-<25>`: a node joins the cluster with it) and
    // autolock unlock keys (`SWMKEY-1-<43>`).
    tok(
        "docker_swarm_token",
        &["SWMTKN-1-", "SWMKEY-1-"],
        r"(?:SWMTKN-1-[a-z0-9]{50}-[a-z0-9]{25}|SWMKEY-1-[A-Za-z0-9+/]{43})",
    ),
    // Tableau personal access token secrets: `<22 base64>==:<32>`.
    with_back(mixed(tok("tableau_token", &["==:"], r"[A-Za-z0-9+/]{22}==:[A-Za-z0-9]{32}")), 24),
    // WakaTime API keys: `waka_<uuid>`.
    tok("wakatime_key", &["waka_"], r"waka_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    // Stytch project secrets (`secret-live-…`, `secret-test-…`; the `project-live-<uuid>` id
    // is an id). The generic gate takes a value that starts with its name's word for a
    // placeholder (`secret-…`), so the format needs its own rule.
    mixed(tok("stytch_secret", &["secret-live-", "secret-test-"], r"secret-(?:live|test)-[A-Za-z0-9_\-]{24,}={0,2}")),
    // Zuplo API keys (`zpka_<32 hex>_<8 hex>`).
    tok("zuplo_key", &["zpka_"], r"zpka_[a-f0-9]{32}_[a-f0-9]{8}"),
    // A JWT is matched whole or not at all: an access token from Azure or Google is 1–3 KB, far
    // past a token rule's usual reach (session 12: a bare `az account get-access-token` output
    // was stored). `eyJ` is rare enough in other text that a wide window costs nothing.
    with_fwd(
        open_right(tok("jwt", &["eyJ"], r"eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
        16384,
    ),
    Rule {
        kind: "azure_storage_key",
        anchors: &["AccountKey="],
        keywords: &[],
        matcher: Matcher::Regex(r"AccountKey=(?P<s>[A-Za-z0-9+/]{20,}={0,2})"),
        gate: Gate::Token,
        back: 0,
        fwd: 200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "azure_shared_access_key",
        anchors: &["SharedAccessKey=", "SharedAccessSignature="],
        keywords: &[],
        matcher: Matcher::Regex(r"SharedAccess(?:Key|Signature)=(?P<s>[A-Za-z0-9+/%]{20,}(?:=|%3D){0,2})"),
        gate: Gate::Token,
        back: 0,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "azure_sas_signature",
        anchors: &["sig="],
        keywords: &[],
        matcher: Matcher::Regex(r"[?&;]sig=(?P<s>[A-Za-z0-9%+/]{20,}(?:=|%3D){0,2})"),
        gate: Gate::Token,
        back: 1,
        fwd: 200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    with_back(open_right(tok("azure_client_secret", &["Q~"], r"[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}")), 4),
    // A base64 value that decodes to text holding a secret (a Kubernetes
    // `.dockerconfigjson` holding a docker `auth`, a PEM key in a Secret's `data`): anchored
    // on the base64 of a JSON object (`{"` → `eyJ`, `{\n ` → `ewog`, `{\n\t` → `ewoJ`) and of
    // `-----BEGIN` (`LS0tLS1CRUdJTi`); decoded at most 64 KiB and 3 levels deep.
    Rule {
        kind: "base64_secret",
        anchors: &["eyJ", "ewog", "ewoJ", "LS0tLS1CRUdJTi", "ZXlKaGJHY2lPa", "ZXlKMGVYQWlPa", "ZXlKcmFXUWlPa"],
        keywords: &[],
        matcher: Matcher::Base64,
        gate: Gate::None,
        back: 0,
        fwd: 0,
        left: true,
        right: false,
        pre: Pre::Auto,
    },
    // Tokens in the path of known webhook and API hosts.
    with_back(
        open_right(tok(
            "webhook_url",
            &["webhook.office.com/", "outlook.office.com/webhook", "outlook.office365.com/webhook"],
            // Microsoft Teams incoming webhooks (learn.microsoft.com, "Create an Incoming Webhook").
            r"https://(?:[A-Za-z0-9\-]+\.webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook)/[A-Za-z0-9@/\-]{40,}",
        )),
        40,
    ),
    // Zapier catch hooks (`/hooks/catch/<account>/<hook>/`), IFTTT Webhooks keys
    // (`/trigger/<event>/with/key/<key>`, `/use/<key>`).
    Rule {
        kind: "webhook_url",
        anchors: &["hooks.zapier.com/"],
        keywords: &[],
        matcher: Matcher::Regex(r"hooks\.zapier\.com/hooks/catch/(?P<s>[0-9]{3,}/[A-Za-z0-9]{5,})"),
        gate: Gate::Token,
        back: 0,
        fwd: 200,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    Rule {
        kind: "webhook_url",
        anchors: &["maker.ifttt.com/"],
        keywords: &[],
        matcher: Matcher::Regex(
            r"maker\.ifttt\.com/(?:trigger/[^/\s]{1,64}/(?:json/)?with/key|use)/(?P<s>[A-Za-z0-9_\-]{16,})",
        ),
        gate: Gate::Token,
        back: 0,
        fwd: 200,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    Rule {
        kind: "webhook_url",
        anchors: &["/hooks/"],
        keywords: &[],
        // Mattermost (`/hooks/<26>`), Rocket.Chat (`/hooks/<id>/<token>`) and others: a
        // random path segment after `/hooks/` on any host.
        matcher: Matcher::Regex(r"/hooks/(?P<s>[A-Za-z0-9]{20,64}(?:/[A-Za-z0-9]{20,64})?)"),
        gate: Gate::Context,
        back: 0,
        fwd: 160,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // Signatures in query strings (Azure SAS `sig=` is its own rule): AWS presigned URLs
    // (`X-Amz-Signature=`), CloudFront (`Signature=`), generic `signature=`/`sig=`.
    Rule {
        kind: "url_signature",
        anchors: &["Signature=", "signature=", "?sig=", "&sig="],
        keywords: &[],
        matcher: Matcher::Regex(
            r"[?&;](?:X-Amz-Signature|X-Goog-Signature|Signature|signature|sig)=(?P<s>[A-Za-z0-9%+/_~.\-]{16,1024}(?:=|%3D){0,2})",
        ),
        gate: Gate::Token,
        back: 17,
        fwd: 1100,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // `https://<token>:x-oauth-basic@github.com`: the token is the user name.
    Rule {
        kind: "url_credentials",
        anchors: &[":x-oauth-basic@"],
        keywords: &[],
        matcher: Matcher::Regex(r"://(?P<s>[A-Za-z0-9_\-]{16,255}):x-oauth-basic@"),
        gate: Gate::Token,
        back: 260,
        fwd: 16,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "url_credentials",
        anchors: &["://"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"[A-Za-z][A-Za-z0-9+.\-]{1,24}://(?P<n>[^\s/:@"'<>\\]{0,128}):(?P<s>[^\s/@"'<>\\]{1,256})@[A-Za-z0-9\[]"#,
        ),
        gate: Gate::Loose,
        back: 26,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Userinfo,
    },
    // --- Eighth round (issue 20): a command that names the value it takes (docs/privacy.md,
    // "Eighth round").
    // CI logging commands: what a step masks or marks secret is a secret (GitHub Actions
    // `::add-mask::`, Azure Pipelines `##vso[task.setsecret]` and `issecret=true`).
    Rule {
        kind: "ci_secret",
        anchors: &["::add-mask::", "##vso[task.set"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:::add-mask::|##vso\[task\.setsecret\]|##vso\[task\.setvariable\s[^\]\n]{0,160}?(?i:issecret)=true[^\]\n]{0,80}\])\s*(?P<s>[^\s"'\\`]{6,1024})"#,
        ),
        gate: Gate::Loose,
        back: 0,
        fwd: 1200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A variable a CI step sets, by its name: Azure Pipelines `##vso[task.setvariable
    // variable=FEED_PAT]…` (without `issecret`), GitHub Actions `::set-output name=…::…`.
    Rule {
        kind: "ci_secret",
        anchors: &["##vso[task.setvariable", "::set-output "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:##vso\[task\.setvariable\s+variable=|::set-output\s+name=)(?P<n>[A-Za-z0-9_.\-]{1,128})(?:\]|;[^\]\n]{0,120}\]|::)\s*(?P<s>[^\s"'\\`]{6,1024})"#,
        ),
        gate: Gate::Structured,
        back: 0,
        fwd: 1200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A vendor CLI's token flag or positional token: `codecov … -t <token>` (also
    // `codecovcli upload-process`), `doctl auth init -t`, `snyk auth <token>`, `ngrok
    // authtoken <token>`, `ngrok config add-authtoken`, `vault login <token>`; gated as a
    // named value (a UUID or hex token too: the command names it).
    Rule {
        kind: "cli_secret",
        anchors: &["codecov", "doctl auth", "snyk auth", "authtoken ", "add-authtoken", "vault login "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?P<n>(?:codecov[A-Za-z.\-]*|doctl auth init)\s(?:[^\n|;&]{0,200}?\s)?(?:-t|--token|-k)\s*=?|snyk auth|ngrok (?:config add-)?authtoken|vault login)\s+(?:\\?["'])?(?P<s>[A-Za-z0-9_.:\-]{16,256})"#,
        ),
        gate: Gate::Named,
        back: 0,
        fwd: 400,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // A value piped into a secret store: `echo … | gh secret set NAME`, `| wrangler secret put`,
    // `| docker secret create`, `| vercel env add`, `| fly secrets import`, `| kubectl create
    // secret`, `| gcloud secrets create/versions add`, `| az keyvault secret set`, `| vault kv
    // put`, `| pass insert`; gated as a password (a UUID or a number is not taken).
    Rule {
        kind: "cli_secret",
        anchors: &[
            "secret set",
            "secret put",
            "secret create",
            "secrets set",
            "secrets import",
            "env add",
            "secrets create",
            "versions add",
            "kv put",
            "pass insert",
            "create secret",
        ],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:(?:\\?["'])?%s(?:\\\\?n)?(?:\\?["'])?[ \t]+)?(?:\\?["'])?"#,
            r#"(?P<s>[^\s"'\\|;&]{6,512})(?:\\?["'])?[ \t]*\|[ \t]*(?:[^|\n]{0,40}?[ \t])?"#,
            r#"(?:gh secret set|(?:wrangler|wrangler pages) secret put|docker secret create|vercel env add|netlify env:set|fly(?:ctl)? secrets (?:set|import)|kubectl create secret|gcloud secrets (?:create|versions add)|az keyvault secret set|vault kv put|pass insert|supabase secrets set)"#
        )),
        gate: Gate::Password,
        back: 600,
        fwd: 16,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A `--name`/`-Name` naming a secret and its `--value` on one command: `aws ssm
    // put-parameter --name /prod/db/password --value …`, `az keyvault secret set --name X
    // --value …`, PowerShell `Set-Variable -Name ApiToken -Value …`, `Set-Secret -Name X
    // -Secret …`; the value gated by the name (`Gate::Structured`).
    Rule {
        kind: "cli_secret",
        anchors: &["--value", "-Value", "--secret-string", "-Secret "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:--name|-Name|--key)[ =]+(?:\\?["'])?(?P<n>[A-Za-z0-9_./:\-]{1,160})(?:\\?["'])?(?:\s[^\n|;&]{0,160}?)?\s(?:--value|-Value|--secret-string|-Secret)[ =]+(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,512})"#,
        ),
        gate: Gate::Structured,
        back: 400,
        fwd: 540,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // The same, the value first (`put-parameter --value … --name /x/api_token`).
    Rule {
        kind: "cli_secret",
        anchors: &["--value", "-Value"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:--value|-Value)[ =]+(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,512})(?:\\?["'])?\s(?:[^\n|;&]{0,160}?\s)?(?:--name|-Name)[ =]+(?:\\?["'])?(?P<n>[A-Za-z0-9_./:\-]{1,160})"#,
        ),
        gate: Gate::Structured,
        back: 0,
        fwd: 900,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Commands whose argument is a password by position: `ansible-vault encrypt_string '<pw>'`
    // (the name comes after it, `--name`), `htpasswd -nb <user> <pw>` (no file), `openssl
    // enc … -k <pw>`, a value written into a secret file (`echo … > /run/secrets/x`,
    // `> ~/.vault-token`).
    Rule {
        kind: "cli_secret",
        anchors: &["encrypt_string", "htpasswd", "openssl"],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:encrypt_string\s+(?:--?[A-Za-z\-]+(?:[ =][^\s'"-]\S*)?\s+)*|htpasswd\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*n[A-Za-z]*b[A-Za-z]*\s+(?:-[A-Za-z]+\s+)*\S+\s+|openssl\s[^\n|;&]{0,160}?\s-k\s+)"#,
            r#"(?:\\?["'])?(?P<s>[^\s"'\\`;|&<>]{4,256})"#
        )),
        gate: Gate::Password,
        back: 300,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A value written into a secret's file: `echo … > /run/secrets/db_password`, `printf %s …
    // > ~/.vault-token`.
    Rule {
        kind: "cli_secret",
        anchors: &["/run/secrets/", ".vault-token"],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:(?:\\?["'])?%s(?:\\?["'])?[ \t]+)?(?:\\?["'])?"#,
            r#"(?P<s>[^\s"'\\`;|&<>]{4,256})(?:\\?["'])?[ \t]*>>?[ \t]*\S*(?:/run/secrets/|\.vault-token)"#
        )),
        gate: Gate::Password,
        back: 300,
        fwd: 16,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // `pw` as a name's last word after a separator (`DB_PW=`, `smtp-pw:`), a password.
    Rule {
        kind: "assignment",
        anchors: &[],
        // Tenth round: camel case too (`adminPw`, `AdminPw`), a dotted name (`admin.pw`), and
        // Make's and R's operators.
        keywords: &["_pw", "-pw", ".pw", "Pw"],
        matcher: Matcher::Regex(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?:[_\-.](?i:pw)|[A-Za-z0-9]Pw))(?:\\?["'])?\]?\s*(?::=|=>|\?=|\+=|<-|=|:)\s*(?:\\?["'])?(?P<s>[^\s"'\\`;|&,]{6,128})"#,
        ),
        gate: Gate::Assignment,
        back: 96,
        fwd: 160,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Network devices' shared secrets: an SNMP community (`snmp-server community <c> RO`,
    // `snmpwalk … -c <c>`), a TACACS+/RADIUS key (`tacacs-server key [7] <k>`), a `key-string`;
    // gated as a password (the default `public`/`private` communities are words).
    Rule {
        kind: "cli_secret",
        anchors: &[
            "snmp-server community",
            "-server key",
            "-server host",
            "key-string",
            "snmpwalk",
            "snmpget",
            "snmpbulkwalk",
        ],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:snmp-server community|(?:tacacs|radius)-server(?: host \S+)?(?: [a-z\-]+ \S+)* key(?: [07])?|key-string(?: [07])?|snmp(?:walk|get|bulkwalk|set)\s[^\n|;&]{0,80}?-c)\s+(?P<s>[^\s"'`;|&]{4,128})"#,
        ),
        gate: Gate::Password,
        back: 8,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A user and a password given as a pair after a login word: `login: ops / <pw>`,
    // `creds = deploy / <pw>` (blanks around the `/`: a path has none); gated as a password,
    // not the user again.
    Rule {
        kind: "assignment",
        anchors: &[
            "login:",
            "Login:",
            "LOGIN:",
            "creds:",
            "Creds:",
            "credentials:",
            "Credentials:",
            "login =",
            "creds =",
        ],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:login|creds|credentials)\*{0,2}\s*[:=]\*{0,2}\s*`?(?P<n>[A-Za-z0-9_.@\-]{2,64})`?\s+/\s+`?(?P<s>[^\s"'`]{6,128})"#,
        ),
        gate: Gate::Password,
        back: 0,
        fwd: 240,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // An Erlang distribution cookie (RabbitMQ `RABBITMQ_ERLANG_COOKIE`, `erl -setcookie`):
    // 20 capital letters, which the assignment gate reads as a word.
    named(
        "erlang_cookie",
        &["erlang", "setcookie"],
        r#"(?:(?i:erlang)[_\-.]?(?i:cookie)(?:\\?["'])?\s*[:=]\s*|-setcookie\s+)(?:\\?["'])?(?P<s>[A-Z0-9]{16,64})"#,
    ),
    Rule {
        kind: "auth_header",
        anchors: &[],
        keywords: &["authorization"],
        matcher: Matcher::Regex(
            r#"(?i:authorization)(?:(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?|\\?["']\s*,\s*\\?["'])\s*(?i:bearer|basic|token|bot|digest|apikey|api-key|sso-key|ssws|key|splunk|geniekey|deepl-auth-key|klaviyo-api-key|oauth|aivenv1)\s+(?P<s>[A-Za-z0-9._~+/=\-:]{8,4096})"#,
        ),
        gate: Gate::Loose,
        back: 16,
        fwd: 600,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "api_key_header",
        anchors: &[],
        keywords: &["key", "token"],
        matcher: Matcher::Regex(
            r#"(?i:x-api-key|x-auth-token|x-access-token|api-key|x-apikey|private-token|x-vault-token|x-goog-api-key|ocp-apim-subscription-key|x-functions-key|x-figma-token|x-shopify-access-token|x-rapidapi-key|dd-api-key|dd-application-key|x-api-token)(?:\\?["'])?\s*:\s*(?:\\?["'])?(?P<s>[A-Za-z0-9._~+/=\-]{8,512})"#,
        ),
        gate: Gate::Loose,
        back: 40,
        fwd: 560,
        left: false,
        right: false,
        pre: Pre::DashedName,
    },
    // Any `X-…-Key`/`-Token`/`-Secret`/`-Auth`/`-Signature`/`-Password` header (vendors name
    // their headers this way: `X-Postmark-Server-Token`, `X-Algolia-API-Key`, …).
    Rule {
        kind: "api_key_header",
        anchors: &[],
        keywords: &["key", "token", "secret", "auth", "signature", "password"],
        matcher: Matcher::Regex(
            r#"(?P<n>(?i:x-(?:[a-z0-9]+-)*(?:api-?key|key|token|secret|auth|signature|password|passwd|apikey)))(?:\\?["'])?\s*:\s*(?:\\?["'])?(?P<s>[A-Za-z0-9._~+/=\-]{8,512})"#,
        ),
        gate: Gate::Header,
        back: 64,
        fwd: 560,
        left: false,
        right: false,
        pre: Pre::XHeader,
    },
    // `Password=`/`Pwd=` in a `key=value;` connection string: after a `;`, or followed by one.
    Rule {
        kind: "connection_string",
        anchors: &[],
        keywords: &["password", "pwd"],
        matcher: Matcher::Regex(r#";\s*(?i:password|pwd)\s*=\s*(?P<s>[^;"'\s\\]{3,128})"#),
        gate: Gate::Loose,
        back: 8,
        fwd: 200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "connection_string",
        anchors: &[],
        keywords: &["password", "pwd"],
        matcher: Matcher::Regex(r#"(?:^|["'\s])(?i:password|pwd)\s*=\s*(?P<s>[^;"'\s\\]{3,128})\s*;"#),
        gate: Gate::Loose,
        back: 2,
        fwd: 200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "cli_secret",
        anchors: &[],
        keywords: &["pass", "token", "secret", "key", "auth", "pwd", "-pw", "seed", "cred"],
        matcher: Matcher::Regex(
            r#"--(?P<n>(?:[A-Za-z0-9]+-)*(?i:password|passwd|pass|token|secret|api-key|apikey|key|client-secret|auth-token|access-token|requirepass|masterauth|passphrase|auth|pwd|pw|seed|credentials?))(?:=|\s+|\\?["']\s*,\s*|\\?["']\s+)(?:\\?["'])?(?P<s>[^\s"'\\`;|&<>()]{4,256})"#,
        ),
        gate: Gate::Assignment,
        back: 40,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "cli_secret",
        anchors: &["mysql", "mariadb"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb|mariadb-dump)\s[^\n]{0,200}?\s-p(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,128})"#,
        ),
        gate: Gate::Loose,
        back: 0,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "cli_secret",
        anchors: &["sshpass", "redis-cli", "docker login"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:sshpass\s(?:[^\n]{0,100}?\s)?-p\s*|redis-cli\s[^\n]{0,200}?\s-a\s+|docker login\s[^\n]{0,200}?\s(?:-p\s+|--password[= ]))(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,128})"#,
        ),
        gate: Gate::Loose,
        back: 0,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "cli_secret",
        anchors: &["-u ", "--user "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:-u|--user)\s+(?:\\?["'])?(?P<n>[^\s:"'\\/]{1,128}):(?P<s>[^\s"'\\@/][^\s"'\\@]{2,255})"#,
        ),
        gate: Gate::Loose,
        back: 0,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Single-dash password options of common tools: keytool/jarsigner `-storepass`/`-keypass`,
    // OpenSSL `-passin pass:<pw>`/`-passout`/`-pass`, sqlcmd/bcp `-P`, LDAP tools' `-w`.
    Rule {
        kind: "cli_secret",
        anchors: &["storepass ", "keypass ", "pass:", "sqlcmd", "ldap"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:(?:^|\s)-(?:src|dest)?(?:storepass|keypass)\s+|(?:^|\s)-pass(?:in|out)?\s+(?:\\?["'])?pass:|(?:sqlcmd|bcp)\s[^\n]{0,200}?\s-P\s*|(?:ldapsearch|ldapmodify|ldapadd|ldapdelete|ldappasswd|ldapwhoami|ldapcompare)\s[^\n]{0,200}?\s-w\s+)(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,128})"#,
        ),
        gate: Gate::Loose,
        back: 220,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // `.netrc` (`machine h login u password p`, also one field a line) and `.pgpass`
    // (`host:port:db:user:password`) lines.
    Rule {
        kind: "netrc_password",
        anchors: &["password "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:machine\s+\S+\s+(?:login\s+\S+\s+)?(?:account\s+\S+\s+)?|^[ \t]*)(?P<n>password)\s+(?P<s>[^\s"'\\]{4,256})(?:\s+(?:login|machine|account|macdef)\s|[ \t\r]*$|\\[nr]|\\?")"#,
        ),
        gate: Gate::Assignment,
        back: 200,
        fwd: 280,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "pgpass_password",
        anchors: &[":5432:", ":6432:", ":5433:", ":*:"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:^|[\s"])(?:[A-Za-z0-9_.\-*]|\\:)+:(?:[0-9]{2,5}|\*):(?:[A-Za-z0-9_.\-*]|\\:)+:(?P<n>[A-Za-z0-9_.\-*@]+):(?P<s>(?:[^\s"'\\:]|\\[:\\]){4,256})(?:[ \t\r]*$|\\[nr]|\\?")"#,
        ),
        gate: Gate::Loose,
        back: 200,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // More command lines: MongoDB tools' `-p <pw>`, zip/unzip `-P <pw>`, 7-Zip `-p<pw>`,
    // `htpasswd -b file user <pw>`, Windows `/pass:<pw>`, PowerShell `ConvertTo-SecureString
    // "<pw>"`, and `config set <secret-named key> <value>` (npm, yarn, pnpm, git, aws configure).
    Rule {
        kind: "cli_secret",
        anchors: &["mongo", "zip ", "7z ", "7za ", "htpasswd", "/pass:", "/password:", "ConvertTo-SecureString"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\s[^\n]{0,200}?\s-p\s+|(?:zip|unzip)\s(?:[^\n]{0,200}?\s)?-P\s+|7za?\s[^\n]{0,200}?\s-p|htpasswd\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*b[A-Za-z]*\s+(?:-[A-Za-z]+\s+)*\S+\s+\S+\s+|(?:^|\s)/(?i:pass|password):|ConvertTo-SecureString\s+(?:-String\s+)?)(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,128})"#,
        ),
        gate: Gate::Loose,
        back: 220,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "cli_secret",
        // Round 6: any case (Redis `CONFIG SET requirepass <pw>`) and quoted words (a Redis
        // `MONITOR` line: `"config" "set" "masterauth" "<pw>"`).
        anchors: &[
            "config set ",
            "configure set ",
            "CONFIG SET ",
            "Config Set ",
            "\"config\" \"set\"",
            "\"CONFIG\" \"SET\"",
        ],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:config(?:ure)?)"?\s+"?(?i:set)"?\s+(?:--[a-z\-]+\s+)*"?(?P<n>[^\s="]*(?i:token|auth|pass|passwd|secret|key|credentials?|pat))"?(?:\s+|=)(?:\\?["'])?(?P<s>[^\s"'\\`;|&<>()]{4,256})"#,
        ),
        gate: Gate::Assignment,
        back: 0,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // AWS's credentials CSV and similar listings: an access key id, a separator, then the 40
    // characters of its secret access key, with no name between them.
    Rule {
        kind: "aws_secret_access_key",
        anchors: &["AKIA", "ASIA"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:AKIA|ASIA)[A-Z0-9]{16}(?:\\?["'`])?[ \t]*[,;|/:\t][ \t]*(?:\\?["'`])?(?P<s>[A-Za-z0-9/+]{40})"#,
        ),
        gate: Gate::Context,
        back: 0,
        fwd: 120,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // SQL: `CREATE ROLE … PASSWORD '<pw>'`, `IDENTIFIED BY '<pw>'`.
    Rule {
        kind: "sql_password",
        anchors: &["PASSWORD '", "password '", "IDENTIFIED BY '", "identified by '", "PASSWORD = '", "PASSWORD=N'"],
        keywords: &[],
        matcher: Matcher::Regex(r#"(?i:password|identified\s+by)\s*=?\s*N?'(?P<s>[^'\s\\]{4,128})'"#),
        gate: Gate::Loose,
        back: 20,
        fwd: 160,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Cookies named like sessions and tokens in `Cookie:`/`Set-Cookie:` headers.
    Rule {
        kind: "cookie_secret",
        anchors: &["Cookie:", "cookie:", "COOKIE:", "Cookie\\\":", "cookie\\\":", "Cookie\":", "cookie\":"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:^|[;\s:"])(?P<n>[A-Za-z0-9_.\-]*(?i:sess|sid|auth|jwt|access[_\-]?token|refresh[_\-]?token|id[_\-]?token)[A-Za-z0-9_.\-]*)=(?P<s>[^;\s"'\\,]{16,4096})"#,
        ),
        gate: Gate::Context,
        back: 0,
        fwd: 2000,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 3: contextual secrets, named by the syntax around them.
    // Session cookies and ids outside a `Cookie:` header (a Sentry event's `"cookies":
    // {"sessionid": …}`, a HAR file, a `Set-Cookie` log line): random values only (a UUID
    // `session_id` of a transcript is an id, `Gate::Context` says no).
    Rule {
        kind: "cookie_secret",
        anchors: &["sessionid", "SESSIONID", "SessionId", "session_id", "SESSID", "_session", "connect.sid"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?:sessionid|SESSIONID|SessionId|session_id|SESSID|_session|connect\.sid))(?:\\?["'])?\s*(?::|=)\s*(?:\\?["'])?(?P<s>[^\s"'\\;,]{16,4096})"#,
        ),
        gate: Gate::Context,
        back: 64,
        fwd: 4200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Directives that name a value with a space, not `=`: Apache `SetEnv NAME value`,
    // `RequestHeader set X-Api-Key value`, nginx `set $name value;`, `fastcgi_param NAME value;`,
    // `proxy_set_header Authorization "Bearer …";`; session 13: HAProxy's `http-request
    // set-header Authorization "Basic …"` (an upstream's credentials).
    Rule {
        kind: "assignment",
        anchors: &[
            "SetEnv ",
            "set $",
            "fastcgi_param ",
            "uwsgi_param ",
            "scgi_param ",
            "proxy_set_header ",
            "grpc_set_header ",
            "add_header ",
            "RequestHeader ",
            "Header set ",
            "Header always set ",
            "http-request set-header ",
            "http-request add-header ",
        ],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:http-request\s+(?:set|add)-header|SetEnv|set|fastcgi_param|uwsgi_param|scgi_param|proxy_set_header|grpc_set_header|add_header|RequestHeader\s+(?:set|append|add)|Header\s+(?:always\s+)?(?:set|append|add))\s+\$?(?P<n>[A-Za-z0-9_.\-]{2,96})\s+(?:\\?["'])?(?:(?i:bearer|basic|token|bot)\s+)?(?P<s>[^\s"'\\;`]{4,256})"#,
        ),
        gate: Gate::Assignment,
        back: 0,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Credentials in a query string by a parameter's name: an OAuth authorization `code`
    // (RFC 6749 §4.1.2; `state` is not a credential) and a PKCE `code_verifier`.
    Rule {
        kind: "oauth_code",
        anchors: &["?code=", "&code=", "#code=", "code_verifier="],
        keywords: &[],
        matcher: Matcher::Regex(r"(?P<n>code(?:_verifier)?)=(?P<s>[A-Za-z0-9%._~+/\-]{16,2048})"),
        gate: Gate::Context,
        back: 0,
        fwd: 2100,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // Key/value siblings (`{"key": "x-api-key", "value": "…"}`, `- name: X` / `value: …`,
    // a tfstate resource type and its attributes' `value`, a tfstate output
    // `"db_password": {"value": "…"}`).
    Rule {
        kind: "assignment",
        anchors: &[
            "\"key\"",
            "\\\"key\\\"",
            "\"name\"",
            "\\\"name\\\"",
            "\"type\"",
            "\\\"type\\\"",
            "- name: ",
            "- key: ",
            "\"value\"",
            "\"ParameterKey\"",
            "\\\"ParameterKey\\\"",
        ],
        keywords: &[],
        matcher: Matcher::Sibling,
        gate: Gate::Assignment,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 8: a `Value` label under a `Name`/`Key`/`Property` label (`labels.rs`); session
    // 13: XML's `<Value>` under its element (`<Password>`) and a plist's `<string>` under
    // `<key>`.
    Rule {
        kind: "assignment",
        anchors: &["\"Value\"", "Value:", "Value ", "<Value>", "<string>"],
        keywords: &[],
        matcher: Matcher::LabelPair,
        gate: Gate::Structured,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Session 13: a SQL dump's row, its values named by their columns (`sql.rs`).
    Rule {
        kind: "assignment",
        anchors: &["INSERT INTO ", "insert into "],
        keywords: &[],
        matcher: Matcher::SqlInsert,
        gate: Gate::Structured,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 8: a comment line naming the line below (`labels.rs`): prose-named, so gated as a
    // named value (a password's shape after a password word, else random).
    Rule {
        kind: "assignment",
        anchors: &["# ", "// ", "-- "],
        keywords: &[],
        matcher: Matcher::CommentAbove,
        gate: Gate::Named,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Header lists in one string: `OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team=…,api-key=…`.
    Rule {
        kind: "api_key_header",
        anchors: &[],
        keywords: &["headers"],
        matcher: Matcher::HeaderList,
        gate: Gate::Assignment,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Vendor key headers whose names say neither key nor token: Honeycomb's
    // `X-Honeycomb-Team` (docs.honeycomb.io, API keys), in `-H` flags and header objects.
    Rule {
        kind: "api_key_header",
        anchors: &["x-honeycomb-team", "X-Honeycomb-Team", "X-HONEYCOMB-TEAM"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:x-honeycomb-team)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?(?P<s>[A-Za-z0-9_\-]{16,128})"#,
        ),
        gate: Gate::Loose,
        back: 0,
        fwd: 200,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // PuTTY `.ppk` private blocks (`Private-Lines: <n>`, then n lines of base64).
    Rule {
        kind: "private_key",
        anchors: &["Private-Lines: "],
        keywords: &[],
        matcher: Matcher::Ppk,
        gate: Gate::None,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A call's keyword argument, named with its function (`wandb.login(key="…")`,
    // `Client(api_token="…")`, Ruby `login(key: "…")`): the function gives a bare `key` its
    // meaning.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS,
        matcher: Matcher::Regex(
            r#"(?P<n>[A-Za-z0-9_]+\(\s*(?:[A-Za-z0-9_]+\s*=\s*[^,()\n]{1,80},\s*)*[A-Za-z0-9_]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth))\s*(?:=|:)\s*\\?["'](?P<s>[^"'\\\s]{4,256})\\?["']"#,
        ),
        gate: Gate::Assignment,
        back: 200,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Kwarg,
    },
    // XML elements and key/value attributes: `<password>…</password>` (Maven settings.xml),
    // `<add key="ApiKey" value="…"/>` (web.config, NuGet.config).
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Regex(
            r#"<(?P<n>[A-Za-z0-9_.:\-]*(?i:pass(?:word|wd|phrase)?|pwd|pw|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat|seed))>(?P<s>[^<\s]{4,256})</"#,
        ),
        gate: Gate::Assignment,
        back: 64,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Xml,
    },
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Regex(
            r#"(?:key|name)=\\?"(?P<n>[A-Za-z0-9_.:\-]*(?i:pass(?:word|wd|phrase)?|pwd|pw|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat|seed))\\?"\s+value=\\?"(?P<s>[^"\\\s]{4,256})\\?""#,
        ),
        gate: Gate::Assignment,
        back: 64,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::KeyValue,
    },
    // Tenth round: an element named by its `key`/`name` attribute, its value its text: Java's
    // XML properties (`<entry key="db.password">…</entry>`), `<add name="…">…</add>`,
    // `<param name="…">…</param>`, `<property name="…">…</property>`, `<setting name="…">`.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Regex(
            r#"<[A-Za-z][A-Za-z0-9_.:\-]{0,24}\s+(?:[A-Za-z_:\-]+=\\?"[^"\\<>]{0,64}\\?"\s+)?(?:key|name)=\\?"(?P<n>[A-Za-z0-9_.:\-]*(?i:pass(?:word|wd|phrase)?|pwd|pw|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat|seed))\\?"\s*>(?P<s>[^<\s]{4,256})</"#,
        ),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Xml,
    },
    // Tenth round: a typed declaration's literal: Swift/Kotlin/TypeScript `let apiKey: String =
    // "…"`, Rust `const API_KEY: &str = "…"`, Go `var apiKey string = "…"`.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Regex(
            r#"(?P<n>[A-Za-z0-9_]*(?i:pass(?:word|wd|phrase)?|pwd|pw|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat|seed))(?:\s*:\s*&?(?:'static\s+)?[A-Za-z][A-Za-z0-9_.<>\[\]]{0,32}\??|\s+string)\s*=\s*\\?["'](?P<s>[^"'\\\s]{4,256})\\?["']"#,
        ),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Typed,
    },
    // A call with a literal: `setPassword("…")`, `.token('…')`, PHP `define('DB_PASSWORD', '…')`,
    // `os.environ.setdefault("API_KEY", "…")`.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS,
        matcher: Matcher::Regex(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat))(?:\s*\(\s*|\\?["']\s*,\s*)\\?["'](?P<s>[^"'\\\s]{4,256})\\?["']"#,
        ),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Call,
    },
    // A quoted value with escapes inside (`"password": "a\"b\\c"`): the plain rule below stops
    // at the first backslash. Plain JSON/YAML/TOML double quotes, and the same once more
    // JSON-escaped (a JSON file inside a transcript line: `\"password\": \"a\\\"b\"`).
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS,
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat))"#,
            r#""\s*(?::|=)\s*"(?P<s>(?:[^"\\\s]|\\[^\s]){4,256})""#
        )),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Escaped,
    },
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS,
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat))"#,
            r#"\\"\s*(?::|=)\s*\\"(?P<s>(?:[^"\\\s]|\\\\\\"|\\\\\\\\|\\\\[^\s"\\]){4,256})\\""#
        )),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Escaped,
    },
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS,
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat)(?:[_\-.]?[A-Za-z0-9]{1,16}){0,3})"#,
            r#"(?:\\?["'])?\]?\s*(?::=|=>|\?=|\+=|<-|=|:)\s*(?:\\?["']){0,2}(?P<s>[^\s"'\\`,;&(){}\[\]<>|]{4,256})"#
        )),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Tenth round: a password inside a connection string that is no URL: Go's MySQL DSN
    // `user:<pw>@tcp(host:3306)/db` (`@unix(`), Oracle JDBC `jdbc:oracle:thin:user/<pw>@host`.
    Rule {
        kind: "connection_string",
        anchors: &["@tcp(", "@unix(", "jdbc:oracle:thin:"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:(?P<n>[A-Za-z0-9_.\-]{1,64}):(?P<s>[^\s@/"'`:]{1,128})@(?:tcp|unix)\(|jdbc:oracle:thin:[A-Za-z0-9_$#]{1,64}/(?P<s2>[^\s@"'`/]{1,128})@)"#,
        ),
        gate: Gate::Loose,
        back: 200,
        fwd: 200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A secret word in prose, then (after glue words or punctuation) a token: "the routing
    // key `…`", "with secret …", "the password is …". `Gate::Context` decides (random tokens;
    // for passwords, letters with digits or symbols).
    Rule {
        kind: "prose_secret",
        anchors: &[],
        keywords: &["key", "token", "secret", "password", "passphrase", "cred"],
        matcher: Matcher::Regex(
            r#"(?P<n>(?:[A-Za-z0-9]{2,24}[ \-])?\b(?i:api[ \-]?key|key|token|secret|password|passphrase|cred(?:ential)?s?)s?)(?:[ \t]+(?:is|was|are|were|of|for[ \t]+[A-Za-z0-9_\-]{1,24}|here|now|reads|being|to|set[ \t]+to))*[ \t]*(?:[:=]|->)?[ \t]*(?:\\?["'`]|\*\*)?(?P<s>[A-Za-z0-9+/=_\-.~!@#$%^&*?]{8,256})"#,
        ),
        gate: Gate::Context,
        back: 32,
        fwd: 140,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // Round 5: a secret word immediately before the value in prose ("the old circle token
    // was <40 hex>", "admin pw is …", "snyk token: <uuid>"): the next token-shaped value is
    // the secret, a UUID or a hex string included (recall first).
    Rule {
        kind: "prose_secret",
        anchors: &[],
        keywords: &["token", "key", "secret", "password", "passwd", "pw", "pass", "passphrase", "credential"],
        matcher: Matcher::Regex(
            r#"(?P<n>(?:[A-Za-z0-9]{2,24}[ \-])?\b(?i:password|passwd|passphrase|pass|pw|api[ \-]?key|key|token|secret|credentials?))(?:[ \t]+(?:is|was)[ \t]+|[ \t]*[:=][ \t]*)(?:\\?["'`]|\*\*)?(?P<s>[A-Za-z0-9+/=_\-.~!@#$%^&*?]{8,256})"#,
        ),
        gate: Gate::Named,
        back: 32,
        fwd: 300,
        left: false,
        right: true,
        pre: Pre::Auto,
    },
    // Round 4: context beyond the line. A block or label whose name is a secret's, its value
    // lines below (gated by that name); a table column named like a secret.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Block,
        gate: Gate::Assignment,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A vendor named in prose or a table row, then a token (the secret word on the line or a
    // few lines above): "the CircleCI token is …", "| Buildkite | `…` |".
    Rule {
        kind: "vendor_token",
        anchors: VENDORS,
        keywords: &[],
        matcher: Matcher::Vendor,
        gate: Gate::Context,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 5: `[name, value]` pairs whose name is a secret's (headers, env, form fields).
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Pair,
        gate: Gate::Structured,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 5: a Kubernetes Secret's data (`kubectl get secret -o yaml`, a manifest).
    Rule {
        kind: "kubernetes_secret",
        anchors: &["kind: Secret"],
        keywords: &[],
        matcher: Matcher::K8sSecret,
        gate: Gate::Loose,
        back: 0,
        fwd: 0,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Tenth round: names the generic rules' vocabulary lacks — "password" in the languages
    // config keys are written in (`DB_KENNWORT`, `senha`, `mot_de_passe`, `contrasena`, …)
    // and a seed (`WALLET_SEED`, `totpSeed`) —, assigned in any syntax; the same gate.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: &[
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
        ],
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:passwort|kennwort|passe|senha|contrasena|wachtwoord|haslo|heslo|salasana|losenord|jelszo|seed))"#,
            r#"(?:\\?["'])?\]?\s*(?::=|=>|\?=|\+=|<-|=|:)\s*(?:\\?["']){0,2}(?P<s>[^\s"'\\`,;&(){}\[\]<>|]{4,256})"#
        )),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // "use <value> as the password/key/token".
    Rule {
        kind: "prose_secret",
        anchors: &[
            " as the password",
            " as the passphrase",
            " as the token",
            " as the key",
            " as the api key",
            " as the API key",
            " as the secret",
            " as your password",
            " as your passphrase",
            " as your token",
            " as your key",
            " as your api key",
            " as your API key",
            " as your secret",
            " as a password",
            " as a passphrase",
            " as a token",
            " as a key",
            " as a api key",
            " as a API key",
            " as a secret",
            " as password",
            " as passphrase",
            " as token",
            " as key",
            " as api key",
            " as API key",
            " as secret",
        ],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:use|set|try|with|enter|paste)[ \t]+(?:\\?["'`]|\*\*)?(?P<s>[A-Za-z0-9+/=_\-.~!@#$%^&*]{8,256}?)(?:\\?["'`]|\*\*)?[ \t]+as[ \t]+(?:the[ \t]+|your[ \t]+|a[ \t]+|an[ \t]+)?(?P<n>(?i:password|passphrase|token|api[ _\-]?key|key|secret))"#,
        ),
        gate: Gate::Assignment,
        back: 280,
        fwd: 20,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 6: positions. A secret named by where it stands, not by a key: the classes of
    // position that five held-out corpora showed, each written for the class.
    //
    // A protocol's credential command at a line start or as a logged argument: Redis `AUTH
    // [user] <pw>` (`redis-cli`, a `MONITOR` line `"AUTH" "<pw>"`), SMTP `AUTH PLAIN <base64>`,
    // FTP and POP3 `PASS <pw>`, IMAP `<tag> LOGIN <user> <pw>`.
    Rule {
        kind: "protocol_password",
        anchors: &["AUTH ", "auth ", "\"AUTH\" \"", "\"auth\" \"", "PASS ", " LOGIN "],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:(?:^|\\n)[ \t]*(?:[A-Za-z0-9_.:@\[\]\-]{0,40}[>$#][ \t]*)?(?:AUTH|auth|PASS|[A-Za-z0-9]{1,8}[ \t]+LOGIN)[ \t]+(?:(?:PLAIN|[A-Za-z0-9_.@\-]{1,64})[ \t]+)?"#,
            r#"(?:\\?["'])?(?P<s>[^\s"'\\]{4,256})(?:\\?["'])?(?:[ \t]*\r?$|\\[nr]|\\?"[,}\]])"#,
            r#"|"(?:AUTH|auth)"[ \t]+(?:"[^"\s]{1,64}"[ \t]+)?"(?P<s2>[^"\s]{4,256})"[ \t]*\r?$)"#
        )),
        gate: Gate::Password,
        back: 300,
        fwd: 600,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A directive or a table row: a line that is `<secret-named word> <value>` (a server
    // config's `requirepass <pw>`; a `vault kv get` table's `password  <value>` row; a CLI
    // table's `│ DB_PASSWORD │ <value> │`), after at most five words (a prompt, `setx`, a
    // device config's `username admin privilege 15`; a one-digit type after the name:
    // `secret 0 <pw>`), plain or in a JSON-escaped line.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS_WIDE,
        matcher: Matcher::Regex(concat!(
            r#"(?:^|\\n)[ \t]*(?:(?:\||\xE2\x94\x82)[ \t]*)?(?:[^\s|]{1,40}[ \t]+){0,5}?"#,
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pass(?:word|wd|phrase)?|pwd|pw|secret|token|api[_\-.]?key|apikey|key|cred(?:ential)?s?|auth|pat|seed)[A-Za-z0-9_.\-]*)"#,
            r#"(?:[ \t]+|[ \t]*(?:\||\xE2\x94\x82)[ \t]*)(?:[0-9][ \t]+)?(?:\\?["'])?(?P<s>[^\s"'\\`|]{4,256})(?:\\?["'])?"#,
            r#"(?:[ \t]*(?:\||\xE2\x94\x82)?[ \t]*\r?$|\\[nr]|\\?"[,}\]])"#
        )),
        gate: Gate::Line,
        back: 300,
        fwd: 600,
        left: false,
        right: false,
        pre: Pre::Directive,
    },
    // Windows `net use <drive> \\server\share <password> /user:<user>` (the password is the
    // bare word among the options, before or after `/user:`).
    Rule {
        kind: "cli_secret",
        anchors: &["net use ", "NET USE ", "Net Use ", "net.exe use "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:net(?:\.exe)?)[ \t]+(?i:use)[ \t]+(?:[A-Za-z]:[ \t]+|\*[ \t]+)?(?:\\\\|//)[^\s"]+(?:[ \t]+/[^\s"]+)*[ \t]+(?P<s>[^\s/*"'][^\s"']{3,127})(?:[ \t]|\r?$)"#,
        ),
        gate: Gate::Password,
        back: 0,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A password flag after a user flag on one command (`psexec -u admin -p <pw>`, `plink -l
    // user -pw <pw>`, `smbclient -U user%<pw>`): the user flag says what `-p` is (alone, `-p`
    // is a port or `mkdir -p`).
    Rule {
        kind: "cli_secret",
        anchors: &["-p ", "-P ", "-pw ", "-U ", "--user=", "--username="],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:(?:^|\s)(?:-u|-U|-l|--user|--username)(?:[ \t]+|=)(?:\\?["'])?[^\s"'\\:%]{1,64}(?:\\?["'])?"#,
            r#"(?:[ \t]+-{1,2}[A-Za-z][A-Za-z0-9\-]*(?:[ \t]+[^\s\-][^\s]*)?){0,3}?[ \t]+-(?:p|P|pw|-pass)[ \t]+(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,128})"#,
            r#"|(?:^|\s)(?:-U|--user(?:name)?=)[ \t]*(?:\\?["'])?[A-Za-z0-9_.@\-]{1,64}%(?P<s2>[^\s"'\\`;|&]{4,128}))"#
        )),
        gate: Gate::Password,
        back: 240,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A relay map line, `<host>[:port] <user>:<password>` (Postfix `sasl_passwd`, similar
    // client credential maps): a host with a dot, one blank, a user, a colon, the password.
    Rule {
        kind: "assignment",
        anchors: &["]:", "smtp", "mail.", "relay"],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:^|\\n)[ \t]*\[?[A-Za-z0-9][A-Za-z0-9\-]*(?:\.[A-Za-z0-9\-]+)+\]?(?::[0-9]{2,5})?[ \t]+"#,
            r#"(?P<n>[A-Za-z0-9._%+\-]{1,64}(?:@[A-Za-z0-9.\-]{1,128})?):(?P<s>[^\s:"'\\]{4,128})(?:[ \t]*\r?$|\\[nr])"#
        )),
        gate: Gate::Password,
        back: 300,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A JAAS login module's `user_<name>="<password>"` options (Kafka's `PlainLoginModule`
    // lists each user's password so): `LoginModule` a little before (`Pre::Jaas`).
    Rule {
        kind: "assignment",
        anchors: &["user_"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:^|[\s;])user_(?P<n>[A-Za-z0-9_.\-]{1,64})[ \t]*=[ \t]*\\?"(?P<s>[^"\\\s]{4,256})\\?""#,
        ),
        gate: Gate::Password,
        back: 8,
        fwd: 360,
        left: false,
        right: false,
        pre: Pre::Jaas,
    },
    // A quoted literal with spaces and punctuation under a secret's or a salt's name:
    // frameworks' generated salts and keys (WordPress `define('AUTH_SALT', '…')`, a Django
    // `SECRET_KEY = '…'`, `signing_salt: "…"`), which the value classes above stop inside.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: &["salt", "pepper", "key", "secret"],
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:salt|pepper|key|secret)(?:[_\-.]?[A-Za-z0-9]{1,8}){0,2})(?:\\?["'])?[ \t]*(?:,|=>|=|:)[ \t]*"#,
            r#"(?:'(?P<s>[^'\n]{24,256})'|"(?P<s2>[^"\n\\]{24,256})")[ \t]*(?:\)|;|,|\r?$)"#
        )),
        gate: Gate::Random,
        back: 96,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Literal,
    },
    // A value piped into a command that reads a password or token on its standard input:
    // `echo <pw> | docker login … --password-stdin`, `| sudo -S …`, `echo 'user:<pw>' |
    // chpasswd`, `| passwd --stdin`, `| gh auth login --with-token`, `| kinit`.
    Rule {
        kind: "cli_secret",
        anchors: &["--password-stdin", "chpasswd", "sudo -S", "--stdin", "--with-token", "kinit"],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:\\?["']%s(?:\\\\?n)?\\?["'][ \t]+)?(?:\\?["'])?(?:[A-Za-z0-9_.\-]{1,32}:)?"#,
            r#"(?P<s>[^\s"'\\|;&]{4,256})(?:\\?["'])?[ \t]*\|[ \t]*[^|\n]{0,160}?"#,
            r#"(?:--password-stdin|--stdin|--with-token|chpasswd|sudo[ \t]+(?:-[A-Za-z]+[ \t]+)*-S|kinit)"#
        )),
        gate: Gate::Password,
        back: 400,
        fwd: 16,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Oracle's `user/password@connect` (`sqlplus scott/<pw>@//host:1521/svc`, `expdp`,
    // `rman target`, `CONNECT user/<pw>@db`, `userid=user/<pw>@db`).
    Rule {
        kind: "connection_string",
        anchors: &["sqlplus", "rman ", "expdp ", "impdp ", "sqlldr ", "CONNECT ", "connect ", "userid="],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:sqlplus|rman[ \t]+target=?|expdp|impdp|sqlldr|CONNECT|connect|userid=)[ \t]*(?:-[A-Za-z]+[ \t]+)*(?:\\?["'])?[A-Za-z][A-Za-z0-9_$#]{0,127}/(?P<s>[^\s@/"'\\]{3,128})@"#,
        ),
        gate: Gate::Password,
        back: 0,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A fallback literal after an environment lookup of a secret's name: `process.env.API_KEY
    // || "…"`, `?? '…'`, `ENV["TOKEN"] || "…"`, `ENV.fetch("SECRET") { "…" }`, `os.environ.get
    // ("KEY") or "…"` (the `getenv("KEY", "…")` form is the call rule's).
    Rule {
        kind: "assignment",
        anchors: &["process.env.", "ENV[", "ENV.fetch(", "environ.get(", "environ["],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:process\.env\.|ENV\[["']|ENV\.fetch\(["']|environ\.get\(["']|environ\[["'])"#,
            r#"(?P<n>[A-Za-z0-9_]{2,96})["']?\]?\)?[ \t]*(?:\|\||\?\?|or|\{)[ \t]*["'`](?P<s>[^"'`\s\\]{4,256})["'`]"#
        )),
        gate: Gate::Assignment,
        back: 0,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Positional passwords of key and user-management tools: `ssh-keygen … -N <new> / -P
    // <old>`, `wpa_passphrase <ssid> <pw>`, RabbitMQ's `add_user <u> <pw>` / `change_password
    // <u> <pw>`, `mosquitto_passwd -b <file> <u> <pw>`, `ldappasswd … -s <new>`.
    Rule {
        kind: "cli_secret",
        anchors: &[
            "ssh-keygen",
            "wpa_passphrase ",
            "add_user ",
            "change_password ",
            "mosquitto_passwd ",
            "ldappasswd ",
        ],
        keywords: &[],
        matcher: Matcher::Regex(concat!(
            r#"(?:ssh-keygen[ \t][^\n]{0,200}?[ \t]-[NP][ \t]+|wpa_passphrase[ \t]+(?:"[^"\n]{1,64}"|'[^'\n]{1,64}'|[^\s"']+)[ \t]+"#,
            r#"|(?:add_user|change_password)[ \t]+(?:\\?["'])?[^\s"']+(?:\\?["'])?[ \t]+"#,
            r#"|mosquitto_passwd[ \t]+(?:-[A-Za-z]+[ \t]+)*-b[ \t]+\S+[ \t]+\S+[ \t]+|ldappasswd[ \t][^\n]{0,200}?[ \t]-s[ \t]+)"#,
            r#"(?:\\?["'])?(?P<s>[^\s"'\\`;|&]{4,128})"#
        )),
        gate: Gate::Password,
        back: 0,
        fwd: 400,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // SQL's unquoted `CREATE USER u IDENTIFIED BY <pw>` (Oracle; the quoted form is above).
    Rule {
        kind: "sql_password",
        anchors: &["IDENTIFIED BY ", "identified by "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:USER|ROLE|user|role)[ \t]+\S+[ \t]+(?i:identified)[ \t]+(?i:by)[ \t]+(?P<s>[A-Za-z0-9_#$!@%^*+\-]{4,128})(?:[ \t;]|\r?$)"#,
        ),
        gate: Gate::Password,
        back: 200,
        fwd: 200,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Round 7: a name after or beside the value. A comment closing the value's line names it
    // (`"…"  # the stripe key`, `'…', -- admin password`); the comment's words are the name
    // (`old billing token`: a `public key` or `cache key` comment names no secret).
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: &["key", "token", "secret", "password", "passwd", "passphrase", "credential"],
        matcher: Matcher::Regex(concat!(
            r#"(?:\\?["'`](?P<s>[^\s"'`\\]{8,256})\\?["'`]|(?:(?m:^)|[\s=:])(?P<s2>[^\s"'`\\=:#]{8,256}))"#,
            r#"[,;)]*[ \t]+(?:#|//|--|/\*)[ \t]*(?:[A-Za-z0-9()'\-]+[ \t]+){0,4}?"#,
            r#"(?P<n>(?:[A-Za-z0-9_\-]+[ \t]+)?(?:[A-Za-z0-9]+[_\-])*(?i:api[ _\-]?key|key|token|secret|password|passwd|passphrase|credentials?))s?\b"#
        )),
        gate: Gate::Context,
        back: 320,
        fwd: 40,
        left: false,
        right: false,
        pre: Pre::Trailing,
    },
    // SQL rows: `UPDATE settings SET value = '…' WHERE name = 'stripe_token'` (the name after
    // the value) and `INSERT … VALUES ('api_token', '…')` (the name in a sibling column).
    Rule {
        kind: "assignment",
        anchors: &["' WHERE ", "' where "],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:set)\s+[A-Za-z0-9_."`]+\s*=\s*'(?P<s>[^'\s]{8,256})'\s+(?i:where)\s+[A-Za-z0-9_."`]+\s*=\s*'(?P<n>[A-Za-z0-9_.:\-]{2,96})'"#,
        ),
        gate: Gate::Assignment,
        back: 320,
        fwd: 160,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    Rule {
        kind: "assignment",
        anchors: &["VALUES (", "VALUES(", "values (", "values("],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?i:values)\s*\((?:\s*(?:'[^'\n]{0,96}'|[0-9]+|(?i:null|default))\s*,)*?\s*'(?P<n>[A-Za-z0-9_.:\-]{2,96})'\s*,\s*'(?P<s>[^'\s]{8,256})'"#,
        ),
        gate: Gate::Assignment,
        back: 0,
        fwd: 600,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A debugger frame's parameter list: gdb/lldb print a `char *` argument as its address
    // and its string (`connect (host=0x55… "db", password=0x7ffd… "…")`).
    Rule {
        kind: "assignment",
        anchors: &["=0x"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?P<n>[A-Za-z0-9_]*(?i:pass|pwd|secret|token|key|cred|auth)[A-Za-z0-9_]*)=0x[0-9a-fA-F]{4,16}\s+\\?"(?P<s>[^"\\]{4,256})\\?""#,
        ),
        gate: Gate::Assignment,
        back: 64,
        fwd: 300,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // A wider vocabulary: names whose last word is `pepper` or `hmac` (`PASSWORD_PEPPER`,
    // `WEBHOOK_HMAC`), assigned a value (`scan::assignment` reads them as secret names). Not
    // `salt`: a KDF's salt is stored beside its hash and is public (a keystore's `"salt"`);
    // frameworks' secret salts are round 6's quoted-literal rule's.
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: &["pepper", "hmac"],
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pepper|hmac)(?:[_\-.]?[A-Za-z0-9]{1,16}){0,2})"#,
            r#"(?:\\?["'])?\]?\s*(?::=|=>|=|:)\s*(?:\\?["']){0,2}(?P<s>[^\s"'\\`,;&(){}\[\]<>|]{8,256})"#
        )),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
        pre: Pre::Auto,
    },
    // Postmark server and account API tokens (UUIDs; Postmark's `X-Postmark-Server-Token` /
    // `X-Postmark-Account-Token`) named `server token` / `account token` right before them,
    // in prose or an assignment: a UUID, which the prose and assignment gates read as an id.
    // Last in the table, so that a value the generic rules already catch keeps their kind.
    with_anchors(
        "postmark_token",
        &[
            "server token",
            "Server token",
            "Server Token",
            "server_token",
            "SERVER_TOKEN",
            "Server-Token",
            "account token",
            "Account token",
            "Account Token",
            "account_token",
            "ACCOUNT_TOKEN",
            "Account-Token",
        ],
        r#"(?i:server|account)[ _\-](?i:api[ _\-])?(?i:token)(?:\\?["'])?(?:\s*(?::=|=>|=|:)\s*|\s+(?:is\s+|was\s+)?)(?:\\?["'])?(?P<s>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"#,
    ),
];

/// Every kind name, in table order, each once.
pub fn kinds() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in RULES {
        if !out.contains(&r.kind) {
            out.push(r.kind);
        }
    }
    out.push(super::net::KIND);
    out
}

/// The rule set as ripgrep patterns (one per line, for `rg -c -f patterns.txt`): each
/// rule's regex as is (private keys by their header), for the speed comparison of
/// docs/performance.md. rg runs them on every line; Dossier runs them near anchors only.
pub fn rg_patterns() -> Vec<String> {
    RULES
        .iter()
        .map(|r| match r.matcher {
            Matcher::Regex(p) => p.replace("(?P<s>", "(").replace("(?P<s2>", "(").replace("(?P<n>", "("),
            Matcher::PrivateKey => r"-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----".to_string(),
            Matcher::Base64 => r"(?:eyJ|ewog|ewoJ|LS0tLS1CRUdJTi|ZXlK)[A-Za-z0-9+/=_\-]{20,}".to_string(),
            Matcher::Sibling => r#""(?:key|name)"\s*:\s*"[^"]*(?i:pass|pwd|secret|token|key|cred|auth)[^"]*"\s*,\s*"value"\s*:\s*"[^"]{4,}""#.to_string(),
            Matcher::HeaderList => r"(?i:headers)[\x22']?\s*[:=]\s*[\x22']?[A-Za-z0-9_\-]+=[^\s,\x22']{8,}".to_string(),
            Matcher::Ppk => r"Private-Lines: [0-9]+".to_string(),
            Matcher::Block => r#"(?i:pass|pwd|secret|token|key|cred|auth)[A-Za-z0-9_.\-]*["'*]*\s*(?:[:=]\s*)?[{\[|:]?\s*$"#.to_string(),
            Matcher::Pair => r#"[\[(,]\s*"[^"]*(?i:pass|pwd|secret|token|key|cred|auth)[^"]*"\s*,\s*"[^"]{8,}""#.to_string(),
            Matcher::K8sSecret => r"kind: Secret".to_string(),
            Matcher::SqlInsert => r"(?i:insert into) [^\n]*(?i:values) ?\('".to_string(),
            // ripgrep matches line by line: the comment line that names the next one's value.
            Matcher::CommentAbove => r#"^[ \t]*(?:#|//|--|;) [^\n]{0,120}(?i:pass|pwd|secret|token|key|cred|auth)"#.to_string(),
            Matcher::LabelPair => {
                r#"^[ \t]*(?:"?Value"?[ \t]*:?[ \t]+"?[^\s"]{6,}|<(?:Value|string)>[^<]{4,}</)"#.to_string()
            }
            Matcher::Vendor => r"(?:CircleCI|Buildkite|Travis|Jenkins|Snyk|Codecov|Netlify|Vercel|Heroku)[^\n]{0,160}[A-Za-z0-9_\-]{16,}".to_string(),
        })
        .collect()
}
