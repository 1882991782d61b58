//! `tabletop soak`: many random games on all cores, every move checked against what any
//! game must keep, the whole conformance harness on a sample; the first faults told with
//! their game, seed and move.
//!
//! Each game draws its table size from the game's player range and its options from the
//! game's own option list (a toggle either way, a choice among its values, a number near
//! its default or its least, a seat of the table), each option changed in about half the
//! games, so defaults and variants both get played. Its moves are random, except in a
//! share of the games where the heuristic bot plays some seats. Before every move the
//! state must validate (components conserved, counts in range), a seat to act must have
//! legal actions and no outcome yet, the game must end within a bound with a well-formed
//! outcome, and a move must not panic (each game runs under `catch_unwind`); before some
//! moves one illegal or malformed action is tried, which must be refused with the state
//! left exactly as it was. Everything is seeded from `--seed` and the game's number.
use crate::options::GameOptions;
use crate::user;
use bots::{BotSpec, Observer};
use catalog::Visit;
use clap::Args;
use engine::prelude::*;
use engine::{derive_seed, rng_from_seed, About, DynGame, GameRecord, Input, Typed};
use rand::seq::IndexedRandom;
use rand::Rng;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::time::Instant;

#[derive(Args)]
pub struct SoakArgs {
    /// dropsite, distopia or euphoria.
    game: String,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The share of games (0 to 1) in which the heuristic bot plays some seats (random
    /// moves elsewhere).
    #[arg(long, default_value_t = 0.1)]
    bots_share: f64,
    /// The soak's seed: game i is seeded from it and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The number of the first game: games FIRST to FIRST + N - 1 are played, so a long
    /// soak can run in parts (each part finds what the whole run would find in its games).
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Every Nth game (from game 0) also runs under the whole conformance harness
    /// (engine::conformance: every legal action applied, views, events and undo checked
    /// against determinizations, the record replayed); 0 for none.
    #[arg(long, default_value_t = 1000)]
    conformance_every: u64,
    /// A game still running after this many moves is handed to the heuristic bot at
    /// every seat, which must end it within as many moves again, or it is a fault
    /// (random 5-player Euphoria games can wander for millions of moves once only the
    /// markets give stars: docs/rulings.md, "Random play length").
    #[arg(long, default_value_t = 1_000_000)]
    max_moves: usize,
    /// Worker threads (default: all cores). What is found does not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Write every fault found, with the record of its game up to the faulty move, to
    /// this JSON file.
    #[arg(long, value_name = "FILE")]
    faults: Option<std::path::PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Options given here are kept in every game; the others are drawn.
    #[command(flatten)]
    options: GameOptions,
}

/// The share of moves before which an illegal or malformed action is tried.
const REFUSAL_SHARE: f64 = 0.1;
/// How many times a game's options are drawn again when the game refuses them.
const REDRAWS: usize = 20;
/// How many actions seen earlier in a game are drawn when looking for one that is not
/// legal now.
const EARLIER_DRAWS: usize = 4;
/// How many faults the report describes (all are counted, and written with `--faults`).
const SHOWN: usize = 10;

/// One broken rule of the soak.
#[derive(Clone, Debug, Serialize)]
pub struct Fault {
    /// The game's number in the soak, from 0.
    pub game: u64,
    /// The game's seed (its record's).
    pub seed: u64,
    /// The move before which it broke, from 0 (the moves made are the record's).
    #[serde(rename = "move")]
    pub at: usize,
    /// What broke, in words.
    pub what: String,
    /// Whether the whole conformance harness found it (in a replay of the same game
    /// with its own random moves) rather than the soak's own checks.
    pub conformance: bool,
    /// The game up to the fault: its options, seed and the moves made.
    pub record: GameRecord,
}

/// What the soak found, summed over games.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    pub games: u64,
    pub moves: u64,
    /// Illegal or malformed actions tried (each refused, the state unchanged).
    pub refusals: u64,
    /// Games in which the heuristic bot played.
    pub bot_games: u64,
    /// Games that reached `--max-moves` and that the heuristic bot then ended.
    pub finished_by_bot: u64,
    /// Games also played under the whole conformance harness.
    pub conformance_games: u64,
    /// Option draws the game refused (and that were drawn again).
    pub redrawn: u64,
    /// Games by table size.
    pub players: BTreeMap<usize, u64>,
    /// Games by option value drawn (`key=value`).
    pub options: BTreeMap<String, u64>,
    pub fault_count: u64,
    /// The faults of the lowest-numbered games.
    pub faults: Vec<Fault>,
}

