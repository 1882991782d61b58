//! Round-robin tournaments between bots, with win rates and an Elo fit.
//!
//! Every pair of bots plays `games` games. For a pair (A, B) at a table of `n` seats,
//! game `k` of the pair seats bot A at seat `s` when `((s + k) mod n) mod 2 == flip`,
//! where `flip = (k / n) mod 2`, and bot B at the others: at two seats A and B swap
//! seats every game; at four they alternate around the table (ABAB, then BABA, ...);
//! at an odd table each bot has the extra seat half the time. Over every `2n` games each
//! bot sits at each seat equally often, so the seat advantage cancels.
//!
//! Games are played by [`crate::play_game`], the loop `sim` uses, so a game that breaks
//! down (a bot with no action, a refused action) stops the tournament with its seed: it is
//! reported, never scored.
//!
//! A game scores, for bot A, the sum of [`engine::Outcome::reward`] over A's seats (1 for
//! a win, a share of a tied win, 0 otherwise); A's win rate is the mean score. Game `i`
//! of the tournament (pairs in order, then games) is seeded from
//! `derive_seed(seed, i)` and its seats' bots from that game's seed, so the results do
//! not depend on the thread count.

use crate::{play_game, wilson, GameResult, SimError};
use bots::{make_bot, Bot, BotError, BotSpec};
use engine::prelude::*;
use engine::Outcome;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// What to play.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentOptions {
    /// The bots; every pair plays.
    pub bots: Vec<BotSpec>,
    /// Games per pair.
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// Worker threads; `None` uses rayon's global pool (one per core).
    pub threads: Option<usize>,
}

impl Default for TournamentOptions {
    fn default() -> Self {
        TournamentOptions {
            bots: vec![BotSpec::Heuristic, BotSpec::Random],
            games: 100,
            seed: 0,
            threads: None,
        }
    }
}

/// Why a tournament cannot be played, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("a tournament needs at least two bots")]
    TooFewBots,
    /// A bad bot or config, a thread pool that cannot start, or a game that broke down.
    #[error(transparent)]
    Sim(#[from] SimError),
}

impl From<BotError> for TournamentError {
    fn from(e: BotError) -> Self {
        TournamentError::Sim(e.into())
    }
}

impl From<engine::ConfigError> for TournamentError {
    fn from(e: engine::ConfigError) -> Self {
        TournamentError::Sim(e.into())
    }
}

/// One pair's results, from bot `a`'s side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairResult {
    pub a: String,
    pub b: String,
    pub games: u64,
    /// Games `a` won outright (its seats scored more than half).
    pub a_wins: u64,
    /// Games `b` won outright.
    pub b_wins: u64,
    /// `a`'s total score: wins plus shares of shared wins.
    pub a_score: f64,
    /// `a_score / games`.
    pub win_rate: f64,
    /// The 95% Wilson score interval of the win rate.
    pub low: f64,
    pub high: f64,
}

/// A finished tournament: pairwise win rates and fitted Elo ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentReport {
    pub game: String,
    pub seats: usize,
    pub games_per_pair: u64,
    pub seed: u64,
    pub bots: Vec<String>,
    pub pairs: Vec<PairResult>,
    /// Bradley-Terry maximum-likelihood ratings on the Elo scale, anchored so that their
    /// mean is 1500; each pair also counts one virtual drawn game, so a bot that wins
    /// every game still gets a finite rating.
    pub elo: BTreeMap<String, f64>,
    /// Mean actions per game.
    pub mean_actions: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// The seat assignment for game `k` of a pair: `true` where bot A sits.
pub fn seating(seats: usize, k: u64) -> Vec<bool> {
    let n = seats.max(1) as u64;
    let flip = (k / n) % 2;
    (0..n).map(|s| ((s + k) % n) % 2 == flip).collect()
}

/// Plays the tournament, calling `on_game` after every game (for progress bars).
///
/// # Panics
/// When [`try_run`] fails: fewer than two bots, a `human` seat, a bad config, a game
/// that broke down.
pub fn run<G: Game>(
    config: &G::Config,
    opts: &TournamentOptions,
    on_game: &(dyn Fn() + Sync),
) -> TournamentReport {
    match try_run::<G>(config, opts, on_game) {
        Ok(report) => report,
        Err(e) => panic!("tournament: {e}"),
    }
}

/// [`run`], reporting problems instead of panicking.
///
/// # Errors
/// Fewer than two bots, a spec that is not a bot, a config the game refuses, a thread
/// pool that cannot start, or the first game that broke down.
pub fn try_run<G: Game>(
    config: &G::Config,
    opts: &TournamentOptions,
    on_game: &(dyn Fn() + Sync),
) -> Result<TournamentReport, TournamentError> {
    if opts.bots.len() < 2 {
        return Err(TournamentError::TooFewBots);
    }
    for spec in &opts.bots {
        make_bot::<G>(spec, 0)?;
    }
    let names = unique_names(&opts.bots);
    let entrants: Vec<Entrant<'_, G>> = opts
        .bots
        .iter()
        .zip(names)
        .map(|(spec, name)| Entrant::new(name, move |seed| make_bot::<G>(spec, seed)))
        .collect();
    run_entrants(config, &entrants, opts, on_game)
}

