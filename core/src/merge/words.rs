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
/// In a group of the opposition lexicon ([`OPPOSITES`]).
pub(super) const W_OPPOSITE: u64 = 1 << 29;
/// Has a canonical synonym ([`SYNONYMS`]).
pub(super) const W_SYNONYM: u64 = 1 << 30;
/// First word of a form in the alternatives table ([`ALTERNATIVES`]).
pub(super) const W_ALT_FIRST: u64 = 1 << 31;
/// A word of the qualifier table ([`QUALIFIER_TABLE`]).
pub(super) const W_QUALIFIER: u64 = 1 << 32;
/// A deployment environment or a plan tier ([`ENVIRONMENTS`], eighth round).
pub(super) const W_ENVIRONMENT: u64 = 1 << 33;
/// A word that says something takes another's place ([`REPLACEMENT`], eighth round).
pub(super) const W_REPLACEMENT: u64 = 1 << 34;
pub(super) const MONTH_SHIFT: u32 = 56;

/// Stop words. Negations are not stop words.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "being", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "during", "each", "every", "for", "from", "had", "has",
    "have", "having", "he", "her", "here", "his", "i", "if", "in", "into", "is", "it", "it's", "its", "just", "let's",
    "lets", "may", "me", "might", "must", "my", "of", "on", "onto", "or", "our", "over", "per", "shall", "she",
    "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
    "those", "to", "too", "up", "upon", "us", "very", "via", "was", "we", "we'll", "were", "what", "when", "where",
    "which", "while", "who", "whom", "whose", "will", "with", "would", "yes", "you", "your",
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

