//! The open-work list in-process (SPEC §8.3, §11.1): which Dossiers `listing::list` shows,
//! in the order the priority policy decides (the store does not reorder), with the scores
//! and staleness it derives, and unreadable Dossiers reported as warnings.

use dossier_store::config::Config;
use dossier_store::listing;
use dossier_store::model::{Level, Status};
use dossier_store::policy::{
    ArtifactInfo, Candidate, Finding, FlaggedPair, MergePlan, MergeSide, Policy, PriorityInput, Ranked, RankingOptions,
    Redaction, RedactionOptions, Resolution, Suggestion, Timestamp, Weights,
};
use dossier_store::progress::SILENT;
use dossier_store::save::{self, FrontmatterUpdates, SaveRequest};

use crate::common::Fixture;
use crate::native::Native;

const DAY_MS: i64 = 86_400_000;

/// The native policy with the priority order reversed: what a different component would answer.
struct Reversed;

impl Policy for Reversed {
    fn priority_sort(
        &self,
        items: &[PriorityInput],
        now: Timestamp,
        weights: Weights,
    ) -> dossier_store::Result<Vec<Ranked>> {
        let mut r = Native.priority_sort(items, now, weights)?;
        r.reverse();
        Ok(r)
    }
    fn rank(&self, q: &str, c: &[Candidate], o: RankingOptions) -> dossier_store::Result<Vec<Suggestion>> {
        Native.rank(q, c, o)
    }
    fn distill_validate(&self, d: &str, a: &[ArtifactInfo]) -> dossier_store::Result<Vec<Finding>> {
        Native.distill_validate(d, a)
    }
    fn merge(
        &self,
        s: &MergeSide,
        t: &MergeSide,
        r: &[Resolution],
        f: &[FlaggedPair],
    ) -> dossier_store::Result<MergePlan> {
        Native.merge(s, t, r, f)
    }
    fn redact(&self, text: &str, options: &RedactionOptions) -> dossier_store::Result<Redaction> {
        Native.redact(text, options)
    }
}

/// Four Dossiers, one per Eisenhower quadrant, created in an order that is neither the
/// priority order nor the slug order; `d-archived` is archived.
fn quadrants(f: &Fixture) {
    for (name, importance, urgency) in [
        ("B low low", Level::Low, Level::Low),
        ("C high low", Level::High, Level::Low),
        ("A low high", Level::Low, Level::High),
        ("E high high", Level::High, Level::High),
    ] {
        let slug = f.create(name).slug;
        let u = FrontmatterUpdates { importance: Some(importance), urgency: Some(urgency), ..Default::default() };
        save::save(&f.app, &slug, SaveRequest { updates: u, ..Default::default() }, &SILENT).unwrap();
    }
    let slug = f.create("D archived").slug;
    let u = FrontmatterUpdates { status: Some(Status::Archived), ..Default::default() };
    save::save(&f.app, &slug, SaveRequest { updates: u, ..Default::default() }, &SILENT).unwrap();
}

fn order(f: &Fixture, statuses: &[Status]) -> Vec<(String, u8)> {
    let l = listing::list(&f.app, statuses, listing::now_millis()).unwrap();
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    l.dossiers.into_iter().map(|d| (d.slug, d.priority_score)).collect()
}

fn owned(v: &[(&str, u8)]) -> Vec<(String, u8)> {
    v.iter().map(|(s, n)| (s.to_string(), *n)).collect()
}

#[test]
fn open_work_is_listed_in_the_policys_priority_order() {
    let f = Fixture::new();
    quadrants(&f);
    let expected = [("e-high-high", 1), ("c-high-low", 2), ("a-low-high", 3), ("b-low-low", 4)];
    assert_eq!(order(&f, &Status::OPEN), owned(&expected));
    let all = order(&f, &Status::ALL);
    assert_eq!(all.len(), 5);
    assert!(all.iter().any(|(s, _)| s == "d-archived"), "{all:?}");
    assert_eq!(order(&f, &[Status::Archived]).iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(), ["d-archived"]);
}

#[test]
fn the_order_is_the_policys_and_the_weights_are_the_configs() {
    // Another policy's order is shown as it answers.
    let f = Fixture::with(Config::default(), Box::new(Reversed));
    quadrants(&f);
    let expected = [("b-low-low", 4), ("a-low-high", 3), ("c-high-low", 2), ("e-high-high", 1)];
    assert_eq!(order(&f, &Status::OPEN), owned(&expected));

    // Urgency weighing more than importance puts urgent work ahead of important work.
    let mut config = Config::default();
    config.priority.weights.importance = 1;
    config.priority.weights.urgency = 3;
    let f = Fixture::with(config, Box::new(Native));
    quadrants(&f);
    let expected = [("e-high-high", 1), ("a-low-high", 2), ("c-high-low", 3), ("b-low-low", 4)];
    assert_eq!(order(&f, &Status::OPEN), owned(&expected));
}

#[test]
fn items_carry_their_fields_and_staleness_and_unreadable_dossiers_are_warnings() {
    let f = Fixture::new();
    let out = f.create("Alpha");
    let u = FrontmatterUpdates {
        lead: Some("Alice".into()),
        next_action: Some("Call Sales".into()),
        open_questions: Some(vec!["Tier?".into()]),
        due_date: Some("2026-12-24".into()),
        ..Default::default()
    };
    save::save(&f.app, "alpha", SaveRequest { updates: u, ..Default::default() }, &SILENT).unwrap();
    let broken = f.create("Broken").path.join("dossier.md");
    let text = std::fs::read_to_string(&broken).unwrap().replace("status: active", "status: paused");
    std::fs::write(&broken, text).unwrap();

    let now = listing::now_millis() + 3 * DAY_MS + 1_000;
    let l = listing::list(&f.app, &Status::OPEN, now).unwrap();
    assert_eq!(l.dossiers.len(), 1);
    let d = &l.dossiers[0];
    assert_eq!((d.id.as_str(), d.name.as_str(), d.slug.as_str()), (out.id.as_str(), "Alpha", "alpha"));
    assert_eq!(
        (d.lead.as_deref(), d.next_action.as_str(), d.due_date.as_deref()),
        (Some("Alice"), "Call Sales", Some("2026-12-24"))
    );
    assert_eq!(d.open_questions, ["Tier?"]);
    assert_eq!((d.status, d.importance, d.urgency, d.priority_score), (Status::Active, Level::High, Level::Low, 2));
    assert_eq!(d.staleness_days, 3);
    assert_eq!(d.path, out.path);
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert!(l.warnings[0].starts_with(&format!("{}:", broken.display())), "{:?}", l.warnings);

    // An empty store lists nothing.
    let empty = Fixture::new();
    let l = listing::list(&empty.app, &Status::OPEN, now).unwrap();
    assert!(l.dossiers.is_empty() && l.warnings.is_empty());
}
