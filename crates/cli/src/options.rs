//! Game options from the command line, turned into a game's JSON config.
use crate::user;
use clap::Args;
use serde_json::{Map, Value};

/// Options every game command takes. Each game accepts the ones it knows; naming one it
/// does not know is an error that lists what it does know.
#[derive(Args, Clone, Debug, Default)]
pub struct GameOptions {
    /// Number of players (Drop Site 2-4, Euphoria 2-6; Distop-IA is always 2).
    #[arg(long)]
    pub players: Option<usize>,
    /// Drop Site: points that end the game (100, or 50 for a shorter game).
    #[arg(long)]
    pub target: Option<i64>,
    /// Drop Site: each player may look at their own debt pile.
    #[arg(long)]
    pub open_debt: bool,
    /// Distop-IA: the border set (meadow, city, coast, mountain).
    #[arg(long)]
    pub border: Option<String>,
    /// Distop-IA: play the advanced mode (a collaborator and a mission).
    #[arg(long)]
    pub advanced: bool,
    /// Distop-IA advanced: the collaborator by name, `random` or `none`.
    #[arg(long)]
    pub collaborator: Option<String>,
    /// Distop-IA advanced: the mission by name, `random` or `none`.
    #[arg(long)]
    pub mission: Option<String>,
    /// Euphoria: recruit ability texts of the first or second edition (v1, v2).
    #[arg(long)]
    pub edition: Option<String>,
    /// Card data from a JSON file whose keys join the options: Drop Site `deck` (a list
    /// of {value, copies, points}), Distop-IA `limits` ([A, B, C, D]). Checked with
    /// every problem listed; records and shards carry it.
    #[arg(long, value_name = "FILE")]
    pub cards: Option<std::path::PathBuf>,
    /// Any other option of the game, as KEY=VALUE (VALUE is JSON, or else a string).
    #[arg(long = "opt", value_name = "KEY=VALUE")]
    pub extra: Vec<String>,
}

/// Game options given as one quoted string (`--vs '--target 50'`).
#[derive(clap::Parser)]
#[command(no_binary_name = true)]
struct Quoted {
    #[command(flatten)]
    options: GameOptions,
}

impl GameOptions {
    /// Game options from one string of words, as after `flag` on the command line.
    ///
    /// # Errors
    /// Unbalanced quotes or an option no game has.
    pub fn from_words(flag: &str, words: &str) -> anyhow::Result<GameOptions> {
        use clap::Parser;
        let words = shlex::split(words)
            .ok_or_else(|| user(format!("{flag} `{words}`: unbalanced quotes")))?;
        Quoted::try_parse_from(words)
            .map(|q| q.options)
            .map_err(|e| user(format!("{flag}: {e}")))
    }

    /// The JSON config for `game`, holding only the options given.
    ///
    /// # Errors
    /// A malformed `--opt`, or `--players` for a game with a fixed table.
    pub fn to_config(&self, game: &str) -> anyhow::Result<Value> {
        let defaults = catalog::game(game).map_err(user)?.default_config();
        let mut map = Map::new();
        if let Some(p) = self.players {
            if defaults.get("players").is_some() {
                map.insert("players".into(), p.into());
            } else if p != 2 {
                return Err(user(format!(
                    "{game} is always played by 2 players, not {p}"
                )));
            }
        }
        let mut put = |key: &str, value: Option<Value>| {
            if let Some(v) = value {
                map.insert(key.into(), v);
            }
        };
        put("target", self.target.map(Value::from));
        put("open_debt", self.open_debt.then_some(Value::Bool(true)));
        put("border", self.border.clone().map(Value::from));
        put("advanced", self.advanced.then_some(Value::Bool(true)));
        put("collaborator", self.collaborator.clone().map(Value::from));
        put("mission", self.mission.clone().map(Value::from));
        put("edition", self.edition.clone().map(Value::from));
        if let Some(path) = &self.cards {
            let text = std::fs::read_to_string(path)
                .map_err(|e| user(format!("cannot read --cards {}: {e}", path.display())))?;
            let data: Map<String, Value> = serde_json::from_str(&text).map_err(|e| {
                user(format!(
                    "--cards {} must be a JSON object of card data: {e}",
                    path.display()
                ))
            })?;
            map.extend(data);
        }
        for kv in &self.extra {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| user(format!("--opt takes KEY=VALUE, not `{kv}`")))?;
            let value = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string()));
            map.insert(k.trim().to_string(), value);
        }
        Ok(Value::Object(map))
    }

    /// The config for a batch of bot games (`sim`, `bench`, `tournament`): as
    /// [`GameOptions::to_config`], and where the game bounds trade offers
    /// (`offers_per_turn`, unbounded by default as Euphoria's rulebook) and none was given,
    /// one offer a turn, so that random and searching bots cannot trade in loops.
    ///
    /// # Errors
    /// As [`GameOptions::to_config`].
    pub fn to_batch_config(&self, game: &str) -> anyhow::Result<Value> {
        let mut config = self.to_config(game)?;
        let defaults = catalog::game(game).map_err(user)?.default_config();
        if let (Some(map), true) = (config.as_object_mut(), defaults.get(OFFERS).is_some()) {
            map.entry(OFFERS).or_insert(Value::from(BATCH_OFFERS));
        }
        Ok(config)
    }
}

/// The option bounding trade offers a turn, and its value in batches of bot games.
const OFFERS: &str = "offers_per_turn";
const BATCH_OFFERS: u32 = 1;

/// `tabletop games`.
pub fn list_games() -> anyhow::Result<()> {
    for name in catalog::GAMES {
        let game = catalog::game(name).map_err(user)?;
        println!("{name}: options {}", game.default_config());
    }
    Ok(())
}

/// A progress bar over `games` games (drawn only when stderr is a terminal).
pub fn progress(games: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games · {per_sec} · eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The options every batch of games shares (`sim`, `tournament`).
#[derive(clap::Args)]
pub struct BatchArgs {
    /// The batch's seed: game i is seeded from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of tables (a tournament's has an `elo` map).
    #[arg(long)]
    pub json: bool,
}

/// Prints a report as one JSON object, or as its text tables.
pub fn print_report<R: serde::Serialize + std::fmt::Display>(
    report: &R,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string(report)?);
    } else {
        println!("{report}");
    }
    Ok(())
}
