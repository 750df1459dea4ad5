//! codecall's learning policy (`dossier_core::learning`), through its public API: every
//! opportunity rule and exclusion, planner ordering, dedupe, merge, cycles and budgets, the
//! next-move table, MCQ item checks and the choice shuffle. Rules: docs/learning-policy.md.

use std::collections::{BTreeSet, HashMap};

use dossier_core::distill::Severity;
use dossier_core::learning::item::{LONGEST_MARGIN_CHARS, shuffle_order};
use dossier_core::learning::next_move::MAX_WRONG_PER_UNIT;
use dossier_core::learning::opportunity::{EXCLUSION_PENALTY, OPTIONAL_FLOOR, RECOMMEND_FLOOR};
use dossier_core::learning::*;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Opportunity
// ---------------------------------------------------------------------------------------------

fn ev(path: &str) -> EvidenceRef {
    EvidenceRef {
        path: path.into(),
        revision: "abc123".into(),
        start_line: 10,
        end_line: 24,
        content_hash: "ff".into(),
    }
}

fn sig(kind: SignalKind, concept: &str) -> Signal {
    Signal { kind, concept: concept.into(), reason: format!("{} seen", kind.name()), evidence: vec![ev("src/lib.rs")] }
}

fn finished(signals: Vec<Signal>, excluded: Vec<ExcludedKind>) -> OpportunityInput {
    OpportunityInput { completed: true, inspectable: true, signals, excluded }
}

fn score(signals: Vec<Signal>, excluded: Vec<ExcludedKind>) -> Opportunity {
    score_opportunity(&finished(signals, excluded)).unwrap()
}

const STRONG: [SignalKind; 5] = [
    SignalKind::ExternalContract,
    SignalKind::ArchitectureFlow,
    SignalKind::SecurityBoundary,
    SignalKind::ReliabilityBoundary,
    SignalKind::ConsequentialTradeoff,
];
const MODERATE: [SignalKind; 7] = [
    SignalKind::ReusablePattern,
    SignalKind::DependencyRelationship,
    SignalKind::OperationalConfig,
    SignalKind::Observability,
    SignalKind::Validation,
    SignalKind::TestStrategy,
    SignalKind::Deployment,
];

#[test]
fn not_completed_or_not_inspectable_is_skip() {
    let strong = vec![sig(SignalKind::SecurityBoundary, "auth middleware")];
    for (completed, inspectable, needle) in
        [(false, true, "not completed"), (true, false, "no inspectable"), (false, false, "not completed")]
    {
        let o =
            score_opportunity(&OpportunityInput { completed, inspectable, signals: strong.clone(), excluded: vec![] })
                .unwrap();
        assert_eq!(o.recommendation, Recommendation::Skip);
        assert_eq!(o.score, 0.0);
        assert_eq!(o.estimated_minutes, 0);
        assert!(o.matched_strong.is_empty());
        assert!(o.reasons.iter().any(|r| r.contains(needle)), "{:?}", o.reasons);
    }
}

#[test]
fn every_strong_signal_alone_recommends() {
    for kind in STRONG {
        let o = score(vec![sig(kind, "c")], vec![]);
        assert_eq!(o.recommendation, Recommendation::Recommend, "{kind:?}");
        assert_eq!(o.matched_strong, vec![kind]);
        assert!(o.matched_moderate.is_empty());
        assert!(o.score >= RECOMMEND_FLOOR, "{kind:?}: {}", o.score);
        assert!(o.reasons.iter().any(|r| r.contains("strong signal") && r.contains(kind.name())), "{:?}", o.reasons);
    }
}

#[test]
fn every_moderate_signal_alone_is_optional() {
    for kind in MODERATE {
        let o = score(vec![sig(kind, "c")], vec![]);
        assert_eq!(o.recommendation, Recommendation::Optional, "{kind:?}");
        assert_eq!(o.matched_moderate, vec![kind]);
        assert!((OPTIONAL_FLOOR..RECOMMEND_FLOOR).contains(&o.score), "{kind:?}: {}", o.score);
    }
}

#[test]
fn two_distinct_moderate_signals_recommend() {
    let pairs = [
        (SignalKind::ReusablePattern, SignalKind::DependencyRelationship),
        (SignalKind::ReusablePattern, SignalKind::Observability),
        (SignalKind::DependencyRelationship, SignalKind::Deployment),
    ];
    for (a, b) in pairs {
        let o = score(vec![sig(a, "x"), sig(b, "y")], vec![]);
        assert_eq!(o.recommendation, Recommendation::Recommend, "{a:?} + {b:?}");
        assert_eq!(o.score, RECOMMEND_FLOOR, "exactly at the threshold");
    }
}

#[test]
fn moderate_kinds_of_one_spec_signal_are_not_distinct() {
    // §10: "an operational configuration, observability, validation, test-strategy, or
    // deployment change" is one moderate signal.
    let o = score(
        vec![
            sig(SignalKind::Observability, "metrics"),
            sig(SignalKind::Validation, "input schema"),
            sig(SignalKind::OperationalConfig, "timeouts"),
        ],
        vec![],
    );
    assert_eq!(o.recommendation, Recommendation::Optional);
    assert_eq!(
        o.matched_moderate,
        vec![SignalKind::OperationalConfig, SignalKind::Observability, SignalKind::Validation]
    );
    // The same kind on two concepts is one signal too.
    let o = score(vec![sig(SignalKind::ReusablePattern, "a"), sig(SignalKind::ReusablePattern, "b")], vec![]);
    assert_eq!(o.recommendation, Recommendation::Optional);
}

#[test]
fn no_signal_is_skip() {
    let o = score(vec![], vec![]);
    assert_eq!(o.recommendation, Recommendation::Skip);
    assert_eq!(o.score, 0.0);
    assert!(o.reasons.last().unwrap().contains("no qualifying signal"));
}

#[test]
fn formatting_only_change_is_skip() {
    let o = score(vec![], vec![ExcludedKind::Formatting]);
    assert_eq!(o.recommendation, Recommendation::Skip);
    assert_eq!(o.score, 0.0);
    assert_eq!(o.excluded, vec![ExcludedKind::Formatting]);
    assert!(o.reasons.iter().any(|r| r.contains("excluded: formatting")), "{:?}", o.reasons);
}

#[test]
fn every_exclusion_alone_is_skip_and_recorded() {
    for e in ExcludedKind::ALL {
        let o = score(vec![], vec![e, e]);
        assert_eq!(o.recommendation, Recommendation::Skip, "{e:?}");
        assert_eq!(o.excluded, vec![e], "deduplicated");
        assert!(o.reasons.iter().any(|r| r.starts_with("excluded:")), "{e:?}: {:?}", o.reasons);
    }
}

#[test]
fn every_exclusion_pushes_the_score_down_within_its_band() {
    let base = score(vec![sig(SignalKind::ReusablePattern, "p")], vec![]);
    for e in ExcludedKind::ALL.into_iter().filter(|e| e.cancels() != Some(SignalKind::ReusablePattern)) {
        let o = score(vec![sig(SignalKind::ReusablePattern, "p")], vec![e]);
        assert_eq!(o.recommendation, Recommendation::Optional, "{e:?}");
        assert!((o.score - (base.score - EXCLUSION_PENALTY)).abs() < 1e-9, "{e:?}: {} vs {}", o.score, base.score);
        assert!(o.confidence < base.confidence, "{e:?}");
    }
    // Never out of the band: a strong signal with every exclusion but generated-only still recommends.
    let all_but_generated: Vec<ExcludedKind> =
        ExcludedKind::ALL.into_iter().filter(|&e| e != ExcludedKind::GeneratedOnly).collect();
    let o = score(vec![sig(SignalKind::SecurityBoundary, "auth")], all_but_generated);
    assert_eq!(o.recommendation, Recommendation::Recommend);
    assert_eq!(o.score, RECOMMEND_FLOOR);
}

