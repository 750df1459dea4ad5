//! The on-disk cache of compiled policy components.
//!
//! Cranelift compiling a ~100 KB component costs 75–105 ms; deserializing the compiled
//! artifact costs well under a millisecond. So every component is compiled at most once
//! per (component bytes, wasmtime version, engine configuration) and the artifact is kept
//! under `<store>/cache/policy/<key>.cwasm`.
//!
//! Invariants:
//! - The key is a BLAKE3 hash over the component bytes and wasmtime's own
//!   engine-compatibility hash, so a changed component or engine is a different file.
//! - Each file starts with the BLAKE3 hash of its payload. A file whose hash does not
//!   match (truncated, corrupted, half-written by a crashed process) is never handed to
//!   wasmtime (`Component::deserialize` trusts its input); it is recompiled and replaced.
//! - Files are written to a temp file in the same directory and renamed into place, so a
//!   reader sees a whole artifact or none.
//!
//! Not for: deciding *which* component to load (see `policy`), or caching anything else.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

/// Bumped when the file format below changes.
const FORMAT: &[u8] = b"dossier-policy-cache-v1";
const HASH_LEN: usize = 32;

/// What happened when a component was loaded, for `doctor` and the benchmarks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheOutcome {
    /// A valid compiled artifact was found and deserialized.
    Hit,
    /// No artifact existed; compiled and (if `stored`) written.
    Compiled { stored: bool },
    /// An artifact existed but was corrupt or stale; compiled and (if `stored`) replaced.
    Rebuilt { reason: String, stored: bool },
    /// No cache directory: compiled in memory only.
    Uncached,
}

/// A compile cache rooted at one directory (or none).
#[derive(Clone, Debug)]
pub struct CompileCache {
    dir: Option<PathBuf>,
}

/// Feeds `std::hash::Hash` output into BLAKE3, so wasmtime's compatibility hash becomes
/// part of a stable, collision-resistant key.
struct Blake3Hasher<'a>(&'a mut blake3::Hasher);

impl Hasher for Blake3Hasher<'_> {
    fn finish(&self) -> u64 {
        unreachable!("only used to feed bytes into blake3")
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl CompileCache {
    pub fn new(dir: Option<PathBuf>) -> Self {
        CompileCache { dir }
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The cache key for `wasm` under `engine`.
    pub fn key(engine: &Engine, wasm: &[u8]) -> String {
        let mut hasher = blake3::Hasher::new();
        hasher.update(FORMAT);
        hasher.update(b"wasmtime-48.0.8");
        engine.precompile_compatibility_hash().hash(&mut Blake3Hasher(&mut hasher));
        hasher.update(&(wasm.len() as u64).to_le_bytes());
        hasher.update(wasm);
        hasher.finalize().to_hex()[..32].to_string()
    }

    /// The artifact path for `wasm`, if caching is enabled.
    pub fn path_for(&self, engine: &Engine, wasm: &[u8]) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{}.cwasm", Self::key(engine, wasm))))
    }

    /// Load `wasm` as a component, from the cache when possible.
    ///
    /// Compile errors (not a component, invalid wasm) are returned as is; cache I/O
    /// problems never fail the load, they only make it slower.
    pub fn load(&self, engine: &Engine, wasm: &[u8]) -> wasmtime::Result<(Component, CacheOutcome)> {
        self.load_with(engine, wasm, true).map(|r| r.expect("compiling is allowed"))
    }

    /// [`CompileCache::load`] without ever compiling: `None` when no valid artifact exists
    /// (hooks, which must stay fast, report that instead of paying for a compile).
    pub fn load_cached(&self, engine: &Engine, wasm: &[u8]) -> wasmtime::Result<Option<Component>> {
        Ok(self.load_with(engine, wasm, false)?.map(|(c, _)| c))
    }

    fn load_with(
        &self,
        engine: &Engine,
        wasm: &[u8],
        compile: bool,
    ) -> wasmtime::Result<Option<(Component, CacheOutcome)>> {
        if !compile {
            let Some(path) = self.path_for(engine, wasm) else { return Ok(None) };
            return Ok(fs::read(&path)
                .ok()
                .as_deref()
                .and_then(verified_payload)
                .and_then(|payload| {
                    // SAFETY: as in the compiling path below: a checksummed artifact keyed by
                    // this engine's compatibility hash.
                    unsafe { Component::deserialize(engine, payload) }.ok()
                })
                .map(|c| (c, CacheOutcome::Hit)));
        }
        let Some(path) = self.path_for(engine, wasm) else {
            return Ok(Some((Component::from_binary(engine, wasm)?, CacheOutcome::Uncached)));
        };
        let mut rebuild_reason = None;
        match fs::read(&path) {
            Ok(bytes) => match verified_payload(&bytes) {
                Some(payload) => {
                    // SAFETY: `Component::deserialize` requires bytes produced by
                    // `Engine::precompile_component` of a compatible engine. The payload's
                    // BLAKE3 hash matched the one written with it, and the file name is
                    // keyed by the engine's compatibility hash, so it is exactly what a
                    // compatible engine produced (or a deliberate forgery by someone who
                    // can already write the user's store, which is outside our threat model).
                    match unsafe { Component::deserialize(engine, payload) } {
                        Ok(c) => return Ok(Some((c, CacheOutcome::Hit))),
                        Err(e) => rebuild_reason = Some(format!("artifact rejected by wasmtime: {e}")),
                    }
                }
                None => rebuild_reason = Some("artifact checksum mismatch (corrupt or truncated)".to_string()),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => rebuild_reason = Some(format!("artifact unreadable: {e}")),
        }

        let compiled = engine.precompile_component(wasm)?;
        // SAFETY: produced just now by this engine.
        let component = unsafe { Component::deserialize(engine, &compiled)? };
        let stored = write_artifact(&path, &compiled).is_ok();
        let outcome = match rebuild_reason {
            Some(reason) => CacheOutcome::Rebuilt { reason, stored },
            None => CacheOutcome::Compiled { stored },
        };
        Ok(Some((component, outcome)))
    }
}

fn verified_payload(bytes: &[u8]) -> Option<&[u8]> {
    if bytes.len() < HASH_LEN {
        return None;
    }
    let (hash, payload) = bytes.split_at(HASH_LEN);
    (blake3::hash(payload).as_bytes() == hash).then_some(payload)
}

fn write_artifact(path: &Path, compiled: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("cache paths have a parent");
    fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(blake3::hash(compiled).as_bytes())?;
    tmp.write_all(compiled)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
