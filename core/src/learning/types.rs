//! The learning policy's shared vocabulary: evidence references, the error, confidence levels,
//! question intents, lesson depths and unit roles — the types every learning submodule and the
//! WIT glue use.
//!
//! What it is for: plain data and its names; [`invalid`] builds the one error.
//!
//! What it is not for: any rule (pace: `pacing`; identities: `identity`; the policies: `opportunity`,
//! `plan`, `next_move`, `item`).

use std::fmt;

/// A stable reference to evidence (`types.wit` `evidence-ref`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EvidenceRef {
    pub path: String,
    pub revision: String,
    pub start_line: u32,
    pub end_line: u32,
    pub content_hash: String,
}

impl fmt::Display for EvidenceRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#L{}-L{}", self.path, self.start_line, self.end_line)?;
        if !self.revision.is_empty() {
            write!(f, "@{}", self.revision)?;
        }
        Ok(())
    }
}

/// A precondition of a documented input was broken (`policy-error::invalid-input`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearningError {
    InvalidInput(String),
}

impl fmt::Display for LearningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LearningError::InvalidInput(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for LearningError {}

pub(super) fn invalid(message: impl Into<String>) -> LearningError {
    LearningError::InvalidInput(message.into())
}

/// The developer's declared confidence for a unit (§11). `Neutral` is the "use a default" skip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ConfidenceLevel {
    Expert,
    Comfortable,
    HeardOfIt,
    NeverLearned,
    #[default]
    Neutral,
}

/// The kind of reasoning a question checks. `Scenario` is §11's real-world scenario mapped back
/// to the mechanism; the other four are its technical checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum QuestionIntent {
    Scenario,
    CausalReasoning,
    Tradeoff,
    Debugging,
    SystemDesign,
}

impl QuestionIntent {
    /// The technical intents, in rotation order.
    pub const TECHNICAL: [QuestionIntent; 4] = [
        QuestionIntent::CausalReasoning,
        QuestionIntent::Tradeoff,
        QuestionIntent::Debugging,
        QuestionIntent::SystemDesign,
    ];

    pub fn name(self) -> &'static str {
        match self {
            QuestionIntent::Scenario => "scenario",
            QuestionIntent::CausalReasoning => "causal-reasoning",
            QuestionIntent::Tradeoff => "tradeoff",
            QuestionIntent::Debugging => "debugging",
            QuestionIntent::SystemDesign => "system-design",
        }
    }
}

/// How deep a lesson goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LessonDepth {
    Brief,
    Standard,
    Thorough,
}

/// The role of a unit in a learning plan: part of the session objective, or a prerequisite the
/// objective depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitRole {
    Objective,
    Prerequisite,
}
