//! Opportunity scoring (ARCHITECTURE §10): is this finished implementation worth a learning
//! session? It decides `recommend` (the only outcome that shows a Start/Skip card), `optional`
//! or `skip`; manual `/codecall` stays available in every case, and nothing here starts one.
//!
//! The rules, exactly:
//!
//! - **Eligibility.** Not `completed`, or not `inspectable` (no task, conversation or
//!   changed-file evidence): `skip`, score 0.
//! - **Signals.** §10's four strong signals — external contract/integration, architecture or
//!   cross-component flow, a security *or* reliability boundary, a consequential tradeoff — and
//!   three moderate ones — a reusable pattern/lifecycle, a connected dependency relationship, an
//!   operational (configuration, observability, validation, test-strategy or deployment)
//!   change. The WIT splits some of these into several kinds; [`SignalClass`] groups them back,
//!   and "distinct" means distinct classes, so observability + validation is *one* moderate
//!   signal.
//! - **Exclusions** never count as a signal. Two cancel the signal they contradict:
//!   `tests-without-strategy` cancels `test-strategy`, and an (isolated) `dependency-bump`
//!   cancels `dependency-relationship` (§10 asks for a *connected* one). `generated-only` caps
//!   the result at `optional`: a change made only of generated files gets no automatic card.
//!   Every exclusion lowers the score by [`EXCLUSION_PENALTY`] within its band and the
//!   confidence by [`EXCLUSION_CONFIDENCE_PENALTY`].
//! - **Recommendation.** With `s` distinct strong classes and `m` distinct moderate classes:
//!   `recommend` when `s >= 1` or `m >= 2`; `optional` when `m == 1`; otherwise `skip`.
//! - **Score** (bands match the recommendation, so the score never contradicts it): `skip` 0;
//!   `optional` 0.45 (0.55 when capped from `recommend`); `recommend`
//!   `0.6 + 0.4 × (p − 2) / 9` where `p = 2s + m` (so 0.6 at the threshold, 1.0 with every
//!   class). Exclusion penalties never leave the band.
//! - **Confidence.** Ineligible: 1.0 (a rule, not a judgment). Eligible with nothing counted:
//!   0.7 + 0.05 per exclusion (they explain the skip), at most 0.9. Otherwise
//!   `0.5 + 0.4 × (share of counted signals with evidence refs)`, − 0.1 per cancelled signal,
//!   − 0.05 per exclusion, − 0.1 when the outcome rests on one signal class (removing it would
//!   change the recommendation). Clamped to `0..=1`.
//! - **Estimated minutes** (0 for `skip`): per distinct counted concept, a standard lesson
//!   (difficulty 3 for a concept with a strong signal, 2 otherwise) and two check-ins, the
//!   planner's neutral pace.
//! - **Fingerprint**: [`super::concept_fingerprint`] of every signal's concept, counted or not.
//!
//! Not for: extracting signals (the agent does), or remembering fingerprints (the runtime keeps
//! its per-run suppression set). Lines of code and file counts are not inputs.

use std::collections::BTreeSet;

use super::identity::{concept_fingerprint, normalise};
use super::pacing::{CHECK_MINUTES, lesson_minutes};
use super::types::{EvidenceRef, LearningError, LessonDepth, invalid};

/// Score removed per distinct exclusion, never below the recommendation's band.
pub const EXCLUSION_PENALTY: f64 = 0.05;
/// Confidence removed per distinct exclusion when something was counted.
pub const EXCLUSION_CONFIDENCE_PENALTY: f64 = 0.05;
/// Lowest score of `recommend`.
pub const RECOMMEND_FLOOR: f64 = 0.6;
/// Lowest score of `optional`.
pub const OPTIONAL_FLOOR: f64 = 0.3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SignalKind {
    ExternalContract,
    ArchitectureFlow,
    SecurityBoundary,
    ReliabilityBoundary,
    ConsequentialTradeoff,
    ReusablePattern,
    DependencyRelationship,
    OperationalConfig,
    Observability,
    Validation,
    TestStrategy,
    Deployment,
}

