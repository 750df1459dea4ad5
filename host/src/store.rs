//! The local store (SPEC §3.2): where it is, its layout, and reading the Dossiers in it.
//!
//! Layout under the root (`DOSSIER_HOME`, else `~/.dossier`):
//! `config.yaml`, `context/{library.md,guide.md}`, `sessions/`, one directory per Dossier
//! named by its slug, and `.cache/` for derived caches (compiled policy components). Dot
//! directories and the reserved names `context` and `sessions` are never Dossiers.
//!
//! Not for: writing Dossiers. Every mutation goes through the single Save path (its own
//! module, with the file-store issue); this module only reads.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::error::{Code, DossierError, Result};

/// Directory names at the store root that are not Dossiers.
pub const RESERVED_NAMES: [&str; 2] = ["context", "sessions"];

#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The store named by `DOSSIER_HOME`, else `~/.dossier`.
    pub fn locate() -> Result<Store> {
        if let Some(dir) = std::env::var_os("DOSSIER_HOME").filter(|v| !v.is_empty()) {
            return Ok(Store::at(PathBuf::from(dir)));
        }
        match std::env::home_dir() {
            Some(home) => Ok(Store::at(home.join(".dossier"))),
            None => {
                Err(DossierError::new(Code::StoreUnavailable, "no home directory found and DOSSIER_HOME is not set")
                    .with_next("set DOSSIER_HOME=/path/to/store"))
            }
        }
    }

    pub fn at(root: PathBuf) -> Store {
        Store { root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.yaml")
    }
    pub fn context_dir(&self) -> PathBuf {
        self.root.join("context")
    }
    pub fn guide_path(&self) -> PathBuf {
        self.context_dir().join("guide.md")
    }
    pub fn library_path(&self) -> PathBuf {
        self.context_dir().join("library.md")
    }
    pub fn sessions_dir(&self) -> PathBuf {
        self.root.join("sessions")
    }
    /// Compiled policy components (derived; safe to remove).
    pub fn policy_cache_dir(&self) -> PathBuf {
        self.root.join(".cache").join("policy")
    }

    pub fn exists(&self) -> bool {
        self.root.is_dir()
    }

    /// Fail with `store_unavailable` unless the store has been initialised.
    pub fn require(&self) -> Result<()> {
        if self.exists() {
            Ok(())
        } else {
            Err(DossierError::new(Code::StoreUnavailable, format!("no Dossier store at {}", self.root.display()))
                .with_next("dossier init"))
        }
    }

    /// Every `<slug>/dossier.md` in the store, sorted by slug (a deterministic order the
    /// priority sort then refines).
    pub fn dossier_files(&self) -> Result<Vec<PathBuf>> {
        let entries = match fs::read_dir(&self.root) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(DossierError::io("list", &self.root, e)),
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                !name.starts_with('.') && !RESERVED_NAMES.contains(&name.as_ref())
            })
            .filter(|e| e.file_type().map(|t| t.is_dir()).unwrap_or(false))
            .map(|e| e.path().join("dossier.md"))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        Ok(files)
    }
}

/// Lifecycle status (SPEC §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Active,
    Waiting,
    Blocked,
    Resolved,
    Archived,
}

impl Status {
    pub const OPEN: [Status; 3] = [Status::Active, Status::Waiting, Status::Blocked];
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Waiting => "waiting",
            Status::Blocked => "blocked",
            Status::Resolved => "resolved",
            Status::Archived => "archived",
        }
    }
}

/// Importance or urgency as written in frontmatter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    High,
    Low,
}

impl From<Level> for crate::policy::Level {
    fn from(l: Level) -> Self {
        match l {
            Level::High => crate::policy::Level::High,
            Level::Low => crate::policy::Level::Low,
        }
    }
}

