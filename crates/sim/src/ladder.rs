//! A ladder: the bot levels of one game rated on one Elo scale, resumable game by game.
//!
//! Every pair of levels plays `games_per_pair` games, seated as a [`crate::tournament`]
//! seats a pair ([`seating`]): at 2 seats the two swap seats every game; at 4 seats a game
//! is two against two, each level at two seats opposite each other (ABAB, then BABA, and
//! around the table), so over every 8 games each level sits at each seat 4 times; a level
//! scores the sum of its seats' rewards (a win 1, a shared win its share), so one of the
//! two sides wins each game. The games are played round by round (game 0 of every pair,
//! then game 1, ...), so a ladder stopped early still holds every pair about equally.
//!
//! Each finished game is appended to a JSON Lines file as soon as it ends: the first line
//! names the game, its config and the seed, every other line is one [`LadderGame`]. Run
//! again on the same file, the ladder skips the games the file holds and plays the rest;
//! a line cut short by a stop is dropped and its game played again. A game's seed depends
//! only on the ladder's seed, the two levels' names and the game's number in the pair
//! ([`pair_seed`]), so a level added later (`expert`) adds its own pairs and replays none.
//!
//! Ratings are a Bradley-Terry fit ([`bradley_terry`]) of every finished game, placed so
//! that the anchor level (`medium`) is exactly 1500: the fit is unchanged by adding a
//! constant to every rating, so fixing the anchor and fitting the others is the fit moved
//! to put the anchor at 1500, and a level added later does not move the scale through the
//! mean. 95% intervals come from a seeded bootstrap over games: each pair's games are
//! drawn again with replacement (as many as it played), the fit redone and anchored, and
//! the 2.5th and 97.5th percentiles of each level's rating kept; the anchor's interval is
//! the anchor itself, the others are relative to it.

use crate::tournament::{bradley_terry, seating, write_pairs, PairResult, Scored};
use crate::{play_game, thread_pool, wilson, SimError};
use bots::{make_bot, BotSpec, Level};
use engine::derive_seed;
use engine::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;
use thiserror::Error;

/// The levels a ladder rates unless told otherwise, weakest first.
pub const LEVELS: [BotSpec; 6] = [
    BotSpec::Random,
    BotSpec::Heuristic,
    BotSpec::Pimc,
    BotSpec::Level(Level::Easy),
    BotSpec::Level(Level::Medium),
    BotSpec::Level(Level::Hard),
];

/// The level held at [`ANCHOR_RATING`] unless told otherwise.
pub const ANCHOR: BotSpec = BotSpec::Level(Level::Medium);

/// The anchor's rating.
pub const ANCHOR_RATING: f64 = 1500.0;

/// What a ladder plays.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderOptions {
    /// The levels; every pair plays. Names must differ.
    pub levels: Vec<BotSpec>,
    /// Games each pair plays in all (a file that holds more keeps them, unreported).
    pub games_per_pair: u64,
    /// The ladder's seed.
    pub seed: u64,
    /// The level rated [`ANCHOR_RATING`]; one of `levels`.
    pub anchor: BotSpec,
    /// Bootstrap resamples for the intervals.
    pub bootstrap: u32,
    /// Worker threads (`None`: one per core). Results do not depend on it; `hard` searches
    /// one tree per thread of this pool.
    pub threads: Option<usize>,
    /// Play at most this many games not yet in the file, then stop (a run in slices).
    pub stop_after: Option<u64>,
}

impl Default for LadderOptions {
    fn default() -> Self {
        LadderOptions {
            levels: LEVELS.to_vec(),
            games_per_pair: 20,
            seed: 1,
            anchor: ANCHOR,
            bootstrap: 1000,
            threads: Some(1),
            stop_after: None,
        }
    }
}

