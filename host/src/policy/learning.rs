//! codecall's learning policy as the product runs it: [`ComponentLearningPolicy`] implements the
//! runtime's [`LearningPolicy`] by calling the `learning` interface of the policy component
//! (the embedded default, or the file `policy.learning` in `config.yaml` names) through
//! [`Policies`], converting between the WIT types wasmtime generates and
//! `dossier_core::learning`'s plain types (the mirror of the guest-side glue in
//! `core/src/component.rs`).
//!
//! Not for: deciding anything (the component does, and `dossier_codecall` decides when to ask),
//! or falling back to the native policy when the component fails: a failure is a
//! [`PolicyFailure`] naming the component and the cause, and the session is left unchanged.

use dossier_codecall::{ItemFinding, LearningPolicy, PolicyFailure};
use dossier_core::learning as l;

use super::runtime::wit_learning as w;
use super::runtime::{EMBEDDED_COMPONENT, Interface, Policies, PolicyError, Source};

/// The learning policy over the component serving `learning`.
pub struct ComponentLearningPolicy<'a> {
    policies: &'a Policies,
    version: String,
}

impl<'a> ComponentLearningPolicy<'a> {
    pub fn new(policies: &'a Policies) -> Self {
        let source = policies.source(Interface::Learning);
        let digest = match source {
            Source::Embedded => Some(blake3::hash(EMBEDDED_COMPONENT)),
            Source::File(p) => std::fs::read(p).ok().map(|b| blake3::hash(&b)),
        };
        let digest = digest.map_or_else(|| "unreadable".to_string(), |d| d.to_hex()[..16].to_string());
        // Recorded in `SESSION_STARTED`: replay with another component (or another build of the
        // embedded one) reports it as a divergence.
        let version = format!("learning component: {source}; blake3 {digest}");
        ComponentLearningPolicy { policies, version }
    }
}

/// A component failure as the runtime sees it: a refusal of the input (`policy-error::invalid-input`)
/// is the caller's to fix; everything else is the component's.
fn failure(e: PolicyError) -> PolicyFailure {
    match &e {
        PolicyError::Refused { reason, .. } => match reason.strip_prefix("invalid input: ") {
            Some(m) => PolicyFailure::InvalidInput(m.to_string()),
            None => PolicyFailure::Failed(e.to_string()),
        },
        _ => PolicyFailure::Failed(e.to_string()),
    }
}