impl Tally {
    fn add(mut self, other: Tally) -> Tally {
        self.games += other.games;
        self.moves += other.moves;
        self.refusals += other.refusals;
        self.bot_games += other.bot_games;
        self.finished_by_bot += other.finished_by_bot;
        self.conformance_games += other.conformance_games;
        self.redrawn += other.redrawn;
        for (k, n) in other.players {
            *self.players.entry(k).or_default() += n;
        }
        for (k, n) in other.options {
            *self.options.entry(k).or_default() += n;
        }
        self.fault_count += other.fault_count;
        self.faults.extend(other.faults);
        self.faults.sort_by_key(|f| (f.game, f.conformance));
        if !KEEP_ALL.load(std::sync::atomic::Ordering::Relaxed) {
            self.faults.truncate(SHOWN);
        }
        self
    }
}

/// Whether every fault is kept (for `--faults FILE`), not only the first few.
static KEEP_ALL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The soak's report.
#[derive(Serialize)]
struct Report<'a> {
    game: &'static str,
    seed: u64,
    /// The first game's number.
    first: u64,
    threads: usize,
    /// The move cap after which the heuristic bot plays every seat.
    max_moves: usize,
    seconds: f64,
    games_per_second: f64,
    #[serde(flatten)]
    tally: &'a Tally,
}

/// How a game's options are drawn: from the game's description, around the options the
/// command line fixed.
struct Draw<'a> {
    about: About,
    game: &'a dyn DynGame,
    fixed: Map<String, Value>,
}

impl Draw<'_> {
    /// One game's config as JSON: the fixed options, a table size, and each other option
    /// changed from its default in about half the games.
    fn config(&self, rng: &mut impl Rng) -> Result<Map<String, Value>, engine::ConfigError> {
        let mut map = self.fixed.clone();
        let players = match map.get("players").and_then(Value::as_u64) {
            Some(p) => p as usize,
            None => {
                let range = self.about.players;
                let players = rng.random_range(range.min..=range.max);
                self.game.with_players(&mut map, players)?;
                players
            }
        };
        for option in &self.about.options {
            if map.contains_key(option.key) || !rng.random_bool(0.5) {
                continue;
            }
            let value = match &option.input {
                Input::Toggle => Value::Bool(rng.random_bool(0.5)),
                Input::Choice { choices } => match choices.choose(rng) {
                    Some(choice) => choice.value.clone(),
                    None => continue,
                },
                Input::Seat => Value::from(rng.random_range(0..players.max(1))),
                Input::Number { min, max, none } => {
                    number(*min, *max, none.is_some(), &option.default, rng)
                }
                // Card data comes from files; the printed cards are played.
                Input::Data => continue,
            };
            map.insert(option.key.to_string(), value);
        }
        Ok(map)
    }
}

/// A number for an option from `min` to `max`: its least, or one up to twice its
/// default (up to 20 above its least where the default is no number), or none where it
/// may be left empty. Ranges reach far (a target of 10,000 points), but a game near its
/// default is the one people play, and one that ends.
fn number(min: i64, max: i64, may_be_none: bool, default: &Value, rng: &mut impl Rng) -> Value {
    let high = match default.as_i64() {
        Some(d) => (2 * d).max(min + 1),
        None => min + 20,
    }
    .min(max)
    .max(min);
    match rng.random_range(0..10) {
        0 | 1 => Value::from(min),
        2 if may_be_none => Value::Null,
        _ => Value::from(rng.random_range(min..=high)),
    }
}

/// Counts the drawn options of one game (`key=value`, the table size apart).
fn count_options(config: &Value, about: &About, tally: &mut Tally) {
    for option in &about.options {
        if option.key == "players" || option.input == Input::Data {
            continue;
        }
        let value = config.get(option.key).unwrap_or(&option.default);
        *tally
            .options
            .entry(format!("{}={value}", option.key))
            .or_default() += 1;
    }
}

/// A fault as the checks of one game report it: where, and what.
struct Broke {
    at: usize,
    what: String,
}

/// What one game's soak counted.
#[derive(Default)]
struct Counts {
    moves: u64,
    refusals: u64,
}