/// Why a ladder cannot run, or stopped.
#[derive(Debug, Error)]
pub enum LadderError {
    #[error("a ladder needs at least two levels")]
    TooFewLevels,
    #[error("the level `{0}` is named twice")]
    Repeated(String),
    #[error("the anchor `{0}` is not one of the levels")]
    NoAnchor(String),
    #[error("cannot {doing} {path}: {source}")]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} holds another ladder ({found}), not this one ({expected}): give another file")]
    OtherLadder {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{path}, line {line}: {message}")]
    Record {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// A bad level or config, a thread pool that cannot start, or a game that broke down.
    #[error(transparent)]
    Sim(#[from] SimError),
}

/// The first line of a ladder file: which ladder its games belong to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The game's name.
    pub ladder: String,
    /// The game's whole config (seats included).
    pub config: serde_json::Value,
    pub seed: u64,
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, seed {}, options {}",
            self.ladder, self.seed, self.config
        )
    }
}

/// One finished game of a ladder: a line of its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderGame {
    /// The pair's levels, `a` the name that sorts first.
    pub a: String,
    pub b: String,
    /// The game's number in the pair, from 0.
    pub k: u64,
    /// The game's seed.
    pub seed: u64,
    /// The seats `a` played (from 0); `b` played the others.
    pub a_seats: Vec<usize>,
    pub scores: Vec<i64>,
    pub places: Vec<u8>,
    /// `a`'s score: the sum of its seats' rewards, in [0, 1].
    pub a_score: f64,
    /// Actions played.
    pub moves: u32,
    /// Wall-clock seconds the game took.
    pub seconds: f64,
}

/// The seed every game of the pair `a`, `b` derives from (game `k`'s is
/// `derive_seed(pair_seed, k)`): the ladder's seed and the two names (FNV-1a, in either
/// order), nothing that changes when levels are added.
pub fn pair_seed(seed: u64, a: &str, b: &str) -> u64 {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in a.bytes().chain([0]).chain(b.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    derive_seed(seed, hash)
}

/// One level's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub name: String,
    pub elo: f64,
    /// The bootstrap's 95% interval.
    pub low: f64,
    pub high: f64,
    /// Games the level played.
    pub games: u64,
}

/// A ladder's standings from the games finished so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderReport {
    pub game: String,
    pub seats: usize,
    pub seed: u64,
    pub anchor: String,
    pub bootstrap: u32,
    /// Games each pair is to play.
    pub games_per_pair: u64,
    /// Games finished and counted (of `pairs × games_per_pair`).
    pub games: u64,
    /// The levels, strongest first.
    pub ratings: Vec<Rating>,
    /// Each pair from the side of the level listed first.
    pub pairs: Vec<PairResult>,
    pub mean_actions: f64,
    /// The games' own wall-clock seconds added up (a run on one thread takes about this).
    pub seconds: f64,
}

/// Checks the levels and the anchor; gives the levels' names.
fn names(opts: &LadderOptions) -> Result<Vec<String>, LadderError> {
    if opts.levels.len() < 2 {
        return Err(LadderError::TooFewLevels);
    }
    let names: Vec<String> = opts.levels.iter().map(ToString::to_string).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(LadderError::Repeated(name.clone()));
        }
    }
    if !opts.levels.contains(&opts.anchor) {
        return Err(LadderError::NoAnchor(opts.anchor.to_string()));
    }
    Ok(names)
}

/// The games a ladder plays, in order: round `k` holds game `k` of every pair. Each is
/// (index of `a`, index of `b`, `k`), `a` the level whose name sorts first.
fn schedule(names: &[String], games_per_pair: u64) -> Vec<(usize, usize, u64)> {
    let pairs = crate::tournament::pairs(names.len());
    let mut out = Vec::with_capacity(pairs.len() * games_per_pair as usize);
    for k in 0..games_per_pair {
        for &(i, j) in &pairs {
            let (a, b) = if names[i] <= names[j] { (i, j) } else { (j, i) };
            out.push((a, b, k));
        }
    }
    out
}