impl LearningPolicy for ComponentLearningPolicy<'_> {
    fn version(&self) -> String {
        self.version.clone()
    }

    fn score_opportunity(&self, input: &l::OpportunityInput) -> Result<l::Opportunity, PolicyFailure> {
        let input = w::OpportunityInput {
            completed: input.completed,
            inspectable: input.inspectable,
            signals: input
                .signals
                .iter()
                .map(|s| w::Signal {
                    kind: signal_out(s.kind),
                    concept: s.concept.clone(),
                    reason: s.reason.clone(),
                    evidence: s.evidence.iter().map(evidence_out).collect(),
                })
                .collect(),
            excluded: input.excluded.iter().map(|&k| excluded_out(k)).collect(),
        };
        let o = self.policies.learning_score_opportunity(&input).map_err(failure)?;
        Ok(l::Opportunity {
            recommendation: match o.recommendation {
                w::Recommendation::Recommend => l::Recommendation::Recommend,
                w::Recommendation::Optional => l::Recommendation::Optional,
                w::Recommendation::Skip => l::Recommendation::Skip,
            },
            score: o.score,
            confidence: o.confidence,
            estimated_minutes: o.estimated_minutes,
            matched_strong: o.matched_strong.into_iter().map(signal_in).collect(),
            matched_moderate: o.matched_moderate.into_iter().map(signal_in).collect(),
            excluded: o.excluded.into_iter().map(excluded_in).collect(),
            reasons: o.reasons,
            fingerprint: o.fingerprint,
        })
    }

    fn plan(&self, concepts: &[l::Concept], budget_minutes: u32) -> Result<l::LearningPlan, PolicyFailure> {
        let concepts: Vec<w::Concept> = concepts.iter().map(concept_out).collect();
        let plan = self.policies.learning_plan(&concepts, budget_minutes).map_err(failure)?;
        Ok(plan_in(plan))
    }

    fn next_move(&self, state: &l::LearnerState) -> Result<l::LearningMove, PolicyFailure> {
        let state = w::LearnerState {
            plan: plan_out(&state.plan),
            confidences: state
                .confidences
                .iter()
                .map(|c| w::UnitConfidence { unit_id: c.unit_id.clone(), level: level_out(c.level) })
                .collect(),
            taught: state.taught.clone(),
            answers: state
                .answers
                .iter()
                .map(|a| w::AnswerRecord {
                    unit_id: a.unit_id.clone(),
                    question_id: a.question_id.clone(),
                    intent: intent_out(a.intent),
                    difficulty: a.difficulty,
                    correct: a.correct,
                    misconceptions: a.misconceptions.clone(),
                })
                .collect(),
            elapsed_minutes: state.elapsed_minutes,
            budget_minutes: state.budget_minutes,
        };
        Ok(match self.policies.learning_next_move(&state).map_err(failure)? {
            w::LearningMove::Teach(r) => l::LearningMove::Teach(l::LessonRequest {
                unit_id: r.unit_id,
                depth: match r.depth {
                    w::LessonDepth::Brief => l::LessonDepth::Brief,
                    w::LessonDepth::Standard => l::LessonDepth::Standard,
                    w::LessonDepth::Thorough => l::LessonDepth::Thorough,
                },
                focus: r.focus,
                reason: r.reason,
            }),
            w::LearningMove::Ask(q) => l::LearningMove::Ask(question_in(q)),
            w::LearningMove::Deepen(q) => l::LearningMove::Deepen(question_in(q)),
            w::LearningMove::Retry(q) => l::LearningMove::Retry(question_in(q)),
            w::LearningMove::Reinforce(r) => l::LearningMove::Reinforce(l::Reinforcement {
                unit_id: r.unit_id,
                misconceptions: r.misconceptions,
                question: question_in(r.question),
            }),
            w::LearningMove::Finish(e) => l::LearningMove::Finish(l::SessionEnd {
                reason: match e.reason {
                    w::FinishReason::ObjectiveEvidenced => l::FinishReason::ObjectiveEvidenced,
                    w::FinishReason::BudgetSpent => l::FinishReason::BudgetSpent,
                    w::FinishReason::PlanExhausted => l::FinishReason::PlanExhausted,
                    w::FinishReason::EmptyPlan => l::FinishReason::EmptyPlan,
                },
                message: e.message,
                evidenced: e.evidenced,
                weak: e.weak,
            }),
        })
    }

    fn check_item(&self, item: &l::McqItem) -> Result<Vec<ItemFinding>, PolicyFailure> {
        let item = w::McqItem {
            unit_id: item.unit_id.clone(),
            prompt: item.prompt.clone(),
            choices: item.choices.iter().map(choice_out).collect(),
            correct_choice_id: item.correct_choice_id.clone(),
            intent: intent_out(item.intent),
            evidence: item.evidence.iter().map(evidence_out).collect(),
        };
        let findings = self.policies.learning_check_item(&item).map_err(failure)?;
        Ok(findings
            .into_iter()
            .map(|f| ItemFinding {
                code: f.code,
                message: f.message,
                warning: f.severity != super::runtime::Severity::Error,
            })
            .collect())
    }

    fn shuffle_order(
        &self,
        question_id: &str,
        choice_count: usize,
        correct_index: usize,
        previous_positions: &[u32],
    ) -> Result<Vec<usize>, PolicyFailure> {
        if correct_index >= choice_count {
            return Err(PolicyFailure::InvalidInput(format!(
                "the correct choice is at index {correct_index} of {choice_count} choices"
            )));
        }
        // The order depends only on the question id, the number of choices, where the correct
        // one is and the earlier positions: the choices are named by their indices.
        let choices: Vec<w::Choice> = (0..choice_count)
            .map(|i| w::Choice { id: i.to_string(), text: String::new(), rationale: String::new() })
            .collect();
        let order = self
            .policies
            .learning_shuffle_choices(question_id, &choices, &correct_index.to_string(), previous_positions)
            .map_err(failure)?;
        Ok(order.into_iter().map(|i| i as usize).collect())
    }
}

