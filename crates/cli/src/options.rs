//! Game options from the command line, turned into a game's JSON config.
use crate::user;
use serde_json::{Map, Value};

/// Options every game command takes. Apart from `--players`, `--cards` and `--opt`, the
/// flags come from the games' own option lists ([`engine::About::options`]): one flag per
/// option key (`open_debt` is `--open-debt`), its help from the game's words, so an option a
/// game gains is a flag at once. Each game accepts the ones it knows; naming one it does
/// not know is an error that lists what it does know.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Number of players.
    pub players: Option<usize>,
    /// The options given by their own flags, by config key, as config JSON.
    pub given: Map<String, Value>,
    /// Card data from a JSON file whose keys join the options.
    pub cards: Option<std::path::PathBuf>,
    /// Any other option, as KEY=VALUE.
    pub extra: Vec<String>,
}

/// How a game option's flag takes its value.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Takes {
    /// `--key` alone for yes, or `--key=false`.
    Toggle,
    /// A whole number, or `none` where the option may be left empty.
    Number,
    /// A seat, counted from 1 (the config counts from 0).
    Seat,
    /// Words (a choice's value).
    Text,
}

/// One flag made from the games' options sharing a key.
#[derive(Clone, Debug)]
struct Flag {
    key: &'static str,
    takes: Takes,
    help: String,
    /// A variant in every game that has it: listed under "Variants" in `--help`.
    variant: bool,
}

/// The flags made from every game's options, in the games' order, and `--players`' help
/// from every game's player range: read from the games' descriptions once.
struct Described {
    flags: Vec<Flag>,
    players_help: String,
}

fn described() -> &'static Described {
    static DESCRIBED: std::sync::OnceLock<Described> = std::sync::OnceLock::new();
    DESCRIBED.get_or_init(|| {
        let mut flags: Vec<Flag> = Vec::new();
        let mut ranges: Vec<String> = Vec::new();
        for name in catalog::GAMES {
            let Ok(game) = catalog::game(name) else {
                continue;
            };
            let about = game.about();
            let p = about.players;
            ranges.push(if p.min == p.max {
                format!("{} always {}", about.title, p.min)
            } else {
                format!("{} {}-{}", about.title, p.min, p.max)
            });
            for option in &about.options {
                let takes = match &option.input {
                    engine::Input::Toggle => Takes::Toggle,
                    engine::Input::Number { .. } => Takes::Number,
                    engine::Input::Seat => Takes::Seat,
                    engine::Input::Choice { .. } => Takes::Text,
                    // Card data comes in a file, with --cards; the players are --players.
                    engine::Input::Data => continue,
                };
                if option.key == "players" {
                    continue;
                }
                let words = format!(
                    "{}: {} ({})",
                    about.title,
                    option.help.trim_end_matches('.'),
                    choices(&option.input)
                );
                match flags.iter_mut().find(|f| f.key == option.key) {
                    Some(flag) => {
                        flag.help = format!("{}. {words}", flag.help);
                        flag.variant &= option.is_variant();
                    }
                    None => flags.push(Flag {
                        key: option.key,
                        takes,
                        help: words,
                        variant: option.is_variant(),
                    }),
                }
            }
        }
        Described {
            flags,
            players_help: format!("Number of players ({})", ranges.join(", ")),
        }
    })
}

fn flags() -> &'static [Flag] {
    &described().flags
}

/// What an option's flag takes, in words for its help.
fn choices(input: &engine::Input) -> String {
    match input {
        engine::Input::Toggle => "a flag; =false turns it off".into(),
        engine::Input::Number { min, max, none } => match none {
            Some(none) => format!("{min} to {max}, or none: {none}"),
            None => format!("{min} to {max}"),
        },
        engine::Input::Seat => "a seat, counted from 1".into(),
        engine::Input::Choice { choices } => choices
            .iter()
            .map(|c| match &c.value {
                Value::String(v) => v.clone(),
                other => format!("{other}: {}", c.label),
            })
            .collect::<Vec<_>>()
            .join(", "),
        engine::Input::Data => "card data".into(),
    }
}

fn long(key: &str) -> String {
    key.replace('_', "-")
}

