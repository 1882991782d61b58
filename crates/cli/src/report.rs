//! `tabletop report`: a study (and optionally a variant) as one self-contained HTML page;
//! `tabletop merge`: shards back into the study one machine would have played.
use crate::options::{BatchArgs, GameOptions};
use crate::simulate::{sim_error, sim_options};
use crate::user;
use catalog::Visit;
use clap::Args;
use engine::prelude::*;
use sim::{Part, Report, Shard, ShardFile};
use std::path::PathBuf;

#[derive(Args)]
pub struct ReportArgs {
    /// dropsite, distopia or euphoria (not needed with --from).
    #[arg(required_unless_present = "from")]
    game: Option<String>,
    /// How many games per variant.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Bots by seat, comma-separated (default: random in every seat).
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// A second variant to compare, as game options in quotes (`--vs '--target 50'`):
    /// played with the same bots, games and seed; each seat's win rate difference is
    /// tested at 95%.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    vs: Option<String>,
    /// Where to write the page.
    #[arg(long, default_value = "report.html")]
    out: PathBuf,
    /// Play only shard K of N; with --json, print the shard file instead of a page.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Draw the page from shard files (of `report` or `sim` with --shard --json).
    #[arg(long, num_args = 1.., value_name = "FILES")]
    from: Vec<PathBuf>,
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    options: GameOptions,
}

/// The command line as typed, quoted for a shell.
fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    let mut words = vec!["tabletop".to_string()];
    words.extend(args.into_iter().skip(1));
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

struct Study {
    configs: Vec<serde_json::Value>,
    args: ReportArgs,
}

impl Visit for Study {
    type Out = anyhow::Result<()>;
    fn visit<G: Game>(self) -> anyhow::Result<()> {
        let args = &self.args;
        let mut parts = Vec::new();
        for (i, json) in self.configs.iter().enumerate() {
            let config = engine::Typed::<G>::config(json).map_err(user)?;
            let options =
                sim_options::<G>(&config, args.games, &args.seats, args.shard, &args.batch)?;
            let played = args.shard.map_or(args.games, |s| {
                let r = s.range(args.games);
                r.end - r.start
            });
            let bar = crate::options::progress(played);
            if self.configs.len() > 1 {
                bar.set_message(if i == 0 { "A" } else { "B" });
            }
            let report = sim::run::<G>(&config, &options, &|| bar.inc(1)).map_err(sim_error)?;
            bar.finish_and_clear();
            parts.push(report.part);
        }
        match (args.shard, args.batch.json) {
            (Some(shard), true) => {
                outln!("{}", serde_json::to_string(&ShardFile { shard, parts })?)?;
                Ok(())
            }
            _ => write_page(&parts, &args.out, args.batch.json),
        }
    }
}

/// Writes the page and prints where, with the summaries.
fn write_page(parts: &[Part], out: &PathBuf, json: bool) -> anyhow::Result<()> {
    let page = sim::html::render(parts, &command_line()).map_err(anyhow::Error::msg)?;
    std::fs::write(out, page).map_err(|e| user(format!("cannot write {}: {e}", out.display())))?;
    for part in parts {
        crate::options::print_report(&Report::of(part), json)?;
    }
    errln!("wrote {}", out.display())?;
    Ok(())
}

/// Reads and merges shard files.
fn read_shards(files: &[PathBuf]) -> anyhow::Result<Vec<Part>> {
    let mut shards = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| user(format!("cannot read {}: {e}", path.display())))?;
        let file: ShardFile = serde_json::from_str(&text)
            .map_err(|e| user(format!("{} is not a shard file: {e}", path.display())))?;
        shards.push(file);
    }
    sim::merge(shards).map_err(user)
}

pub fn run(args: ReportArgs) -> anyhow::Result<()> {
    if !args.from.is_empty() {
        let parts = read_shards(&args.from)?;
        return write_page(&parts, &args.out, args.batch.json);
    }
    let game = args.game.clone().unwrap_or_default();
    let mut configs = vec![args.options.to_batch_config(&game)?];
    if let Some(vs) = &args.vs {
        configs.push(GameOptions::from_words("--vs", vs)?.to_batch_config(&game)?);
    }
    catalog::with_game(&game, Study { configs, args }).map_err(user)?
}

#[derive(Args)]
pub struct MergeArgs {
    /// Shard files written by `sim` or `report` with --shard K/N --json.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object per study instead of tables.
    #[arg(long)]
    json: bool,
}

/// `tabletop merge`: the merged study's report (the unsharded `summary`).
pub fn merge(args: MergeArgs) -> anyhow::Result<()> {
    for part in read_shards(&args.files)? {
        crate::options::print_report(&Report::of(&part), args.json)?;
    }
    Ok(())
}
