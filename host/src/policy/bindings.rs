//! The wasmtime bindings of the `policy` world (`wit/`): the host's typed view of the WIT
//! package, generated at build time.
//!
//! Not for: anything hand-written; callers use `super::runtime`'s checked calls.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "policy",
});
