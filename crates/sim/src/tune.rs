//! Balance search: successive halving over options or card data toward a target win
//! rate. Every candidate plays the same seeds; each round keeps the better half (by
//! distance from the target) and doubles the games, so the last survivors are measured
//! on `games` games each.
use crate::{run, SimError, SimOptions, Summary};
use bots::BotSpec;
use engine::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::str::FromStr;
use thiserror::Error;

/// A parameter to search: a path into the config's JSON (`target`, `deck/12/points`)
/// and a range; integers unless a bound has a decimal point.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub path: String,
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
}

impl FromStr for Param {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("--param takes NAME=LO..HI (like target=40..120), not `{s}`");
        let (path, range) = s.split_once('=').ok_or_else(bad)?;
        let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
        let (lo_f, hi_f) = (
            lo.trim().parse::<f64>().map_err(|_| bad())?,
            hi.trim().parse::<f64>().map_err(|_| bad())?,
        );
        if path.trim().is_empty() || !lo_f.is_finite() || !hi_f.is_finite() || lo_f > hi_f {
            return Err(bad());
        }
        Ok(Param {
            path: path.trim().to_string(),
            lo: lo_f,
            hi: hi_f,
            integer: !lo.contains('.') && !hi.contains('.'),
        })
    }
}

/// The goal: a seat's win rate (`win_rate[0]=0.5`, seats from 0 as in JSON).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Target {
    pub seat: usize,
    pub value: f64,
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad =
            || format!("--target takes win_rate[SEAT]=RATE (like win_rate[0]=0.5), not `{s}`");
        let (lhs, value) = s.split_once('=').ok_or_else(bad)?;
        let seat = lhs
            .trim()
            .strip_prefix("win_rate[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse().ok())
            .ok_or_else(bad)?;
        let value: f64 = value.trim().parse().map_err(|_| bad())?;
        if !(0.0..=1.0).contains(&value) {
            return Err(bad());
        }
        Ok(Target { seat, value })
    }
}

/// What to search.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub params: Vec<Param>,
    pub target: Target,
    /// Games per survivor in the last round.
    pub games: u64,
    /// Candidates in the first round.
    pub candidates: usize,
    pub seed: u64,
    pub threads: Option<usize>,
    pub seats: Vec<BotSpec>,
}

/// A candidate's settings and how it measured.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// Each parameter's value, in the order given.
    pub values: Vec<f64>,
    pub games: u64,
    pub win_rate: f64,
    pub win_rate_ci95: (f64, f64),
    /// `|win_rate - target|`.
    pub distance: f64,
}

/// The search's result: the best candidate and every round's survivors.
#[derive(Clone, Debug, Serialize)]
pub struct TuneReport {
    pub game: String,
    pub params: Vec<String>,
    pub target_seat: usize,
    pub target: f64,
    pub best: Candidate,
    /// Each round's candidates, best first.
    pub rounds: Vec<Vec<Candidate>>,
}

/// A search that cannot run.
#[derive(Debug, Error)]
pub enum TuneError {
    #[error("name at least one --param")]
    NoParams,
    #[error("`{0}` is not a path into this game's options (see `tabletop games`; card data must be given with --cards to be tuned)")]
    UnknownPath(String),
    #[error("the target names seat {seat}, but the table has {seats} seats (counted from 0 in win_rate[..])")]
    Seat { seat: usize, seats: usize },
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error("options {values}: {error}")]
    Config { values: String, error: String },
}

/// Sets `path` (`a/b/3/c`) in `config` to `value`; every step must already exist.
fn set(config: &mut Value, path: &str, value: Value) -> Result<(), TuneError> {
    let mut at = config;
    for step in path.split(['/', '.']) {
        at = match at {
            Value::Object(map) => map.get_mut(step),
            Value::Array(list) => step.parse::<usize>().ok().and_then(|i| list.get_mut(i)),
            _ => None,
        }
        .ok_or_else(|| TuneError::UnknownPath(path.to_string()))?;
    }
    *at = value;
    Ok(())
}

/// The first round's candidates: for one parameter, evenly spaced over its range; for
/// several, a lattice of evenly spaced points per parameter shifted by a Weyl sequence.
fn grid(params: &[Param], n: usize) -> Vec<Vec<f64>> {
    let mut out: Vec<Vec<f64>> = Vec::new();
    for i in 0..n.max(1) {
        let values: Vec<f64> = params
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let u = if params.len() == 1 || k == 0 {
                    i as f64 / (n.max(2) - 1) as f64
                } else {
                    (i as f64 * (0.618_033_988_75 + k as f64 * 0.414_213_562)).fract()
                };
                let v = p.lo + u * (p.hi - p.lo);
                if p.integer {
                    v.round()
                } else {
                    v
                }
            })
            .collect();
        if !out.contains(&values) {
            out.push(values);
        }
    }
    out
}