#[test]
fn contradicting_exclusions_cancel_their_signal() {
    let o = score(vec![sig(SignalKind::TestStrategy, "property tests")], vec![ExcludedKind::TestsWithoutStrategy]);
    assert_eq!(o.recommendation, Recommendation::Skip);
    assert!(o.matched_moderate.is_empty());
    assert!(o.reasons.iter().any(|r| r.starts_with("not counted: test-strategy")), "{:?}", o.reasons);

    let o = score(vec![sig(SignalKind::DependencyRelationship, "tokio")], vec![ExcludedKind::DependencyBump]);
    assert_eq!(o.recommendation, Recommendation::Skip);

    // Only the contradicted kind is cancelled.
    let o = score(
        vec![
            sig(SignalKind::TestStrategy, "t"),
            sig(SignalKind::ReusablePattern, "p"),
            sig(SignalKind::Validation, "v"),
        ],
        vec![ExcludedKind::TestsWithoutStrategy],
    );
    assert_eq!(o.recommendation, Recommendation::Recommend, "pattern + operational still count");
    assert_eq!(o.matched_moderate, vec![SignalKind::ReusablePattern, SignalKind::Validation]);
}

#[test]
fn generated_only_never_gets_an_automatic_card() {
    let o = score(vec![sig(SignalKind::ExternalContract, "billing api")], vec![ExcludedKind::GeneratedOnly]);
    assert_eq!(o.recommendation, Recommendation::Optional);
    assert!((OPTIONAL_FLOOR..RECOMMEND_FLOOR).contains(&o.score));
    assert!(o.reasons.iter().any(|r| r.starts_with("capped at optional")), "{:?}", o.reasons);
}

#[test]
fn more_distinct_signals_score_higher() {
    let one = score(vec![sig(SignalKind::ArchitectureFlow, "a")], vec![]);
    let two = score(vec![sig(SignalKind::ArchitectureFlow, "a"), sig(SignalKind::ExternalContract, "b")], vec![]);
    let three = score(
        vec![
            sig(SignalKind::ArchitectureFlow, "a"),
            sig(SignalKind::ExternalContract, "b"),
            sig(SignalKind::Deployment, "c"),
        ],
        vec![],
    );
    assert!(one.score < two.score && two.score < three.score, "{} {} {}", one.score, two.score, three.score);
    assert!(one.confidence < two.confidence, "a lone strong signal is a borderline call");
}

#[test]
fn reasons_cite_the_evidence() {
    let o = score(vec![sig(SignalKind::SecurityBoundary, "csrf check")], vec![]);
    assert!(
        o.reasons[0].contains("`csrf check`") && o.reasons[0].contains("src/lib.rs#L10-L24@abc123"),
        "{:?}",
        o.reasons
    );
}

#[test]
fn estimate_comes_from_teaching_moves_per_concept() {
    // A strong concept: a difficulty-3 lesson (5 min) + two check-ins; a moderate one: 4 + 2.
    assert_eq!(score(vec![sig(SignalKind::SecurityBoundary, "a")], vec![]).estimated_minutes, 7);
    assert_eq!(score(vec![sig(SignalKind::ReusablePattern, "a")], vec![]).estimated_minutes, 6);
    let same_concept =
        score(vec![sig(SignalKind::SecurityBoundary, "Auth"), sig(SignalKind::ReusablePattern, " auth ")], vec![]);
    assert_eq!(same_concept.estimated_minutes, 7, "one concept, counted once");
    assert_eq!(score(vec![], vec![]).estimated_minutes, 0);
}

#[test]
fn empty_concept_is_invalid_input() {
    let err = score_opportunity(&finished(vec![sig(SignalKind::Deployment, "  ")], vec![])).unwrap_err();
    assert!(matches!(err, LearningError::InvalidInput(m) if m.contains("empty concept")));
}

#[test]
fn fingerprint_is_about_concepts_only() {
    let a = score(vec![sig(SignalKind::SecurityBoundary, "Auth"), sig(SignalKind::Deployment, "rollout")], vec![]);
    let b = score(
        vec![sig(SignalKind::Observability, "rollout"), sig(SignalKind::ReusablePattern, "auth")],
        vec![ExcludedKind::Formatting],
    );
    assert_eq!(a.fingerprint, b.fingerprint);
    let c = score(vec![sig(SignalKind::SecurityBoundary, "auth")], vec![]);
    assert_ne!(a.fingerprint, c.fingerprint);
    let skipped = score_opportunity(&OpportunityInput {
        completed: false,
        inspectable: true,
        signals: vec![sig(SignalKind::Deployment, "rollout"), sig(SignalKind::Deployment, "auth")],
        excluded: vec![],
    })
    .unwrap();
    assert_eq!(skipped.fingerprint, a.fingerprint, "computed on ineligible input too");
}

fn arb_signal() -> impl Strategy<Value = Signal> {
    (0..12usize, "[a-d]{1,2}( [a-d])?", any::<bool>()).prop_map(|(k, concept, evidenced)| Signal {
        kind: SignalKind::ALL[k],
        concept,
        reason: "r".into(),
        evidence: if evidenced { vec![ev("x.rs")] } else { vec![] },
    })
}

fn arb_opportunity_input() -> impl Strategy<Value = OpportunityInput> {
    (
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec(arb_signal(), 0..10),
        proptest::collection::vec((0..8usize).prop_map(|i| ExcludedKind::ALL[i]), 0..6),
    )
        .prop_map(|(completed, inspectable, signals, excluded)| OpportunityInput {
            completed: completed || inspectable, // mostly eligible
            inspectable,
            signals,
            excluded,
        })
}

proptest! {
    #[test]
    fn score_and_confidence_stay_in_bounds_and_match_the_band(input in arb_opportunity_input()) {
        let o = score_opportunity(&input).unwrap();
        prop_assert!((0.0..=1.0).contains(&o.score), "score {}", o.score);
        prop_assert!((0.0..=1.0).contains(&o.confidence), "confidence {}", o.confidence);
        match o.recommendation {
            Recommendation::Recommend => prop_assert!(o.score >= RECOMMEND_FLOOR),
            Recommendation::Optional => prop_assert!((OPTIONAL_FLOOR..RECOMMEND_FLOOR).contains(&o.score)),
            Recommendation::Skip => prop_assert_eq!(o.score, 0.0),
        }
        prop_assert_eq!(o.recommendation == Recommendation::Skip, o.estimated_minutes == 0);
        prop_assert!(!o.reasons.is_empty());
    }

    #[test]
    fn order_of_signals_and_exclusions_does_not_matter(input in arb_opportunity_input(), seed in any::<u64>()) {
        let mut shuffled = input.clone();
        let k = shuffled.signals.len().max(1);
        shuffled.signals.rotate_left((seed as usize) % k);
        shuffled.signals.reverse();
        shuffled.excluded.reverse();
        let (a, b) = (score_opportunity(&input).unwrap(), score_opportunity(&shuffled).unwrap());
        prop_assert_eq!(&a.fingerprint, &b.fingerprint);
        prop_assert_eq!(a.recommendation, b.recommendation);
        prop_assert_eq!(a.score, b.score);
        prop_assert_eq!(a.confidence, b.confidence);
        prop_assert_eq!(a.estimated_minutes, b.estimated_minutes);
        prop_assert_eq!(a.matched_strong, b.matched_strong);
        prop_assert_eq!(a.matched_moderate, b.matched_moderate);
    }

    #[test]
    fn fingerprint_is_order_independent(concepts in proptest::collection::vec("[a-z ]{1,6}", 1..8)) {
        let forward = concept_fingerprint_of(&concepts);
        let mut reversed = concepts.clone();
        reversed.reverse();
        reversed.push(concepts[0].to_uppercase());
        prop_assert_eq!(forward, concept_fingerprint_of(&reversed));
    }
}

fn concept_fingerprint_of(concepts: &[String]) -> String {
    dossier_core::learning::concept_fingerprint(concepts.iter().map(String::as_str))
}

// ---------------------------------------------------------------------------------------------
// Planner
// ---------------------------------------------------------------------------------------------

fn concept(id: &str, prereqs: &[&str]) -> Concept {
    Concept {
        id: id.into(),
        canonical_id: id.into(),
        scope: "repo".into(),
        label: id.into(),
        category: ConceptCategory::Concept,
        objective: String::new(),
        prerequisites: prereqs.iter().map(|p| p.to_string()).collect(),
        difficulty: 3,
        novelty: 0.5,
        relevance: 0.5,
        evidence: vec![ev("src/lib.rs")],
    }
}

fn with(mut c: Concept, f: impl FnOnce(&mut Concept)) -> Concept {
    f(&mut c);
    c
}

fn ids(plan: &LearningPlan) -> Vec<&str> {
    plan.units.iter().map(|u| u.id.as_str()).collect()
}

fn unit<'a>(plan: &'a LearningPlan, id: &str) -> &'a LearningUnit {
    plan.units.iter().find(|u| u.id == id).unwrap_or_else(|| panic!("no unit {id} in {:?}", ids(plan)))
}

