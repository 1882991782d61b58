//! The coach: hints (the search's best moves for the seat to act) and reviews of finished
//! games (every decision of every seat against what the search preferred), both worked
//! out only from what the deciding seat could know (see docs/coach.md).
//!
//! Both search with [`IsmctsBot`](crate::IsmctsBot)'s SO-ISMCTS through an [`Observer`]
//! (the seat's view and determinizations of it), on one tree with a fixed number of
//! iterations and no time cap, every determinization drawn from a stream seeded by
//! [`CoachOptions::seed`]: the same view, seed and budget give the same answer, byte for
//! byte, on any machine and with any number of threads.
use crate::ismcts::{root_search, IsmctsOptions, RootStat};
use crate::{level_options, Budget, Level, Observer};
use engine::prelude::*;
use engine::{derive_seed, Ending, GameRecord, Names, ReplayError, Seat, Viewer};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use thiserror::Error;

/// One move as the search sees it, for the seat to act.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// The move in notation (what to type).
    pub action: String,
    /// The move in words for the position ([`engine::Present::describe`]).
    pub label: String,
    /// How many of the search's iterations went through this move (0: not searched, see
    /// [`ReviewedMove`]).
    pub visits: u32,
    /// The estimated chance to win, in [0, 1]: the search's mean reward for the seat over
    /// those iterations (a finished game scores 1 for a win, 1/k for a win shared by k,
    /// 0 otherwise; a position the search stops in is scored by [`engine::Search::evaluate`]).
    pub chance: f64,
    /// The expected place (1 = first) at tables of 3 or more seats: the mean of the seat's
    /// place where each iteration stopped; `None` at 2 seats.
    pub place: Option<f64>,
}

/// How hard the coach searches.
#[derive(Clone, Debug, PartialEq)]
pub struct CoachOptions {
    /// Search iterations per decision; the default is the `hard` level's budget.
    pub iterations: u32,
    /// Seeds every determinization the search draws (never the game's own random stream).
    pub seed: u64,
}

impl Default for CoachOptions {
    fn default() -> Self {
        CoachOptions {
            iterations: hard_iterations(),
            seed: 0,
        }
    }
}

/// The `hard` level's iterations per tree: the coach's default budget.
pub fn hard_iterations() -> u32 {
    match level_options(Level::Hard).budget {
        Budget::Iterations(n) => n,
        Budget::Millis(_) => 4000,
    }
}

/// The searches' options: those of the levels, on one tree, `iterations` of them.
fn search_options(options: &CoachOptions) -> IsmctsOptions {
    level_options(Level::Hard)
        .with_budget(Budget::Iterations(options.iterations.max(1)))
        .with_trees(1)
}

/// The search's statistics for `observer`'s seat, best first: most visited, then the
/// higher mean, then the legal order.
fn ranked<G: Game>(
    game: &G,
    observer: &Observer<'_, G>,
    stats: Vec<RootStat<G::Action>>,
) -> Vec<Advice> {
    let mut legal = Vec::new();
    observer.legal_actions(&mut legal);
    let seats = observer.seats();
    let mut found: Vec<(usize, Advice)> = legal
        .iter()
        .enumerate()
        .filter_map(|(i, &a)| {
            let s = stats.iter().find(|s| s.action == a)?;
            Some((i, advice(game, a, s, seats)))
        })
        .collect();
    found.sort_by(|(i, x), (j, y)| {
        y.visits
            .cmp(&x.visits)
            .then(y.chance.total_cmp(&x.chance))
            .then(i.cmp(j))
    });
    found.into_iter().map(|(_, a)| a).collect()
}

fn advice<G: Game>(
    game: &G,
    action: G::Action,
    stat: &RootStat<G::Action>,
    seats: usize,
) -> Advice {
    let v = f64::from(stat.visits.max(1));
    Advice {
        action: action.to_string(),
        label: game.describe(action).label,
        visits: stat.visits,
        chance: (stat.reward / v).clamp(0.0, 1.0),
        place: (seats > 2).then(|| (stat.place / v).clamp(1.0, seats as f64)),
    }
}

/// Every legal move of the seat to act with the search's estimate, best first.
fn analyse<G: Game>(game: &G, options: &CoachOptions, seed: u64) -> Vec<Advice> {
    let Some(observer) = Observer::new(game) else {
        return Vec::new();
    };
    let stats = root_search(&observer, &search_options(options), seed);
    ranked(game, &observer, stats)
}