/// Runs the search from `base` (the game's options as JSON, with any card data).
///
/// # Errors
/// No parameter, a path the options do not have, a target seat off the table, a value
/// the game refuses, or a game that breaks down.
pub fn tune<G: Game>(
    base: &Value,
    options: &TuneOptions,
    on_game: &(dyn Fn() + Sync),
) -> Result<TuneReport, TuneError> {
    if options.params.is_empty() {
        return Err(TuneError::NoParams);
    }
    let mut full: Value = serde_json::to_value(G::Config::default()).unwrap_or_default();
    if let (Value::Object(f), Value::Object(b)) = (&mut full, base) {
        f.extend(b.clone());
    }
    let mut candidates = grid(&options.params, options.candidates);
    let rounds_needed = (candidates.len() as f64).log2().ceil() as u32;
    let mut rounds = Vec::new();
    for r in 0..=rounds_needed {
        let games = (options.games >> (rounds_needed - r)).max(1);
        let mut measured = Vec::new();
        for values in &candidates {
            let mut json = full.clone();
            for (p, v) in options.params.iter().zip(values) {
                let value = if p.integer {
                    Value::from(*v as i64)
                } else {
                    Value::from(*v)
                };
                set(&mut json, &p.path, value)?;
            }
            let described = || {
                options
                    .params
                    .iter()
                    .zip(values)
                    .map(|(p, v)| format!("{}={v}", p.path))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let config: G::Config =
                serde_json::from_value(json).map_err(|e| TuneError::Config {
                    values: described(),
                    error: e.to_string(),
                })?;
            let sim = SimOptions {
                games,
                seed: options.seed,
                threads: options.threads,
                seats: options.seats.clone(),
                shard: None,
            };
            let report = run::<G>(&config, &sim, on_game)?;
            measured.push(candidate(values.clone(), &report.summary, options.target)?);
        }
        measured.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        let keep = measured.len().div_ceil(2);
        candidates = measured[..keep].iter().map(|c| c.values.clone()).collect();
        rounds.push(measured);
    }
    let best = rounds
        .last()
        .and_then(|r| r.first())
        .cloned()
        .ok_or(TuneError::NoParams)?;
    Ok(TuneReport {
        game: G::NAME.to_string(),
        params: options.params.iter().map(|p| p.path.clone()).collect(),
        target_seat: options.target.seat,
        target: options.target.value,
        best,
        rounds,
    })
}

fn candidate(values: Vec<f64>, summary: &Summary, target: Target) -> Result<Candidate, TuneError> {
    let seat = summary.seats.get(target.seat).ok_or(TuneError::Seat {
        seat: target.seat,
        seats: summary.seats.len(),
    })?;
    Ok(Candidate {
        values,
        games: summary.games,
        win_rate: seat.win_rate,
        win_rate_ci95: seat.win_rate_ci95,
        distance: (seat.win_rate - target.value).abs(),
    })
}

impl std::fmt::Display for TuneReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |c: &Candidate| {
            self.params
                .iter()
                .zip(&c.values)
                .map(|(p, v)| format!("{p}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (r, round) in self.rounds.iter().enumerate() {
            writeln!(
                f,
                "round {} ({} games each):",
                r + 1,
                round.first().map_or(0, |c| c.games)
            )?;
            for c in round {
                writeln!(
                    f,
                    "  {:<30} seat {} wins {:.1}% ({:.1}% - {:.1}%)",
                    show(c),
                    self.target_seat + 1,
                    100.0 * c.win_rate,
                    100.0 * c.win_rate_ci95.0,
                    100.0 * c.win_rate_ci95.1
                )?;
            }
        }
        write!(
            f,
            "best: {} · seat {} wins {:.1}% (95% interval {:.1}% - {:.1}%, target {:.1}%) over {} games",
            show(&self.best),
            self.target_seat + 1,
            100.0 * self.best.win_rate,
            100.0 * self.best.win_rate_ci95.0,
            100.0 * self.best.win_rate_ci95.1,
            100.0 * self.target,
            self.best.games
        )
    }
}
