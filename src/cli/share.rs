//! `ricochet-lab share`: a link to the puzzle page that plays a given puzzle. The link's
//! fragment holds the puzzle's board line (and with `--with-solution` its optimum and an
//! optimal solution), so one page, kept anywhere, plays any puzzle.

use super::output::outln;
use ricochet_lab::model::formats;
use ricochet_lab::print::page::{self, PageAnswer};
use std::process::ExitCode;

/// The arguments of `share`.
#[derive(clap::Args, Debug)]
pub struct ShareArgs {
    /// A .ron file, a .txt Cox file, a game id or a board line.
    puzzle: String,
    /// Where the page is: its address on a web host, or its path; any page written by
    /// `ricochet-lab export PUZZLE page.html` plays the link's puzzle.
    #[arg(long, value_name = "URL", default_value = "page.html")]
    page: String,
    /// Solve the puzzle and put its optimum and an optimal solution in the link, for the
    /// page's "How many moves is best?" and "Show the solution".
    #[arg(long)]
    with_solution: bool,
    /// The title the page shows (the file's name by default).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
}

/// Prints the link.
pub fn run(args: &ShareArgs) -> anyhow::Result<ExitCode> {
    if args.page.contains('#') {
        anyhow::bail!(
            "--page {} already has a fragment (#...): give the page's own address",
            args.page
        );
    }
    let puzzle = formats::load(&args.puzzle)?;
    let answer = if args.with_solution {
        Some(PageAnswer {
            moves: super::export::solve(&puzzle)?,
        })
    } else {
        None
    };
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| super::export::page_name(&args.puzzle));
    let fragment = page::share_fragment(&puzzle, Some(&name), answer.as_ref())?;
    outln!("{}{fragment}", args.page)?;
    Ok(ExitCode::SUCCESS)
}
