//! The per-process context every operation runs in: the store, its configuration, and the
//! policy components (created on first use, so commands that need no policy never build
//! a wasm engine).
//!
//! Not for: behaviour. Operations live in their own modules and take an `&App`.

use std::cell::OnceCell;

use crate::config::Config;
use crate::error::Result;
use crate::policy::{CompileCache, Policies};
use crate::store::Store;

pub struct App {
    pub store: Store,
    pub config: Config,
    /// Frontmatter read so far, persisted in the store's `.cache/` between processes.
    pub frontmatter: crate::store::FrontmatterCache,
    policies: OnceCell<Policies>,
    /// False on latency-bound paths (hooks): policies created here never compile.
    compile_allowed: std::cell::Cell<bool>,
}

impl App {
    /// Locate the store and read its config (a missing config is the default).
    pub fn open() -> Result<App> {
        let store = Store::locate()?;
        let config = Config::load(&store.config_path())?;
        Ok(App::with(store, config))
    }

    pub fn with(store: Store, config: Config) -> App {
        // Persist parsed frontmatter only for a store that exists (reads never create one).
        let frontmatter = if store.exists() {
            crate::store::FrontmatterCache::persistent(store.frontmatter_cache_path())
        } else {
            Default::default()
        };
        App { store, config, frontmatter, policies: OnceCell::new(), compile_allowed: std::cell::Cell::new(true) }
    }

    /// Policy components created by this `App` load only from the compile cache (hooks).
    /// Nothing is created until a policy is actually needed.
    pub fn forbid_compile(&self) {
        self.compile_allowed.set(false);
        if let Some(p) = self.policies.get() {
            p.forbid_compile();
        }
    }

    /// The policy components named by the config. The compile cache lives in the store
    /// when the store exists; otherwise components are compiled in memory only.
    pub fn policies(&self) -> Result<&Policies> {
        if let Some(p) = self.policies.get() {
            return Ok(p);
        }
        let cache = CompileCache::new(self.store.exists().then(|| self.store.policy_cache_dir()));
        let overrides = self.config.policy_overrides(self.store.root());
        let policies = Policies::new(cache, &overrides, self.config.limits())?;
        if !self.compile_allowed.get() {
            policies.forbid_compile();
        }
        Ok(self.policies.get_or_init(|| policies))
    }
}
