//! The summary builder (ARCHITECTURE §8, §9, §11): the session's closing record, derived only from
//! the plan, the evidence pack and the evaluations — never from a model call, so it cannot invent
//! learning that was not observed, and replay rebuilds it exactly.
//!
//! - `concepts`: every plan unit with its declared confidence and an **estimated session
//!   mastery** — `evidenced` (the policy counted its checks as met), `partial` (some correct
//!   answers), `weak` (only wrong answers, or closed after repeated misses), `not_assessed`.
//! - `weak_areas`: units answered wrongly and not evidenced, with the misconceptions the
//!   evaluations diagnosed.
//! - `takeaways`: each unit with a correct answer, with the mental model its lesson taught (else
//!   why its correct answer was right) — not its objective, which `concepts` already states.
//! - `points_to_remember`: the diagnosed misconceptions, per unit.
//! - `edge_cases_for_other_projects`: the misconceptions the concept extraction listed for the
//!   units that were taught (at most two per unit), each labelled as a misconception so it never
//!   reads as advice.
//! - `limitations`: what the estimate rests on — the number of answers, evidence gaps, omitted
//!   concepts, a degraded plan, the reason the session stopped, and what each lesson's
//!   citations were checked against ([`documentation_line`]).
//!
//! Wording: "estimated session mastery", "evidenced"; never "mastered" (DESIGN §3, gate 7).
//!
//! Not for: rendering (the host does), or anything that needs judgment.

use dossier_core::learning as l;

use crate::contract::{
    ConceptSummary, EstimateLevel, EstimatedSessionMastery, EvidenceRef, SessionEstimate, Summary, UnitRole, WeakArea,
};
use crate::derive;
use crate::event::SessionEndRecord;
use crate::policy::core_confidence;
use crate::state::Session;
use crate::work_order::unit_concepts;

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Build the summary of `s`, which ended with `end`.
pub fn build(s: &Session, end: &SessionEndRecord) -> Summary {
    let empty = crate::contract::LearningPlan {
        units: Vec::new(),
        dependency_edges: Vec::new(),
        cycles: Vec::new(),
        estimated_minutes: 0,
        objectives: Vec::new(),
        omitted: Vec::new(),
        budget_minutes: 0,
        degraded: false,
    };
    let plan = s.plan.as_ref().unwrap_or(&empty);
    let mut concepts = Vec::new();
    let mut weak_areas = Vec::new();
    let mut takeaways = Vec::new();
    let mut points = Vec::new();
    let mut edge_cases = Vec::new();
    let mut not_assessed = 0;
    for unit in &plan.units {
        let answers: Vec<_> = s.answers.iter().filter(|a| a.unit_id == unit.id).collect();
        let correct = answers.iter().filter(|a| a.correct).count() as u32;
        let wrong = answers.len() as u32 - correct;
        let declared = s.confidences.get(&unit.id).copied().unwrap_or_default();
        let role = match unit.role {
            UnitRole::Objective => l::UnitRole::Objective,
            UnitRole::Prerequisite => l::UnitRole::Prerequisite,
        };
        let checks = l::checks_needed(role, core_confidence(declared)) as u32;
        let level = if end.evidenced.contains(&unit.id) {
            EstimateLevel::Evidenced
        } else if answers.is_empty() {
            not_assessed += 1;
            EstimateLevel::NotAssessed
        } else if correct == 0 || wrong as usize >= l::next_move::MAX_WRONG_PER_UNIT {
            EstimateLevel::Weak
        } else {
            EstimateLevel::Partial
        };
        let unit_concepts = unit_concepts(s, unit);
        let mut evidence: Vec<EvidenceRef> = Vec::new();
        for r in unit_concepts.iter().flat_map(|c| c.evidence.iter()) {
            if !evidence.contains(r) {
                evidence.push(r.clone());
            }
        }
        concepts.push(ConceptSummary {
            unit_id: unit.id.clone(),
            label: unit.label.clone(),
            role: unit.role,
            objective: unit.objective.clone(),
            declared_confidence: declared,
            estimated_session_mastery: EstimatedSessionMastery {
                level,
                correct_answers: correct,
                answers: answers.len() as u32,
                checks_needed: checks,
            },
            evidence,
        });
        let mut diagnosed = Vec::new();
        for m in answers.iter().flat_map(|a| a.evaluation.diagnosed_misconceptions.iter()) {
            push_unique(&mut diagnosed, m.clone());
            push_unique(&mut points, format!("{}: watch for \"{m}\"", unit.label));
        }
        if wrong > 0 && level != EstimateLevel::Evidenced {
            weak_areas.push(WeakArea {
                unit_id: unit.id.clone(),
                label: unit.label.clone(),
                wrong_answers: wrong,
                diagnosed_misconceptions: diagnosed,
            });
        }
        if correct > 0 {
            // What was learned, not what was to be learned (the objective is in `concepts`): the
            // mental model of the unit's first lesson, else the reason its last correct answer
            // was right.
            let model = s
                .lessons
                .iter()
                .find(|l| l.request.unit_id == unit.id && l.kind == crate::event::LessonKind::Lesson)
                .or_else(|| s.lessons.iter().find(|l| l.request.unit_id == unit.id))
                .map(|l| l.lesson.mental_model.trim().to_string());
            let why_right = || {
                answers.iter().rev().filter(|a| a.correct).find_map(|a| {
                    let q = &s.question(&a.question_id)?.question;
                    q.choices.iter().find(|c| c.id == q.correct_choice_id).map(|c| c.rationale.trim().to_string())
                })
            };
            if let Some(t) = model.filter(|m| !m.is_empty()).or_else(why_right).filter(|t| !t.is_empty()) {
                push_unique(&mut takeaways, format!("{}: {t}", unit.label));
            }
        }
        if s.taught.contains(&unit.id) || !answers.is_empty() {
            // Phrased as the misconception it is: a bare statement would read as advice.
            for m in unit_concepts.iter().flat_map(|c| c.misconceptions.iter()).take(2) {
                push_unique(
                    &mut edge_cases,
                    format!("{}: a common misconception to watch for in other projects too: \"{m}\"", unit.label),
                );
            }
        }
    }

    let objectives = plan.objectives.len() as u32;
    let evidenced_objectives = plan.objectives.iter().filter(|u| end.evidenced.contains(u)).count() as u32;
    let answered = s.answers.len() as u32;

    let mut limitations = vec![format!(
        "An estimate from {answered} check-in answer(s) in one session, not a lasting assessment of what is known."
    )];
    if let Some(pack) = &s.pack {
        for l in derive::pack_limitations(pack) {
            limitations.push(format!("Evidence: {l}."));
        }
    }
    let budget_omitted: Vec<&str> = plan
        .omitted
        .iter()
        .filter(|o| o.kind == crate::contract::OmissionKind::Budget)
        .map(|o| o.concept_id.as_str())
        .collect();
    if !budget_omitted.is_empty() {
        limitations.push(format!(
            "{} concept(s) left out of the plan by the time budget: {}.",
            budget_omitted.len(),
            budget_omitted.join(", ")
        ));
    }
    if plan.degraded {
        limitations.push(
            "The plan was built from path and symbol signals after concept extraction failed; its units are coarse."
                .into(),
        );
    }
    if let Some(line) = documentation_line(s) {
        limitations.push(line);
    }
    if not_assessed > 0 {
        limitations.push(format!("{not_assessed} unit(s) were not assessed by any question."));
    }
    if end.reason == "budget_spent" {
        limitations.push("The time budget ran out before the session objective was evidenced.".into());
    }

    Summary {
        finish_reason: end.reason.clone(),
        message: end.message.clone(),
        concepts,
        estimated_session_mastery: SessionEstimate {
            objective_units: objectives,
            objective_units_evidenced: evidenced_objectives,
            note: format!(
                "estimated session mastery: {evidenced_objectives} of {objectives} objective unit(s) evidenced by \
                 correct answers in this session"
            ),
        },
        weak_areas,
        takeaways,
        points_to_remember: points,
        edge_cases_for_other_projects: edge_cases,
        limitations,
        questions_answered: answered,
        minutes_spent_estimate: s.elapsed_minutes + s.uncharged_minutes,
    }
}

