//! Command-line values of the store's enums: `clap` parsers for [`Status`] and
//! [`ArtifactType`], whose possible values (shown in help and offered by shell completion) are
//! the kebab-case names a derived `ValueEnum` gave them, so the store needs no `clap`.
//!
//! Not for: the enums themselves (`dossier_store::model`) or their serialised names (serde's
//! snake_case in files and JSON).

use clap::builder::{PossibleValuesParser, TypedValueParser};
use dossier_store::model::{ArtifactType, Status};

const STATUSES: [(&str, Status); 5] = [
    ("active", Status::Active),
    ("waiting", Status::Waiting),
    ("blocked", Status::Blocked),
    ("resolved", Status::Resolved),
    ("archived", Status::Archived),
];

const ARTIFACT_TYPES: [(&str, ArtifactType); 6] = [
    ("transcript", ArtifactType::Transcript),
    ("source-snapshot", ArtifactType::SourceSnapshot),
    ("file-snapshot", ArtifactType::FileSnapshot),
    ("link", ArtifactType::Link),
    ("query", ArtifactType::Query),
    ("decision-evidence", ArtifactType::DecisionEvidence),
];

fn parser<T: Copy + Send + Sync + 'static>(table: &'static [(&'static str, T)]) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(table.iter().map(|(name, _)| *name)).map(move |s: String| {
        table.iter().find(|(name, _)| *name == s).map(|(_, v)| *v).expect("clap admitted only a listed value")
    })
}

/// `--status`, `dossier status <TARGET> <STATUS>`.
pub fn status() -> impl TypedValueParser<Value = Status> {
    parser(&STATUSES)
}

/// `--artifact-type`.
pub fn artifact_type() -> impl TypedValueParser<Value = ArtifactType> {
    parser(&ARTIFACT_TYPES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_a_command_line_name() {
        for s in Status::ALL {
            assert!(STATUSES.iter().any(|(name, v)| *v == s && *name == s.as_str()), "{s:?}");
        }
        assert_eq!(ARTIFACT_TYPES.len(), 6);
    }
}
