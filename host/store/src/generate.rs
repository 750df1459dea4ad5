//! A synthetic store generator for tests and benchmarks: N Dossiers with M artifacts each,
//! realistic sizes (Distilled States of a few KB with provenance on every claim, artifacts
//! of 1–40 KB in all three formats) and a realistic status mix. Deterministic per seed.
//!
//! Not a product path: it writes fixture files directly (rendered by `model`, so the
//! format is exactly the product's) without locks or fsync, to build 10,000-Dossier stores
//! quickly. Product mutations always go through `save`.

use std::fs;
use std::path::Path;

use indexmap::IndexMap;

use crate::model::{
    self, ArtifactMeta, ArtifactType, AuditEvent, ContentFormat, DossierDoc, EventKind, Frontmatter, Level, Provenance,
    Status,
};

const WORDS: &[&str] = &[
    "pricing",
    "renewal",
    "enterprise",
    "latency",
    "migration",
    "schema",
    "rollout",
    "customer",
    "contract",
    "budget",
    "forecast",
    "incident",
    "database",
    "cache",
    "release",
    "vendor",
    "security",
    "audit",
    "tier",
    "usage",
    "annual",
    "monthly",
    "sales",
    "support",
    "onboarding",
    "churn",
    "capacity",
    "region",
    "index",
    "backfill",
    "deadline",
    "launch",
    "roadmap",
    "hiring",
    "design",
    "review",
    "metrics",
    "alerting",
    "quota",
    "billing",
    "invoice",
    "discount",
    "legal",
    "privacy",
    "export",
    "import",
    "pipeline",
    "queue",
    "retry",
    "timeout",
    "shard",
    "replica",
    "failover",
    "benchmark",
    "prototype",
    "feedback",
    "interview",
    "survey",
    "packaging",
    "positioning",
    "competitor",
    "partner",
    "integration",
    "api",
    "webhook",
    "token",
    "session",
];

/// Deterministic pseudo-random numbers (no RNG dependency; fixtures must be reproducible).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn word(&mut self) -> &'static str {
        WORDS[self.below(WORDS.len() as u64) as usize]
    }
    fn sentence(&mut self, words: usize) -> String {
        let mut s: Vec<&str> = (0..words).map(|_| self.word()).collect();
        let first = s[0].to_string();
        let mut cap = first[..1].to_uppercase();
        cap.push_str(&first[1..]);
        s[0] = "";
        format!("{cap}{}.", s.join(" "))
    }
}

pub struct Spec {
    pub dossiers: usize,
    pub artifacts_per_dossier: usize,
    /// Approximate Distilled State body size in bytes.
    pub body_bytes: usize,
    pub seed: u64,
}