std::thread_local! {
    /// The last panic on this thread, as the soak's panic hook keeps it.
    static PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`, turning a panic into its message and place.
fn no_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        PANIC
            .with(|p| p.borrow_mut().take())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_else(|| "a panic".into())
    })
}

/// Characters a malformed action is made of.
const NOISE: &[char] = &[
    '0', '1', '2', '3', '7', '9', 'a', 'e', 'p', 'x', ' ', '@', '-', ':', ',', '#', 'é', '\u{200b}',
];

/// An action text that is not quite a legal one: `text` with a character changed,
/// removed or added, cut short, or plain noise.
fn mangle(text: &str, rng: &mut impl Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let noise = |rng: &mut dyn rand::RngCore| NOISE[rng.random_range(0..NOISE.len())];
    match rng.random_range(0..6) {
        0 if !chars.is_empty() => {
            let i = rng.random_range(0..chars.len());
            chars[i] = noise(rng);
        }
        1 if !chars.is_empty() => {
            chars.remove(rng.random_range(0..chars.len()));
        }
        2 => {
            let i = rng.random_range(0..=chars.len());
            chars.insert(i, noise(rng));
        }
        3 => chars.truncate(rng.random_range(0..=chars.len())),
        4 => chars.extend([' ', noise(rng), noise(rng)]),
        _ => {
            let n = rng.random_range(0..10);
            chars = (0..n).map(|_| noise(rng)).collect();
        }
    }
    chars.into_iter().collect()
}

/// Tries one action that is not legal now (one seen earlier in the game, or a mangled
/// text that parses): it must be refused, leaving the state exactly as it was.
fn try_refusal<G: Game>(
    game: &mut G,
    legal: &[G::Action],
    seen: &[G::Action],
    rng: &mut impl Rng,
) -> Result<bool, String> {
    // An action seen earlier that is not legal now: a few draws among those seen (a long
    // game has seen thousands, and filtering them all before every try would cost more
    // than the game's own moves).
    let earlier = (0..EARLIER_DRAWS)
        .filter_map(|_| seen.choose(rng))
        .find(|a| !legal.contains(a));
    let candidate = if let Some(&earlier) = earlier.filter(|_| rng.random_bool(0.5)) {
        Some(earlier)
    } else {
        let text = legal
            .choose(rng)
            .map(ToString::to_string)
            .unwrap_or_default();
        let mangled = mangle(&text, rng);
        mangled.parse::<G::Action>().ok()
    };
    let Some(action) = candidate.filter(|a| !legal.contains(a)) else {
        return Ok(false);
    };
    if game.is_legal(action) {
        return Err(format!(
            "is_legal accepts `{action}`, which the legal list does not hold"
        ));
    }
    let before = game.clone();
    if game.apply(action).is_ok() {
        return Err(format!(
            "`{action}` was accepted but is not in the legal list"
        ));
    }
    if *game != before {
        return Err(format!("refusing `{action}` changed the state"));
    }
    Ok(true)
}

/// Plays `game` (new, seeded with `seed`) with the soak's checks, its moves going into
/// `record`.
fn soak_game<G: Game>(
    mut game: G,
    seed: u64,
    bots: bool,
    max_moves: usize,
    record: &mut GameRecord,
    counts: &mut Counts,
) -> Result<(), Broke> {
    let mut rng = rng_from_seed(seed ^ 0x50A4_50A4);
    let seats = game.seats();
    // In a bot game the heuristic bot plays each seat with even odds, one seat at least.
    let heuristic: Vec<bool> = if bots {
        let first = rng.random_range(0..seats.max(1));
        (0..seats)
            .map(|s| s == first || rng.random_bool(0.5))
            .collect()
    } else {
        vec![false; seats]
    };
    let heuristic_bot = |s: usize, at: usize| {
        bots::make_bot::<G>(&BotSpec::Heuristic, derive_seed(seed, s as u64 + 1))
            .map_err(|e| broke(at, format!("no heuristic bot: {e}")))
    };
    let mut players: Vec<Option<Box<dyn bots::Bot<G>>>> = (0..seats)
        .map(|s| heuristic[s].then(|| heuristic_bot(s, 0)).transpose())
        .collect::<Result<_, _>>()?;
    let mut legal = Vec::new();
    let mut seen: Vec<G::Action> = Vec::new();
    let mut seen_set: HashSet<G::Action> = HashSet::new();
    loop {
        let at = record.actions.len();
        game.validate()
            .map_err(|p| broke(at, format!("invalid state: {}", p.join("; "))))?;
        let Some(seat) = game.to_act() else {
            let outcome = game
                .outcome()
                .ok_or_else(|| broke(at, "no seat to act, but no outcome".into()))?;
            outcome.check(seats).map_err(|e| broke(at, e))?;
            game.legal_actions(&mut legal);
            if !legal.is_empty() {
                return Err(broke(at, "the game is over but actions are offered".into()));
            }
            return Ok(());
        };
        if seat >= seats {
            return Err(broke(at, format!("seat {} of {seats} is to act", seat + 1)));
        }
        if game.outcome().is_some() {
            return Err(broke(at, "an outcome while a seat is still to act".into()));
        }
        if at == max_moves {
            // Random play may wander for ever where a game ends only by a plan: the game
            // must still be able to end, so the heuristic bot plays on at every seat.
            for (s, player) in players.iter_mut().enumerate() {
                if player.is_none() {
                    *player = Some(heuristic_bot(s, at)?);
                }
            }
        }
        if at >= 2 * max_moves {
            return Err(broke(
                at,
                format!(
                    "the game did not end within {max_moves} moves, nor in {max_moves} more with the heuristic bot at every seat"
                ),
            ));
        }
        game.legal_actions(&mut legal);
        if legal.is_empty() {
            return Err(broke(
                at,
                format!("seat {} is to act but has no legal action", seat + 1),
            ));
        }
        if rng.random_bool(REFUSAL_SHARE) {
            let tried =
                try_refusal(&mut game, &legal, &seen, &mut rng).map_err(|e| broke(at, e))?;
            counts.refusals += u64::from(tried);
        }
        let action = match players[seat].as_mut() {
            Some(bot) => {
                let observer = Observer::new(&game)
                    .ok_or_else(|| broke(at, "no observer for a running game".into()))?;
                let action = bot.choose(&observer).ok_or_else(|| {
                    broke(
                        at,
                        format!("the heuristic bot found no action for seat {}", seat + 1),
                    )
                })?;
                if !legal.contains(&action) {
                    return Err(broke(
                        at,
                        format!("the heuristic bot chose `{action}`, which is not legal"),
                    ));
                }
                action
            }
            None => *legal
                .choose(&mut rng)
                .ok_or_else(|| broke(at, "no legal action".into()))?,
        };
        let text = action.to_string();
        if text.parse::<G::Action>().ok() != Some(action) {
            return Err(broke(at, format!("`{text}` does not parse back to itself")));
        }
        game.apply(action)
            .map_err(|e| broke(at, format!("the legal `{text}` was refused: {e}")))?;
        record.actions.push(text);
        counts.moves += 1;
        if seen_set.insert(action) {
            seen.push(action);
        }
    }
}

fn broke(at: usize, what: String) -> Broke {
    Broke { at, what }
}

/// Plays soak game `index`: its options drawn, its checks, and the conformance harness
/// when its number says so.
fn one_game<G: Game>(index: u64, draw: &Draw<'_>, args: &SoakArgs) -> Tally {
    let seed = derive_seed(args.seed, index);
    let mut rng = rng_from_seed(seed ^ 0x0D7A_0D7A);
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    let made = |json: Value| -> Result<(G::Config, Value, G), engine::ConfigError> {
        let config = Typed::<G>::config(&json)?;
        let game = G::new(&config, seed)?;
        Ok((config, json, game))
    };
    let mut found = None;
    for _ in 0..REDRAWS {
        match draw.config(&mut rng).map(Value::Object).and_then(made) {
            Ok(game) => {
                found = Some(game);
                break;
            }
            Err(_) => tally.redrawn += 1,
        }
    }
    // The fixed options alone make a game (checked before the soak starts).
    let Some((config, json, game)) = found.or_else(|| made(Value::Object(draw.fixed.clone())).ok())
    else {
        return tally;
    };
    *tally.players.entry(game.seats()).or_default() += 1;
    count_options(&json, &draw.about, &mut tally);
    let bots = rng.random_bool(args.bots_share.clamp(0.0, 1.0));
    tally.bot_games += u64::from(bots);
    let mut record = GameRecord::start::<G>(&config, seed);
    let mut counts = Counts::default();
    let found = match no_panic(|| {
        soak_game::<G>(game, seed, bots, args.max_moves, &mut record, &mut counts)
    }) {
        Ok(result) => result.err(),
        Err(panic) => Some(broke(record.actions.len(), format!("panicked: {panic}"))),
    };
    tally.moves = counts.moves;
    tally.refusals = counts.refusals;
    // A game still to be played at the cap went on with the bot at every seat (it moved
    // at least once more).
    tally.finished_by_bot = u64::from(record.actions.len() > args.max_moves && found.is_none());
    if let Some(Broke { at, what }) = found {
        tally.fault_count += 1;
        tally.faults.push(Fault {
            game: index,
            seed,
            at,
            what,
            conformance: false,
            record: record.clone(),
        });
    }
    if args.conformance_every > 0 && index.is_multiple_of(args.conformance_every) {
        tally.conformance_games += 1;
        let options = engine::conformance::Options {
            games: 1,
            first_seed: seed,
            max_steps: args.max_moves,
            deep_every: 1,
        };
        let result = no_panic(|| engine::conformance::check::<G>(&config, seed, &options));
        if let Some(what) = match result {
            Ok(Ok(_)) => None,
            Ok(Err(e)) => Some(format!("conformance: {e}")),
            Err(panic) => Some(format!("conformance panicked: {panic}")),
        } {
            tally.fault_count += 1;
            tally.faults.push(Fault {
                game: index,
                seed,
                // The harness names its step in its words.
                at: 0,
                what,
                conformance: true,
                record: GameRecord::start::<G>(&config, seed),
            });
        }
    }
    tally
}

struct Soak {
    args: SoakArgs,
    fixed: Map<String, Value>,
}

impl Visit for Soak {
    type Out = anyhow::Result<()>;
    fn visit<G: Game>(self) -> anyhow::Result<()> {
        let args = self.args;
        if !(0.0..=1.0).contains(&args.bots_share) {
            return Err(user(format!(
                "--bots-share is a share from 0 to 1, not {}",
                args.bots_share
            )));
        }
        let typed = Typed::<G>::default();
        // The options given must make a game on their own.
        let fixed_config = Typed::<G>::config(&Value::Object(self.fixed.clone())).map_err(user)?;
        G::new(&fixed_config, args.seed).map_err(user)?;
        let draw = Draw {
            about: typed.about(),
            game: &typed,
            fixed: self.fixed,
        };
        let pool = sim::thread_pool(args.threads)?;
        let threads = pool.current_num_threads();
        KEEP_ALL.store(args.faults.is_some(), std::sync::atomic::Ordering::Relaxed);
        let bar = crate::options::progress(args.games);
        // A panic is a fault to report, not a message on the terminal: the hook keeps it
        // for `no_panic`, and the usual hook comes back afterwards.
        let usual = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()));
        }));
        let start = Instant::now();
        let tally = pool.install(|| {
            (args.first..args.first.saturating_add(args.games))
                .into_par_iter()
                .map(|i| {
                    let t = one_game::<G>(i, &draw, &args);
                    bar.inc(1);
                    t
                })
                .reduce(Tally::default, Tally::add)
        });
        let seconds = start.elapsed().as_secs_f64();
        std::panic::set_hook(usual);
        bar.finish_and_clear();
        if let Some(path) = &args.faults {
            std::fs::write(path, serde_json::to_string_pretty(&tally.faults)?)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        }
        let report = Report {
            game: G::NAME,
            seed: args.seed,
            first: args.first,
            threads,
            max_moves: args.max_moves,
            seconds,
            games_per_second: tally.games as f64 / seconds.max(1e-9),
            tally: &tally,
        };
        if args.json {
            outln!("{}", serde_json::to_string(&report)?)?;
        } else {
            print_text(&report)?;
        }
        if tally.fault_count > 0 {
            return Err(anyhow::anyhow!(
                "{} faults in {} {} games (seed {})",
                tally.fault_count,
                tally.games,
                G::NAME,
                args.seed
            ));
        }
        Ok(())
    }
}

fn print_text(report: &Report<'_>) -> anyhow::Result<()> {
    let t = report.tally;
    outln!(
        "soak {} (seed {}, games {}-{}): {} games, {} moves, {} refusals checked; {} games with the heuristic bot, {} under the whole conformance harness",
        report.game,
        report.seed,
        report.first,
        report.first + t.games.saturating_sub(1),
        t.games,
        t.moves,
        t.refusals,
        t.bot_games,
        t.conformance_games
    )?;
    if t.finished_by_bot > 0 {
        outln!(
            "{} reached {} moves, then ended with the heuristic bot at every seat",
            engine::ending::plural(t.finished_by_bot as i64, "game", "games"),
            report.max_moves
        )?;
    }
    let sizes: Vec<String> = (t.players.iter())
        .map(|(p, n)| format!("{p} players: {n}"))
        .collect();
    outln!("tables: {}", sizes.join(", "))?;
    outln!(
        "options drawn ({} draws the game refused were drawn again):",
        t.redrawn
    )?;
    for line in option_lines(&t.options) {
        outln!("  {line}")?;
    }
    outln!(
        "wall time {:.1} s on {} threads: {:.0} games/s, {:.0} moves/s",
        report.seconds,
        report.threads,
        report.games_per_second,
        t.moves as f64 / report.seconds.max(1e-9)
    )?;
    outln!("faults: {}", t.fault_count)?;
    for f in t.faults.iter().take(SHOWN) {
        outln!(
            "  game {} (seed {}), {}: {}",
            f.game,
            f.seed,
            if f.conformance {
                "under the conformance harness".to_string()
            } else {
                format!("move {}", f.at + 1)
            },
            f.what
        )?;
        outln!("    options {}", f.record.config)?;
    }
    if t.fault_count > 0 {
        outln!("(--faults FILE writes every fault with its game's record, for `tabletop replay`)")?;
    }
    Ok(())
}

/// The games by option value, one line an option: every value with its games, or for a
/// number with many values the three most played and the range of the others.
fn option_lines(options: &BTreeMap<String, u64>) -> Vec<String> {
    let mut by_key: BTreeMap<&str, Vec<(&str, u64)>> = BTreeMap::new();
    for (drawn, &n) in options {
        if let Some((key, value)) = drawn.split_once('=') {
            by_key.entry(key).or_default().push((value, n));
        }
    }
    by_key
        .into_iter()
        .map(|(key, mut values)| {
            values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let numbers: Vec<i64> = values.iter().filter_map(|(v, _)| v.parse().ok()).collect();
            let shown = if values.len() > 6 && numbers.len() + 1 >= values.len() {
                let rest = &values[3..];
                let rest_numbers: Vec<i64> =
                    rest.iter().filter_map(|(v, _)| v.parse().ok()).collect();
                let (lo, hi) = (
                    rest_numbers.iter().min().copied().unwrap_or(0),
                    rest_numbers.iter().max().copied().unwrap_or(0),
                );
                let games: u64 = rest.iter().map(|(_, n)| n).sum();
                let mut parts: Vec<String> = values[..3]
                    .iter()
                    .map(|(v, n)| format!("{v} {n}"))
                    .collect();
                parts.push(format!(
                    "{} other values from {lo} to {hi} {games}",
                    rest.len()
                ));
                parts
            } else {
                values.iter().map(|(v, n)| format!("{v} {n}")).collect()
            };
            format!("{key}: {}", shown.join(", "))
        })
        .collect()
}

pub fn run(args: SoakArgs) -> anyhow::Result<()> {
    let fixed = match args.options.to_config(&args.game)? {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let game = args.game.clone();
    catalog::with_game(&game, Soak { args, fixed }).map_err(user)?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_with_its_message() {
        assert_eq!(no_panic(|| 7), Ok(7));
        let caught = no_panic(|| -> u8 { panic!("the deck ran out") });
        assert!(caught.is_err_and(|m| m.contains("the deck ran out")));
    }

    #[test]
    fn numbers_stay_in_the_options_range_near_its_default() {
        let mut rng = rng_from_seed(3);
        let mut seen = HashSet::new();
        for _ in 0..2000 {
            let v = number(1, 10_000, false, &Value::from(100), &mut rng);
            let n = v
                .as_i64()
                .expect("a number: this option may not be left empty");
            assert!((1..=200).contains(&n), "{n}");
            seen.insert(n);
            let v = number(0, 1000, true, &Value::Null, &mut rng);
            assert!(
                v.is_null() || v.as_i64().is_some_and(|n| (0..=20).contains(&n)),
                "{v}"
            );
        }
        assert!(
            seen.contains(&1) && seen.len() > 100,
            "the least and a spread"
        );
    }

    #[test]
    fn mangled_actions_differ_from_the_legal_one_now_and_then() {
        let mut rng = rng_from_seed(5);
        let texts: HashSet<String> = (0..200).map(|_| mangle("7 on 2", &mut rng)).collect();
        assert!(texts.len() > 50, "{texts:?}");
        assert!(texts.iter().any(String::is_empty));
    }
}