/// The search's `top` best moves for the seat to act, best first (most visited); empty
/// once the game is over. A function of that seat's view, `options.seed` and
/// `options.iterations` only.
pub fn hint<G: Game>(game: &G, options: &CoachOptions, top: usize) -> Vec<Advice> {
    let mut all = analyse(game, options, options.seed);
    all.truncate(top);
    all
}

/// One decision of a finished game, reviewed from the deciding seat's information.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedMove {
    /// The index of the move in the record's actions, from 0.
    pub ply: usize,
    /// The seat that decided, from 0.
    pub seat: usize,
    /// The move played and its estimate.
    pub played: Advice,
    /// The search's preferred move (the played one when that was estimated at least as
    /// good).
    pub best: Advice,
    /// `best.chance - played.chance`, never negative.
    pub loss: f64,
    /// Among the moves that lost the most (see [`MARK_LOSS`] and [`MARK_MOST`]).
    pub marked: bool,
}

/// A finished game reviewed: every decision, each seat's winning-chance series, and why it
/// ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game's name.
    pub game: String,
    /// How many seats played.
    pub seats: usize,
    /// Every game action of the record (table moves left out), in order.
    pub moves: Vec<ReviewedMove>,
    /// By seat: `(ply, chance)` at each of that seat's decisions.
    pub series: Vec<Vec<(usize, f64)>>,
    /// Why the game ended and each seat's score, line by line ([`engine::Present::ending`], or the
    /// session's explanation when seats resigned), naming seats "seat N".
    pub ending: Option<Ending>,
}

/// A move is marked when it lost at least this much of a chance to win...
pub const MARK_LOSS: f64 = 0.05;
/// ...and is among its seat's this many worst.
pub const MARK_MOST: usize = 3;

/// Why a record cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CoachError {
    #[error("the record is of {found}, not {expected}")]
    WrongGame { expected: String, found: String },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("the game is not over yet: only a finished game can be reviewed")]
    NotOver,
}

/// One decision to review: the state before it, the action's index and the action.
struct Decision<G: Game> {
    ply: usize,
    seat: Seat,
    before: G,
    action: G::Action,
    forced: bool,
}