/// Dossier frontmatter (SPEC §4.1), as read for listing. Timestamps stay strings here and
/// are parsed by [`Frontmatter::times`], so a bad one is reported with its field name.
#[derive(Clone, Debug, Deserialize)]
pub struct Frontmatter {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub created_at: String,
    pub updated_at: String,
    pub last_touched_at: String,
    pub status: Status,
    #[serde(default)]
    pub lead: Option<String>,
    pub next_action: String,
    #[serde(default)]
    pub open_questions: Vec<String>,
    pub importance: Level,
    pub urgency: Level,
    #[serde(default)]
    pub due_date: Option<String>,
    #[serde(default)]
    pub token_target: Option<u64>,
}

/// Parsed times of a Dossier, in milliseconds since the epoch.
#[derive(Clone, Copy, Debug)]
pub struct Times {
    pub updated_at: i64,
    pub last_touched_at: i64,
    pub due_date: Option<i64>,
}

fn millis(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

pub fn parse_timestamp(value: &str) -> Option<i64> {
    OffsetDateTime::parse(value, &time::format_description::well_known::Rfc3339).ok().map(millis)
}

pub fn parse_date(value: &str) -> Option<i64> {
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(value, &fmt).ok().map(|d| millis(d.midnight().assume_utc()))
}

impl Frontmatter {
    pub fn times(&self, file: &Path) -> Result<Times> {
        let bad = |field: &str, value: &str| {
            DossierError::new(
                Code::InvalidFrontmatter,
                format!("{}: `{field}: {value}` is not an RFC 3339 timestamp", file.display()),
            )
        };
        let updated_at = parse_timestamp(&self.updated_at).ok_or_else(|| bad("updated_at", &self.updated_at))?;
        let last_touched_at =
            parse_timestamp(&self.last_touched_at).ok_or_else(|| bad("last_touched_at", &self.last_touched_at))?;
        let due_date = match &self.due_date {
            None => None,
            Some(d) => Some(parse_date(d).ok_or_else(|| {
                DossierError::new(
                    Code::InvalidFrontmatter,
                    format!("{}: `due_date: {d}` is not a date (YYYY-MM-DD)", file.display()),
                )
            })?),
        };
        Ok(Times { updated_at, last_touched_at, due_date })
    }
}

/// Read only the frontmatter block of `file` (the body is never loaded).
pub fn read_frontmatter(file: &Path) -> Result<Frontmatter> {
    let f = fs::File::open(file).map_err(|e| DossierError::io("open", file, e))?;
    let mut reader = BufReader::new(f);
    let mut line = String::new();
    let invalid = |msg: String| DossierError::new(Code::InvalidFrontmatter, msg);
    reader.read_line(&mut line).map_err(|e| DossierError::io("read", file, e))?;
    if line.trim_end() != "---" {
        return Err(invalid(format!("{}:1: expected `---` opening the YAML frontmatter", file.display())));
    }
    let mut yaml = String::new();
    let mut lineno = 1;
    loop {
        line.clear();
        let n = reader.read_line(&mut line).map_err(|e| DossierError::io("read", file, e))?;
        lineno += 1;
        if n == 0 {
            return Err(invalid(format!("{}:{lineno}: frontmatter is not closed by `---`", file.display())));
        }
        if line.trim_end() == "---" {
            break;
        }
        yaml.push_str(&line);
    }
    serde_saphyr::from_str(&yaml).map_err(|e| {
        // Frontmatter starts on line 2 of the file; saphyr reports lines within the block.
        invalid(format!("{}: invalid frontmatter (line numbers count from line 2 of the file): {e}", file.display()))
            .with_details(serde_json::json!({ "file": file }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_and_dates_parse() {
        assert_eq!(parse_timestamp("1970-01-01T00:00:01Z"), Some(1000));
        assert_eq!(parse_timestamp("2026-06-14T15:40:00-07:00"), parse_timestamp("2026-06-14T22:40:00Z"));
        assert_eq!(parse_date("1970-01-02"), Some(86_400_000));
        assert_eq!(parse_date("2026-13-01"), None);
    }
}