/// Generate `spec.dossiers` Dossiers under `root` (an initialised store).
pub fn generate(root: &Path, spec: &Spec) -> std::io::Result<()> {
    let mut rng = Rng::new(spec.seed);
    for n in 0..spec.dossiers {
        let name = format!("{} {} {} {n}", rng.word(), rng.word(), rng.word());
        let slug = crate::ids::slugify(&name);
        let id = format!("dos_{:026}", n);
        let dir = root.join(&slug);
        fs::create_dir_all(dir.join("artifacts"))?;
        fs::create_dir_all(dir.join("conflicts"))?;
        let day = |d: u64| format!("2026-{:02}-{:02}T{:02}:00:00Z", 1 + d / 28 % 12, 1 + d % 28, d % 24);
        let status = match rng.below(20) {
            0..=11 => Status::Active,
            12..=14 => Status::Waiting,
            15..=16 => Status::Blocked,
            17..=18 => Status::Resolved,
            _ => Status::Archived,
        };
        let level = |r: &mut Rng| if r.below(2) == 0 { Level::High } else { Level::Low };
        let mut art_ids = Vec::new();
        for a in 0..spec.artifacts_per_dossier {
            let aid = format!("art_{n:013}{a:013}");
            let format = [ContentFormat::Markdown, ContentFormat::Json, ContentFormat::Text][a % 3];
            let size = 1_000 + rng.below(39_000) as usize;
            let mut text = String::new();
            while text.len() < size {
                text.push_str(&rng.sentence(12));
                text.push('\n');
            }
            let meta = ArtifactMeta {
                id: aid.clone(),
                dossier_id: id.clone(),
                artifact_type: [ArtifactType::SourceSnapshot, ArtifactType::Transcript, ArtifactType::FileSnapshot]
                    [a % 3],
                title: format!("{} notes {a}", rng.word()),
                captured_at: day(rng.below(300)),
                refreshed_at: day(rng.below(300)),
                frozen: false,
                provenance: Provenance { origin: Some("generator".into()), ..Default::default() },
                content_format: format,
                source_size_bytes: text.len() as u64,
                binary_source: None,
                extra: IndexMap::new(),
            };
            let yaml = serde_saphyr::to_string(&meta).expect("serializes");
            let adir = dir.join("artifacts");
            match format {
                ContentFormat::Markdown => {
                    fs::write(adir.join(format!("{aid}.md")), format!("---\n{yaml}---\n\n{text}"))?
                }
                ContentFormat::Json => {
                    let lines: Vec<&str> = text.lines().collect();
                    fs::write(
                        adir.join(format!("{aid}.json")),
                        serde_json::to_string_pretty(&serde_json::json!({ "lines": lines })).unwrap(),
                    )?;
                    fs::write(adir.join(format!("{aid}.meta.yaml")), yaml)?;
                }
                ContentFormat::Text => {
                    fs::write(adir.join(format!("{aid}.txt")), &text)?;
                    fs::write(adir.join(format!("{aid}.meta.yaml")), yaml)?;
                }
            }
            art_ids.push(aid);
        }
        let cite = |r: &mut Rng| match art_ids.is_empty() {
            true => String::new(),
            false => {
                let a = &art_ids[r.below(art_ids.len() as u64) as usize];
                let l = 1 + r.below(40);
                format!(" [src:{a}#L{l}-L{}]", l + r.below(10))
            }
        };
        let mut body = format!("# {name}\n");
        for section in model::SECTIONS {
            body.push_str(&format!("\n## {section}\n\n"));
            let per = (spec.body_bytes / 5).max(60);
            let start = body.len();
            while body.len() - start < per {
                let claim = rng.sentence(14);
                let src = cite(&mut rng);
                body.push_str(&format!("- {claim}{src}\n"));
            }
        }
        let touched = rng.below(300);
        let fm = Frontmatter {
            id: id.clone(),
            name: name.clone(),
            slug: slug.clone(),
            created_at: day(touched / 2),
            updated_at: day(touched),
            last_touched_at: day(touched),
            status,
            lead: Some(["Alice", "Bob", "Chen", "Dana"][rng.below(4) as usize].to_string()),
            next_action: rng.sentence(10),
            open_questions: (0..rng.below(3)).map(|_| format!("{}?", rng.sentence(8).trim_end_matches('.'))).collect(),
            importance: level(&mut rng),
            urgency: level(&mut rng),
            due_date: (rng.below(4) == 0).then(|| format!("2026-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28))),
            token_target: None,
            base_revision: None,
            extra: IndexMap::new(),
        };
        let doc = DossierDoc { frontmatter: fm, body };
        fs::write(dir.join("dossier.md"), doc.render())?;
        let ev = AuditEvent {
            ts: day(touched / 2),
            event: EventKind::Create,
            dossier_id: id,
            actor: "generator".into(),
            session_id: None,
            before_revision: None,
            after_revision: None,
            artifacts_added: art_ids,
            token_estimate: None,
            fields_changed: Vec::new(),
            body_changed: true,
            details: IndexMap::new(),
        };
        fs::write(dir.join("audit.log"), format!("{}\n", serde_json::to_string(&ev).unwrap()))?;
    }
    Ok(())
}