/// Plays game `k` of the pair `a`, `b` (`a`'s name sorts first).
///
/// # Errors
/// A bad config or level, or a game that broke down.
pub fn play_pair_game<G: Game>(
    config: &G::Config,
    seed: u64,
    (a, b): (&BotSpec, &BotSpec),
    k: u64,
) -> Result<LadderGame, SimError> {
    let (a_name, b_name) = (a.to_string(), b.to_string());
    let seats = G::new(config, seed)?.seats();
    let a_at = seating(seats, k);
    let make = |seat: usize, seed: u64| make_bot::<G>(if a_at[seat] { a } else { b }, seed);
    let start = Instant::now();
    let result = play_game::<G>(config, pair_seed(seed, &a_name, &b_name), k, &make)?;
    let outcome = engine::Outcome {
        scores: result.scores.clone(),
        places: result.places.clone(),
    };
    let a_seats: Vec<usize> = (0..seats).filter(|&s| a_at[s]).collect();
    Ok(LadderGame {
        a: a_name,
        b: b_name,
        k,
        seed: result.seed,
        a_score: a_seats.iter().map(|&s| outcome.reward(s)).sum(),
        a_seats,
        scores: result.scores,
        places: result.places,
        moves: result.moves,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// What a ladder file holds: its header and games, and where its last whole line ends.
struct Loaded {
    header: Option<Header>,
    games: Vec<LadderGame>,
    /// The length of the whole lines (a line cut short after them is dropped).
    whole: u64,
    len: u64,
}

fn load(path: &Path) -> Result<Loaded, LadderError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(LadderError::Io {
                doing: "read",
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let mut loaded = Loaded {
        header: None,
        games: Vec::new(),
        whole: whole as u64,
        len: text.len() as u64,
    };
    for (n, line) in text[..whole].lines().enumerate() {
        let bad = |e: serde_json::Error| LadderError::Record {
            path: path.to_path_buf(),
            line: n + 1,
            message: e.to_string(),
        };
        if n == 0 {
            loaded.header = Some(serde_json::from_str(line).map_err(bad)?);
        } else if !line.trim().is_empty() {
            loaded.games.push(serde_json::from_str(line).map_err(bad)?);
        }
    }
    Ok(loaded)
}

/// Plays the ladder's games that `path` does not hold yet (all of them for a new file),
/// appending each to it as it ends, and reports on every game the file then holds.
/// `on_game` is called after each game played (for progress bars), with the number
/// still to play known beforehand from [`remaining`].
///
/// # Errors
/// Bad levels or anchor, a file that cannot be read or written or holds another
/// ladder, a bad config or level, or the first game that broke down (the games finished
/// before it stay in the file).
pub fn run<G: Game>(
    config: &G::Config,
    opts: &LadderOptions,
    path: &Path,
    on_game: &(dyn Fn() + Sync),
) -> Result<LadderReport, LadderError> {
    let names = names(opts)?;
    for spec in &opts.levels {
        make_bot::<G>(spec, 0).map_err(SimError::from)?;
    }
    let seats = G::new(config, opts.seed).map_err(SimError::from)?.seats();
    let header = Header {
        ladder: G::NAME.to_string(),
        config: serde_json::to_value(config).unwrap_or_default(),
        seed: opts.seed,
    };
    let loaded = load(path)?;
    let io = |doing: &'static str| {
        move |source| LadderError::Io {
            doing,
            path: path.to_path_buf(),
            source,
        }
    };
    match &loaded.header {
        Some(found) if *found != header => {
            return Err(LadderError::OtherLadder {
                path: path.to_path_buf(),
                found: found.to_string(),
                expected: header.to_string(),
            })
        }
        _ => {}
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io("open"))?;
    if loaded.whole < loaded.len {
        // A line cut short by a stop: its game is played again.
        file.set_len(loaded.whole).map_err(io("truncate"))?;
    }
    if loaded.header.is_none() {
        let line = serde_json::to_string(&header).unwrap_or_default();
        writeln!(file, "{line}").map_err(io("write"))?;
    }
    let todo = todo(&names, opts, &loaded.games);
    let file = Mutex::new(file);
    let played = Mutex::new(Vec::new());
    let pool = thread_pool(opts.threads)?;
    pool.install(|| {
        todo.par_iter()
            .with_max_len(1)
            .try_for_each(|&(a, b, k)| -> Result<(), LadderError> {
                let levels = (&opts.levels[a], &opts.levels[b]);
                let game = play_pair_game::<G>(config, opts.seed, levels, k)?;
                let line = serde_json::to_string(&game).unwrap_or_default();
                {
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    // One write a line, so a stop cuts at most the last line short.
                    file.write_all(format!("{line}\n").as_bytes())
                        .map_err(io("write"))?;
                }
                played.lock().unwrap_or_else(|e| e.into_inner()).push(game);
                on_game();
                Ok(())
            })
    })?;
    let mut games = loaded.games;
    games.extend(played.into_inner().unwrap_or_else(|e| e.into_inner()));
    Ok(report(G::NAME, seats, opts, &games))
}

/// The games of the ladder that `games` does not hold, in schedule order, at most
/// `opts.stop_after`.
fn todo(names: &[String], opts: &LadderOptions, games: &[LadderGame]) -> Vec<(usize, usize, u64)> {
    let done: HashSet<(&str, &str, u64)> = games
        .iter()
        .map(|g| (g.a.as_str(), g.b.as_str(), g.k))
        .collect();
    schedule(names, opts.games_per_pair)
        .into_iter()
        .filter(|&(a, b, k)| !done.contains(&(names[a].as_str(), names[b].as_str(), k)))
        .take(opts.stop_after.map_or(usize::MAX, |n| n as usize))
        .collect()
}

/// How many games [`run`] would play on `path` now (for a progress bar).
///
/// # Errors
/// As [`run`], for the levels and the file.
pub fn remaining(opts: &LadderOptions, path: &Path) -> Result<u64, LadderError> {
    let names = names(opts)?;
    Ok(todo(&names, opts, &load(path)?.games).len() as u64)
}

/// The standings from finished `games` of a ladder at `seats` seats: the games of pairs of
/// `opts.levels` numbered below `opts.games_per_pair` count; others in the file (a level
/// left out, a longer run) do not.
///
/// # Panics
/// When the levels repeat a name or leave out the anchor (see [`run`]'s errors).
pub fn report(
    game: &str,
    seats: usize,
    opts: &LadderOptions,
    games: &[LadderGame],
) -> LadderReport {
    let names = names(opts).unwrap_or_else(|e| panic!("ladder: {e}"));
    let anchor = names
        .iter()
        .position(|n| *n == opts.anchor.to_string())
        .unwrap_or(0);
    let pairs = crate::tournament::pairs(names.len());
    // Each pair's scores for its first level, in game order (so the bootstrap depends
    // only on the games, not on the order threads finished them).
    let mut scores: Vec<Vec<(u64, f64)>> = vec![Vec::new(); pairs.len()];
    let (mut actions, mut seconds, mut counted) = (0u64, 0.0, 0u64);
    for g in games.iter().filter(|g| g.k < opts.games_per_pair) {
        let find = |n: &str| names.iter().position(|x| x == n);
        let (Some(a), Some(b)) = (find(&g.a), find(&g.b)) else {
            continue;
        };
        let Some(p) = pairs
            .iter()
            .position(|&(i, j)| (i, j) == (a, b) || (j, i) == (a, b))
        else {
            continue;
        };
        let first_is_a = pairs[p].0 == a;
        let s = if first_is_a {
            g.a_score
        } else {
            1.0 - g.a_score
        };
        scores[p].push((g.k, s));
        actions += u64::from(g.moves);
        seconds += g.seconds;
        counted += 1;
    }
    for s in &mut scores {
        s.sort_by_key(|&(k, _)| k);
        s.dedup_by_key(|&mut (k, _)| k);
    }
    let fit = |pair_scores: &[f64], games: &[usize]| -> Vec<f64> {
        let scored: Vec<Scored> = pairs
            .iter()
            .enumerate()
            .filter(|&(p, _)| games[p] > 0)
            .map(|(p, &(i, j))| Scored {
                a: i,
                b: j,
                a_score: pair_scores[p],
                games: games[p] as f64,
            })
            .collect();
        let r = bradley_terry(names.len(), &scored);
        r.iter().map(|x| ANCHOR_RATING + x - r[anchor]).collect()
    };
    let played: Vec<usize> = scores.iter().map(Vec::len).collect();
    let totals: Vec<f64> = scores
        .iter()
        .map(|s| s.iter().map(|&(_, x)| x).sum())
        .collect();
    let elo = fit(&totals, &played);
    // The bootstrap: each pair's games drawn again with replacement, the fit redone.
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(opts.seed, 0xB007));
    let mut draws: Vec<Vec<f64>> = vec![Vec::with_capacity(opts.bootstrap as usize); names.len()];
    for _ in 0..opts.bootstrap {
        let resampled: Vec<f64> = scores
            .iter()
            .map(|s| {
                (0..s.len())
                    .map(|_| s[rng.random_range(0..s.len())].1)
                    .sum()
            })
            .collect();
        for (d, r) in draws.iter_mut().zip(fit(&resampled, &played)) {
            d.push(r);
        }
    }
    let mut ratings: Vec<Rating> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (low, high) = percentiles(&mut draws[i]).unwrap_or((elo[i], elo[i]));
            let games = pairs
                .iter()
                .zip(&played)
                .filter(|((a, b), _)| *a == i || *b == i)
                .map(|(_, &n)| n as u64)
                .sum();
            Rating {
                name: name.clone(),
                elo: elo[i],
                low,
                high,
                games,
            }
        })
        .collect();
    ratings.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    let pair_results = pairs
        .iter()
        .enumerate()
        .map(|(p, &(i, j))| {
            let n = played[p] as u64;
            let score = totals[p];
            let a_wins = scores[p].iter().filter(|&&(_, s)| s > 0.5).count() as u64;
            let b_wins = scores[p].iter().filter(|&&(_, s)| s < 0.5).count() as u64;
            let (low, high) = wilson(score, n as f64);
            PairResult {
                a: names[i].clone(),
                b: names[j].clone(),
                games: n,
                a_wins,
                b_wins,
                a_score: score,
                win_rate: if n > 0 { score / n as f64 } else { 0.5 },
                low,
                high,
            }
        })
        .collect();
    LadderReport {
        game: game.to_string(),
        seats,
        seed: opts.seed,
        anchor: names[anchor].clone(),
        bootstrap: opts.bootstrap,
        games_per_pair: opts.games_per_pair,
        games: counted,
        ratings,
        pairs: pair_results,
        mean_actions: if counted > 0 {
            actions as f64 / counted as f64
        } else {
            0.0
        },
        seconds,
    }
}