// ------------------------------------------------------------------ conversions

fn evidence_out(e: &l::EvidenceRef) -> w::EvidenceRef {
    w::EvidenceRef {
        path: e.path.clone(),
        revision: e.revision.clone(),
        start_line: e.start_line,
        end_line: e.end_line,
        content_hash: e.content_hash.clone(),
    }
}

fn signal_out(k: l::SignalKind) -> w::SignalKind {
    match k {
        l::SignalKind::ExternalContract => w::SignalKind::ExternalContract,
        l::SignalKind::ArchitectureFlow => w::SignalKind::ArchitectureFlow,
        l::SignalKind::SecurityBoundary => w::SignalKind::SecurityBoundary,
        l::SignalKind::ReliabilityBoundary => w::SignalKind::ReliabilityBoundary,
        l::SignalKind::ConsequentialTradeoff => w::SignalKind::ConsequentialTradeoff,
        l::SignalKind::ReusablePattern => w::SignalKind::ReusablePattern,
        l::SignalKind::DependencyRelationship => w::SignalKind::DependencyRelationship,
        l::SignalKind::OperationalConfig => w::SignalKind::OperationalConfig,
        l::SignalKind::Observability => w::SignalKind::Observability,
        l::SignalKind::Validation => w::SignalKind::Validation,
        l::SignalKind::TestStrategy => w::SignalKind::TestStrategy,
        l::SignalKind::Deployment => w::SignalKind::Deployment,
    }
}

fn signal_in(k: w::SignalKind) -> l::SignalKind {
    match k {
        w::SignalKind::ExternalContract => l::SignalKind::ExternalContract,
        w::SignalKind::ArchitectureFlow => l::SignalKind::ArchitectureFlow,
        w::SignalKind::SecurityBoundary => l::SignalKind::SecurityBoundary,
        w::SignalKind::ReliabilityBoundary => l::SignalKind::ReliabilityBoundary,
        w::SignalKind::ConsequentialTradeoff => l::SignalKind::ConsequentialTradeoff,
        w::SignalKind::ReusablePattern => l::SignalKind::ReusablePattern,
        w::SignalKind::DependencyRelationship => l::SignalKind::DependencyRelationship,
        w::SignalKind::OperationalConfig => l::SignalKind::OperationalConfig,
        w::SignalKind::Observability => l::SignalKind::Observability,
        w::SignalKind::Validation => l::SignalKind::Validation,
        w::SignalKind::TestStrategy => l::SignalKind::TestStrategy,
        w::SignalKind::Deployment => l::SignalKind::Deployment,
    }
}

fn excluded_out(k: l::ExcludedKind) -> w::ExcludedKind {
    match k {
        l::ExcludedKind::Formatting => w::ExcludedKind::Formatting,
        l::ExcludedKind::CopyText => w::ExcludedKind::CopyText,
        l::ExcludedKind::Comments => w::ExcludedKind::Comments,
        l::ExcludedKind::MechanicalRename => w::ExcludedKind::MechanicalRename,
        l::ExcludedKind::GeneratedOnly => w::ExcludedKind::GeneratedOnly,
        l::ExcludedKind::DependencyBump => w::ExcludedKind::DependencyBump,
        l::ExcludedKind::LocalFix => w::ExcludedKind::LocalFix,
        l::ExcludedKind::TestsWithoutStrategy => w::ExcludedKind::TestsWithoutStrategy,
    }
}

fn excluded_in(k: w::ExcludedKind) -> l::ExcludedKind {
    match k {
        w::ExcludedKind::Formatting => l::ExcludedKind::Formatting,
        w::ExcludedKind::CopyText => l::ExcludedKind::CopyText,
        w::ExcludedKind::Comments => l::ExcludedKind::Comments,
        w::ExcludedKind::MechanicalRename => l::ExcludedKind::MechanicalRename,
        w::ExcludedKind::GeneratedOnly => l::ExcludedKind::GeneratedOnly,
        w::ExcludedKind::DependencyBump => l::ExcludedKind::DependencyBump,
        w::ExcludedKind::LocalFix => l::ExcludedKind::LocalFix,
        w::ExcludedKind::TestsWithoutStrategy => l::ExcludedKind::TestsWithoutStrategy,
    }
}