/// The opposition lexicon: groups of mutually exclusive choices, each member with its
/// forms. Two claims about the same thing that use different members of one group (and not a
/// common one) say opposite things (docs/merge.md has this table).
pub(super) const OPPOSITES: &[(&str, &[&[&str]])] = &[
    (
        "direction of change",
        &[
            &[
                "increase",
                "increases",
                "increased",
                "increasing",
                "raise",
                "raises",
                "raised",
                "raising",
                "grow",
                "grows",
                "grew",
                "growing",
                "expand",
                "expands",
                "expanded",
                "extend",
                "extends",
                "extended",
                "higher",
                "more",
                "widen",
                "widens",
                "widened",
                "widening",
                "broaden",
                "broadens",
                "broadened",
            ],
            &[
                "decrease",
                "decreases",
                "decreased",
                "decreasing",
                "lower",
                "lowers",
                "lowered",
                "lowering",
                "reduce",
                "reduces",
                "reduced",
                "reducing",
                "cut",
                "cuts",
                "cutting",
                "shrink",
                "shrinks",
                "shrank",
                "shorten",
                "shortens",
                "shortened",
                "fewer",
                "less",
                "narrow",
                "narrows",
                "narrowed",
                "narrowing",
            ],
        ],
    ),
    (
        "stays or goes",
        &[
            &[
                "keep",
                "keeps",
                "kept",
                "keeping",
                "retain",
                "retains",
                "retained",
                "maintain",
                "maintains",
                "maintained",
                "stay",
                "stays",
                "stayed",
                "staying",
            ],
            &[
                "drop",
                "drops",
                "dropped",
                "dropping",
                "remove",
                "removes",
                "removed",
                "removing",
                "retire",
                "retires",
                "retired",
                "retiring",
                "delete",
                "deletes",
                "deleted",
                "deprecate",
                "deprecated",
                "sunset",
                "sunsetted",
                "discontinue",
                "discontinued",
                "kill",
                "killed",
            ],
        ],
    ),
    (
        "added or removed",
        &[
            &[
                "add",
                "adds",
                "added",
                "adding",
                "introduce",
                "introduces",
                "introduced",
                "include",
                "includes",
                "included",
            ],
            &[
                "remove", "removes", "removed", "removing", "exclude", "excludes", "excluded", "drop", "drops",
                "dropped",
            ],
        ],
    ),
    (
        "on or off",
        &[
            &["enable", "enables", "enabling", "activate", "activates", "activated"],
            &["disable", "disables", "disabling", "deactivate", "deactivates", "deactivated"],
        ],
    ),
    (
        "allowed or not",
        &[
            &["allow", "allows", "allowed", "allowing", "permit", "permits", "permitted", "unblock", "unblocked"],
            &[
                "block",
                "blocks",
                "blocked",
                "blocking",
                "deny",
                "denies",
                "denied",
                "forbid",
                "forbids",
                "forbidden",
                "prohibit",
                "prohibits",
                "prohibited",
                "ban",
                "bans",
                "banned",
            ],
        ],
    ),
    (
        "accepted or not",
        &[
            &["accept", "accepts", "accepted", "accepting", "approve", "approves", "approved", "approving"],
            &["reject", "rejects", "rejected", "rejecting", "decline", "declines", "declined", "refuse", "refused"],
        ],
    ),
    (
        "started or stopped",
        &[
            &["start", "starts", "started", "starting", "begin", "begins", "began", "resume", "resumes", "resumed"],
            &[
                "stop",
                "stops",
                "stopped",
                "stopping",
                "pause",
                "pauses",
                "paused",
                "halt",
                "halts",
                "halted",
                "suspend",
                "suspends",
                "suspended",
            ],
        ],
    ),
    (
        "shipped or held",
        &[
            &["ship", "ships", "shipped", "shipping"],
            &[
                "hold",
                "holds",
                "held",
                "holding",
                "delay",
                "delays",
                "delayed",
                "postpone",
                "postponed",
                "defer",
                "deferred",
            ],
        ],
    ),
    ("built or bought", &[&["build", "builds", "built", "building"], &["buy", "buys", "bought", "buying"]]),
    ("hired or not", &[&["hire", "hires", "hired", "hiring"], &["freeze", "froze", "frozen", "fire", "fired"]]),
    (
        "go ahead or call off",
        &[
            &["book", "books", "booked", "confirm", "confirms", "confirmed", "proceed", "proceeds", "proceeding"],
            &["cancel", "cancels", "cancelled", "canceled", "cancelling", "scrap", "scrapped", "abandon", "abandoned"],
        ],
    ),
    (
        "published or withdrawn",
        &[
            &["publish", "publishes", "published", "republish", "republished"],
            &["withdraw", "withdraws", "withdrawn", "withdrew", "unpublish", "unpublished", "retract", "retracted"],
        ],
    ),
    ("upgraded or downgraded", &[&["upgrade", "upgrades", "upgraded"], &["downgrade", "downgrades", "downgraded"]]),
    (
        "frequency",
        &[
            &["hourly"],
            &["daily", "nightly"],
            &["weekly"],
            &["biweekly", "fortnightly"],
            &["monthly"],
            &["quarterly"],
            &["annually", "annual", "yearly"],
        ],
    ),
    ("always or never", &[&["always"], &["never"]]),
    ("how it is done", &[&["manually", "manual", "hand"], &["automatically", "automatic", "automated", "auto"]]),
    ("order", &[&["before", "earlier", "prior"], &["after", "later"]]),
    ("timing of a call", &[&["synchronously", "synchronous", "sync"], &["asynchronously", "asynchronous", "async"]]),
    ("visibility", &[&["public", "publicly"], &["private", "privately"]]),
    ("open or closed", &[&["open", "opened", "opens", "reopen", "reopened"], &["closed", "close", "closes"]]),
    ("obligation", &[&["mandatory", "required", "compulsory", "obligatory"], &["optional", "voluntary"]]),
    ("inside or outside", &[&["internal", "internally"], &["external", "externally", "outsourced"]]),
    ("connectivity", &[&["online"], &["offline"]]),
    ("place of work", &[&["remote", "remotely"], &["onsite"]]),
    ("centralisation", &[&["centralised", "centralized"], &["decentralised", "decentralized"]]),
    ("speed", &[&["faster", "quicker", "sooner"], &["slower"]]),
    ("temporal extent", &[&["temporary", "temporarily"], &["permanent", "permanently"]]),
    ("working or down", &[&["healthy", "operational"], &["down", "unhealthy", "broken", "failing"]]),
];