/// Reviews a finished game: every game action of the record is searched from the state
/// before it through its seat's [`Observer`] (seeded from `options.seed` and the move's
/// index), the played move and the search's best compared. A move that was the only
/// legal one is not searched: it keeps its seat's previous estimate (visits 0), or is
/// searched when the seat has none yet. `progress(done, total)` is called as decisions
/// are reviewed, from any thread. The result does not depend on the number of threads.
///
/// # Errors
/// A record of another game, one that does not replay, or a game not over.
pub fn review<G: Game>(
    record: &GameRecord,
    options: &CoachOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, CoachError> {
    if !record.game.trim().eq_ignore_ascii_case(G::NAME) {
        return Err(CoachError::WrongGame {
            expected: G::NAME.to_string(),
            found: record.game.clone(),
        });
    }
    let dyn_game = engine::Typed::<G>::default();
    let session = engine::DynGame::replay_session(&dyn_game, record)?;
    if !session.is_over() {
        return Err(CoachError::NotOver);
    }
    let ending = session.ending(&Names::for_viewer(Viewer::Spectator));
    let decisions = decisions::<G>(record)?;
    let seats = session.seats();
    let total = decisions.len();
    let done = AtomicUsize::new(0);
    progress(0, total);
    let searched: Vec<Option<(Advice, Advice)>> = decisions
        .par_iter()
        .map(|d| {
            let out = (!d.forced).then(|| judge(d, options));
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(n, total);
            out
        })
        .collect();
    let mut last: Vec<Option<(f64, Option<f64>)>> = vec![None; seats];
    let mut moves = Vec::with_capacity(total);
    for (d, judged) in decisions.iter().zip(searched) {
        let (played, best) = match judged {
            Some(pair) => pair,
            None => {
                let carried = match last.get(d.seat).copied().flatten() {
                    Some((chance, place)) => Advice {
                        action: d.action.to_string(),
                        label: d.before.describe(d.action).label,
                        visits: 0,
                        chance,
                        place,
                    },
                    None => judge(d, options).0,
                };
                (carried.clone(), carried)
            }
        };
        if let Some(slot) = last.get_mut(d.seat) {
            *slot = Some((played.chance, played.place));
        }
        let loss = (best.chance - played.chance).max(0.0);
        moves.push(ReviewedMove {
            ply: d.ply,
            seat: d.seat,
            played,
            best,
            loss,
            marked: false,
        });
    }
    mark(&mut moves, seats);
    let mut series = vec![Vec::new(); seats];
    for m in &moves {
        if let Some(s) = series.get_mut(m.seat) {
            s.push((m.ply, m.played.chance));
        }
    }
    Ok(Review {
        game: G::NAME.to_string(),
        seats,
        moves,
        series,
        ending,
    })
}

/// The record's game actions with the state before each (an `undo` goes back to the state
/// before the move it takes back; a `resign` changes no state).
fn decisions<G: Game>(record: &GameRecord) -> Result<Vec<Decision<G>>, CoachError> {
    let mut record = record.clone();
    if record.format < G::FORMAT {
        // `replay_session` upgraded the same record without complaint.
        let _ = G::upgrade_record(record.format, &mut record);
        record.format = G::FORMAT;
    }
    let start =
        engine::DynGame::new_state(&engine::Typed::<G>::default(), &record.config, record.seed)
            .map_err(|error| ReplayError {
                index: 0,
                action: String::new(),
                error,
            })?;
    let mut game =
        start
            .as_any()
            .downcast_ref::<G>()
            .cloned()
            .ok_or_else(|| CoachError::WrongGame {
                expected: G::NAME.to_string(),
                found: record.game.clone(),
            })?;
    let mut history: Vec<G> = Vec::new();
    let mut out = Vec::new();
    let mut legal = Vec::new();
    for (ply, text) in record.actions.iter().enumerate() {
        let fail = |error: engine::EngineError| ReplayError {
            index: ply,
            action: text.clone(),
            error,
        };
        if engine::is_table_move(text) {
            if text.trim().eq_ignore_ascii_case("undo") {
                if let Some(before) = history.pop() {
                    game = before;
                }
            }
            continue;
        }
        let action: G::Action = text
            .trim()
            .parse()
            .map_err(|e: engine::ParseActionError| fail(e.into()))?;
        let Some(seat) = game.to_act() else {
            return Err(fail(engine::EngineError::GameOver).into());
        };
        game.legal_actions(&mut legal);
        let before = game.clone();
        game.apply(action).map_err(|e| fail(e.erase().into()))?;
        history.push(before.clone());
        out.push(Decision {
            ply,
            seat,
            forced: legal.len() <= 1,
            before,
            action,
        });
    }
    Ok(out)
}

/// The played move's and the best move's estimates at one decision.
fn judge<G: Game>(d: &Decision<G>, options: &CoachOptions) -> (Advice, Advice) {
    let seed = derive_seed(options.seed, d.ply as u64);
    let all = analyse(&d.before, options, seed);
    let text = d.action.to_string();
    let played = match all.iter().find(|a| a.action == text) {
        Some(a) if a.visits >= PLAYED_MIN_VISITS => a.clone(),
        _ => alone(d, options, seed),
    };
    let best = match all.first() {
        Some(b) if b.chance > played.chance => b.clone(),
        _ => played.clone(),
    };
    (played, best)
}

/// A played move the search visited fewer times than this is searched again on its own.
const PLAYED_MIN_VISITS: u32 = 10;

/// The played move's estimate from a search that may play only it at the root, with a
/// quarter of the budget (at least [`PLAYED_MIN_VISITS`] iterations).
fn alone<G: Game>(d: &Decision<G>, options: &CoachOptions, seed: u64) -> Advice {
    let mut others = Vec::new();
    d.before.legal_actions(&mut others);
    others.retain(|&a| a != d.action);
    let fallback = || Advice {
        action: d.action.to_string(),
        label: d.before.describe(d.action).label,
        visits: 0,
        chance: 0.0,
        place: None,
    };
    let Some(observer) = Observer::new(&d.before) else {
        return fallback();
    };
    let observer = observer.avoiding(&others);
    let budget = CoachOptions {
        iterations: (options.iterations / 4).max(PLAYED_MIN_VISITS),
        seed,
    };
    let stats = root_search(&observer, &search_options(&budget), derive_seed(seed, 1));
    ranked(&d.before, &observer, stats)
        .into_iter()
        .find(|a| a.action == d.action.to_string())
        .unwrap_or_else(fallback)
}

/// Marks each seat's worst moves: a loss of at least [`MARK_LOSS`], among the seat's
/// [`MARK_MOST`] largest (earlier first on equal loss).
fn mark(moves: &mut [ReviewedMove], seats: usize) {
    for seat in 0..seats {
        let mut idx: Vec<usize> = (0..moves.len())
            .filter(|&i| moves[i].seat == seat && moves[i].loss >= MARK_LOSS)
            .collect();
        idx.sort_by(|&a, &b| moves[b].loss.total_cmp(&moves[a].loss).then(a.cmp(&b)));
        for &i in idx.iter().take(MARK_MOST) {
            moves[i].marked = true;
        }
    }
}