fn concept_out(c: &l::Concept) -> w::Concept {
    w::Concept {
        id: c.id.clone(),
        canonical_id: c.canonical_id.clone(),
        scope: c.scope.clone(),
        label: c.label.clone(),
        category: match c.category {
            l::ConceptCategory::Technology => w::ConceptCategory::Technology,
            l::ConceptCategory::Concept => w::ConceptCategory::Concept,
            l::ConceptCategory::Pattern => w::ConceptCategory::Pattern,
            l::ConceptCategory::AntiPattern => w::ConceptCategory::AntiPattern,
            l::ConceptCategory::ArchitectureDecision => w::ConceptCategory::ArchitectureDecision,
            l::ConceptCategory::Misconception => w::ConceptCategory::Misconception,
        },
        objective: c.objective.clone(),
        prerequisites: c.prerequisites.clone(),
        difficulty: c.difficulty,
        novelty: c.novelty,
        relevance: c.relevance,
        evidence: c.evidence.iter().map(evidence_out).collect(),
    }
}

fn role_out(r: l::UnitRole) -> w::UnitRole {
    match r {
        l::UnitRole::Objective => w::UnitRole::Objective,
        l::UnitRole::Prerequisite => w::UnitRole::Prerequisite,
    }
}

fn role_in(r: w::UnitRole) -> l::UnitRole {
    match r {
        w::UnitRole::Objective => l::UnitRole::Objective,
        w::UnitRole::Prerequisite => l::UnitRole::Prerequisite,
    }
}

fn plan_out(p: &l::LearningPlan) -> w::LearningPlan {
    w::LearningPlan {
        units: p
            .units
            .iter()
            .map(|u| w::LearningUnit {
                id: u.id.clone(),
                concept_ids: u.concept_ids.clone(),
                label: u.label.clone(),
                role: role_out(u.role),
                prerequisites: u.prerequisites.clone(),
                objective: u.objective.clone(),
                difficulty: u.difficulty,
                value: u.value,
                estimated_minutes: u.estimated_minutes,
                mastery_signals: u.mastery_signals.clone(),
                alternatives: u.alternatives.clone(),
            })
            .collect(),
        cycles: p.cycles.clone(),
        estimated_minutes: p.estimated_minutes,
        omitted: p
            .omitted
            .iter()
            .map(|o| w::Omission {
                concept_id: o.concept_id.clone(),
                kind: match o.kind {
                    l::OmissionKind::Duplicate => w::OmissionKind::Duplicate,
                    l::OmissionKind::Budget => w::OmissionKind::Budget,
                },
                reason: o.reason.clone(),
            })
            .collect(),
    }
}

fn plan_in(p: w::LearningPlan) -> l::LearningPlan {
    l::LearningPlan {
        units: p
            .units
            .into_iter()
            .map(|u| l::LearningUnit {
                id: u.id,
                concept_ids: u.concept_ids,
                label: u.label,
                role: role_in(u.role),
                prerequisites: u.prerequisites,
                objective: u.objective,
                difficulty: u.difficulty,
                value: u.value,
                estimated_minutes: u.estimated_minutes,
                mastery_signals: u.mastery_signals,
                alternatives: u.alternatives,
            })
            .collect(),
        cycles: p.cycles,
        estimated_minutes: p.estimated_minutes,
        omitted: p
            .omitted
            .into_iter()
            .map(|o| l::Omission {
                concept_id: o.concept_id,
                kind: match o.kind {
                    w::OmissionKind::Duplicate => l::OmissionKind::Duplicate,
                    w::OmissionKind::Budget => l::OmissionKind::Budget,
                },
                reason: o.reason,
            })
            .collect(),
    }
}

fn level_out(c: l::ConfidenceLevel) -> w::ConfidenceLevel {
    match c {
        l::ConfidenceLevel::Expert => w::ConfidenceLevel::Expert,
        l::ConfidenceLevel::Comfortable => w::ConfidenceLevel::Comfortable,
        l::ConfidenceLevel::HeardOfIt => w::ConfidenceLevel::HeardOfIt,
        l::ConfidenceLevel::NeverLearned => w::ConfidenceLevel::NeverLearned,
        l::ConfidenceLevel::Neutral => w::ConfidenceLevel::Neutral,
    }
}