/// The synonym table: words that name the same thing, folded to the first of each row in
/// keys (subjects, word sets), never in duplicate detection (docs/merge.md has this table).
pub(super) const SYNONYMS: &[&[&str]] = &[
    &["database", "db", "datastore"],
    &["repository", "repo"],
    &["environment", "env"],
    &["production", "prod"],
    &["configuration", "config"],
    &["documentation", "docs", "doc"],
    &["authentication", "auth", "login", "signin"],
    &["infrastructure", "infra"],
    &["kubernetes", "k8s"],
    &["customer", "client"],
    &["invoice", "bill"],
    &["invoicing", "billing"],
    &["headcount", "staff", "staffing"],
    &["vendor", "supplier", "provider"],
    &["budget", "spend", "spending"],
    &["owner", "own", "owns", "owned", "dri"],
    &["lead", "leads", "led"],
    &["incident", "outage"],
    &["bug", "defect"],
    &["ticket", "issue"],
    &["meeting", "standup"],
    &["office", "hq", "headquarters"],
    &["europe", "eu"],
    &["release", "rollout"],
    &["use", "used", "using", "uses"],
    &["host", "hosted", "hosting", "hosts"],
    &["send", "sent", "sends", "sending"],
    &["run", "runs", "ran", "running"],
    &["role", "position", "positions"],
];

