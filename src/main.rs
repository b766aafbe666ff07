//! The `sow` command: parses the command line and hands over to one module per subcommand.
//!
//! Everything it reads is user input: no `unwrap`, `expect` or indexing that could panic, here
//! or in [`cli`].
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