impl clap::Args for GameOptions {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        use clap::{Arg, ArgAction};
        let mut cmd = cmd.arg(
            Arg::new("players")
                .long("players")
                .value_parser(clap::value_parser!(usize))
                .help(described().players_help.clone())
                .help_heading("Game options"),
        );
        for flag in flags() {
            let arg = Arg::new(flag.key)
                .long(long(flag.key))
                .help(flag.help.clone())
                .help_heading(if flag.variant {
                    "Variants (rules some tables change)"
                } else {
                    "Game options"
                });
            let arg = match flag.takes {
                Takes::Toggle => arg
                    .num_args(0..=1)
                    .require_equals(true)
                    .default_missing_value("true")
                    .value_name("true|false")
                    .hide_possible_values(true)
                    .value_parser(clap::value_parser!(bool))
                    .action(ArgAction::Set),
                Takes::Number => arg.value_name("N"),
                Takes::Seat => arg
                    .value_name("SEAT")
                    .value_parser(clap::value_parser!(u64).range(1..)),
                Takes::Text => arg.value_name("VALUE"),
            };
            cmd = cmd.arg(arg);
        }
        cmd.arg(
            Arg::new("cards")
                .long("cards")
                .value_name("FILE")
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help("Card data from a JSON file whose keys join the options: Drop Site `deck` (a list of {value, copies, points}), Distop-IA `limits` ([A, B, C, D]). Checked with every problem listed; records and shards carry it"),
        )
        .arg(
            Arg::new("opt")
                .long("opt")
                .value_name("KEY=VALUE")
                .action(ArgAction::Append)
                .help("Any option of the game, as KEY=VALUE (VALUE is JSON, or else a string)"),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for GameOptions {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut options = GameOptions::default();
        options.update_from_arg_matches(matches)?;
        Ok(options)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        if let Some(p) = matches.get_one::<usize>("players") {
            self.players = Some(*p);
        }
        for flag in flags() {
            let value = match flag.takes {
                Takes::Toggle => matches.get_one::<bool>(flag.key).map(|b| Value::Bool(*b)),
                Takes::Seat => matches.get_one::<u64>(flag.key).map(|s| Value::from(s - 1)),
                Takes::Number => match matches.get_one::<String>(flag.key) {
                    Some(text) if text == "none" => Some(Value::Null),
                    Some(text) => Some(text.parse::<i64>().map(Value::from).map_err(|_| {
                        clap::Error::raw(
                            clap::error::ErrorKind::ValueValidation,
                            format!("--{} takes a whole number, not `{text}`\n", long(flag.key)),
                        )
                    })?),
                    None => None,
                },
                // A choice's empty value is JSON `null` (`--collaborator null`).
                Takes::Text => matches
                    .get_one::<String>(flag.key)
                    .map(|t| match t.as_str() {
                        "null" => Value::Null,
                        _ => Value::String(t.clone()),
                    }),
            };
            if let Some(value) = value {
                self.given.insert(flag.key.to_string(), value);
            }
        }
        if let Some(path) = matches.get_one::<std::path::PathBuf>("cards") {
            self.cards = Some(path.clone());
        }
        if let Some(extra) = matches.get_many::<String>("opt") {
            self.extra.extend(extra.cloned());
        }
        Ok(())
    }
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
    /// A malformed `--opt`, or a number of players the game does not seat.
    pub fn to_config(&self, game: &str) -> anyhow::Result<Value> {
        let game = catalog::game(game).map_err(user)?;
        let mut map = self.given.clone();
        if let Some(p) = self.players {
            game.with_players(&mut map, p).map_err(user)?;
        }
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
        outln!("{name}: options {}", game.default_config())?;
    }
    Ok(())
}

/// A command run on one game with its options (`sim`, `tournament`, `tune`, `bench`): it gets
/// them both as the game's typed config and as the JSON they were read from.
pub trait OnGame {
    fn run<G: engine::Game>(self, config: G::Config, json: &Value) -> anyhow::Result<()>;
}

/// Runs `command` on the game named `game`, with `config` read as that game's config.
pub fn run_on_game<C: OnGame>(game: &str, config: Value, command: C) -> anyhow::Result<()> {
    struct Visitor<C> {
        config: Value,
        command: C,
    }
    impl<C: OnGame> catalog::Visit for Visitor<C> {
        type Out = anyhow::Result<()>;
        fn visit<G: engine::Game>(self) -> anyhow::Result<()> {
            let typed = engine::Typed::<G>::config(&self.config).map_err(user)?;
            self.command.run::<G>(typed, &self.config)
        }
    }
    catalog::with_game(game, Visitor { config, command }).map_err(user)?
}

/// A batch's progress over `games` games: a bar where stderr is a terminal, and where it
/// is not (a log, CI) a plain line at each tenth of the batch, so that a long run can be
/// followed there too.
pub fn progress(games: u64) -> Progress {
    let bar = indicatif::ProgressBar::new(games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games · {per_sec} · eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Progress {
        bar,
        plain: !std::io::IsTerminal::is_terminal(&std::io::stderr()),
        done: std::sync::atomic::AtomicU64::new(0),
        games,
        started: std::time::Instant::now(),
    }
}

/// The plain progress line due when `n` more games make `done` of `games`, `seconds` into
/// the run: one at each tenth of the batch crossed, none in the first [`QUIET_SECONDS`]
/// (a short run's answer comes before anyone looks at a log). `message` (the bar's, a copy)
/// is asked for only when a line is due.
fn plain_line(
    message: impl FnOnce() -> String,
    done: u64,
    n: u64,
    games: u64,
    seconds: u64,
) -> Option<String> {
    let tenth = |k: u64| k.saturating_mul(10).checked_div(games);
    if tenth(done) <= tenth(done.saturating_sub(n)) || seconds < QUIET_SECONDS {
        return None;
    }
    let message = message();
    let lead = if message.is_empty() {
        String::new()
    } else {
        format!("{message}: ")
    };
    let after = if seconds < 120 {
        format!("{seconds} s")
    } else {
        format!("{} min", seconds / 60)
    };
    let percent = done.saturating_mul(100) / games;
    Some(format!(
        "{lead}{done} of {games} games ({percent}%) after {after}"
    ))
}

/// How long a run goes before its plain progress lines start.
const QUIET_SECONDS: u64 = 10;

/// See [`progress`]. Shared by the threads that play the games.
pub struct Progress {
    bar: indicatif::ProgressBar,
    /// Whether stderr gets the plain lines (it is not a terminal: the bar is not drawn).
    plain: bool,
    /// Games done, counted here so that each tenth is told exactly once.
    done: std::sync::atomic::AtomicU64,
    games: u64,
    started: std::time::Instant,
}

impl Progress {
    /// `n` more games are done.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
        if !self.plain {
            return;
        }
        let done = self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
        let seconds = self.started.elapsed().as_secs();
        if let Some(line) = plain_line(|| self.bar.message(), done, n, self.games, seconds) {
            // A log that cannot take the line does not stop the games.
            let _ = errln!("{line}");
        }
    }

    /// Names the part of the run under way (shown beside the bar and in the plain lines).
    pub fn set_message(&self, message: &'static str) {
        self.bar.set_message(message);
    }

    /// Clears the bar at the end (the plain lines stay).
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
    }
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

/// A `--bots`-style flag's help: `lead`, then every bot by name from the one list
/// ([`bots::BotSpec::NAMED`]).
pub fn bots_help(lead: &str) -> String {
    format!("{lead}: {}", bots::BotSpec::bot_choices())
}

/// Prints a report as one JSON object, or as its text tables.
pub fn print_report<R: serde::Serialize + std::fmt::Display>(
    report: &R,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string(report)?)?;
    } else {
        outln!("{report}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_progress_is_told_at_each_tenth_after_the_first_seconds() {
        let lines: Vec<String> = (1..=1000)
            .filter_map(|done| plain_line(String::new, done, 1, 1000, 60))
            .collect();
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[0], "100 of 1000 games (10%) after 60 s");
        assert_eq!(lines[9], "1000 of 1000 games (100%) after 60 s");
        // Crossed inside a step of several games: told once, with the count reached.
        assert_eq!(
            plain_line(|| "A".into(), 205, 10, 1000, 300).as_deref(),
            Some("A: 205 of 1000 games (20%) after 5 min")
        );
        assert_eq!(plain_line(String::new, 195, 10, 1000, 300), None);
        // Quiet in the first seconds, and with no games.
        assert_eq!(
            plain_line(String::new, 100, 1, 1000, QUIET_SECONDS - 1),
            None
        );
        assert_eq!(plain_line(String::new, 1, 1, 0, 60), None);
    }
}