/// The alternatives table (issue 19, fourth round): groups of well-known alternatives for one
/// choice that share no word ("in-house" / "outsourced", "on-premises" / "cloud", "opt-in" /
/// "opt-out"), written from knowledge of the domains, not from pairs. Each member lists its
/// forms; a form of several words is matched on consecutive words of the main clause, a hyphen
/// or slash between them ignored ("in house" matches "in-house"). A claim using members of a
/// group is read like one using members of the opposition lexicon ([`OPPOSITES`]): two claims
/// about one thing that pick different members (and no common one) choose differently; a claim
/// naming several members of a group ("hybrid: cloud and on-premises") picks none of them
/// (docs/merge.md has this table).
pub(super) const ALTERNATIVES: &[(&str, &[&[&str]])] = &[
    (
        "sourcing",
        &[
            &["in house", "insourced", "insource", "insourcing", "our own staff", "own staff"],
            &["outsourced", "outsource", "outsources", "outsourcing", "third party", "vendor", "vendors"],
            &["agency", "agencies"],
            &["contractor", "contractors", "freelancer", "freelancers", "freelance"],
        ],
    ),
    (
        "hosting",
        &[
            &[
                "on premises",
                "on premise",
                "on prem",
                "self hosted",
                "self host",
                "our own servers",
                "own data centre",
                "own data center",
            ],
            &["cloud", "cloud hosted", "public cloud", "aws", "amazon web services", "azure", "gcp", "google cloud"],
            &["hybrid"],
            &["saas", "managed service", "fully managed", "hosted service"],
        ],
    ),
    ("consent", &[&["opt in", "opted in", "opting in"], &["opt out", "opted out", "opting out"]]),
    (
        "rollout",
        &[
            &["all at once", "big bang", "single cutover", "in one go", "at once"],
            &[
                "phased",
                "staged",
                "incremental",
                "incrementally",
                "gradual",
                "gradually",
                "rolling",
                "in phases",
                "in waves",
                "in stages",
                "step by step",
            ],
        ],
    ),
    (
        "medium",
        &[
            &["paper", "paper based", "hard copy", "hard copies", "on paper"],
            &[
                "online",
                "digital",
                "digitally",
                "electronic",
                "electronically",
                "e signature",
                "e signatures",
                "web form",
            ],
        ],
    ),
    (
        "where people meet",
        &[
            &["in person", "face to face", "on site", "onsite", "in office", "in the office"],
            &["remote", "remotely", "virtual", "virtually", "video call", "over video"],
            &["hybrid"],
        ],
    ),
    (
        "organisation",
        &[
            &["centralised", "centralized", "centrally", "central", "head office"],
            &[
                "decentralised",
                "decentralized",
                "local",
                "locally",
                "regional",
                "regionally",
                "federated",
                "per site",
                "each site",
            ],
        ],
    ),
    (
        "flow",
        &[&["push", "pushes", "push based"], &["pull", "pulls", "pull based", "poll", "polls", "polled", "polling"]],
    ),
    (
        "processing",
        &[&["batch", "batches", "batched"], &["streaming", "streamed", "real time", "realtime", "event driven"]],
    ),
    ("licence", &[&["open source", "open sourced", "oss"], &["proprietary", "closed source"]]),
    ("architecture", &[&["monolith", "monolithic"], &["microservices", "microservice", "micro services"]]),
    (
        "pricing model",
        &[
            &["fixed price", "fixed fee", "flat fee", "flat rate", "fixed rate", "flat"],
            &[
                "variable",
                "variable rate",
                "time and materials",
                "usage based",
                "metered",
                "pay as you go",
                "pay as they go",
                "pay per use",
            ],
            &["per seat", "per user", "seat based"],
            &["tiered"],
        ],
    ),
    ("cost", &[&["free", "free of charge", "at no cost", "complimentary"], &["paid", "chargeable", "billable"]]),
    ("tenancy", &[&["shared", "multi tenant", "multitenant", "pooled"], &["dedicated", "single tenant", "isolated"]]),
    (
        "payment timing",
        &[
            &["prepaid", "upfront", "up front", "in advance"],
            &[
                "postpaid",
                "in arrears",
                "on delivery",
                "on completion",
                "pay as you go",
                "pay as they go",
                "pay as we go",
                "pay per use",
            ],
        ],
    ),
    ("hours", &[&["full time", "fulltime"], &["part time", "parttime"]]),
    (
        "handover",
        &[
            &["pickup", "pick up", "click and collect", "collected", "collection"],
            &["home delivery", "doorstep delivery", "courier", "couriered", "mailed"],
        ],
    ),
    (
        "sign-in",
        &[
            &["password based", "passwords", "password"],
            &["passwordless", "magic link", "magic links", "passkey", "passkeys"],
        ],
    ),
    (
        "data format",
        &[&["json"], &["xml"], &["csv"], &["parquet"], &["yaml"], &["pdf"], &["excel", "xlsx", "spreadsheet"]],
    ),
    ("rendering", &[&["server side", "server rendered", "ssr"], &["client side", "client rendered", "csr"]]),
    (
        "repositories",
        &[
            &["monorepo", "mono repo", "single repository", "one repository"],
            &["polyrepo", "multi repo", "separate repositories", "separate repos"],
        ],
    ),
    ("branching", &[&["trunk based", "trunk"], &["gitflow", "git flow", "feature branches", "long lived branches"]]),
    ("deployment", &[&["blue green"], &["canary", "canaries"], &["in place"]]),
    ("scaling", &[&["vertical", "vertically", "scale up"], &["horizontal", "horizontally", "scale out"]]),
    ("data model", &[&["sql", "relational"], &["nosql", "document store", "key value"]]),
    ("access", &[&["read only", "readonly"], &["read write", "writable", "editable"]]),
    (
        "means of payment",
        &[
            &["cash"],
            &["card", "cards", "credit card", "debit card", "card payments"],
            &["bank transfer", "wire transfer", "direct debit", "bacs", "ach"],
            &["cheque", "cheques"],
        ],
    ),
    ("direction of traffic", &[&["inbound"], &["outbound"]]),
    (
        "queue order",
        &[
            &["first come first served", "fifo", "first in first out", "in order of arrival"],
            &["lifo", "last in first out"],
            &["by priority", "priority based", "by urgency", "by severity"],
        ],
    ),
    (
        "visits",
        &[
            &["walk in", "walk ins", "drop in", "drop ins"],
            &["by appointment", "appointment only", "appointments only", "pre booked", "booking required"],
        ],
    ),
    ("week", &[&["weekday", "weekdays"], &["weekend", "weekends"]]),
    ("shift", &[&["day shift", "daytime", "day shifts"], &["night shift", "night shifts", "overnight", "night time"]]),
    ("season", &[&["spring"], &["summer"], &["autumn"], &["winter"]]),
    (
        "day of the week",
        &[
            &["monday", "mondays"],
            &["tuesday", "tuesdays"],
            &["wednesday", "wednesdays"],
            &["thursday", "thursdays"],
            &["friday", "fridays"],
            &["saturday", "saturdays"],
            &["sunday", "sundays"],
        ],
    ),
    ("time of day", &[&["morning", "mornings"], &["afternoon", "afternoons"], &["evening", "evenings"]]),
    ("direction of a pipeline", &[&["upstream"], &["downstream"]]),
    ("app type", &[&["native app", "native apps"], &["web app", "web apps", "progressive web app", "pwa"]]),
    (
        "encryption",
        &[
            &["encrypted", "encrypt", "encryption"],
            &["plaintext", "plain text", "unencrypted", "cleartext", "clear text"],
        ],
    ),
    (
        "list kind",
        &[
            &["allowlist", "whitelist", "allow list"],
            &["blocklist", "blacklist", "denylist", "deny list", "block list"],
        ],
    ),
    (
        "tenure",
        &[
            &["lease", "leased", "leasing", "rent", "rented", "renting", "rental"],
            &["purchase", "purchased", "own outright", "bought outright"],
        ],
    ),
    ("stock", &[&["in stock"], &["out of stock", "backordered", "back ordered", "sold out"]]),
    (
        "freight",
        &[
            &["air freight", "airfreight", "by air"],
            &["sea freight", "ocean freight", "by sea"],
            &["road freight", "by road", "trucking"],
            &["rail freight", "by rail"],
        ],
    ),
    (
        "supply base",
        &[
            &["single sourced", "single source", "sole source", "sole supplier", "single supplier"],
            &["dual sourced", "dual source", "multi sourced", "second source", "multiple suppliers"],
        ],
    ),
    ("exclusivity", &[&["exclusive", "exclusively"], &["non exclusive"]]),
    (
        "employment",
        &[
            &["permanent staff", "permanent hire", "permanent hires", "employees", "employee"],
            &["temps", "temp staff", "temporary staff", "agency staff"],
        ],
    ),
];