#[test]
fn prerequisites_come_first_then_value_difficulty_id() {
    let concepts = vec![
        concept("oauth-flow", &["tokens", "redirects"]),
        with(concept("tokens", &[]), |c| c.relevance = 0.9),
        with(concept("redirects", &[]), |c| c.relevance = 0.3),
        with(concept("b-easy", &[]), |c| c.difficulty = 1),
        with(concept("a-hard", &[]), |c| c.difficulty = 4),
        concept("c-same", &[]),
        concept("a-same", &[]),
    ];
    let p = plan(&concepts, 1000).unwrap();
    let order = ids(&p);
    let pos = |id: &str| order.iter().position(|u| *u == id).unwrap();
    assert!(pos("unit-tokens") < pos("unit-oauth-flow") && pos("unit-redirects") < pos("unit-oauth-flow"));
    assert_eq!(order[0], "unit-tokens", "the most valuable ready unit first");
    assert!(pos("unit-b-easy") < pos("unit-a-hard"), "equal value: easier first");
    assert!(pos("unit-a-same") < pos("unit-c-same"), "full tie: id");
    assert_eq!(unit(&p, "unit-oauth-flow").prerequisites, vec!["unit-tokens", "unit-redirects"], "plan order");
    assert!(p.cycles.is_empty());
}

#[test]
fn roles_mastery_signals_and_estimates() {
    let p = plan(&[concept("cache", &["ttl"]), with(concept("ttl", &[]), |c| c.difficulty = 2)], 1000).unwrap();
    let (ttl, cache) = (unit(&p, "unit-ttl"), unit(&p, "unit-cache"));
    assert_eq!(ttl.role, UnitRole::Prerequisite);
    assert_eq!(cache.role, UnitRole::Objective);
    assert_eq!(ttl.estimated_minutes, 4 + 1, "lesson 2+2, one check");
    assert_eq!(cache.estimated_minutes, 5 + 2, "lesson 2+3, two checks");
    assert_eq!(p.estimated_minutes, 12);
    assert_eq!(cache.mastery_signals.len(), 2);
    assert_eq!(ttl.mastery_signals.len(), 1);
    assert!(cache.objective.contains("what fails without it"), "default objective: {}", cache.objective);
}

#[test]
fn duplicates_are_removed_by_canonical_identity_and_scope() {
    let concepts = vec![
        with(concept("c1", &[]), |c| {
            c.canonical_id = "Retry Policy".into();
            c.relevance = 0.4;
        }),
        with(concept("c2", &["c3"]), |c| {
            c.canonical_id = "retry   policy".into();
            c.scope = " REPO".into();
            c.relevance = 0.8;
            c.difficulty = 2;
        }),
        concept("c3", &[]),
        concept("user", &["c1"]),
        with(concept("c4", &[]), |c| {
            c.canonical_id = "retry policy".into();
            c.scope = "other-service".into();
        }),
    ];
    let p = plan(&concepts, 1000).unwrap();
    assert!(p.units.iter().all(|u| !u.concept_ids.contains(&"c1".to_string())));
    let kept = unit(&p, "unit-c2");
    assert_eq!(kept.difficulty, 3, "takes the highest difficulty of the group");
    assert_eq!(kept.prerequisites, vec!["unit-c3"]);
    assert_eq!(unit(&p, "unit-user").prerequisites, vec!["unit-c2"], "prerequisite remapped to the kept concept");
    assert!(p.units.iter().any(|u| u.id == "unit-c4"), "another scope is another concept");
    assert_eq!(p.omitted.len(), 1);
    assert_eq!(p.omitted[0].concept_id, "c1");
    assert_eq!(p.omitted[0].kind, OmissionKind::Duplicate);
    assert!(p.omitted[0].reason.contains("duplicate of `c2`"), "{}", p.omitted[0].reason);

    let mut reversed = concepts.clone();
    reversed.reverse();
    assert_eq!(plan(&reversed, 1000).unwrap(), p, "input order does not matter");
}

#[test]
fn merge_only_when_objective_and_prerequisites_match() {
    let objective = |c: &mut Concept| c.objective = "Explain why the cache is invalidated on write".into();
    let concepts = vec![
        concept("base", &[]),
        with(concept("write-through", &["base"]), objective),
        with(concept("invalidation", &["base"]), |c| {
            c.objective = "  explain why the CACHE is invalidated on write ".into();
            c.difficulty = 4;
        }),
        with(concept("other-prereqs", &[]), objective),
        concept("no-objective-1", &["base"]),
        concept("no-objective-2", &["base"]),
    ];
    let p = plan(&concepts, 1000).unwrap();
    let merged = unit(&p, "unit-invalidation");
    assert_eq!(merged.concept_ids, vec!["invalidation", "write-through"]);
    assert_eq!(merged.difficulty, 4);
    assert_eq!(merged.label, "invalidation + write-through");
    assert!(p.units.iter().any(|u| u.id == "unit-other-prereqs"), "same objective, other prerequisites: own unit");
    assert!(
        p.units.iter().any(|u| u.id == "unit-no-objective-1") && p.units.iter().any(|u| u.id == "unit-no-objective-2")
    );
    assert_eq!(p.units.len(), 5);
}

#[test]
fn cycles_are_reported_not_broken() {
    let concepts = vec![
        concept("a", &["b"]),
        concept("b", &["a", "base"]),
        concept("base", &[]),
        concept("top", &["a"]),
        concept("selfish", &["selfish"]),
    ];
    let p = plan(&concepts, 1000).unwrap();
    let order = ids(&p);
    assert_eq!(p.units.len(), 5, "no unit dropped");
    assert!(p.cycles.contains(&vec!["unit-a".to_string(), "unit-b".to_string()]), "{:?}", p.cycles);
    assert!(p.cycles.contains(&vec!["unit-selfish".to_string()]), "{:?}", p.cycles);
    assert_eq!(p.cycles.len(), 2);
    assert_eq!(unit(&p, "unit-a").prerequisites, vec!["unit-b"], "edges kept");
    assert!(unit(&p, "unit-b").prerequisites.contains(&"unit-a".to_string()));
    let pos = |id: &str| order.iter().position(|u| *u == id).unwrap();
    assert!(pos("unit-base") < pos("unit-a") && pos("unit-base") < pos("unit-b"));
    assert!(pos("unit-a").abs_diff(pos("unit-b")) == 1, "a cycle's units are together");
    assert!(pos("unit-b") < pos("unit-top") && pos("unit-a") < pos("unit-top"));
    assert_eq!(unit(&p, "unit-a").role, UnitRole::Prerequisite, "needed by top");
    assert_eq!(unit(&p, "unit-b").role, UnitRole::Prerequisite, "its cycle is needed by top");
    assert_eq!(unit(&p, "unit-top").role, UnitRole::Objective);
    assert_eq!(unit(&p, "unit-selfish").role, UnitRole::Objective);
}

#[test]
fn a_cycle_at_the_top_is_the_objective() {
    let p = plan(&[concept("x", &["y"]), concept("y", &["x"])], 1000).unwrap();
    assert!(p.units.iter().all(|u| u.role == UnitRole::Objective));
}

#[test]
fn budget_drops_lowest_value_leaves_and_never_a_needed_prerequisite() {
    let concepts = vec![
        // A valuable objective with a low-value prerequisite.
        with(concept("core", &["plumbing"]), |c| c.relevance = 1.0),
        with(concept("plumbing", &[]), |c| c.relevance = 0.05),
        // A mid-value standalone unit and a low-value one.
        with(concept("mid", &[]), |c| c.relevance = 0.5),
        with(concept("low", &[]), |c| c.relevance = 0.2),
    ];
    let full = plan(&concepts, 1000).unwrap();
    assert_eq!(full.estimated_minutes, 7 + 6 + 7 + 7);
    let p = plan(&concepts, 14).unwrap();
    assert_eq!(ids(&p), vec!["unit-plumbing", "unit-core"], "the needed low-value prerequisite is kept");
    assert!(p.estimated_minutes <= 14);
    let omitted: Vec<(&str, OmissionKind)> = p.omitted.iter().map(|o| (o.concept_id.as_str(), o.kind)).collect();
    assert_eq!(omitted, vec![("low", OmissionKind::Budget), ("mid", OmissionKind::Budget)], "lowest value first");
    assert!(p.omitted[0].reason.contains("14-minute budget") && p.omitted[0].reason.contains("no kept unit needs it"));

    // Tighter: the most valuable unit stays, and its prerequisite is cut first (issue 21,
    // defect 4: §10 puts the objective before its plumbing).
    let p = plan(&concepts, 7).unwrap();
    assert_eq!(ids(&p), vec!["unit-core"]);
    assert_eq!(p.units[0].role, UnitRole::Objective);
    assert!(p.units[0].prerequisites.is_empty(), "a cut prerequisite is no edge: {:?}", p.units[0]);
    assert_eq!(p.units[0].estimated_minutes, 7);
    let plumbing = p.omitted.iter().find(|o| o.concept_id == "plumbing").unwrap();
    assert!(plumbing.reason.contains("cut before the more valuable `unit-core`"), "{}", plumbing.reason);
    let p = plan(&concepts, 3).unwrap();
    assert!(p.units.is_empty());
    assert_eq!(p.omitted.len(), 4);
}

