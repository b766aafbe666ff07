//! `sow completions SHELL` and `sow man`: shell completions (clap_complete) and manual pages
//! (clap_mangen), both from the one command-line definition.

use std::path::PathBuf;

use clap::CommandFactory;

use super::{Cli, Exit, Fail};

/// Write shell completions for sow on stdout.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  sow completions bash > ~/.local/share/bash-completion/completions/sow
  sow completions zsh > ~/.zfunc/_sow
  sow completions fish > ~/.config/fish/completions/sow.fish")]
pub struct Args {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Write the manual page of sow (roff) on stdout, or every page into a folder.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  sow man | man -l -
  sow man --output /usr/local/share/man/man1")]
pub struct ManArgs {
    /// Write sow.1 and a page per subcommand (sow-check.1, ...) into this folder.
    #[arg(long, short = 'O', value_name = "FOLDER")]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<Exit, Fail> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "sow", &mut out);
    super::emit_text(&String::from_utf8_lossy(&out));
    Ok(Exit::Ok)
}

pub fn man(args: ManArgs) -> Result<Exit, Fail> {
    let command = Cli::command();
    match args.output {
        Some(folder) => {
            if !folder.is_dir() {
                return Err(Fail::Usage(format!(
                    "the folder {} does not exist",
                    folder.display()
                )));
            }
            clap_mangen::generate_to(command, &folder)
                .map_err(|e| Fail::Usage(format!("cannot write into {}: {e}", folder.display())))?;
            super::say_err(&format!(
                "wrote the manual pages into {}\n",
                folder.display()
            ));
        }
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(command)
                .render(&mut out)
                .map_err(|e| Fail::Usage(format!("cannot write the manual page: {e}")))?;
            super::emit_text(&String::from_utf8_lossy(&out));
        }
    }
    Ok(Exit::Ok)
}