/// A bot maker for [`run_entrants`]: a name for the table and a function from a seed to
/// a fresh bot (one per seat and game).
pub struct Entrant<'a, G: Game> {
    pub name: String,
    #[allow(clippy::type_complexity)]
    make: Box<dyn Fn(u64) -> Result<Box<dyn Bot<G>>, BotError> + Sync + 'a>,
}

impl<'a, G: Game> Entrant<'a, G> {
    /// An entrant named `name` made by `make`.
    pub fn new(
        name: String,
        make: impl Fn(u64) -> Result<Box<dyn Bot<G>>, BotError> + Sync + 'a,
    ) -> Self {
        Entrant {
            name,
            make: Box::new(make),
        }
    }
}

/// [`try_run`] with any bots, not only those a [`BotSpec`] names (for tuning options);
/// `opts.bots` is ignored.
///
/// # Errors
/// As [`try_run`].
pub fn run_entrants<G: Game>(
    config: &G::Config,
    entrants: &[Entrant<'_, G>],
    opts: &TournamentOptions,
    on_game: &(dyn Fn() + Sync),
) -> Result<TournamentReport, TournamentError> {
    if entrants.len() < 2 {
        return Err(TournamentError::TooFewBots);
    }
    let seats = G::new(config, opts.seed)?.seats();
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let pairs = pairs(entrants.len());
    let total = pairs.len() as u64 * opts.games;
    let start = std::time::Instant::now();
    let play_all = || -> Vec<Result<GameResult, SimError>> {
        (0..total)
            .into_par_iter()
            .map(|index| {
                let (i, j) = pairs[(index / opts.games.max(1)) as usize];
                let a_seats = seating(seats, index % opts.games.max(1));
                let make = |seat: usize, seed: u64| {
                    let entrant = if a_seats[seat] { i } else { j };
                    (entrants[entrant].make)(seed)
                };
                let result = play_game::<G>(config, opts.seed, index, &make);
                on_game();
                result
            })
            .collect()
    };
    let results = match opts.threads {
        None => play_all(),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build()
            .map_err(|e| SimError::Threads(t.max(1), e.to_string()))?
            .install(play_all),
    };
    let results = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let played: Vec<Played> = results
        .into_iter()
        .map(|r| Played {
            outcome: Outcome {
                scores: r.scores,
                places: r.places,
            },
            moves: r.moves,
        })
        .collect();
    Ok(report(
        G::NAME,
        seats,
        names,
        opts,
        &played,
        start.elapsed().as_secs_f64(),
    ))
}

/// One finished game of a tournament, as [`report`] counts it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Its scores and places.
    pub outcome: Outcome,
    /// Actions played.
    pub moves: u32,
}

/// The pairs of a tournament between `entrants` bots, in the order they play: (0, 1),
/// (0, 2), ..., (1, 2), ... Game `k` of pair `p` is game `p * games + k` of the tournament.
pub fn pairs(entrants: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 0..entrants {
        for j in i + 1..entrants {
            pairs.push((i, j));
        }
    }
    pairs
}

/// The report of a tournament whose games were played elsewhere (from Python, say):
/// `results` holds every game in tournament order ([`pairs`], then games; seats as
/// [`seating`] gives them). Win rates, intervals and the Elo fit are those [`try_run`]
/// reports for the same games.
///
/// # Panics
/// When `results` does not hold `opts.games` games for each pair of `names`.
pub fn report(
    game: &str,
    seats: usize,
    names: Vec<String>,
    opts: &TournamentOptions,
    results: &[Played],
    seconds: f64,
) -> TournamentReport {
    let pairs = pairs(names.len());
    assert_eq!(
        results.len() as u64,
        pairs.len() as u64 * opts.games,
        "a tournament's results hold every game of every pair"
    );
    let total = results.len() as u64;
    let mut pair_results = Vec::with_capacity(pairs.len());
    let mut actions = 0u64;
    for (p, &(i, j)) in pairs.iter().enumerate() {
        let mut score = 0.0;
        let (mut a_wins, mut b_wins) = (0, 0);
        let first = p as u64 * opts.games;
        for (k, r) in results[first as usize..(first + opts.games) as usize]
            .iter()
            .enumerate()
        {
            let s = a_score(&r.outcome, &seating(seats, k as u64));
            actions += u64::from(r.moves);
            score += s;
            if s > 0.5 {
                a_wins += 1;
            } else if s < 0.5 {
                b_wins += 1;
            }
        }
        let rate = if opts.games > 0 {
            score / opts.games as f64
        } else {
            0.5
        };
        let (low, high) = wilson(score, opts.games as f64);
        pair_results.push(PairResult {
            a: names[i].clone(),
            b: names[j].clone(),
            games: opts.games,
            a_wins,
            b_wins,
            a_score: score,
            win_rate: rate,
            low,
            high,
        });
    }
    let elo = fit_elo(&names, &pairs, &pair_results);
    TournamentReport {
        game: game.to_string(),
        seats,
        games_per_pair: opts.games,
        seed: opts.seed,
        bots: names,
        pairs: pair_results,
        elo,
        mean_actions: if total > 0 {
            actions as f64 / total as f64
        } else {
            0.0
        },
        seconds,
    }
}

