//! The per-process context every operation runs in: the store, its configuration, the
//! frontmatter cache, and the two services the binary supplies — the [`Policy`] that makes
//! decisions and the [`Harness`] that says what the agent harness provides.
//!
//! Not for: behaviour. Operations live in their own modules and take an `&App`; how the
//! policy is loaded (the wasm component, created on first use) is the binary's concern.

use crate::config::Config;
use crate::error::Result;
use crate::harness::Harness;
use crate::layout::{FrontmatterCache, Store};
use crate::policy::Policy;

pub struct App {
    pub store: Store,
    pub config: Config,
    /// Frontmatter read so far, persisted in the store's `.cache/` between processes.
    pub frontmatter: FrontmatterCache,
    policy: Box<dyn Policy>,
    harness: Box<dyn Harness>,
}

impl App {
    /// Locate the store and read its config (a missing config is the default); `services`
    /// makes the policy and harness once the store and config are known.
    pub fn open(services: impl FnOnce(&Store, &Config) -> (Box<dyn Policy>, Box<dyn Harness>)) -> Result<App> {
        let store = Store::locate()?;
        let config = Config::load_with_machine(&store.config_path(), &store.machine_config_path())?;
        let (policy, harness) = services(&store, &config);
        Ok(App::new(store, config, policy, harness))
    }

    pub fn new(store: Store, config: Config, policy: Box<dyn Policy>, harness: Box<dyn Harness>) -> App {
        // Persist parsed frontmatter only for a store that exists (reads never create one).
        let frontmatter = if store.exists() {
            FrontmatterCache::persistent(store.frontmatter_cache_path())
        } else {
            Default::default()
        };
        App { store, config, frontmatter, policy, harness }
    }

    /// The policy that decides priority, ranking, merges and distillation findings.
    pub fn policy(&self) -> &dyn Policy {
        self.policy.as_ref()
    }

    /// What the agent harness of this process provides.
    pub fn harness(&self) -> &dyn Harness {
        self.harness.as_ref()
    }
}