/// The first words of the alternatives' forms ([`ALTERNATIVES`]), for the word table: only a
/// token with this class starts a lookup in the table.
const fn flatten_alternative_firsts() -> [&'static str; 1024] {
    let mut out = [""; 1024];
    let mut n = 0;
    let mut g = 0;
    while g < ALTERNATIVES.len() {
        let members = ALTERNATIVES[g].1;
        let mut m = 0;
        while m < members.len() {
            let mut f = 0;
            while f < members[m].len() {
                let b = members[m][f].as_bytes();
                let mut e = 0;
                while e < b.len() && b[e] != b' ' {
                    e += 1;
                }
                let (first, _) = b.split_at(e);
                out[n] = match core::str::from_utf8(first) {
                    Ok(w) => w,
                    Err(_) => panic!("ascii forms"),
                };
                n += 1;
                f += 1;
            }
            m += 1;
        }
        g += 1;
    }
    out
}

const ALTERNATIVE_FIRST_ALL: [&str; 1024] = flatten_alternative_firsts();
const ALTERNATIVE_FIRSTS: &[&str] = ALTERNATIVE_FIRST_ALL.split_at(count_nonempty(&ALTERNATIVE_FIRST_ALL)).0;

/// Group numbers of [`ALTERNATIVES`] in `poles` start after the opposition lexicon's.
pub(super) const ALTERNATIVES_BASE: usize = OPPOSITES.len();