/// Names for the table, with `#2`, `#3`... on repeated specs.
fn unique_names(bots: &[BotSpec]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for spec in bots {
        let base = spec.to_string();
        let mut name = base.clone();
        let mut n = 1;
        while names.contains(&name) {
            n += 1;
            name = format!("{base}#{n}");
        }
        names.push(name);
    }
    names
}

/// Bot A's score in a finished game: the sum of its seats' rewards.
fn a_score(outcome: &Outcome, a_seats: &[bool]) -> f64 {
    (0..a_seats.len())
        .filter(|&s| a_seats[s])
        .map(|s| outcome.reward(s))
        .sum()
}

/// Bradley-Terry ratings by minorization-maximization (Hunter 2004), on the Elo scale
/// with mean 1500.
fn fit_elo(
    names: &[String],
    pairs: &[(usize, usize)],
    results: &[PairResult],
) -> BTreeMap<String, f64> {
    let scored: Vec<Scored> = pairs
        .iter()
        .zip(results)
        .map(|(&(i, j), r)| Scored {
            a: i,
            b: j,
            a_score: r.a_score,
            games: r.games as f64,
        })
        .collect();
    let ratings = bradley_terry(names.len(), &scored);
    let mean = ratings.iter().sum::<f64>() / ratings.len().max(1) as f64;
    names
        .iter()
        .zip(&ratings)
        .map(|(name, r)| (name.clone(), 1500.0 + r - mean))
        .collect()
}

/// What one pair of entrants scored against each other, for [`bradley_terry`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// The entrants, by index.
    pub a: usize,
    pub b: usize,
    /// `a`'s total score (a win 1, a shared win its share).
    pub a_score: f64,
    /// Games played.
    pub games: f64,
}

/// Bradley-Terry maximum-likelihood strengths of `n` entrants from pairwise scores, by
/// minorization-maximization (Hunter 2004), on the Elo scale (400 points for odds of 10 to
/// 1). Each pair listed also counts one virtual drawn game, so an entrant that wins every
/// game still gets a finite rating. Only differences mean anything: add a constant to
/// place them (a mean, or one entrant fixed).
pub fn bradley_terry(n: usize, scored: &[Scored]) -> Vec<f64> {
    let mut wins = vec![0.0; n];
    let mut games = vec![vec![0.0; n]; n];
    for r in scored {
        let (i, j) = (r.a, r.b);
        // One virtual draw per pair keeps the estimate finite.
        let g = r.games + 1.0;
        wins[i] += r.a_score + 0.5;
        wins[j] += r.games - r.a_score + 0.5;
        games[i][j] += g;
        games[j][i] += g;
    }
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        let mut change = 0.0f64;
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            next[i] = if denom > 0.0 {
                wins[i] / denom
            } else {
                gamma[i]
            };
        }
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for (g, nx) in gamma.iter_mut().zip(&next) {
            let v = (nx.ln() - log_mean).exp();
            change = change.max((v - *g).abs() / *g);
            *g = v;
        }
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// The pairs' table, its name columns `width` wide under `names`: games, wins, `a`'s win
/// rate and its interval.
pub(crate) fn write_pairs(
    f: &mut fmt::Formatter<'_>,
    pairs: &[PairResult],
    names: [&str; 2],
    width: usize,
) -> fmt::Result {
    writeln!(
        f,
        "{:<width$}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>8}  95% interval",
        names[0], names[1], "games", "A wins", "B wins", "A rate"
    )?;
    for p in pairs {
        writeln!(
            f,
            "{:<width$}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>7.1}%  [{:.1}%, {:.1}%]",
            p.a,
            p.b,
            p.games,
            p.a_wins,
            p.b_wins,
            100.0 * p.win_rate,
            100.0 * p.low,
            100.0 * p.high
        )?;
    }
    Ok(())
}

impl fmt::Display for TournamentReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} at {} seats: {} games per pair, seed {}, {:.0} actions per game, {:.1}s",
            self.game, self.seats, self.games_per_pair, self.seed, self.mean_actions, self.seconds
        )?;
        let width = self.bots.iter().map(String::len).max().unwrap_or(1).max(5);
        write_pairs(f, &self.pairs, ["bot A", "bot B"], width)?;
        writeln!(f, "Elo (Bradley-Terry fit, mean 1500):")?;
        let mut by_rating: Vec<(&String, &f64)> = self.elo.iter().collect();
        by_rating.sort_by(|a, b| b.1.total_cmp(a.1));
        for (name, rating) in by_rating {
            writeln!(f, "  {name:<width$}  {rating:>6.0}")?;
        }
        Ok(())
    }
}