/// One of §10's seven signals; distinctness is counted on these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SignalClass {
    ExternalContract,
    ArchitectureFlow,
    SecurityOrReliabilityBoundary,
    ConsequentialTradeoff,
    ReusablePattern,
    DependencyRelationship,
    OperationalChange,
}

impl SignalClass {
    pub fn is_strong(self) -> bool {
        matches!(
            self,
            SignalClass::ExternalContract
                | SignalClass::ArchitectureFlow
                | SignalClass::SecurityOrReliabilityBoundary
                | SignalClass::ConsequentialTradeoff
        )
    }

    pub fn describe(self) -> &'static str {
        match self {
            SignalClass::ExternalContract => "an external contract or integration",
            SignalClass::ArchitectureFlow => "an architecture or cross-component flow",
            SignalClass::SecurityOrReliabilityBoundary => "a security or reliability boundary",
            SignalClass::ConsequentialTradeoff => "a consequential tradeoff",
            SignalClass::ReusablePattern => "a reusable pattern or lifecycle",
            SignalClass::DependencyRelationship => "a connected dependency relationship",
            SignalClass::OperationalChange => {
                "an operational configuration, observability, validation, test-strategy or deployment change"
            }
        }
    }
}

impl SignalKind {
    pub const ALL: [SignalKind; 12] = [
        SignalKind::ExternalContract,
        SignalKind::ArchitectureFlow,
        SignalKind::SecurityBoundary,
        SignalKind::ReliabilityBoundary,
        SignalKind::ConsequentialTradeoff,
        SignalKind::ReusablePattern,
        SignalKind::DependencyRelationship,
        SignalKind::OperationalConfig,
        SignalKind::Observability,
        SignalKind::Validation,
        SignalKind::TestStrategy,
        SignalKind::Deployment,
    ];

    pub fn class(self) -> SignalClass {
        match self {
            SignalKind::ExternalContract => SignalClass::ExternalContract,
            SignalKind::ArchitectureFlow => SignalClass::ArchitectureFlow,
            SignalKind::SecurityBoundary | SignalKind::ReliabilityBoundary => {
                SignalClass::SecurityOrReliabilityBoundary
            }
            SignalKind::ConsequentialTradeoff => SignalClass::ConsequentialTradeoff,
            SignalKind::ReusablePattern => SignalClass::ReusablePattern,
            SignalKind::DependencyRelationship => SignalClass::DependencyRelationship,
            SignalKind::OperationalConfig
            | SignalKind::Observability
            | SignalKind::Validation
            | SignalKind::TestStrategy
            | SignalKind::Deployment => SignalClass::OperationalChange,
        }
    }

    pub fn is_strong(self) -> bool {
        self.class().is_strong()
    }

