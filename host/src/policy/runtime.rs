//! Loading and calling policy components: [`Policies`], one per process, with the export and
//! version checks, the compile cache, per-call limits and output validation.
//!
//! Not for: deciding anything, or the store's view of the policy (`super::adapter`).

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use wasmtime::component::{Component, InstancePre, Linker};
use wasmtime::{Engine, ResourceLimiter, Store, Trap};

use super::cache::{CacheOutcome, CompileCache};
use super::deadline;

use super::bindings::{dossier, exports};

pub use dossier::policy::types::{Finding, Severity};
pub use dossier::policy::types::{Level, LifecycleStatus, PolicyError as ComponentRefusal};
pub use exports::dossier::policy::distill::ArtifactInfo;
/// The `learning` interface's types (codecall; converted to `dossier_core::learning`'s in
/// `crate::policy::learning`).
pub use exports::dossier::policy::learning as wit_learning;
pub use exports::dossier::policy::merge::{
    ChangedClaim, Conflict, ConflictKind, ConflictSide, FlaggedPair, MergePlan, MergeSide, Resolution, ResolutionChoice,
};
pub use exports::dossier::policy::priority::{PriorityInput, Ranked, Weights};
pub use exports::dossier::policy::ranking::{Candidate, Confidence, RankingOptions, Suggestion};
pub use exports::dossier::policy::redaction::{Hit as RedactionHit, Redaction, RedactionOptions};
use exports::dossier::policy::{distill, learning, merge, priority, ranking, redaction};

/// The typed exports of one interface, bound from an instance.
trait Bind: Sized {
    fn bind(
        store: &mut Store<CallState>,
        instance: &wasmtime::component::Instance,
        pre: &InstancePre<CallState>,
    ) -> wasmtime::Result<Self>;
}

macro_rules! bind_interface {
    ($($iface:ident),*) => {$(
        impl Bind for $iface::Guest {
            fn bind(
                store: &mut Store<CallState>,
                instance: &wasmtime::component::Instance,
                pre: &InstancePre<CallState>,
            ) -> wasmtime::Result<Self> {
                $iface::GuestIndices::new(pre)?.load(store, instance)
            }
        }
    )*};
}

bind_interface!(priority, ranking, merge, distill, learning, redaction);

/// The default policy component, built from `core/` by `build.rs`.
pub static EMBEDDED_COMPONENT: &[u8] = include_bytes!(env!("DOSSIER_POLICY_WASM"));

pub use dossier_store::policy::{Interface, PACKAGE_VERSION};
const PACKAGE_MAJOR: u64 = 2;

/// Where an interface's component comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    Embedded,
    File(PathBuf),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Embedded => write!(f, "embedded default policy (dossier {})", env!("CARGO_PKG_VERSION")),
            Source::File(p) => write!(f, "{}", p.display()),
        }
    }
}

static POOLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Make every `Policies` created from now on in this process use pooled instances with
/// resident memory (for long-running processes: the MCP server, benchmarks of it).
pub fn use_pooled_instances() {
    POOLED.store(true, std::sync::atomic::Ordering::Relaxed);
}

fn pooling(limits: &Limits) -> wasmtime::PoolingAllocationConfig {
    let mut pool = wasmtime::PoolingAllocationConfig::new();
    let memory_cap = limits.memory_bytes.max(REDACTION_MEMORY_MAX).next_multiple_of(WASM_PAGE);
    pool.total_component_instances(POOL_SLOTS)
        .total_core_instances(POOL_SLOTS * 8)
        .total_memories(POOL_SLOTS * 2)
        .total_tables(POOL_SLOTS * 8)
        .max_memory_size(memory_cap)
        .linear_memory_keep_resident(KEEP_RESIDENT.min(memory_cap));
    pool
}

/// Concurrent policy calls per process; a call beyond this waits for no one and fails
/// with an engine error (the MCP server and the CLI make a handful at most).
const POOL_SLOTS: u32 = 16;
/// Bytes of linear memory a pooled slot keeps resident between calls.
const KEEP_RESIDENT: usize = 16 << 20;
const WASM_PAGE: usize = 64 << 10;

/// The redaction interface's memory cap grows with its input: the input, the redacted copy
/// and the policy's working set (`policy.limits.memory_mib` is the floor): a 24 MB
/// transcript gets 128 MB. Never beyond this (inputs up to ~120 MB).
const REDACTION_MEMORY_MAX: usize = 512 << 20;

/// The redaction interface's one function, as errors name it.
const REDACT: &str = "redact";

/// The memory cap of one `redaction.redact` call on `len` bytes of text.
fn redaction_memory(limits: &Limits, len: usize) -> usize {
    limits
        .memory_bytes
        .max(len.saturating_mul(4).saturating_add(32 << 20))
        .min(REDACTION_MEMORY_MAX.max(limits.memory_bytes))
}