/// The qualifier table (issue 19, third round): words that say which part of the world a
/// claim is about, wherever they stand in the main clause. Two claims that both name words of
/// one category, neither's containing the other's, are about different things ("Enable
/// Wi-Fi calling on Android" / "… on iOS"; "Enterprise customers get imagery within 6 hours"
/// / "Standard-tier customers … 24 hours"). Environments (*production, staging*) are not in
/// it: "still in staging" / "went to production" is a state, not a scope.
pub(super) const QUALIFIER_TABLE: &[(&str, &[&str])] = &[
    (
        "platform",
        &["android", "ios", "ipados", "windows", "linux", "macos", "web", "desktop", "ps5", "xbox", "playstation"],
    ),
    (
        "customer tier or segment",
        &[
            "enterprise",
            "business",
            "residential",
            "consumer",
            "standard",
            "basic",
            "premium",
            "starter",
            "smb",
            "children",
            "child",
            "adults",
            "adult",
        ],
    ),
    // Fourth round: settings, kinds of client and species, the modifiers that say which part
    // of a service a claim covers ("Rural legs fly at 90 m" / "Urban legs fly at 60 m").
    ("setting", &["urban", "rural", "suburban", "inner", "outer", "coastal", "inland", "upland", "lowland"]),
    (
        "kind of client",
        &[
            "retail",
            "institutional",
            "wholesale",
            "corporate",
            "individual",
            "individuals",
            "commercial",
            "domestic",
            "international",
            "trade",
            "charity",
            "charities",
        ],
    ),
    (
        "species",
        &[
            "dog", "dogs", "cat", "cats", "horse", "horses", "rabbit", "rabbits", "bird", "birds", "cattle", "sheep",
            "pig", "pigs", "poultry", "canine", "feline", "equine",
        ],
    ),
    (
        "region",
        &[
            "eu", "europe", "us", "uk", "apac", "emea", "latam", "americas", "asia", "africa", "northern", "southern",
            "eastern", "western", "north", "south", "east", "west",
        ],
    ),
];

/// Deployment environments and plan tiers (eighth round, `Analysis::environments`): which
/// copy of a system, or which plan of a product, a claim is about ("Staging deploys are
/// automatic" / "Production deploys are manual"; "Free tier: 3 projects" / "Pro tier:
/// unlimited").
pub(super) const ENVIRONMENTS: &[&str] = &[
    "production",
    "prod",
    "staging",
    "stage",
    "sandbox",
    "preview",
    "dev",
    "development",
    "test",
    "testing",
    "qa",
    "uat",
    "local",
    "free",
    "pro",
    "plus",
    "team",
    "teams",
    "trial",
];

/// Words that say something takes another's place (eighth round: `Analysis::replaces`,
/// with "no longer"), the verbs of replacement among them.
pub(super) const REPLACEMENT: &[&str] = &[
    "instead",
    "replace",
    "replaces",
    "replacing",
    "swap",
    "swaps",
    "swapping",
    "substitute",
    "replaced",
    "swapped",
    "substituted",
    "switch",
    "switched",
    "switches",
    "switching",
    "migrate",
    "migrated",
    "migrating",
    "superseded",
    "supersedes",
    "anymore",
];

/// Groups of [`OPPOSITES`] whose second member says *no* to the first: a claim using it
/// ("Drop support for X") has the polarity of a negated claim ("X is no longer supported").
pub(super) const NEGATIVE_POLES: &[&str] = &[
    "stays or goes",
    "added or removed",
    "on or off",
    "allowed or not",
    "accepted or not",
    "started or stopped",
    "shipped or held",
];

/// The opposition group and member of word `w` (a word in class [`W_OPPOSITE`]), packed as
/// `group << 8 | member`, pushed to `out` (a word may be in several groups).
pub(super) fn poles_of(w: &str, out: &mut Vec<u16>) {
    for (g, (_, members)) in OPPOSITES.iter().enumerate() {
        for (m, forms) in members.iter().enumerate() {
            if forms.contains(&w) {
                out.push(((g as u16) << 8) | m as u16);
            }
        }
    }
}