/// The documentation limitation: whether retrieval was offline, and per delivered lesson which
/// resolved sources it cited (each checked against the excerpt recorded in
/// `DOCUMENTATION_RESOLVED`), which were resolved but not cited, and how many of its claims were
/// uncited model knowledge. `None` when no lesson was delivered.
pub fn documentation_line(s: &Session) -> Option<String> {
    if s.lessons.is_empty() {
        return None;
    }
    let offline = s.started.as_ref().is_none_or(|st| st.options.offline);
    let mode = if offline {
        "offline: project-local and installed-package documentation only, no network retrieval"
    } else {
        "network retrieval allowed for allowlisted official documentation, plus project-local and installed packages"
    };
    let label = |unit: &str| s.plan.as_ref().and_then(|p| p.unit(unit)).map_or(unit.to_string(), |u| u.label.clone());
    let mut parts = Vec::new();
    for l in &s.lessons {
        let cited: Vec<&str> = l.lesson.citations.iter().filter_map(|c| c.source_id.as_deref()).collect();
        let uncited = l.lesson.citations.iter().filter(|c| c.is_uncited()).count();
        let docs = s.documentation.get(&l.work_order_id);
        let mut part = format!("the lesson on \"{}\" ({})", label(&l.request.unit_id), l.work_order_id);
        if cited.is_empty() {
            part.push_str(" cited no documentation");
        } else {
            part.push_str(&format!(" cited {}, checked against the recorded excerpt(s)", cited.join(", ")));
        }
        match docs {
            Some(d) => {
                let unused: Vec<&str> =
                    d.sources.iter().map(|x| x.source_id.as_str()).filter(|id| !cited.contains(id)).collect();
                if d.sources.is_empty() {
                    part.push_str(&format!(" (documentation {})", d.status.name()));
                } else if !unused.is_empty() {
                    part.push_str(&format!(" (resolved, not cited: {})", unused.join(", ")));
                }
            }
            None => part.push_str(" (no documentation was resolved)"),
        }
        if uncited > 0 {
            part.push_str(&format!("; {uncited} citation(s) of model knowledge, uncited"));
        }
        parts.push(part);
    }
    Some(format!("Documentation ({mode}): {}.", parts.join("; ")))
}