fn intent_out(i: l::QuestionIntent) -> w::QuestionIntent {
    match i {
        l::QuestionIntent::Scenario => w::QuestionIntent::Scenario,
        l::QuestionIntent::CausalReasoning => w::QuestionIntent::CausalReasoning,
        l::QuestionIntent::Tradeoff => w::QuestionIntent::Tradeoff,
        l::QuestionIntent::Debugging => w::QuestionIntent::Debugging,
        l::QuestionIntent::SystemDesign => w::QuestionIntent::SystemDesign,
    }
}

fn intent_in(i: w::QuestionIntent) -> l::QuestionIntent {
    match i {
        w::QuestionIntent::Scenario => l::QuestionIntent::Scenario,
        w::QuestionIntent::CausalReasoning => l::QuestionIntent::CausalReasoning,
        w::QuestionIntent::Tradeoff => l::QuestionIntent::Tradeoff,
        w::QuestionIntent::Debugging => l::QuestionIntent::Debugging,
        w::QuestionIntent::SystemDesign => l::QuestionIntent::SystemDesign,
    }
}

fn question_in(q: w::QuestionRequest) -> l::QuestionRequest {
    l::QuestionRequest { unit_id: q.unit_id, intent: intent_in(q.intent), difficulty: q.difficulty, reason: q.reason }
}

fn choice_out(c: &l::Choice) -> w::Choice {
    w::Choice { id: c.id.clone(), text: c.text.clone(), rationale: c.rationale.clone() }
}

#[cfg(test)]
mod tests {
    //! Parity: the embedded component and `NativePolicy` (the code it is compiled from, which
    //! `dossier-codecall`'s tests run) give identical results on realistic inputs, for every
    //! function, so the product runs what those tests test.

    use std::collections::HashMap;

    use dossier_codecall::NativePolicy;

    use super::*;
    use crate::policy::cache::CompileCache;
    use crate::policy::runtime::Limits;