/// The first opposition group and member of word `w` (a word in class [`W_OPPOSITE`]),
/// packed as in [`poles_of`].
pub(super) fn first_pole(w: &str) -> Option<u16> {
    for (g, (_, members)) in OPPOSITES.iter().enumerate() {
        for (m, forms) in members.iter().enumerate() {
            if forms.contains(&w) {
                return Some(((g as u16) << 8) | m as u16);
            }
        }
    }
    None
}

/// The canonical word of `w` (a word in class [`W_SYNONYM`]).
pub(super) fn synonym_of(w: &str) -> Option<&'static str> {
    SYNONYMS.iter().find(|row| row[1..].contains(&w)).map(|row| row[0])
}

const fn flatten_opposites() -> [&'static str; 1024] {
    let mut out = [""; 1024];
    let mut n = 0;
    let mut g = 0;
    while g < OPPOSITES.len() {
        let members = OPPOSITES[g].1;
        let mut m = 0;
        while m < members.len() {
            let mut f = 0;
            while f < members[m].len() {
                out[n] = members[m][f];
                n += 1;
                f += 1;
            }
            m += 1;
        }
        g += 1;
    }
    out
}

const fn flatten_synonyms() -> [&'static str; 256] {
    let mut out = [""; 256];
    let mut n = 0;
    let mut r = 0;
    while r < SYNONYMS.len() {
        let mut f = 1;
        while f < SYNONYMS[r].len() {
            out[n] = SYNONYMS[r][f];
            n += 1;
            f += 1;
        }
        r += 1;
    }
    out
}

const fn count_nonempty<const N: usize>(a: &[&str; N]) -> usize {
    let mut n = 0;
    while n < N && !a[n].is_empty() {
        n += 1;
    }
    n
}

const OPPOSITE_ALL: [&str; 1024] = flatten_opposites();
const OPPOSITE_WORDS: &[&str] = OPPOSITE_ALL.split_at(count_nonempty(&OPPOSITE_ALL)).0;
const SYNONYM_ALL: [&str; 256] = flatten_synonyms();
const SYNONYM_WORDS: &[&str] = SYNONYM_ALL.split_at(count_nonempty(&SYNONYM_ALL)).0;

pub(super) const WORD_CLASSES: &[(u64, &[&str])] = &[
    (W_OPPOSITE, OPPOSITE_WORDS),
    (W_SYNONYM, SYNONYM_WORDS),
    (W_ALT_FIRST, ALTERNATIVE_FIRSTS),
    (W_ENVIRONMENT, ENVIRONMENTS),
    (W_REPLACEMENT, REPLACEMENT),
    (W_QUALIFIER, QUALIFIER_TABLE[0].1),
    (W_QUALIFIER, QUALIFIER_TABLE[1].1),
    (W_QUALIFIER, QUALIFIER_TABLE[2].1),
    (W_QUALIFIER, QUALIFIER_TABLE[3].1),
    (W_QUALIFIER, QUALIFIER_TABLE[4].1),
    (W_QUALIFIER, QUALIFIER_TABLE[5].1),
    (W_STOP, STOP),
    (W_NEG, NEGATIONS),
    (W_NOISE, SUBJECT_NOISE),
    (W_LABEL, &["agreed", "assumption", "decided", "decision", "fact", "finding", "note", "update"]),
    (W_ATTRIBUTION, &["agreed", "approved", "confirmed", "decided"]),
    (W_CUT, &["because", "if", "since", "unless", "until"]),
    (W_REASON, &["rationale", "reason"]),
    (W_PAIR_CUT, &["as", "due", "given", "signed", "so", "to", "which"]),
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

const TABLE_SIZE: usize = 2048;

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

/// Days of the week, in full and abbreviated (thirteenth round): a label of one before `:`
/// stamps a log entry ("Wed: back bedroom done"), as a date or a month does.
pub(super) const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
];
