//! The `dossier` binary: parse arguments and run one command. Everything else is in the
//! library crate so tests and benchmarks reach the same code.

fn main() -> std::process::ExitCode {
    dossier::cli::run()
}