pub use dossier_store::policy::Limits;

/// Why a policy could not be loaded or did not produce a decision. Every variant names the
/// component; `Display` says what happened and what to do next.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum PolicyError {
    #[error(
        "{component} for `{interface}` is not in the compile cache and this path does not compile; run `dossier init` (or any dossier command) once to compile it"
    )]
    NotCompiled { interface: Interface, component: Source },
    #[error(
        "policy component for `{interface}` not found: {path} does not exist; fix `policy.{interface}` in config.yaml or remove it to use the embedded default"
    )]
    MissingFile { interface: Interface, path: PathBuf },
    #[error("policy component for `{interface}` could not be read: {path}: {reason}")]
    Unreadable { interface: Interface, path: PathBuf, reason: String },
    #[error(
        "{component} is not a valid WebAssembly component ({reason}); build it for wasm32-wasip2 as a component (see docs/policy-components.md)"
    )]
    NotAComponent { interface: Interface, component: Source, reason: String },
    #[error("{component} does not implement `{interface}`: it has no export `{expected}` (exports: {found}); build it for the world `{world}`", world = interface.world())]
    WrongWorld { interface: Interface, component: Source, expected: String, found: String },
    #[error(
        "{component} exports `{interface}` at incompatible version {found}; this dossier speaks dossier:policy@{required}, rebuild the component against wit/ from this release"
    )]
    IncompatibleVersion { interface: Interface, component: Source, found: String, required: String },
    #[error(
        "{component} exports `{interface}` but does not match dossier:policy@{version}: {reason}; rebuild it against wit/ from this release",
        version = PACKAGE_VERSION
    )]
    ContractMismatch { interface: Interface, component: Source, reason: String },
    #[error("{component} trapped in `{interface}.{function}`: {reason}")]
    Trapped { interface: Interface, component: Source, function: &'static str, reason: String },
    #[error(
        "{component} did not finish `{interface}.{function}` within {time_ms} ms; the component loops or is too slow for its input; raise `policy.limits.time_ms` in config.yaml only if the input is genuinely large"
    )]
    TimedOut { interface: Interface, component: Source, function: &'static str, time_ms: u64 },
    #[error(
        "{component} exceeded its memory limit in `{interface}.{function}` (tried to grow to {requested} bytes, limit {limit}); raise `policy.limits.memory_mib` in config.yaml only if the input is genuinely large"
    )]
    OutOfMemory { interface: Interface, component: Source, function: &'static str, requested: usize, limit: usize },
    #[error("{component} refused `{interface}.{function}`: {reason}")]
    Refused { interface: Interface, component: Source, function: &'static str, reason: String },
    #[error("{component} returned an invalid result from `{interface}.{function}`: {reason}")]
    InvalidOutput { interface: Interface, component: Source, function: &'static str, reason: String },
    #[error("policy engine error: {0}")]
    Engine(String),
}

impl From<PolicyError> for dossier_store::DossierError {
    fn from(e: PolicyError) -> Self {
        dossier_store::DossierError::new(dossier_store::Code::PolicyUnavailable, e.to_string()).with_next(
            dossier_store::next::Next::per(
                "dossier doctor",
                "ask the user to run `dossier doctor` in a terminal: a policy component failed",
            ),
        )
    }
}

/// Store data for one call: the memory limiter, which remembers a denied growth so the
/// resulting trap is reported as memory exhaustion rather than a generic trap.
struct CallState {
    max_memory: usize,
    denied_growth: Option<usize>,
}

impl ResourceLimiter for CallState {
    fn memory_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.max_memory {
            self.denied_growth = Some(desired);
            return Err(wasmtime::format_err!("memory limit of {} bytes exceeded", self.max_memory));
        }
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(desired <= 1_000_000)
    }
}

/// A compiled component ready to instantiate.
struct Loaded {
    pre: InstancePre<CallState>,
    cache: CacheOutcome,
}

/// What `check` reports about one interface (for `doctor`).
#[derive(Clone, Debug)]
pub struct LoadReport {
    pub interface: Interface,
    pub source: Source,
    pub cache: CacheOutcome,
}

/// The policy components of one process: which source serves each interface, the engine,
/// and every component loaded so far (each at most once).
pub struct Policies {
    /// Runs the embedded default component: part of this binary, built and tested with it,
    /// so it gets no interruption instrumentation (epoch checks cost it ~10-20%).
    engine: Engine,
    /// Runs alternate components from config.yaml (DESIGN §1: under time and memory
    /// limits): the same configuration plus epoch interruption. Created on first use.
    bounded: std::sync::OnceLock<Result<Engine, PolicyError>>,
    pooled: bool,
    cache: CompileCache,
    sources: HashMap<Interface, Source>,
    limits: Limits,
    loaded: Mutex<HashMap<Source, Arc<Loaded>>>,
    /// False on latency-bound paths (hooks): a component missing from the compile cache is
    /// an error there instead of a compile.
    compile_allowed: std::sync::atomic::AtomicBool,
    /// Advances `engine`'s epoch while a call runs, so deadlines fire.
    ticker: deadline::Ticker,
}

impl Policies {
    /// `overrides` names alternate components per interface; the rest use the embedded one.
    pub fn new(
        cache: CompileCache,
        overrides: &HashMap<Interface, PathBuf>,
        limits: Limits,
    ) -> Result<Self, PolicyError> {
        let pooled = POOLED.load(std::sync::atomic::Ordering::Relaxed);
        let engine = new_engine(&limits, pooled, false)?;
        let sources = Interface::ALL
            .iter()
            .map(|&i| (i, overrides.get(&i).map_or(Source::Embedded, |p| Source::File(p.clone()))))
            .collect();
        Ok(Policies {
            engine,
            bounded: std::sync::OnceLock::new(),
            pooled,
            cache,
            sources,
            limits,
            loaded: Mutex::new(HashMap::new()),
            compile_allowed: std::sync::atomic::AtomicBool::new(true),
            ticker: deadline::Ticker::new(),
        })
    }

    pub fn source(&self, interface: Interface) -> &Source {
        &self.sources[&interface]
    }

    /// From now on, load components only from the compile cache (see `compile_allowed`).
    pub fn forbid_compile(&self) {
        self.compile_allowed.store(false, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The engine that runs `source`: see the fields `engine` and `bounded`.
    fn engine_for(&self, source: &Source) -> Result<&Engine, PolicyError> {
        match source {
            Source::Embedded => Ok(&self.engine),
            Source::File(_) => {
                self.bounded.get_or_init(|| new_engine(&self.limits, self.pooled, true)).as_ref().map_err(Clone::clone)
            }
        }
    }

    /// Load the component serving `interface` and check it exports that interface.
    /// Load the component serving `interface`, instantiate it, and bind the interface's
    /// functions with their types: everything short of calling one.
    pub fn check(&self, interface: Interface) -> Result<LoadReport, PolicyError> {
        let loaded = self.load(interface)?;
        match interface {
            Interface::Priority => self.call::<priority::Guest, _>(interface, "load", |_, _| Ok(()))?,
            Interface::Ranking => self.call::<ranking::Guest, _>(interface, "load", |_, _| Ok(()))?,
            Interface::Merge => self.call::<merge::Guest, _>(interface, "load", |_, _| Ok(()))?,
            Interface::Distill => self.call::<distill::Guest, _>(interface, "load", |_, _| Ok(()))?,
            Interface::Learning => self.call::<learning::Guest, _>(interface, "load", |_, _| Ok(()))?,
            Interface::Redaction => self.call::<redaction::Guest, _>(interface, "load", |_, _| Ok(()))?,
        }
        Ok(LoadReport { interface, source: self.source(interface).clone(), cache: loaded.cache.clone() })
    }

    fn load(&self, interface: Interface) -> Result<Arc<Loaded>, PolicyError> {
        let source = self.source(interface).clone();
        let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        let entry = match loaded.get(&source) {
            Some(l) => l.clone(),
            None => {
                let l = Arc::new(self.compile(interface, &source)?);
                loaded.insert(source.clone(), l.clone());
                l
            }
        };
        drop(loaded);
        check_exports(self.engine_for(&source)?, entry.pre.component(), interface, &source)?;
        Ok(entry)
    }

    fn compile(&self, interface: Interface, source: &Source) -> Result<Loaded, PolicyError> {
        let owned;
        let bytes: &[u8] = match source {
            Source::Embedded => EMBEDDED_COMPONENT,
            Source::File(path) => {
                owned = std::fs::read(path).map_err(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => PolicyError::MissingFile { interface, path: path.clone() },
                    _ => PolicyError::Unreadable { interface, path: path.clone(), reason: e.to_string() },
                })?;
                &owned
            }
        };
        let not_a_component =
            |reason: String| PolicyError::NotAComponent { interface, component: source.clone(), reason };
        if !wasmparser_is_component(bytes) {
            return Err(not_a_component("not a component binary (core module or other file)".into()));
        }
        let engine = self.engine_for(source)?;
        let (component, cache) = if self.compile_allowed.load(std::sync::atomic::Ordering::Relaxed) {
            self.cache.load(engine, bytes).map_err(|e| not_a_component(e.to_string()))?
        } else {
            let c = self.cache.load_cached(engine, bytes).map_err(|e| not_a_component(e.to_string()))?;
            (c.ok_or(PolicyError::NotCompiled { interface, component: source.clone() })?, CacheOutcome::Hit)
        };
        let mut linker = Linker::<CallState>::new(engine);
        // Grant nothing: every import (wasi:cli, wasi:io, ...) traps if called.
        linker.define_unknown_imports_as_traps(&component).map_err(|e| PolicyError::Engine(e.to_string()))?;
        let pre = linker.instantiate_pre(&component).map_err(|e| not_a_component(e.to_string()))?;
        Ok(Loaded { pre, cache })
    }

    /// Run `run` against a fresh instance of the component serving `interface`, with the
    /// interface's typed exports bound (`G`). Binding failures are contract mismatches;
    /// failures while running are traps, timeouts or memory exhaustion.
    fn call<G: Bind, R>(
        &self,
        interface: Interface,
        function: &'static str,
        run: impl FnOnce(&mut Store<CallState>, &G) -> wasmtime::Result<R>,
    ) -> Result<R, PolicyError> {
        self.call_capped(interface, function, self.limits.memory_bytes, run)
    }

    /// `call` with a memory cap of `max_memory` bytes.
    fn call_capped<G: Bind, R>(
        &self,
        interface: Interface,
        function: &'static str,
        max_memory: usize,
        run: impl FnOnce(&mut Store<CallState>, &G) -> wasmtime::Result<R>,
    ) -> Result<R, PolicyError> {
        let loaded = self.load(interface)?;
        let source = self.source(interface);
        let engine = self.engine_for(source)?;
        let mut store = Store::new(engine, CallState { max_memory, denied_growth: None });
        store.limiter(|s| s as &mut dyn ResourceLimiter);
        // Alternate components run under the wall-clock deadline; the embedded one has no
        // epoch checks compiled in (see `Policies::engine`).
        let _running = matches!(source, Source::File(_)).then(|| {
            store.set_epoch_deadline(deadline::ticks(self.limits.time_ms));
            self.ticker.enter(engine)
        });
        let instance =
            loaded.pre.instantiate(&mut store).map_err(|e| self.failure(&store, e, interface, "instantiate"))?;
        let guest = G::bind(&mut store, &instance, &loaded.pre).map_err(|e| PolicyError::ContractMismatch {
            interface,
            component: self.source(interface).clone(),
            reason: e.to_string(),
        })?;
        run(&mut store, &guest).map_err(|e| self.failure(&store, e, interface, function))
    }

    /// Classify a failure of a running instance.
    fn failure(
        &self,
        store: &Store<CallState>,
        e: wasmtime::Error,
        interface: Interface,
        function: &'static str,
    ) -> PolicyError {
        let component = self.source(interface).clone();
        if let Some(requested) = store.data().denied_growth {
            return PolicyError::OutOfMemory {
                interface,
                component,
                function,
                requested,
                limit: store.data().max_memory,
            };
        }
        match e.downcast_ref::<Trap>() {
            Some(Trap::Interrupt) => {
                PolicyError::TimedOut { interface, component, function, time_ms: self.limits.time_ms }
            }
            Some(trap) => PolicyError::Trapped { interface, component, function, reason: trap.to_string() },
            None => PolicyError::Trapped { interface, component, function, reason: describe_failure(&e) },
        }
    }

    fn refused(&self, interface: Interface, function: &'static str, refusal: ComponentRefusal) -> PolicyError {
        let reason = match refusal {
            ComponentRefusal::NotImplemented(m) => format!("not implemented: {m}"),
            ComponentRefusal::InvalidInput(m) => format!("invalid input: {m}"),
        };
        PolicyError::Refused { interface, component: self.source(interface).clone(), function, reason }
    }

    /// Score one Dossier (`priority.score`).
    pub fn priority_score(&self, item: PriorityInput, now: i64, weights: Weights) -> Result<u8, PolicyError> {
        let out = self.call(Interface::Priority, "score", |store, guest: &priority::Guest| {
            guest.call_score(store, item, now, weights)
        })?;
        let score = out.map_err(|r| self.refused(Interface::Priority, "score", r))?;
        if !(1..=4).contains(&score) {
            return Err(self.invalid(Interface::Priority, "score", format!("score {score} is outside 1..=4")));
        }
        Ok(score)
    }

    /// Score and order Dossiers (`priority.sort`). The result is checked to be a
    /// permutation of the input indices with scores in 1..=4.
    pub fn priority_sort(
        &self,
        items: &[PriorityInput],
        now: i64,
        weights: Weights,
    ) -> Result<Vec<Ranked>, PolicyError> {
        let out = self.call(Interface::Priority, "sort", |store, guest: &priority::Guest| {
            guest.call_sort(store, items, now, weights)
        })?;
        let ranked = out.map_err(|r| self.refused(Interface::Priority, "sort", r))?;
        if ranked.len() != items.len() {
            return Err(self.invalid(
                Interface::Priority,
                "sort",
                format!("{} entries for {} items", ranked.len(), items.len()),
            ));
        }
        let mut seen = vec![false; items.len()];
        for r in &ranked {
            let slot = seen.get_mut(r.index as usize);
            match slot {
                Some(s) if !*s => *s = true,
                _ => {
                    return Err(self.invalid(
                        Interface::Priority,
                        "sort",
                        format!("index {} repeated or out of range", r.index),
                    ));
                }
            }
            if !(1..=4).contains(&r.score) {
                return Err(self.invalid(Interface::Priority, "sort", format!("score {} is outside 1..=4", r.score)));
            }
        }
        Ok(ranked)
    }

    /// Rank candidates for promote/link (`ranking.rank`). The result is checked: indices
    /// in range and unique, at most `options.limit` entries.
    pub fn rank(
        &self,
        query: &str,
        candidates: &[Candidate],
        options: RankingOptions,
    ) -> Result<Vec<Suggestion>, PolicyError> {
        let out = self.call(Interface::Ranking, "rank", |store, guest: &ranking::Guest| {
            guest.call_rank(store, query, candidates, options)
        })?;
        let suggestions = out.map_err(|r| self.refused(Interface::Ranking, "rank", r))?;
        if suggestions.len() > options.limit as usize {
            return Err(self.invalid(
                Interface::Ranking,
                "rank",
                format!("{} suggestions for a limit of {}", suggestions.len(), options.limit),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for s in &suggestions {
            if s.index as usize >= candidates.len() || !seen.insert(s.index) {
                return Err(self.invalid(
                    Interface::Ranking,
                    "rank",
                    format!("index {} repeated or out of range", s.index),
                ));
            }
            if !s.score.is_finite() {
                return Err(self.invalid(Interface::Ranking, "rank", "a score is not a finite number".into()));
            }
        }
        Ok(suggestions)
    }

    /// Validate a Distilled State (`distill.validate`): findings with lines, for warnings.
    /// The result is checked: every finding's line is within the document (or 0).
    pub fn distill_validate(&self, document: &str, artifacts: &[ArtifactInfo]) -> Result<Vec<Finding>, PolicyError> {
        let out = self.call(Interface::Distill, "validate", |store, guest: &distill::Guest| {
            guest.call_validate(store, document, artifacts)
        })?;
        let findings = out.map_err(|r| self.refused(Interface::Distill, "validate", r))?;
        let lines = document.lines().count() as u32;
        if let Some(f) = findings.iter().find(|f| f.line > lines) {
            return Err(self.invalid(
                Interface::Distill,
                "validate",
                format!("finding `{}` on line {} of a {lines}-line document", f.code, f.line),
            ));
        }
        Ok(findings)
    }

    /// Merge `source` into `target` (`merge.merge`): the converged state and the conflicts
    /// `resolutions` did not cover; `flagged` pairs of changed claims become conflicts. The
    /// result is checked: conflict ids and changed claim ids are non-empty and unique, and no
    /// conflict is one the caller resolved.
    pub fn merge(
        &self,
        source: &MergeSide,
        target: &MergeSide,
        resolutions: &[Resolution],
        flagged: &[FlaggedPair],
    ) -> Result<MergePlan, PolicyError> {
        let out = self.call(Interface::Merge, "merge", |store, guest: &merge::Guest| {
            guest.call_merge(store, source, target, resolutions, flagged)
        })?;
        let plan = out.map_err(|r| self.refused(Interface::Merge, "merge", r))?;
        let mut seen = std::collections::HashSet::new();
        for c in &plan.unresolved {
            if c.id.is_empty() || !seen.insert(c.id.as_str()) {
                return Err(self.invalid(
                    Interface::Merge,
                    "merge",
                    format!("conflict id `{}` is empty or repeated", c.id),
                ));
            }
            if resolutions.iter().any(|r| r.conflict_id == c.id) {
                return Err(self.invalid(
                    Interface::Merge,
                    "merge",
                    format!("conflict `{}` was resolved but returned unresolved", c.id),
                ));
            }
        }
        let mut claims = std::collections::HashSet::new();
        for c in plan.changed_target.iter().chain(&plan.changed_source) {
            if c.id.is_empty() || !claims.insert(c.id.as_str()) {
                return Err(self.invalid(
                    Interface::Merge,
                    "merge",
                    format!("changed claim id `{}` is empty or repeated", c.id),
                ));
            }
        }
        Ok(plan)
    }

    /// Score an implementation's learning opportunity (`learning.score-opportunity`). Checked:
    /// score and confidence are finite and in 0..=1, the score is in its recommendation's band
    /// (recommend 0.6..=1, optional 0.3..<0.6, skip 0), and the fingerprint is `fp-` + 16 hex digits.
    pub fn learning_score_opportunity(
        &self,
        input: &learning::OpportunityInput,
    ) -> Result<learning::Opportunity, PolicyError> {
        const F: &str = "score-opportunity";
        let out = self.call(Interface::Learning, F, |store, guest: &learning::Guest| {
            guest.call_score_opportunity(store, input)
        })?;
        let o = out.map_err(|r| self.refused(Interface::Learning, F, r))?;
        let bad = |reason: String| Err(self.invalid(Interface::Learning, F, reason));
        for (name, v) in [("score", o.score), ("confidence", o.confidence)] {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return bad(format!("{name} {v} is outside 0..=1"));
            }
        }
        let in_band = match o.recommendation {
            learning::Recommendation::Recommend => o.score >= 0.6,
            learning::Recommendation::Optional => (0.3..0.6).contains(&o.score),
            learning::Recommendation::Skip => o.score == 0.0,
        };
        if !in_band {
            return bad(format!("score {} is outside the band of `{:?}`", o.score, o.recommendation));
        }
        let hex = o.fingerprint.strip_prefix("fp-").unwrap_or_default();
        if hex.len() != 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return bad(format!("fingerprint `{}` is not `fp-` and 16 hex digits", o.fingerprint));
        }
        Ok(o)
    }

    /// Plan a learning session from concepts (`learning.plan`). Checked: unit ids are non-empty
    /// and unique; every unit names at least one concept, each an input concept in at most one
    /// unit; prerequisites, cycles and alternatives name units of the plan; omissions name input
    /// concepts; difficulties are 1..=5 and values finite.
    pub fn learning_plan(
        &self,
        concepts: &[learning::Concept],
        budget_minutes: u32,
    ) -> Result<learning::LearningPlan, PolicyError> {
        const F: &str = "plan";
        let out = self.call(Interface::Learning, F, |store, guest: &learning::Guest| {
            guest.call_plan(store, concepts, budget_minutes)
        })?;
        let plan = out.map_err(|r| self.refused(Interface::Learning, F, r))?;
        let bad = |reason: String| Err(self.invalid(Interface::Learning, F, reason));
        let known: std::collections::HashSet<&str> = concepts.iter().map(|c| c.id.as_str()).collect();
        let mut units = std::collections::HashSet::new();
        for u in &plan.units {
            if u.id.is_empty() || !units.insert(u.id.as_str()) {
                return bad(format!("unit id `{}` is empty or repeated", u.id));
            }
        }
        let mut placed = std::collections::HashSet::new();
        for u in &plan.units {
            if u.concept_ids.is_empty() {
                return bad(format!("unit `{}` names no concept", u.id));
            }
            if let Some(c) = u.concept_ids.iter().find(|c| !known.contains(c.as_str()) || !placed.insert(c.as_str())) {
                return bad(format!(
                    "unit `{}` names concept `{c}`, which is not an input concept or is in two units",
                    u.id
                ));
            }
            if let Some(p) = u.prerequisites.iter().chain(&u.alternatives).find(|p| !units.contains(p.as_str())) {
                return bad(format!("unit `{}` refers to `{p}`, which is not a unit of the plan", u.id));
            }
            if !(1..=5).contains(&u.difficulty) || !u.value.is_finite() {
                return bad(format!(
                    "unit `{}` has difficulty {} or value {} out of range",
                    u.id, u.difficulty, u.value
                ));
            }
        }
        if let Some(id) = plan.cycles.iter().flatten().find(|id| !units.contains(id.as_str())) {
            return bad(format!("a cycle names `{id}`, which is not a unit of the plan"));
        }
        if let Some(o) = plan.omitted.iter().find(|o| !known.contains(o.concept_id.as_str())) {
            return bad(format!("omission of `{}`, which is not an input concept", o.concept_id));
        }
        Ok(plan)
    }

    /// The next learning move (`learning.next-move`). Checked: the move names a unit of the
    /// plan, questions are at difficulty 1..=5, and a finish lists only units of the plan.
    pub fn learning_next_move(&self, state: &learning::LearnerState) -> Result<learning::LearningMove, PolicyError> {
        const F: &str = "next-move";
        let out =
            self.call(Interface::Learning, F, |store, guest: &learning::Guest| guest.call_next_move(store, state))?;
        let mv = out.map_err(|r| self.refused(Interface::Learning, F, r))?;
        let units: std::collections::HashSet<&str> = state.plan.units.iter().map(|u| u.id.as_str()).collect();
        let (named, question): (Vec<&String>, Option<&learning::QuestionRequest>) = match &mv {
            learning::LearningMove::Teach(t) => (vec![&t.unit_id], None),
            learning::LearningMove::Ask(q) | learning::LearningMove::Deepen(q) | learning::LearningMove::Retry(q) => {
                (vec![&q.unit_id], Some(q))
            }
            learning::LearningMove::Reinforce(r) => (vec![&r.unit_id, &r.question.unit_id], Some(&r.question)),
            learning::LearningMove::Finish(e) => (e.evidenced.iter().chain(&e.weak).collect(), None),
        };
        if let Some(id) = named.iter().find(|id| !units.contains(id.as_str())) {
            return Err(self.invalid(
                Interface::Learning,
                F,
                format!("the move names `{id}`, which is not a unit of the plan"),
            ));
        }
        if let Some(q) = question.filter(|q| !(1..=5).contains(&q.difficulty)) {
            return Err(self.invalid(
                Interface::Learning,
                F,
                format!("question difficulty {} is outside 1..=5", q.difficulty),
            ));
        }
        Ok(mv)
    }

    /// Item-quality findings for one MCQ (`learning.check-item`). Checked: every finding has a code.
    pub fn learning_check_item(&self, item: &learning::McqItem) -> Result<Vec<Finding>, PolicyError> {
        const F: &str = "check-item";
        let out =
            self.call(Interface::Learning, F, |store, guest: &learning::Guest| guest.call_check_item(store, item))?;
        let findings = out.map_err(|r| self.refused(Interface::Learning, F, r))?;
        if findings.iter().any(|f| f.code.trim().is_empty()) {
            return Err(self.invalid(Interface::Learning, F, "a finding has an empty code".into()));
        }
        Ok(findings)
    }

    /// Display order of a question's choices (`learning.shuffle-choices`). Checked: a
    /// permutation of the choice indices.
    pub fn learning_shuffle_choices(
        &self,
        question_id: &str,
        choices: &[learning::Choice],
        correct_choice_id: &str,
        previous_positions: &[u32],
    ) -> Result<Vec<u32>, PolicyError> {
        const F: &str = "shuffle-choices";
        let out = self.call(Interface::Learning, F, |store, guest: &learning::Guest| {
            guest.call_shuffle_choices(store, question_id, choices, correct_choice_id, previous_positions)
        })?;
        let order = out.map_err(|r| self.refused(Interface::Learning, F, r))?;
        let mut seen = vec![false; choices.len()];
        if order.len() != choices.len() {
            return Err(self.invalid(
                Interface::Learning,
                F,
                format!("{} positions for {} choices", order.len(), choices.len()),
            ));
        }
        for &i in &order {
            match seen.get_mut(i as usize) {
                Some(s) if !*s => *s = true,
                _ => {
                    return Err(self.invalid(Interface::Learning, F, format!("index {i} repeated or out of range")));
                }
            }
        }
        Ok(order)
    }

    /// Find and replace the secrets in `text` (`redaction.redact`). The memory cap grows with
    /// the input (`redaction_memory`). Checked: every hit has a snake_case kind, lines with
    /// `1 <= first-line <= last-line <=` the input's line count and a marker naming its kind;
    /// a redacted text has exactly as many newlines as the input.
    pub fn redact(&self, text: &str, options: &RedactionOptions) -> Result<Redaction, PolicyError> {
        let cap = redaction_memory(&self.limits, text.len());
        let out = self.call_capped(Interface::Redaction, REDACT, cap, |store, guest: &redaction::Guest| {
            guest.call_redact(store, text, options)
        })?;
        self.checked_redaction(text, out)
    }

    /// [`Self::redact`] for each of `texts`, in order, through one instance of the component:
    /// a scan of thousands of stored files (doctor, `sync init`) pays the instantiation and the
    /// rules' first-use set-up once, not once per file. Each call is checked like `redact`'s and
    /// has its own deadline; the memory cap is that of all the texts together (the instance's
    /// allocator keeps what earlier calls grew), so callers bound a batch's total size.
    pub fn redact_many(&self, texts: &[&str], options: &RedactionOptions) -> Result<Vec<Redaction>, PolicyError> {
        let total = texts.iter().map(|t| t.len()).sum();
        let cap = redaction_memory(&self.limits, total);
        let bounded = matches!(self.source(Interface::Redaction), Source::File(_));
        let ticks = deadline::ticks(self.limits.time_ms);
        let outs = self.call_capped(Interface::Redaction, REDACT, cap, |store, guest: &redaction::Guest| {
            let mut outs = Vec::with_capacity(texts.len());
            for text in texts {
                if bounded {
                    store.set_epoch_deadline(ticks);
                }
                outs.push(guest.call_redact(&mut *store, text, options)?);
            }
            Ok(outs)
        })?;
        texts.iter().zip(outs).map(|(text, out)| self.checked_redaction(text, out)).collect()
    }

    /// A redaction's output for `text`, refused or checked (see [`Self::redact`]).
    fn checked_redaction(
        &self,
        text: &str,
        out: Result<Redaction, ComponentRefusal>,
    ) -> Result<Redaction, PolicyError> {
        const F: &str = REDACT;
        let r = out.map_err(|e| self.refused(Interface::Redaction, F, e))?;
        let bad = |reason: String| Err(self.invalid(Interface::Redaction, F, reason));
        let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
        let lines = (newlines + 1) as u64;
        for h in &r.hits {
            if h.kind.is_empty() || !h.kind.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
                return bad(format!("hit kind `{}` is not a snake_case name", h.kind));
            }
            if h.first_line == 0 || h.first_line > h.last_line || u64::from(h.last_line) > lines {
                return bad(format!(
                    "hit `{}` on lines {}-{} of a {lines}-line input",
                    h.kind, h.first_line, h.last_line
                ));
            }
            if !h.marker.starts_with(&format!("[REDACTED:{}:", h.kind)) || !h.marker.ends_with(']') {
                return bad(format!("marker `{}` is not `[REDACTED:{}:…]`", h.marker, h.kind));
            }
        }
        if let Some(t) = &r.text {
            let out_newlines = memchr::memchr_iter(b'\n', t.as_bytes()).count();
            if out_newlines != newlines {
                return bad(format!("the redacted text has {out_newlines} newlines, the input {newlines}"));
            }
            if r.hits.is_empty() {
                return bad("a redacted text without any hit".into());
            }
        }
        Ok(r)
    }

    fn invalid(&self, interface: Interface, function: &'static str, reason: String) -> PolicyError {
        PolicyError::InvalidOutput { interface, component: self.source(interface).clone(), function, reason }
    }
}

/// An engine for policy calls; `bounded` adds epoch interruption (the deadline).
///
/// Every call gets a fresh instance. In a long-running process (the MCP server, see
/// `use_pooled_instances`) pooled slots keep up to `KEEP_RESIDENT` bytes of a finished call's
/// memory resident (zeroed, not unmapped), so it does not page-fault its way through
/// megabytes of input on every call. A short-lived process (CLI, hooks) makes a call or two:
/// the pool's set-up and zeroing would only cost it page faults.
fn new_engine(limits: &Limits, pooled: bool, bounded: bool) -> Result<Engine, PolicyError> {
    let mut config = wasmtime::Config::new();
    config.epoch_interruption(bounded);
    config.max_wasm_stack(1 << 20);
    if pooled {
        config.allocation_strategy(wasmtime::InstanceAllocationStrategy::Pooling(pooling(limits)));
    }
    Engine::new(&config).map_err(|e| PolicyError::Engine(e.to_string()))
}

/// Component binaries carry layer 1 in their header; core modules carry layer 0.
fn wasmparser_is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && bytes[0..4] == *b"\0asm" && bytes[6..8] == [0x01, 0x00]
}

/// A failure that is not a wasm trap code: a refused capability (an import the host
/// stubbed with a trap) is named as such; anything else is reported by its root cause.
fn describe_failure(e: &wasmtime::Error) -> String {
    let refused_import = e.chain().find_map(|c| {
        let text = c.to_string();
        text.strip_prefix("unknown import: ").and_then(|rest| rest.split_whitespace().next()).map(str::to_string)
    });
    match refused_import {
        Some(import) => format!(
            "it called {import}, a capability policy components are not granted (no files, environment, clock or sockets)"
        ),
        None => e.chain().last().map(|c| c.to_string()).unwrap_or_else(|| e.to_string()),
    }
}

/// Check that `component` exports `interface` at a version this host speaks, and say
/// precisely what is wrong when it does not.
fn check_exports(
    engine: &Engine,
    component: &Component,
    interface: Interface,
    source: &Source,
) -> Result<(), PolicyError> {
    let ty = component.component_type();
    let names: Vec<String> = ty.exports(engine).map(|(n, _)| n.to_string()).collect();
    let prefix = format!("dossier:policy/{}@", interface.name());
    match names.iter().find(|n| n.starts_with(&prefix)) {
        Some(name) => {
            let found = &name[prefix.len()..];
            let major = found.split('.').next().and_then(|m| m.parse::<u64>().ok());
            if major != Some(PACKAGE_MAJOR) {
                return Err(PolicyError::IncompatibleVersion {
                    interface,
                    component: source.clone(),
                    found: found.to_string(),
                    required: PACKAGE_VERSION.to_string(),
                });
            }
            Ok(())
        }
        None => Err(PolicyError::WrongWorld {
            interface,
            component: source.clone(),
            expected: interface.export_name(),
            found: if names.is_empty() { "none".to_string() } else { names.join(", ") },
        }),
    }
}
