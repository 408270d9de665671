//! The tokscope CLI compiled from its own source inside this package: cargo hands a package's
//! own binaries to its integration tests (`CARGO_BIN_EXE_*`), so the corpus test always runs the
//! CLI of this checkout, never a stale build lying in target/.

#[path = "../../../crate/src/bin/tokscope.rs"]
mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