    pub fn name(self) -> &'static str {
        match self {
            SignalKind::ExternalContract => "external-contract",
            SignalKind::ArchitectureFlow => "architecture-flow",
            SignalKind::SecurityBoundary => "security-boundary",
            SignalKind::ReliabilityBoundary => "reliability-boundary",
            SignalKind::ConsequentialTradeoff => "consequential-tradeoff",
            SignalKind::ReusablePattern => "reusable-pattern",
            SignalKind::DependencyRelationship => "dependency-relationship",
            SignalKind::OperationalConfig => "operational-config",
            SignalKind::Observability => "observability",
            SignalKind::Validation => "validation",
            SignalKind::TestStrategy => "test-strategy",
            SignalKind::Deployment => "deployment",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExcludedKind {
    Formatting,
    CopyText,
    Comments,
    MechanicalRename,
    GeneratedOnly,
    DependencyBump,
    LocalFix,
    TestsWithoutStrategy,
}

impl ExcludedKind {
    pub const ALL: [ExcludedKind; 8] = [
        ExcludedKind::Formatting,
        ExcludedKind::CopyText,
        ExcludedKind::Comments,
        ExcludedKind::MechanicalRename,
        ExcludedKind::GeneratedOnly,
        ExcludedKind::DependencyBump,
        ExcludedKind::LocalFix,
        ExcludedKind::TestsWithoutStrategy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ExcludedKind::Formatting => "formatting",
            ExcludedKind::CopyText => "copy-text",
            ExcludedKind::Comments => "comments",
            ExcludedKind::MechanicalRename => "mechanical-rename",
            ExcludedKind::GeneratedOnly => "generated-only",
            ExcludedKind::DependencyBump => "dependency-bump",
            ExcludedKind::LocalFix => "local-fix",
            ExcludedKind::TestsWithoutStrategy => "tests-without-strategy",
        }
    }

    /// The signal kind this exclusion contradicts, which is then not counted.
    pub fn cancels(self) -> Option<SignalKind> {
        match self {
            ExcludedKind::TestsWithoutStrategy => Some(SignalKind::TestStrategy),
            ExcludedKind::DependencyBump => Some(SignalKind::DependencyRelationship),
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            ExcludedKind::Formatting => "formatting",
            ExcludedKind::CopyText => "copy or text changes",
            ExcludedKind::Comments => "comments",
            ExcludedKind::MechanicalRename => "mechanical renames",
            ExcludedKind::GeneratedOnly => "generated-only files",
            ExcludedKind::DependencyBump => "an isolated dependency bump",
            ExcludedKind::LocalFix => "a straightforward local fix",
            ExcludedKind::TestsWithoutStrategy => "tests without a transferable strategy",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    pub kind: SignalKind,
    /// Canonical concept identity; must not be empty.
    pub concept: String,
    pub reason: String,
    pub evidence: Vec<EvidenceRef>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpportunityInput {
    pub completed: bool,
    pub inspectable: bool,
    pub signals: Vec<Signal>,
    pub excluded: Vec<ExcludedKind>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recommendation {
    Recommend,
    Optional,
    Skip,
}

impl Recommendation {
    pub fn name(self) -> &'static str {
        match self {
            Recommendation::Recommend => "recommend",
            Recommendation::Optional => "optional",
            Recommendation::Skip => "skip",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Opportunity {
    pub recommendation: Recommendation,
    pub score: f64,
    pub confidence: f64,
    pub estimated_minutes: u32,
    pub matched_strong: Vec<SignalKind>,
    pub matched_moderate: Vec<SignalKind>,
    pub excluded: Vec<ExcludedKind>,
    pub reasons: Vec<String>,
    pub fingerprint: String,
}

/// §10's rule on distinct strong and moderate classes.
pub fn decide(strong: usize, moderate: usize) -> Recommendation {
    if strong >= 1 || moderate >= 2 {
        Recommendation::Recommend
    } else if moderate == 1 {
        Recommendation::Optional
    } else {
        Recommendation::Skip
    }
}

fn evidence_note(evidence: &[EvidenceRef]) -> String {
    match evidence {
        [] => "no evidence ref".to_string(),
        [one] => format!("evidence: {one}"),
        [first, rest @ ..] => format!("evidence: {first} and {} more", rest.len()),
    }
}

/// Score one implementation (see the module doc for the rules). Fails only on a signal with
/// an empty concept.
pub fn score_opportunity(input: &OpportunityInput) -> Result<Opportunity, LearningError> {
    if let Some(i) = input.signals.iter().position(|s| s.concept.trim().is_empty()) {
        return Err(invalid(format!("signal {i} ({}) has an empty concept", input.signals[i].kind.name())));
    }
    let fingerprint = concept_fingerprint(input.signals.iter().map(|s| s.concept.as_str()));
    let excluded: Vec<ExcludedKind> = input.excluded.iter().copied().collect::<BTreeSet<_>>().into_iter().collect();

    if !input.completed || !input.inspectable {
        let mut reasons = Vec::new();
        if !input.completed {
            reasons.push(
                "skip: the implementation is not completed; opportunities are scored only after completion".to_string(),
            );
        }
        if !input.inspectable {
            reasons.push(
                "skip: there is no inspectable task, conversation or changed-file evidence to ground a session"
                    .to_string(),
            );
        }
        return Ok(Opportunity {
            recommendation: Recommendation::Skip,
            score: 0.0,
            confidence: 1.0,
            estimated_minutes: 0,
            matched_strong: Vec::new(),
            matched_moderate: Vec::new(),
            excluded,
            reasons,
            fingerprint,
        });
    }

    let cancelled_kinds: BTreeSet<SignalKind> = excluded.iter().filter_map(|e| e.cancels()).collect();
    let mut reasons = Vec::new();
    let mut counted: Vec<&Signal> = Vec::new();
    let mut cancelled = 0usize;
    for s in &input.signals {
        let concept = s.concept.trim();
        if cancelled_kinds.contains(&s.kind) {
            cancelled += 1;
            let by = excluded.iter().find(|e| e.cancels() == Some(s.kind)).expect("cancelled by an exclusion");
            reasons.push(format!(
                "not counted: {} on `{concept}`, because the change has {}",
                s.kind.name(),
                by.describe()
            ));
            continue;
        }
        let strength = if s.kind.is_strong() { "strong" } else { "moderate" };
        let why = if s.reason.trim().is_empty() { String::new() } else { format!(": {}", s.reason.trim()) };
        reasons.push(format!(
            "{strength} signal {} on `{concept}`{why} ({})",
            s.kind.name(),
            evidence_note(&s.evidence)
        ));
        counted.push(s);
    }

    let strong_classes: BTreeSet<SignalClass> =
        counted.iter().map(|s| s.kind.class()).filter(|c| c.is_strong()).collect();
    let moderate_classes: BTreeSet<SignalClass> =
        counted.iter().map(|s| s.kind.class()).filter(|c| !c.is_strong()).collect();
    let (s, m) = (strong_classes.len(), moderate_classes.len());
    let by_signals = decide(s, m);
    let generated_only = excluded.contains(&ExcludedKind::GeneratedOnly);
    let capped = generated_only && by_signals == Recommendation::Recommend;
    let recommendation = if capped { Recommendation::Optional } else { by_signals };

    for e in &excluded {
        let effect = match e.cancels() {
            Some(k) => format!("never a signal, and {} is not counted", k.name()),
            None if *e == ExcludedKind::GeneratedOnly => "never a signal, and no automatic card".to_string(),
            None => "never a signal".to_string(),
        };
        reasons.push(format!("excluded: {} ({effect})", e.describe()));
    }
    if capped {
        reasons.push(
            "capped at optional: a change made only of generated files gets no automatic card (manual /codecall stays available)"
                .to_string(),
        );
    }

    let classes_text = |set: &BTreeSet<SignalClass>| set.iter().map(|c| c.describe()).collect::<Vec<_>>().join("; ");
    reasons.push(match by_signals {
        Recommendation::Recommend if s >= 1 => {
            format!("{}: {s} strong signal(s) — {}", recommendation.name(), classes_text(&strong_classes))
        }
        Recommendation::Recommend => {
            format!("{}: {m} distinct moderate signals — {}", recommendation.name(), classes_text(&moderate_classes))
        }
        Recommendation::Optional => format!(
            "optional: one moderate signal — {}; a second distinct moderate signal or a strong one would recommend",
            classes_text(&moderate_classes)
        ),
        Recommendation::Skip if excluded.is_empty() && cancelled == 0 => "skip: no qualifying signal".to_string(),
        Recommendation::Skip => "skip: no qualifying signal; the change is only of excluded kinds".to_string(),
    });

    // Score, within the recommendation's band.
    let p = (2 * s + m) as f64;
    let penalty = EXCLUSION_PENALTY * excluded.len() as f64;
    let score = match recommendation {
        Recommendation::Recommend => (RECOMMEND_FLOOR + 0.4 * (p - 2.0) / 9.0 - penalty).max(RECOMMEND_FLOOR),
        Recommendation::Optional => (if capped { 0.55 } else { 0.45 } - penalty).max(OPTIONAL_FLOOR),
        Recommendation::Skip => 0.0,
    }
    .clamp(0.0, 1.0);

    // Confidence.
    let confidence = if counted.is_empty() {
        (0.7 + 0.05 * excluded.len() as f64).min(0.9) - 0.1 * cancelled as f64
    } else {
        let evidenced = counted.iter().filter(|s| !s.evidence.is_empty()).count() as f64 / counted.len() as f64;
        let rests_on_one = (s > 0 && decide(s - 1, m) != by_signals) || (m > 0 && decide(s, m - 1) != by_signals);
        0.5 + 0.4 * evidenced
            - 0.1 * cancelled as f64
            - EXCLUSION_CONFIDENCE_PENALTY * excluded.len() as f64
            - if rests_on_one { 0.1 } else { 0.0 }
    }
    .clamp(0.0, 1.0);

    // Estimated minutes from likely teaching moves.
    let estimated_minutes = if recommendation == Recommendation::Skip {
        0
    } else {
        let mut concepts: std::collections::BTreeMap<String, bool> = std::collections::BTreeMap::new();
        for sig in &counted {
            *concepts.entry(normalise(&sig.concept)).or_default() |= sig.kind.is_strong();
        }
        concepts
            .values()
            .map(|&strong| lesson_minutes(if strong { 3 } else { 2 }, LessonDepth::Standard) + 2 * CHECK_MINUTES)
            .sum()
    };

    let kinds = |strong: bool| -> Vec<SignalKind> {
        counted
            .iter()
            .map(|s| s.kind)
            .filter(|k| k.is_strong() == strong)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    Ok(Opportunity {
        recommendation,
        score,
        confidence,
        estimated_minutes,
        matched_strong: kinds(true),
        matched_moderate: kinds(false),
        excluded,
        reasons,
        fingerprint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(kind: SignalKind, concept: &str) -> Signal {
        Signal {
            kind,
            concept: concept.into(),
            reason: "why".into(),
            evidence: vec![EvidenceRef { path: "src/a.rs".into(), start_line: 1, end_line: 2, ..Default::default() }],
        }
    }

    fn input(signals: Vec<Signal>, excluded: Vec<ExcludedKind>) -> OpportunityInput {
        OpportunityInput { completed: true, inspectable: true, signals, excluded }
    }

    #[test]
    fn classes_group_the_spec_signals() {
        let strong: BTreeSet<_> = SignalKind::ALL.iter().filter(|k| k.is_strong()).map(|k| k.class()).collect();
        let moderate: BTreeSet<_> = SignalKind::ALL.iter().filter(|k| !k.is_strong()).map(|k| k.class()).collect();
        assert_eq!((strong.len(), moderate.len()), (4, 3), "§10 names four strong and three moderate signals");
    }

    #[test]
    fn decide_table() {
        assert_eq!(decide(0, 0), Recommendation::Skip);
        assert_eq!(decide(0, 1), Recommendation::Optional);
        assert_eq!(decide(0, 2), Recommendation::Recommend);
        assert_eq!(decide(1, 0), Recommendation::Recommend);
    }

    #[test]
    fn score_reaches_one_with_every_class() {
        let all = SignalKind::ALL.iter().map(|&k| sig(k, k.name())).collect();
        let o = score_opportunity(&input(all, vec![])).unwrap();
        assert_eq!(o.score, 1.0);
        assert!((o.confidence - 0.9).abs() < 1e-9, "{}", o.confidence);
    }

    #[test]
    fn unevidenced_signals_lower_confidence_not_the_outcome() {
        let mut s = sig(SignalKind::ExternalContract, "stripe webhooks");
        s.evidence.clear();
        let o = score_opportunity(&input(vec![s], vec![])).unwrap();
        assert_eq!(o.recommendation, Recommendation::Recommend);
        assert!(o.confidence < 0.5, "{}", o.confidence);
        assert!(o.reasons[0].contains("no evidence ref"));
    }
}