/// The 2.5th and 97.5th percentiles of `draws` (nearest rank), or `None` without draws.
fn percentiles(draws: &mut [f64]) -> Option<(f64, f64)> {
    if draws.is_empty() {
        return None;
    }
    draws.sort_by(f64::total_cmp);
    let n = draws.len();
    let low = ((n as f64 * 0.025).ceil() as usize).clamp(1, n) - 1;
    let high = ((n as f64 * 0.975).ceil() as usize).clamp(1, n) - 1;
    Some((draws[low], draws[high]))
}

impl fmt::Display for LadderReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs = self.pairs.len() as u64;
        writeln!(
            f,
            "{} at {} seats: {} of {} games ({} a pair), seed {}, {:.0} actions a game, {:.0} s of play",
            self.game,
            self.seats,
            self.games,
            pairs * self.games_per_pair,
            self.games_per_pair,
            self.seed,
            self.mean_actions,
            self.seconds
        )?;
        let width = self
            .ratings
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        writeln!(
            f,
            "Elo ({} = {ANCHOR_RATING:.0}; 95% bootstrap interval, {} resamples of the games):",
            self.anchor, self.bootstrap
        )?;
        for r in &self.ratings {
            writeln!(
                f,
                "  {:<width$}  {:>6.0}  [{:.0}, {:.0}]  {} games",
                r.name, r.elo, r.low, r.high, r.games
            )?;
        }
        write_pairs(f, &self.pairs, ["A", "B"], width)
    }
}
