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
    }
}

const fn with_back(mut r: Rule, back: u16) -> Rule {
    r.back = back;
    r
}

const fn mixed(mut r: Rule) -> Rule {
    r.gate = Gate::TokenMixed;
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
    }
}

/// Separator of an assignment: the key's closing quote or bracket, then `=`, `:`, `:=` or `=>`,
/// then the value's opening quote (quotes may be JSON-escaped).
macro_rules! assign {
    ($name:literal, $value:literal) => {
        concat!($name, r#"(?:\\?["'])?\]?\s*(?::=|=>|=|:)\s*(?:\\?["'])?(?P<s>"#, $value, r#")"#)
    };
}

/// Secret-named key words of the generic assignment (also the prefilter keywords).
pub const SECRET_WORDS: &[&str] = &["pass", "pwd", "secret", "token", "key", "credential", "auth"];

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
        &["xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-"],
        r"(?:xox[abposre]-[A-Za-z0-9\-]{10,}|xoxe\.xox[bp]-[A-Za-z0-9\-]{10,}|xapp-[0-9]-[A-Za-z0-9\-]{10,})",
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
    },
    with_back(tok("telegram_bot_token", &[":AA"], r"[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}"), 11),
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
    tok("doppler_token", &["dp."], r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
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
        matcher: Matcher::Regex(r"https?://(?P<s>[0-9a-f]{32})(?::[0-9a-f]{32})?@[A-Za-z0-9.\-]*sentry"),
        gate: Gate::Token,
        back: 140,
        fwd: 16,
        left: false,
        right: true,
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
    tok("age_secret_key", &["AGE-SECRET-KEY-1"], r"AGE-SECRET-KEY-1[0-9A-Z]{58}"),
    open_right(tok("mapbox_token", &["sk.eyJ"], r"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}")),
    tok("databricks_token", &["dapi"], r"dapi[0-9a-f]{32}(?:-[0-9])?"),
    tok("airtable_token", &["pat"], r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    tok("facebook_token", &["EAAB", "EAAC", "EAAG", "EAAI", "EAAJ"], r"EAA[BCGIJ][A-Za-z0-9]{80,}"),
    open_right(tok("google_oauth_token", &["1//0"], r"1//0[A-Za-z0-9_\-]{40,}")),
    open_right(tok("jwt", &["eyJ"], r"eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}")),
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
    },
    with_back(open_right(tok("azure_client_secret", &["Q~"], r"[A-Za-z0-9_~.\-]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}")), 4),
    Rule {
        kind: "url_credentials",
        anchors: &["://"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"[A-Za-z][A-Za-z0-9+.\-]{1,24}://(?P<n>[^\s/:@"'<>\\]{1,128}):(?P<s>[^\s/@"'<>\\]{1,256})@[A-Za-z0-9\[]"#,
        ),
        gate: Gate::Loose,
        back: 26,
        fwd: 400,
        left: false,
        right: false,
    },
    Rule {
        kind: "auth_header",
        anchors: &[],
        keywords: &["authorization"],
        matcher: Matcher::Regex(
            r#"(?i:authorization)(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?\s*(?i:bearer|basic|token|bot|digest|apikey|api-key|sso-key|ssws|key)\s+(?P<s>[A-Za-z0-9._~+/=\-:]{8,4096})"#,
        ),
        gate: Gate::Loose,
        back: 16,
        fwd: 600,
        left: false,
        right: false,
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
    },
    Rule {
        kind: "cli_secret",
        anchors: &[],
        keywords: &["pass", "token", "secret", "key"],
        matcher: Matcher::Regex(
            r#"--(?P<n>(?:[A-Za-z0-9]+-)*(?i:password|passwd|pass|token|secret|api-key|apikey|key|client-secret|auth-token|access-token))(?:=|\s+)(?:\\?["'])?(?P<s>[^\s"'\\`;|&<>()]{4,256})"#,
        ),
        gate: Gate::Assignment,
        back: 40,
        fwd: 300,
        left: false,
        right: false,
    },
    Rule {
        kind: "cli_secret",
        anchors: &["mysql", "mariadb"],
        keywords: &[],
        matcher: Matcher::Regex(
            r#"(?:mysql|mysqldump|mysqladmin|mariadb)\s[^\n]{0,200}?\s-p(?P<s>[^\s"'\\`;|&]{4,128})"#,
        ),
        gate: Gate::Loose,
        back: 0,
        fwd: 300,
        left: false,
        right: false,
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
    },
    Rule {
        kind: "assignment",
        anchors: &[],
        keywords: SECRET_WORDS,
        matcher: Matcher::Regex(concat!(
            r#"(?P<n>[A-Za-z0-9_.\-]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-.]?key|apikey|key|credentials?|auth)(?:[_\-.]?(?i:base|value|string|str|b64|base64|hex|raw))?)"#,
            r#"(?:\\?["'])?\]?\s*(?::=|=>|=|:)\s*(?:\\?["'])?(?P<s>[^\s"'\\`,;&(){}\[\]<>|]{4,256})"#
        )),
        gate: Gate::Assignment,
        back: 96,
        fwd: 320,
        left: false,
        right: false,
    },
];

/// Every kind name, in table order, each once.
pub fn kinds() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in RULES {
        if !out.contains(&r.kind) {
            out.push(r.kind);
        }
    }
    out
}

/// The rule set as ripgrep patterns (one per line, for `rg -c -f patterns.txt`): each
/// rule's regex as is (private keys by their header), for the speed comparison of
/// docs/performance.md. rg runs them on every line; Dossier runs them near anchors only.
pub fn rg_patterns() -> Vec<String> {
    RULES
        .iter()
        .map(|r| match r.matcher {
            Matcher::Regex(p) => p.replace("(?P<s>", "(").replace("(?P<n>", "("),
            Matcher::PrivateKey => r"-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----".to_string(),
        })
        .collect()
}