/// Issue 21, defect 4: with an architecture decision and the concept it builds on, a budget that
/// fits only one keeps the architecture decision, never only its prerequisite.
#[test]
fn spec_10_the_budget_keeps_the_architecture_decision_and_cuts_its_prerequisite() {
    let concepts = vec![
        with(concept("retry", &[]), |c| {
            c.difficulty = 2;
            c.relevance = 0.8;
        }),
        with(concept("budgeted-retries", &["retry"]), |c| {
            c.difficulty = 2;
            c.relevance = 0.8;
            c.category = ConceptCategory::ArchitectureDecision;
        }),
    ];
    assert_eq!(plan(&concepts, 1000).unwrap().estimated_minutes, 5 + 6);
    for budget in 6..11 {
        let p = plan(&concepts, budget).unwrap();
        assert_eq!(ids(&p), vec!["unit-budgeted-retries"], "budget {budget}");
        assert_eq!(p.units[0].role, UnitRole::Objective);
        assert_eq!(p.omitted.iter().map(|o| o.concept_id.as_str()).collect::<Vec<_>>(), vec!["retry"]);
    }
    assert!(plan(&concepts, 5).unwrap().units.is_empty(), "the objective alone does not fit: nothing to teach");
}

/// Issue 21, defect 3: an objective evidenced on the last minute of the budget is
/// `objective-evidenced`, not `budget-spent`; and no move starts that would pass the budget.
#[test]
fn spec_10_the_objective_evidenced_at_the_budget_is_not_a_spent_budget() {
    let p = plan(&[with(concept("cache", &[]), |c| c.difficulty = 2)], 6).unwrap();
    assert_eq!(p.estimated_minutes, 6);
    let mut s = LearnerState { plan: p, budget_minutes: 6, ..Default::default() };
    s.taught.push("unit-cache".into());
    s.answers.push(answer("unit-cache", QuestionIntent::Scenario, 2, true, &[]));
    s.answers.push(answer("unit-cache", QuestionIntent::CausalReasoning, 3, true, &[]));
    s.elapsed_minutes = 6;
    assert_eq!(ended(&mv(&s)).reason, FinishReason::ObjectiveEvidenced);

    // A wrong answer at 5 of 6 minutes: the reinforcement (a 4-minute lesson and a question)
    // would pass the budget, so the session stops instead of running to 10.
    s.answers.pop();
    s.answers.push(answer("unit-cache", QuestionIntent::CausalReasoning, 3, false, &["m"]));
    s.elapsed_minutes = 5;
    let e = mv(&s);
    assert_eq!(ended(&e).reason, FinishReason::BudgetSpent);
    assert!(ended(&e).message.contains("6-minute budget"), "{e:?}");
    // One check-in fits in the last minute.
    s.answers.last_mut().unwrap().misconceptions.clear();
    assert!(matches!(mv(&s), LearningMove::Retry(_)));
}

#[test]
fn budget_drops_a_cycle_whole() {
    let concepts = vec![
        with(concept("x", &["y"]), |c| c.relevance = 0.1),
        with(concept("y", &["x"]), |c| c.relevance = 0.1),
        with(concept("keep", &[]), |c| c.relevance = 0.9),
    ];
    let p = plan(&concepts, 7).unwrap();
    assert_eq!(ids(&p), vec!["unit-keep"]);
    assert!(p.cycles.is_empty(), "cycles are reported among kept units");
    assert!(p.omitted.iter().all(|o| o.reason.contains("dependency cycle")), "{:?}", p.omitted);
}

#[test]
fn planner_rejects_broken_input() {
    let cases: Vec<(Vec<Concept>, &str)> = vec![
        (vec![concept("a", &["nope"])], "unknown prerequisite"),
        (vec![concept("", &[])], "empty id"),
        (vec![concept("a", &[]), concept("a", &[])], "twice"),
        (vec![with(concept("a", &[]), |c| c.canonical_id = " ".into())], "canonical"),
        (vec![with(concept("a", &[]), |c| c.difficulty = 0)], "difficulty"),
        (vec![with(concept("a", &[]), |c| c.novelty = 1.5)], "novelty"),
        (vec![with(concept("a", &[]), |c| c.relevance = -0.1)], "relevance"),
    ];
    for (concepts, needle) in cases {
        let err = plan(&concepts, 100).unwrap_err();
        assert!(err.to_string().contains(needle), "{needle}: {err}");
    }
}

/// Random DAGs: concept i may depend on concepts with a smaller index.
fn arb_concepts() -> impl Strategy<Value = Vec<Concept>> {
    proptest::collection::vec((1u8..=5, 0.0f64..=1.0, 0.0f64..=1.0, 0usize..6, any::<u64>(), 0usize..4), 1..14)
        .prop_map(|raw| {
            raw.iter()
                .enumerate()
                .map(|(i, &(difficulty, novelty, relevance, category, edges, canon))| {
                    let prerequisites = (0..i)
                        .filter(|j| edges >> (j % 64) & 1 == 1 && (i + j) % 3 == 0)
                        .map(|j| format!("c{j}"))
                        .collect();
                    Concept {
                        id: format!("c{i}"),
                        // Some canonical collisions, to exercise dedupe.
                        canonical_id: if canon == 0 { "shared".into() } else { format!("c{i}") },
                        scope: "s".into(),
                        label: format!("concept {i}"),
                        category: [
                            ConceptCategory::Technology,
                            ConceptCategory::Concept,
                            ConceptCategory::Pattern,
                            ConceptCategory::AntiPattern,
                            ConceptCategory::ArchitectureDecision,
                            ConceptCategory::Misconception,
                        ][category],
                        objective: if canon == 1 { "shared objective".into() } else { String::new() },
                        prerequisites,
                        difficulty,
                        novelty,
                        relevance,
                        evidence: vec![],
                    }
                })
                .collect()
        })
}

