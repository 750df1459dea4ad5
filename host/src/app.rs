//! Opening the store's [`App`] with this binary's services: the wasm policy components (created
//! on first use, so commands that need no policy never build a wasm engine) and Claude Code as
//! the harness.
//!
//! Not for: behaviour (the operations take an `&App`), or the services themselves
//! (`policy::ComponentPolicy`, `claude::ClaudeCode`).

pub use dossier_store::App;

use crate::policy::{ComponentPolicy, Policies};
use dossier_store::config::Config;
use dossier_store::error::Result;
use dossier_store::layout::Store;

/// Locate the store and read its config (a missing config is the default).
pub fn open() -> Result<App> {
    App::open(services)
}

/// An `App` over `store` and `config` with this binary's services.
pub fn with(store: Store, config: Config) -> App {
    let (policy, harness) = services(&store, &config);
    App::new(store, config, policy, harness)
}

fn services(
    store: &Store,
    config: &Config,
) -> (Box<dyn dossier_store::policy::Policy>, Box<dyn dossier_store::harness::Harness>) {
    (Box::new(ComponentPolicy::new(store, config)), Box::new(crate::claude_code::ClaudeCode))
}

fn component(app: &App) -> &ComponentPolicy {
    let any: &dyn std::any::Any = app.policy();
    any.downcast_ref::<ComponentPolicy>().expect("every App of this binary is opened with its ComponentPolicy")
}

/// The policy components named by the config (for the learning interface, init and doctor,
/// which speak to the components themselves).
pub fn policies(app: &App) -> Result<&Policies> {
    component(app).policies()
}

/// Policy components created for `app` load only from the compile cache (hooks).
pub fn forbid_compile(app: &App) {
    component(app).forbid_compile();
}
