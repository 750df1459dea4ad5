//! Build script: compiles the default policy component (crate `dossier-core`) for
//! `wasm32-wasip2` and tells the host where it is (`DOSSIER_POLICY_WASM`), so the host
//! embeds it with `include_bytes!` and `cargo install --path host` yields one binary.
//!
//! Not for: anything else. The nested cargo gets its own target dir under `OUT_DIR` (the
//! outer build holds the workspace target-dir lock) and none of the outer build's flags
//! (`RUSTFLAGS`, `CARGO_TARGET_*`, ...), which are meant for the host target.

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent().expect("host/ has a parent").to_path_buf();
    let core_manifest = root.join("core").join("Cargo.toml");
    // Relative to this package (cargo's rule for a relative path), never absolute: a target
    // directory copied to another checkout (a worktree seeded from the main one) then watches
    // that checkout's sources, not the ones it was copied from.
    for watched in ["../core/src", "../core/Cargo.toml", "../wit", "../Cargo.toml"] {
        println!("cargo:rerun-if-changed={watched}");
    }

    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    let target_dir = out_dir.join("policy-target");
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());

    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--package", "dossier-core", "--lib", "--target", "wasm32-wasip2", "--profile", "wasm-policy"])
        .arg("--manifest-path")
        .arg(&core_manifest)
        .arg("--target-dir")
        .arg(&target_dir)
        .current_dir(&root);
    for (key, _) in env::vars_os() {
        let key = key.to_string_lossy();
        let outer_only = key == "RUSTFLAGS"
            || key == "CARGO_ENCODED_RUSTFLAGS"
            || key == "RUSTDOCFLAGS"
            || key == "CARGO_ENCODED_RUSTDOCFLAGS"
            || key.starts_with("CARGO_TARGET_")
            || key.starts_with("CARGO_BUILD_")
            || key.starts_with("CARGO_PROFILE_")
            || key == "CARGO_PRIMARY_PACKAGE"
            || key == "RUSTC_WORKSPACE_WRAPPER";
        if outer_only {
            cmd.env_remove(key.as_ref());
        }
    }

    // wasm SIMD (supported by wasmtime by default): the ranking policy classifies text 16
    // bytes at a time with it (core/src/ranking/scan.rs `classify16`).
    cmd.env("CARGO_ENCODED_RUSTFLAGS", "-Ctarget-feature=+simd128");

    let output = cmd.output().expect("failed to run cargo to build the policy component");
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let hint = if stderr.contains("wasm32-wasip2") && stderr.contains("target may not be installed") {
            "\nhint: run `rustup target add wasm32-wasip2` (the README's commands do this first)"
        } else {
            ""
        };
        panic!("building the default policy component (dossier-core for wasm32-wasip2) failed:\n{stderr}{hint}");
    }

    let wasm = target_dir.join("wasm32-wasip2").join("wasm-policy").join("dossier_core.wasm");
    assert!(wasm.is_file(), "policy component not found at {}", wasm.display());
    println!("cargo:rustc-env=DOSSIER_POLICY_WASM={}", wasm.display());
}