proptest! {
    #[test]
    fn plans_are_ordered_complete_and_within_budget(concepts in arb_concepts(), budget in 0u32..80) {
        let p = plan(&concepts, budget).unwrap();
        // Within budget.
        prop_assert!(p.estimated_minutes <= budget);
        prop_assert_eq!(p.estimated_minutes, p.units.iter().map(|u| u.estimated_minutes).sum::<u32>());
        // Every input concept is in exactly one unit or omitted exactly once.
        let mut seen: Vec<&str> = p.units.iter().flat_map(|u| u.concept_ids.iter().map(String::as_str)).collect();
        seen.extend(p.omitted.iter().map(|o| o.concept_id.as_str()));
        seen.sort();
        let mut all: Vec<&str> = concepts.iter().map(|c| c.id.as_str()).collect();
        all.sort();
        prop_assert_eq!(seen, all);
        // Topological and closed under prerequisites (no needed prerequisite omitted); the only
        // back edges are inside a reported cycle (dedupe can make one out of a DAG), whose
        // units are contiguous.
        let pos: HashMap<&str, usize> = p.units.iter().enumerate().map(|(i, u)| (u.id.as_str(), i)).collect();
        let cycle_of: HashMap<&str, usize> =
            p.cycles.iter().enumerate().flat_map(|(k, c)| c.iter().map(move |u| (u.as_str(), k))).collect();
        for (i, u) in p.units.iter().enumerate() {
            for pre in &u.prerequisites {
                let j = pos.get(pre.as_str()).copied();
                prop_assert!(j.is_some(), "{} needs {}, which is not kept", u.id, pre);
                let same_cycle = cycle_of.get(u.id.as_str()).is_some_and(|k| cycle_of.get(pre.as_str()) == Some(k));
                prop_assert!(j.unwrap() < i || same_cycle, "{} needs {}, placed later", u.id, pre);
            }
        }
        for c in &p.cycles {
            let mut at: Vec<usize> = c.iter().map(|u| pos[u.as_str()]).collect();
            at.sort();
            prop_assert_eq!(at[at.len() - 1] - at[0] + 1, at.len(), "cycle {:?} is contiguous", c);
        }
        // Roles: a prerequisite iff something kept outside its cycle needs it (or its cycle).
        for u in &p.units {
            let group: Vec<&str> = match cycle_of.get(u.id.as_str()) {
                Some(&k) => p.cycles[k].iter().map(String::as_str).collect(),
                None => vec![u.id.as_str()],
            };
            let needed = p.units.iter().any(|v| {
                !group.contains(&v.id.as_str()) && v.prerequisites.iter().any(|pre| group.contains(&pre.as_str()))
            });
            prop_assert_eq!(u.role == UnitRole::Prerequisite, needed, "{}", u.id);
            prop_assert!(u.alternatives.len() <= 3);
        }
    }

    #[test]
    fn larger_budgets_keep_a_superset(concepts in arb_concepts(), budget in 0u32..60) {
        let small = plan(&concepts, budget).unwrap();
        let large = plan(&concepts, budget + 10).unwrap();
        let large_ids: BTreeSet<&str> = large.units.iter().map(|u| u.id.as_str()).collect();
        for u in &small.units {
            prop_assert!(large_ids.contains(u.id.as_str()), "{} kept at {} but not at {}", u.id, budget, budget + 10);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Next move
// ---------------------------------------------------------------------------------------------

/// `ttl` (prerequisite, difficulty 2) → `cache` (objective, difficulty 3).
fn two_unit_plan() -> LearningPlan {
    plan(&[concept("cache", &["ttl"]), with(concept("ttl", &[]), |c| c.difficulty = 2)], 1000).unwrap()
}

fn state(plan: LearningPlan) -> LearnerState {
    LearnerState { plan, budget_minutes: 60, ..Default::default() }
}

fn answer(unit: &str, intent: QuestionIntent, difficulty: u8, correct: bool, misconceptions: &[&str]) -> AnswerRecord {
    AnswerRecord {
        unit_id: unit.into(),
        question_id: format!("q-{unit}-{}-{difficulty}", intent.name()),
        intent,
        difficulty,
        correct,
        misconceptions: misconceptions.iter().map(|m| m.to_string()).collect(),
    }
}

fn level(s: &mut LearnerState, unit: &str, level: ConfidenceLevel) {
    s.confidences.push(UnitConfidence { unit_id: unit.into(), level });
}

fn mv(s: &LearnerState) -> LearningMove {
    next_move(s).unwrap()
}

fn ended(m: &LearningMove) -> &SessionEnd {
    match m {
        LearningMove::Finish(e) => e,
        other => panic!("expected finish, got {other:?}"),
    }
}

#[test]
fn empty_plan_and_spent_budget_finish() {
    let e = mv(&state(LearningPlan::default()));
    assert_eq!(ended(&e).reason, FinishReason::EmptyPlan);
    let mut s = state(two_unit_plan());
    s.elapsed_minutes = 60;
    assert_eq!(ended(&mv(&s)).reason, FinishReason::BudgetSpent);
    // The first lesson (difficulty 2, standard: 4 minutes) and its check-in take 5.
    s.elapsed_minutes = 56;
    assert_eq!(ended(&mv(&s)).reason, FinishReason::BudgetSpent, "it would run past the budget");
    s.elapsed_minutes = 55;
    assert!(matches!(mv(&s), LearningMove::Teach(_)));
}

#[test]
fn neutral_session_walks_the_table_to_objective_evidenced() {
    let mut s = state(two_unit_plan());
    // The prerequisite first, at the standard depth.
    let LearningMove::Teach(l) = mv(&s) else { panic!() };
    assert_eq!((l.unit_id.as_str(), l.depth), ("unit-ttl", LessonDepth::Standard));
    s.taught.push(l.unit_id);
    // Its first check is a scenario at the unit's difficulty.
    let LearningMove::Ask(q) = mv(&s) else { panic!() };
    assert_eq!((q.unit_id.as_str(), q.intent, q.difficulty), ("unit-ttl", QuestionIntent::Scenario, 2));
    s.answers.push(answer("unit-ttl", q.intent, q.difficulty, true, &[]));
    // One correct check closes a prerequisite: advance to the objective.
    let LearningMove::Teach(l) = mv(&s) else { panic!() };
    assert_eq!(l.unit_id, "unit-cache");
    s.taught.push(l.unit_id);
    let LearningMove::Ask(q) = mv(&s) else { panic!() };
    assert_eq!((q.intent, q.difficulty), (QuestionIntent::Scenario, 3));
    s.answers.push(answer("unit-cache", q.intent, q.difficulty, true, &[]));
    // Correct, but an objective unit needs a technical check too: deepen, one step harder.
    let LearningMove::Deepen(q) = mv(&s) else { panic!() };
    assert_eq!(q.unit_id, "unit-cache");
    assert_ne!(q.intent, QuestionIntent::Scenario);
    assert_eq!(q.difficulty, 4);
    s.answers.push(answer("unit-cache", q.intent, q.difficulty, true, &[]));
    let e = mv(&s);
    let end = ended(&e);
    assert_eq!(end.reason, FinishReason::ObjectiveEvidenced);
    assert_eq!(end.evidenced, vec!["unit-ttl", "unit-cache"]);
    assert!(end.weak.is_empty());
    assert!(!end.message.to_lowercase().contains("mastered"));
}

#[test]
fn confidence_sets_depth_and_difficulty() {
    let cases = [
        (ConfidenceLevel::Comfortable, LessonDepth::Brief, 3),
        (ConfidenceLevel::HeardOfIt, LessonDepth::Standard, 2),
        (ConfidenceLevel::Neutral, LessonDepth::Standard, 2),
        (ConfidenceLevel::NeverLearned, LessonDepth::Thorough, 1),
    ];
    for (lvl, depth, difficulty) in cases {
        let mut s = state(two_unit_plan());
        level(&mut s, "unit-ttl", lvl);
        let LearningMove::Teach(l) = mv(&s) else { panic!("{lvl:?}") };
        assert_eq!(l.depth, depth, "{lvl:?}");
        s.taught.push(l.unit_id);
        let LearningMove::Ask(q) = mv(&s) else { panic!("{lvl:?}") };
        assert_eq!(q.difficulty, difficulty, "{lvl:?}");
    }
}

#[test]
fn an_expert_is_still_checked_on_every_prerequisite() {
    let mut s = state(two_unit_plan());
    level(&mut s, "unit-ttl", ConfidenceLevel::Expert);
    level(&mut s, "unit-cache", ConfidenceLevel::Expert);
    // No lesson, but a harder technical check on the prerequisite: never hidden.
    let LearningMove::Ask(q) = mv(&s) else { panic!() };
    assert_eq!(q.unit_id, "unit-ttl");
    assert_ne!(q.intent, QuestionIntent::Scenario);
    assert_eq!(q.difficulty, 3);
    s.answers.push(answer("unit-ttl", q.intent, q.difficulty, true, &[]));
    let LearningMove::Ask(q) = mv(&s) else { panic!() };
    assert_eq!((q.unit_id.as_str(), q.difficulty), ("unit-cache", 4));
    s.answers.push(answer("unit-cache", q.intent, q.difficulty, true, &[]));
    assert_eq!(ended(&mv(&s)).reason, FinishReason::ObjectiveEvidenced, "one check suffices for an expert");
}

#[test]
fn a_missed_expert_check_falls_back_to_the_lesson() {
    let mut s = state(two_unit_plan());
    level(&mut s, "unit-ttl", ConfidenceLevel::Expert);
    let LearningMove::Ask(q) = mv(&s) else { panic!() };
    s.answers.push(answer("unit-ttl", q.intent, q.difficulty, false, &["ttl resets on read"]));
    let LearningMove::Teach(l) = mv(&s) else { panic!() };
    assert_eq!((l.depth, l.focus.clone()), (LessonDepth::Standard, vec!["ttl resets on read".to_string()]));
    s.taught.push(l.unit_id);
    // The lesson was the remediation: an isomorphic question, not a second re-teach.
    let LearningMove::Ask(iso) = mv(&s) else { panic!() };
    assert_eq!((iso.intent, iso.difficulty), (q.intent, 2), "same intent, the neutral difficulty");
}

#[test]
fn wrong_with_a_diagnosis_reinforces_then_asks_an_isomorphic_question() {
    let mut s = state(two_unit_plan());
    s.taught.push("unit-ttl".into());
    s.answers.push(answer("unit-ttl", QuestionIntent::Scenario, 2, false, &["expiry is lazy"]));
    let LearningMove::Reinforce(r) = mv(&s) else { panic!() };
    assert_eq!(r.unit_id, "unit-ttl");
    assert_eq!(r.misconceptions, vec!["expiry is lazy"]);
    assert_eq!((r.question.intent, r.question.difficulty), (QuestionIntent::Scenario, 2));
}

#[test]
fn wrong_without_a_diagnosis_retries_easier() {
    let mut s = state(two_unit_plan());
    s.taught.push("unit-ttl".into());
    s.answers.push(answer("unit-ttl", QuestionIntent::Debugging, 2, false, &[]));
    let LearningMove::Retry(q) = mv(&s) else { panic!() };
    assert_eq!((q.unit_id.as_str(), q.intent, q.difficulty), ("unit-ttl", QuestionIntent::Debugging, 1));
    s.answers.push(answer("unit-ttl", QuestionIntent::Debugging, 1, false, &[]));
    let LearningMove::Retry(q) = mv(&s) else { panic!() };
    assert_eq!(q.difficulty, 1, "never below 1");
}

#[test]
fn retries_are_bounded_per_unit() {
    let mut s = state(two_unit_plan());
    s.taught.push("unit-ttl".into());
    for k in 0..MAX_WRONG_PER_UNIT {
        let m = mv(&s);
        assert!(
            matches!(&m, LearningMove::Ask(q) | LearningMove::Retry(q) if q.unit_id == "unit-ttl"),
            "question {k}: {m:?}"
        );
        s.answers.push(answer("unit-ttl", QuestionIntent::Scenario, 2, false, &[]));
    }
    // Closed as weak after the third wrong answer: the session moves on.
    let LearningMove::Teach(l) = mv(&s) else { panic!() };
    assert_eq!(l.unit_id, "unit-cache");
    s.taught.push(l.unit_id);
    for _ in 0..MAX_WRONG_PER_UNIT {
        s.answers.push(answer("unit-cache", QuestionIntent::Scenario, 3, false, &["m"]));
    }
    let e = mv(&s);
    let end = ended(&e);
    assert_eq!(end.reason, FinishReason::PlanExhausted);
    assert_eq!(end.weak, vec!["unit-ttl", "unit-cache"]);
    assert!(end.evidenced.is_empty());
}

#[test]
fn finish_as_soon_as_the_objective_is_evidenced() {
    // Three independent objective units; answers on all of them, nothing else asked.
    let p = plan(&[concept("a", &[]), concept("b", &[]), concept("c", &[])], 1000).unwrap();
    let mut s = state(p);
    for u in ["unit-a", "unit-b", "unit-c"] {
        s.taught.push(u.into());
        s.answers.push(answer(u, QuestionIntent::Scenario, 3, true, &[]));
        s.answers.push(answer(u, QuestionIntent::Tradeoff, 4, true, &[]));
    }
    assert_eq!(ended(&mv(&s)).reason, FinishReason::ObjectiveEvidenced);
    // Two correct answers of the same intent are one piece of evidence: deepen, not finish.
    let mut s = state(plan(&[concept("a", &[])], 1000).unwrap());
    s.taught.push("unit-a".into());
    s.answers.push(answer("unit-a", QuestionIntent::Scenario, 3, true, &[]));
    s.answers.push(answer("unit-a", QuestionIntent::Scenario, 3, true, &[]));
    assert!(matches!(mv(&s), LearningMove::Deepen(_)));
}

#[test]
fn intents_rotate_across_and_within_units() {
    let p = plan(&[concept("a", &[]), concept("b", &[]), concept("c", &[])], 1000).unwrap();
    let mut s = state(p);
    let mut first_technical = Vec::new();
    for u in ["unit-a", "unit-b", "unit-c"] {
        s.taught.push(u.into());
        s.answers.push(answer(u, QuestionIntent::Scenario, 3, true, &[]));
        let LearningMove::Deepen(q) = mv(&s) else { panic!() };
        first_technical.push(q.intent);
        s.answers.push(answer(u, q.intent, q.difficulty, true, &[]));
    }
    let distinct: BTreeSet<_> = first_technical.iter().collect();
    assert_eq!(distinct.len(), 3, "each unit starts its technical checks at another intent: {first_technical:?}");

    // Within a unit, a deepen never repeats an intent already asked there.
    let mut s = state(plan(&[concept("a", &[])], 1000).unwrap());
    s.taught.push("unit-a".into());
    s.answers.push(answer("unit-a", QuestionIntent::CausalReasoning, 3, false, &[]));
    s.answers.push(answer("unit-a", QuestionIntent::CausalReasoning, 2, true, &[]));
    let LearningMove::Deepen(q) = mv(&s) else { panic!() };
    assert!(q.intent != QuestionIntent::CausalReasoning && q.intent != QuestionIntent::Scenario, "{:?}", q.intent);
}

#[test]
fn next_move_rejects_unknown_units() {
    let mut s = state(two_unit_plan());
    s.answers.push(answer("ghost", QuestionIntent::Scenario, 2, true, &[]));
    assert!(next_move(&s).unwrap_err().to_string().contains("ghost"));
    let mut s = state(two_unit_plan());
    s.taught.push("ghost".into());
    assert!(next_move(&s).is_err());
    let mut s = state(two_unit_plan());
    level(&mut s, "ghost", ConfidenceLevel::Expert);
    assert!(next_move(&s).is_err());
    let mut s = state(two_unit_plan());
    s.answers.push(answer("unit-ttl", QuestionIntent::Scenario, 9, true, &[]));
    assert!(next_move(&s).is_err());
}

/// Play a whole session against a deterministic learner; return every move.
fn simulate(p: LearningPlan, levels: &[ConfidenceLevel], outcomes: u64, budget: u32) -> Vec<LearningMove> {
    let mut s = LearnerState { plan: p, budget_minutes: budget, ..Default::default() };
    for (i, u) in s.plan.units.clone().iter().enumerate() {
        level(&mut s, &u.id, levels[i % levels.len()]);
    }
    let mut moves = Vec::new();
    let mut bits = outcomes;
    for step in 0..500u64 {
        let m = next_move(&s).unwrap();
        moves.push(m.clone());
        let question = match m {
            LearningMove::Finish(_) => return moves,
            LearningMove::Teach(l) => {
                s.taught.push(l.unit_id);
                s.elapsed_minutes += 3;
                continue;
            }
            LearningMove::Ask(q) | LearningMove::Deepen(q) | LearningMove::Retry(q) => q,
            LearningMove::Reinforce(r) => r.question,
        };
        bits = bits.rotate_left(7) ^ 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(step + 1);
        let correct = bits & 3 != 0;
        s.answers.push(AnswerRecord {
            unit_id: question.unit_id,
            question_id: format!("q{step}"),
            intent: question.intent,
            difficulty: question.difficulty,
            correct,
            misconceptions: if !correct && bits & 4 != 0 { vec!["m".into()] } else { vec![] },
        });
        s.elapsed_minutes += 1;
    }
    panic!("no finish after 500 moves");
}

fn arb_level() -> impl Strategy<Value = ConfidenceLevel> {
    prop_oneof![
        Just(ConfidenceLevel::Expert),
        Just(ConfidenceLevel::Comfortable),
        Just(ConfidenceLevel::HeardOfIt),
        Just(ConfidenceLevel::NeverLearned),
        Just(ConfidenceLevel::Neutral),
    ]
}

proptest! {
    #[test]
    fn sessions_always_finish_within_bounds(
        concepts in arb_concepts(),
        levels in proptest::collection::vec(arb_level(), 1..5),
        outcomes in any::<u64>(),
        budget in 1u32..200,
    ) {
        let p = plan(&concepts, 1000).unwrap();
        let n = p.units.len();
        let moves = simulate(p, &levels, outcomes, budget);
        // Each unit: at most one lesson, at most MAX_WRONG wrong answers plus 2 correct ones, plus
        // the isomorphic question after a missed expert check.
        prop_assert!(moves.len() <= n * (1 + MAX_WRONG_PER_UNIT + 2 + 1) + 1, "{} moves for {} units", moves.len(), n);
        let mut wrong_per_unit: HashMap<String, usize> = HashMap::new();
        for m in &moves {
            let q = match m {
                LearningMove::Ask(q) | LearningMove::Deepen(q) | LearningMove::Retry(q) => Some(q),
                LearningMove::Reinforce(r) => Some(&r.question),
                LearningMove::Teach(_) => None,
                LearningMove::Finish(e) => {
                    prop_assert!(!e.message.to_lowercase().contains("mastered"));
                    None
                }
            };
            if let Some(q) = q {
                prop_assert!((1..=5).contains(&q.difficulty));
            }
            if matches!(m, LearningMove::Reinforce(_) | LearningMove::Retry(_)) {
                let unit = match m { LearningMove::Reinforce(r) => &r.unit_id, LearningMove::Retry(q) => &q.unit_id, _ => unreachable!() };
                *wrong_per_unit.entry(unit.clone()).or_default() += 1;
            }
        }
        for (unit, remedial) in wrong_per_unit {
            prop_assert!(remedial < MAX_WRONG_PER_UNIT, "{unit}: {remedial} remedial questions");
        }
        prop_assert!(matches!(moves.last(), Some(LearningMove::Finish(_))));
    }
}

// ---------------------------------------------------------------------------------------------
// Item quality and shuffle
// ---------------------------------------------------------------------------------------------

fn choice(id: &str, text: &str) -> Choice {
    Choice { id: id.into(), text: text.into(), rationale: format!("because {text}") }
}

fn good_item() -> McqItem {
    McqItem {
        unit_id: "unit-cache".into(),
        prompt: "A write lands while a read holds a stale entry. What does the invalidation in put() guarantee?".into(),
        choices: vec![
            choice("a", "The next read misses and reloads the value"),
            choice("b", "The stale read is aborted mid-flight"),
            choice("c", "Writes block until the readers finish"),
            choice("d", "Entries expire when their TTL runs out"),
        ],
        correct_choice_id: "a".into(),
        intent: QuestionIntent::CausalReasoning,
        evidence: vec![ev("src/cache.rs")],
    }
}

fn codes(item: &McqItem) -> Vec<&'static str> {
    check_item(item).into_iter().map(|f| f.code).collect()
}

#[test]
fn a_good_item_passes() {
    assert!(check_item(&good_item()).is_empty(), "{:?}", check_item(&good_item()));
    let mut three = good_item();
    three.choices.pop();
    assert!(codes(&three).is_empty());
    let mut five = good_item();
    five.choices.push(choice("e", "The cache is bypassed for writes"));
    assert!(codes(&five).is_empty());
}

type Mutation = Box<dyn Fn(&mut McqItem)>;

#[test]
fn item_rejection_rules() {
    let cases: Vec<(&str, Mutation)> = vec![
        ("choice-count", Box::new(|i| i.choices.truncate(2))),
        (
            "choice-count",
            Box::new(|i| {
                i.choices.push(choice("e", "The write is queued behind the read"));
                i.choices.push(choice("f", "The entry is pinned until it is read"));
            }),
        ),
        ("duplicate-choice-id", Box::new(|i| i.choices[3].id = "b".into())),
        ("empty-choice-id", Box::new(|i| i.choices[3].id = " ".into())),
        ("correct-choice-missing", Box::new(|i| i.correct_choice_id = "z".into())),
        ("missing-rationale", Box::new(|i| i.choices[2].rationale = "  ".into())),
        ("empty-prompt", Box::new(|i| i.prompt = "\n".into())),
        ("empty-unit-id", Box::new(|i| i.unit_id.clear())),
        ("missing-evidence", Box::new(|i| i.evidence.clear())),
        ("invalid-evidence", Box::new(|i| i.evidence[0].start_line = 0)),
        ("invalid-evidence", Box::new(|i| i.evidence[0].end_line = 1)),
        ("invalid-evidence", Box::new(|i| i.evidence[0].path.clear())),
        ("empty-choice-text", Box::new(|i| i.choices[1].text.clear())),
        (
            "duplicate-choice-text",
            Box::new(|i| i.choices[2].text = "the next READ misses and reloads the value.".into()),
        ),
        ("all-or-none-of-the-above", Box::new(|i| i.choices[3].text = "All of the above".into())),
        ("all-or-none-of-the-above", Box::new(|i| i.choices[3].text = "None of the above.".into())),
        ("all-or-none-of-the-above", Box::new(|i| i.choices[3].text = "(b) and (c): both of the above".into())),
        (
            "correct-choice-longest",
            Box::new(|i| {
                i.choices[0].text =
                    "The next read misses, reloads the fresh value from the store and repopulates".into()
            }),
        ),
    ];
    for (code, mutate) in cases {
        let mut item = good_item();
        mutate(&mut item);
        let found = check_item(&item);
        assert_eq!(found.iter().map(|f| f.code).collect::<Vec<_>>(), vec![code], "{code}: {found:?}");
        assert!(found.iter().all(|f| f.severity == Severity::Error && f.line == 0 && !f.message.is_empty()));
    }
}

#[test]
fn every_missing_rationale_is_reported() {
    let mut item = good_item();
    for c in &mut item.choices {
        c.rationale.clear();
    }
    assert_eq!(codes(&item), vec!["missing-rationale"; 4]);
}

#[test]
fn longest_rule_needs_both_ratio_and_margin() {
    // Ratio 2x but only 10 characters longer: fine.
    let mut item = good_item();
    item.choices = vec![choice("a", "0123456789abcdefghij"), choice("b", "0123456789"), choice("c", "abcdefghij")];
    assert!(codes(&item).is_empty());
    // 25 characters longer but under 1.5x: fine.
    let mut item = good_item();
    let d = "x".repeat(60);
    item.choices = vec![choice("a", &"y".repeat(85)), choice("b", &d), choice("c", &"z".repeat(59))];
    assert!(codes(&item).is_empty());
    // Both: flagged.
    let mut item = good_item();
    item.choices =
        vec![choice("a", &"y".repeat(40 + LONGEST_MARGIN_CHARS)), choice("b", "short one"), choice("c", "another")];
    assert_eq!(codes(&item), vec!["correct-choice-longest"]);
    // A long distractor is no cue.
    let mut item = good_item();
    item.correct_choice_id = "b".into();
    item.choices = vec![choice("a", &"y".repeat(80)), choice("b", "short one"), choice("c", "another")];
    assert!(codes(&item).is_empty());
}

#[test]
fn shuffle_is_a_deterministic_permutation_seeded_by_question_id() {
    let item = good_item();
    let order = shuffle_choices("q-17", &item.choices, "a", &[]).unwrap();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, vec![0, 1, 2, 3]);
    assert_eq!(order, shuffle_choices("q-17", &item.choices, "a", &[]).unwrap());
    let orders: BTreeSet<Vec<usize>> =
        (0..40).map(|k| shuffle_choices(&format!("q-{k}"), &item.choices, "a", &[]).unwrap()).collect();
    assert!(orders.len() > 10, "the seed varies the order: {} distinct", orders.len());
    assert!(shuffle_choices("q", &item.choices, "zz", &[]).is_err());
}

#[test]
fn shuffle_balances_the_correct_position_over_a_session() {
    for n in 3..=5usize {
        let mut positions: Vec<u32> = Vec::new();
        for k in 0..(12 * n) {
            let correct = k % n; // the generator's bias does not matter
            let order = shuffle_order(&format!("session-7/q{k}"), n, correct, &positions);
            let pos = order.iter().position(|&i| i == correct).unwrap();
            positions.push(pos as u32);
            let mut counts = vec![0usize; n];
            for &p in &positions {
                counts[p as usize] += 1;
            }
            let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(hi - lo <= 1, "n={n} after {} questions: {counts:?}", k + 1);
        }
        // Not a fixed rotation: the sequence of positions is not periodic with period n.
        let periodic = positions.iter().enumerate().all(|(i, p)| *p == positions[i % n]);
        assert!(!periodic, "n={n}: {positions:?}");
    }
}

#[test]
fn shuffle_with_mixed_choice_counts_takes_a_least_used_position() {
    let mut positions: Vec<u32> = Vec::new();
    for k in 0..60 {
        let n = 3 + k % 3;
        let order = shuffle_order(&format!("q{k}"), n, 0, &positions);
        let pos = order.iter().position(|&i| i == 0).unwrap();
        let counts: Vec<usize> = (0..n).map(|p| positions.iter().filter(|&&q| q as usize == p).count()).collect();
        assert_eq!(counts[pos], *counts.iter().min().unwrap(), "question {k}");
        positions.push(pos as u32);
    }
}

// ---------------------------------------------------------------------------------------------
// Item-writing flaws (issue 21, item 4): per rule, a flawed and a sound item
// ---------------------------------------------------------------------------------------------

/// An item with `prompt` and choices `a`, `b`, … from `texts`; `a` is the key.
fn worded(prompt: &str, texts: &[&str]) -> McqItem {
    let ids = ["a", "b", "c", "d", "e"];
    McqItem {
        prompt: prompt.into(),
        choices: texts.iter().zip(ids).map(|(t, id)| choice(id, t)).collect(),
        ..good_item()
    }
}

/// The findings with `code`, checking every finding names a rewrite and has the rule's severity.
fn flagged(item: &McqItem, code: &str, severity: Severity) -> bool {
    let found: Vec<_> = check_item(item).into_iter().filter(|f| f.code == code).collect();
    assert!(found.iter().all(|f| f.severity == severity && f.line == 0 && f.message.len() > 60), "{found:?}");
    !found.is_empty()
}

/// A sound item: no finding at all.
fn sound(item: &McqItem) {
    assert!(check_item(item).is_empty(), "{:?}", check_item(item));
}

const CHOICES: [&str; 4] = [
    "The next read misses and reloads the value",
    "The stale read is aborted mid-flight",
    "Writes block until the readers finish",
    "Entries expire when their TTL runs out",
];

#[test]
fn negative_stem() {
    for prompt in [
        "Which of these is not a reason the cache drops an entry in put()?",
        "All of these follow from put() EXCEPT? Pick the one that does except-wise",
        "Which effect of put() matters least here?",
        "Which statement about put() is false?",
        "Why doesn't put() keep the stale entry?",
        "Which of these cannot follow from put()?",
    ] {
        assert!(flagged(&worded(prompt, &CHOICES), "negative-stem", Severity::Error), "{prompt}");
    }
    for prompt in [
        "Which of these is NOT a reason the cache drops an entry in put()?",
        "Which effect of put() is **not** wanted here?",
        "Which effect of put() is *least* wanted here?",
        "What does put() guarantee for a reader that ran at least once before the write?",
        "What does put() do when the `dirty` flag is set?",
        "The lock means two writers cannot interleave. What does put() guarantee?",
    ] {
        sound(&worded(prompt, &CHOICES));
    }
}

#[test]
fn combination_option() {
    for bad in ["Both a and b", "A and C", "a, b and c", "All of a, b", "Options 1 and 3", "Both", "Neither is right"] {
        let mut texts = CHOICES;
        texts[3] = bad;
        assert!(flagged(&worded(&good_item().prompt, &texts), "combination-option", Severity::Error), "{bad}");
    }
    // "Both X and Y" naming two other choices.
    let both = worded(
        "What does the reconnect logic do?",
        &[
            "Both the backoff and the resubscription",
            "Waits with exponential backoff between attempts",
            "Resubscribes to the channels it held",
            "Drops the queued messages",
        ],
    );
    assert!(flagged(&both, "combination-option", Severity::Error));
    for fine in [
        "Both writers block until the read ends",
        "A fresh slot is allocated for the write",
        "Both the writer and the reloader wait",
    ] {
        let mut texts = CHOICES;
        texts[3] = fine;
        sound(&worded(&good_item().prompt, &texts));
    }
}

#[test]
fn absolute_terms() {
    let flawed = worded(
        &good_item().prompt,
        &[
            "The next read misses and reloads the value",
            "Every stale read is always aborted",
            "Writes never wait for readers",
            "Entries expire when their TTL runs out",
        ],
    );
    assert!(flagged(&flawed, "absolute-terms", Severity::Warning));
    // The key uses one too: no cue.
    let balanced = worded(
        &good_item().prompt,
        &[
            "The next read always misses and reloads the value",
            "The stale read is always aborted mid-flight",
            "Writes block until the readers finish",
            "Entries expire when their TTL runs out",
        ],
    );
    assert!(!flagged(&balanced, "absolute-terms", Severity::Warning));
    sound(&good_item());
}

#[test]
fn vague_qualifier() {
    let mut texts = CHOICES;
    texts[0] = "The next read usually misses and reloads the value";
    assert!(flagged(&worded(&good_item().prompt, &texts), "vague-qualifier", Severity::Warning));
    assert!(flagged(
        &worded("What does put() often guarantee for a stale read?", &CHOICES),
        "vague-qualifier",
        Severity::Warning
    ));
    sound(&good_item());
}

#[test]
fn stem_cue() {
    let prompt = "Why does the invalidation in put() matter to a concurrent reader?";
    let flawed = worded(
        prompt,
        &[
            "The invalidation makes the concurrent reader reload the entry",
            "It aborts the stale read mid-flight",
            "Writes block until the lock is free",
            "Entries expire when their TTL runs out",
        ],
    );
    assert!(flagged(&flawed, "stem-cue", Severity::Warning));
    // A distractor uses the stem's words too: no cue.
    let shared = worded(
        prompt,
        &[
            "The invalidation makes the concurrent reader reload the entry",
            "The invalidation aborts the concurrent reader mid-flight",
            "Writes block until the lock is free",
            "Entries expire when their TTL runs out",
        ],
    );
    assert!(!flagged(&shared, "stem-cue", Severity::Warning));
    // One shared word is common in sound items: no finding below MIN_CUE_TERMS.
    let one = worded(
        prompt,
        &[
            "The next reader misses and loads the fresh value",
            "It aborts the stale read mid-flight",
            "Writes block until the lock is free",
            "Entries expire when their TTL runs out",
        ],
    );
    assert!(!flagged(&one, "stem-cue", Severity::Warning));
    sound(&good_item());
}

#[test]
fn convergence() {
    // Each distractor changes one element of the key, which sits at their centre.
    let flawed = worded(
        "What does the client do when the upstream call fails?",
        &[
            "Retries with backoff, then drops the request after the timeout",
            "Retries with backoff, then queues the request after the timeout",
            "Retries at once, then drops the request after the timeout",
            "Retries with backoff, then drops the request before the timeout",
        ],
    );
    assert!(flagged(&flawed, "convergence", Severity::Warning));
    // A 2x2 design (every option shares as much with the others): no centre.
    let even = worded(
        "What does the consumer do with each batch?",
        &[
            "Commits synchronously, then processes the batch",
            "Commits asynchronously, then processes the batch",
            "Processes the batch, then commits synchronously",
            "Processes the batch, then commits asynchronously",
        ],
    );
    assert!(!flagged(&even, "convergence", Severity::Warning));
    sound(&good_item());
}

#[test]
fn grammar_cue() {
    let flawed = worded(
        "To find a key without scanning, put() keeps an",
        &["index of live entries", "sorted list of entries", "linked list per bucket", "bloom filter over keys"],
    );
    assert!(flagged(&flawed, "grammar-cue", Severity::Error));
    let blank = worded(
        "put() keeps a ___ to find a key without scanning.",
        &["hash map from key to slot", "index of live entries", "ordered log of writes", "array of buckets"],
    );
    assert!(flagged(&blank, "grammar-cue", Severity::Error));
    let plural = worded(
        "Which of these are safe to share between the cache's threads?",
        &["Atomic counters", "A plain cell", "A raw pointer", "A borrowed slice"],
    );
    assert!(flagged(&plural, "grammar-cue", Severity::Warning));
    let fine = worded(
        "To find a key without scanning, what does put() keep?",
        &["An index of live entries", "A sorted list of entries", "A linked list per bucket", "A bloom filter"],
    );
    assert!(!check_item(&fine).iter().any(|f| f.code == "grammar-cue"), "{:?}", check_item(&fine));
    sound(&good_item());
}

#[test]
fn short_distractor() {
    let mut texts = CHOICES;
    texts[2] = "Nothing";
    assert!(flagged(&worded(&good_item().prompt, &texts), "short-distractor", Severity::Warning));
    let mut texts = CHOICES;
    texts[2] = "It blocks";
    assert!(flagged(&worded(&good_item().prompt, &texts), "short-distractor", Severity::Warning));
    sound(&good_item());
}