    /// One engine and one compile of the embedded component for all three tests.
    fn policies() -> &'static Policies {
        static P: std::sync::OnceLock<Policies> = std::sync::OnceLock::new();
        P.get_or_init(|| Policies::new(CompileCache::new(None), &HashMap::new(), Limits::default()).unwrap())
    }

    fn r(path: &str, start: u32, end: u32) -> l::EvidenceRef {
        l::EvidenceRef {
            path: path.into(),
            revision: "4f2a9c1".into(),
            start_line: start,
            end_line: end,
            content_hash: format!("{:064x}", u64::from(start) * 7919 + u64::from(end)),
        }
    }

    fn signal(kind: l::SignalKind, concept: &str, refs: Vec<l::EvidenceRef>) -> l::Signal {
        l::Signal { kind, concept: concept.into(), reason: format!("the change touches {concept}"), evidence: refs }
    }

    fn opportunity_inputs() -> Vec<l::OpportunityInput> {
        use l::ExcludedKind as X;
        use l::SignalKind as K;
        let oauth = vec![
            signal(K::SecurityBoundary, "OAuth bearer tokens", vec![r("src/middleware/oauth.rs", 14, 22)]),
            signal(K::ArchitectureFlow, "request middleware pipeline", vec![r("src/lib.rs", 1, 2)]),
            signal(K::Observability, "auth failure metrics", vec![]),
        ];
        vec![
            l::OpportunityInput { completed: true, inspectable: true, signals: oauth.clone(), excluded: vec![] },
            l::OpportunityInput { completed: false, inspectable: true, signals: oauth.clone(), excluded: vec![] },
            l::OpportunityInput { completed: true, inspectable: false, signals: oauth, excluded: vec![] },
            l::OpportunityInput {
                completed: true,
                inspectable: true,
                signals: vec![
                    signal(K::ReusablePattern, "write-through cache", vec![r("src/cache.rs", 12, 19)]),
                    signal(K::Validation, "cache key validation", vec![r("src/cache.rs", 8, 10)]),
                ],
                excluded: vec![X::Comments],
            },
            l::OpportunityInput {
                completed: true,
                inspectable: true,
                signals: vec![
                    signal(K::Observability, "retry logging", vec![]),
                    signal(K::Validation, "argument checks", vec![]),
                ],
                excluded: vec![],
            },
            l::OpportunityInput {
                completed: true,
                inspectable: true,
                signals: vec![
                    signal(K::TestStrategy, "retry tests", vec![r("tests/retry.rs", 1, 40)]),
                    signal(K::DependencyRelationship, "tokio", vec![r("Cargo.toml", 9, 9)]),
                ],
                excluded: vec![X::TestsWithoutStrategy, X::DependencyBump],
            },
            l::OpportunityInput {
                completed: true,
                inspectable: true,
                signals: vec![signal(K::ExternalContract, "users.email column", vec![r("migrations/002.sql", 1, 4)])],
                excluded: vec![X::GeneratedOnly],
            },
            l::OpportunityInput { completed: true, inspectable: true, signals: vec![], excluded: vec![X::Formatting] },
            l::OpportunityInput::default(),
        ]
    }

    fn concept(id: &str, canonical: &str, prerequisites: &[&str], difficulty: u8, relevance: f64) -> l::Concept {
        l::Concept {
            id: id.into(),
            canonical_id: canonical.into(),
            scope: "src/client.rs".into(),
            label: canonical.replace('-', " "),
            category: if prerequisites.is_empty() {
                l::ConceptCategory::Concept
            } else {
                l::ConceptCategory::ArchitectureDecision
            },
            objective: format!("Explain why the change needs {canonical}"),
            prerequisites: prerequisites.iter().map(|p| p.to_string()).collect(),
            difficulty,
            novelty: 0.6,
            relevance,
            evidence: vec![r("src/client.rs", 5, 20)],
        }
    }

    fn concept_sets() -> Vec<Vec<l::Concept>> {
        let retry = vec![
            concept("c0", "exponential-backoff", &[], 2, 0.9),
            concept("c1", "retry-budget", &["c0"], 3, 0.8),
            concept("c2", "idempotent-requests", &["c0"], 3, 0.7),
            concept("c3", "exponential-backoff", &[], 4, 0.5),
            concept("c4", "jitter", &["c1", "c2"], 4, 0.6),
        ];
        let mut merged = retry.clone();
        merged[2].objective = merged[1].objective.clone();
        merged[2].prerequisites = merged[1].prerequisites.clone();
        let cycle = vec![
            concept("a", "token-refresh", &["b"], 3, 0.9),
            concept("b", "token-expiry", &["a"], 2, 0.8),
            concept("c", "middleware-order", &["a"], 2, 0.7),
            concept("d", "self-reference", &["d"], 1, 0.3),
        ];
        vec![retry, merged, cycle, vec![]]
    }

    #[test]
    fn component_and_native_agree_on_scoring_and_planning() {
        let p = policies();
        let component = ComponentLearningPolicy::new(p);
        for input in opportunity_inputs() {
            assert_eq!(component.score_opportunity(&input), NativePolicy.score_opportunity(&input), "{input:?}");
        }
        for concepts in concept_sets() {
            for budget in [0, 5, 12, 20, 480] {
                assert_eq!(component.plan(&concepts, budget), NativePolicy.plan(&concepts, budget), "budget {budget}");
            }
        }
        // A refused input is refused the same way.
        let bad = vec![concept("c0", "x", &["missing"], 2, 0.5)];
        assert_eq!(component.plan(&bad, 20), NativePolicy.plan(&bad, 20));
        assert!(component.version().contains("embedded default policy"), "{}", component.version());
    }

    /// Every move of simulated sessions (all confidence levels; answers right, wrong with and
    /// without a diagnosis), asked of both policies at every step.
    #[test]
    fn component_and_native_agree_on_every_move_of_a_session() {
        let p = policies();
        let component = ComponentLearningPolicy::new(p);
        let plan = NativePolicy.plan(&concept_sets()[0], 60).unwrap();
        assert!(plan.units.len() >= 3, "{plan:?}");
        let levels = [
            l::ConfidenceLevel::Expert,
            l::ConfidenceLevel::Comfortable,
            l::ConfidenceLevel::HeardOfIt,
            l::ConfidenceLevel::NeverLearned,
            l::ConfidenceLevel::Neutral,
        ];
        let mut moves = 0;
        for (run, level) in levels.iter().enumerate() {
            let mut state = l::LearnerState {
                plan: plan.clone(),
                confidences: plan
                    .units
                    .iter()
                    .map(|u| l::UnitConfidence { unit_id: u.id.clone(), level: *level })
                    .collect(),
                budget_minutes: if run == 4 { 9 } else { 60 },
                ..Default::default()
            };
            for step in 0..100 {
                let mv = component.next_move(&state);
                assert_eq!(mv, NativePolicy.next_move(&state), "run {run}, step {step}");
                moves += 1;
                let question = match mv.unwrap() {
                    l::LearningMove::Finish(_) => break,
                    l::LearningMove::Teach(t) => {
                        state.elapsed_minutes += l::lesson_minutes(3, t.depth);
                        state.taught.push(t.unit_id);
                        continue;
                    }
                    l::LearningMove::Reinforce(r) => {
                        state.taught.push(r.unit_id);
                        r.question
                    }
                    l::LearningMove::Ask(q) | l::LearningMove::Deepen(q) | l::LearningMove::Retry(q) => q,
                };
                // Wrong every third answer, diagnosed every other time.
                let wrong = (step + run) % 3 == 0;
                state.answers.push(l::AnswerRecord {
                    unit_id: question.unit_id,
                    question_id: format!("q-{step}"),
                    intent: question.intent,
                    difficulty: question.difficulty,
                    correct: !wrong,
                    misconceptions: if wrong && step % 2 == 0 { vec!["retries need no delay".into()] } else { vec![] },
                });
                state.elapsed_minutes += l::CHECK_MINUTES;
            }
        }
        assert!(moves >= 20, "{moves} moves compared");
        // A state the policy refuses is refused the same way.
        let mut bad = l::LearnerState { plan: plan.clone(), budget_minutes: 20, ..Default::default() };
        bad.taught.push("no-such-unit".into());
        assert_eq!(component.next_move(&bad), NativePolicy.next_move(&bad));
    }

    #[test]
    fn component_and_native_agree_on_items_and_shuffles() {
        let p = policies();
        let component = ComponentLearningPolicy::new(p);
        let choice = |id: &str, text: &str| l::Choice {
            id: id.into(),
            text: text.into(),
            rationale: format!("Because of {text}"),
        };
        let good = l::McqItem {
            unit_id: "unit-c0".into(),
            prompt: "After a failed call, what does the client do before the next attempt?".into(),
            choices: vec![
                choice("a", "It retries immediately without any delay between attempts"),
                choice("b", "It waits longer after each failure so the server can recover"),
                choice("c", "It gives up after the first timeout and reports the error"),
                choice("d", "It sends every attempt in parallel to reduce total latency"),
            ],
            correct_choice_id: "b".into(),
            intent: l::QuestionIntent::Scenario,
            evidence: vec![r("src/client.rs", 8, 12)],
        };
        let mut items = vec![good.clone()];
        let mut longest = good.clone();
        longest.choices[1].text = "It waits, and the wait doubles after every failure, so that a struggling \
                                   server gets progressively more time to recover before the next attempt"
            .into();
        items.push(longest);
        let mut broken = good.clone();
        broken.choices.truncate(2);
        broken.choices.push(choice("a", "None of the above"));
        broken.choices[0].rationale.clear();
        broken.correct_choice_id = "z".into();
        broken.evidence = vec![r("", 0, 0)];
        broken.prompt = " ".into();
        items.push(broken);
        for item in &items {
            let c = component.check_item(item).unwrap();
            assert_eq!(c, NativePolicy.check_item(item).unwrap(), "{item:?}");
        }
        assert!(component.check_item(&items[0]).unwrap().is_empty());
        assert!(component.check_item(&items[2]).unwrap().len() >= 5);

        let mut previous = Vec::new();
        for q in 0..24u32 {
            let count = 3 + (q as usize % 3);
            let correct = (q as usize * 7) % count;
            let id = format!("lrn_01jd0000000000000000000000/q-{q}");
            let order = component.shuffle_order(&id, count, correct, &previous).unwrap();
            assert_eq!(order, NativePolicy.shuffle_order(&id, count, correct, &previous).unwrap(), "q {q}");
            previous.push(order.iter().position(|&i| i == correct).unwrap() as u32);
        }
    }
}
