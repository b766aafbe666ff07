//! The `sow` command: parses the command line and hands over to one module per subcommand.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
