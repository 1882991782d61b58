use crate::deals::{less_keen, DEAL_MARGIN};
use crate::{Bot, Observer};
use engine::prelude::*;
use engine::{derive_seed, Deal, Seat};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How long a search runs, per tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// A fixed number of iterations: the search is then fully deterministic for a seed.
    Iterations(u32),
    /// Wall-clock milliseconds: stronger on a faster machine, not reproducible.
    Millis(u64),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Millis(ms) => write!(f, "{ms}ms"),
        }
    }
}

impl FromStr for Budget {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim().to_ascii_lowercase();
        let bad = || format!("`{s}` is no budget: expected iterations (`5000`) or `250ms`");
        match s.strip_suffix("ms") {
            Some(ms) => ms
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&ms| ms > 0)
                .map(Budget::Millis)
                .ok_or_else(bad),
            None => s
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .map(Budget::Iterations)
                .ok_or_else(bad),
        }
    }
}

/// Options of the [`IsmctsBot`].
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsOptions {
    /// Iterations or time, per tree.
    pub budget: Budget,
    /// The UCB exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// At most this many random moves are played after the tree before the position is
    /// scored with [`engine::Search::evaluate`]; `None` sets no limit.
    pub playout_depth: Option<u32>,
    /// The playout also stops once the turn has passed this many more times: 0 finishes
    /// the turn of the seat that made the last tree move (a game whose turns are several
    /// small decisions is then judged at turn boundaries); `None` sets no limit.
    pub playout_turns: Option<u32>,
    /// Independent trees searched in parallel (root parallelism), their root statistics
    /// summed; 1 searches on the calling thread, 0 uses one tree per core. Each tree gets
    /// the whole budget.
    pub trees: usize,
    /// However many iterations are left, the search stops after this long (a level's
    /// promise of a quick decision at a table); `None` sets no cap.
    pub time_cap: Option<Duration>,
}

impl Default for IsmctsOptions {
    fn default() -> Self {
        IsmctsOptions {
            budget: Budget::Iterations(1000),
            exploration: 0.1,
            playout_depth: Some(32),
            playout_turns: Some(0),
            trees: 1,
            time_cap: None,
        }
    }
}

impl IsmctsOptions {
    /// Sets [`IsmctsOptions::budget`].
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }
    /// Sets [`IsmctsOptions::exploration`].
    pub fn with_exploration(mut self, c: f64) -> Self {
        self.exploration = c;
        self
    }
    /// Sets [`IsmctsOptions::playout_depth`].
    pub fn with_playout_depth(mut self, depth: Option<u32>) -> Self {
        self.playout_depth = depth;
        self
    }
    /// Sets [`IsmctsOptions::playout_turns`].
    pub fn with_playout_turns(mut self, turns: Option<u32>) -> Self {
        self.playout_turns = turns;
        self
    }
    /// Sets [`IsmctsOptions::time_cap`].
    pub fn with_time_cap(mut self, cap: Duration) -> Self {
        self.time_cap = Some(cap);
        self
    }
    /// Sets [`IsmctsOptions::trees`].
    pub fn with_trees(mut self, trees: usize) -> Self {
        self.trees = trees;
        self
    }
}

const NONE: u32 = u32::MAX;

/// One edge of the tree: the action a seat played, and its statistics. Nodes live in one
/// arena and link to their children as a sibling list, so growing the tree allocates only
/// when the arena grows.
#[derive(Clone, Debug)]
struct Node<A> {
    action: Option<A>,
    /// The seat that played `action`; rewards here are that seat's.
    seat: Seat,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// How often this action was legal when its parent was visited (SO-ISMCTS).
    available: u32,
    reward: f64,
}

/// The search state of one tree, kept between decisions so buffers are reused.
pub(crate) struct Tree<A> {
    nodes: Vec<Node<A>>,
    legal: Vec<A>,
    tried: Vec<bool>,
    untried: Vec<A>,
    rewards: Vec<f64>,
    /// The sum of the searching seat's place (1 = first) over the visits of each root
    /// child, by node; kept only by the coach's search (`PLACES`).
    places: Vec<f64>,
}

impl<A: Copy + PartialEq> Tree<A> {
    pub(crate) fn new() -> Self {
        Tree {
            nodes: Vec::new(),
            legal: Vec::new(),
            tried: Vec::new(),
            untried: Vec::new(),
            rewards: Vec::new(),
            places: Vec::new(),
        }
    }

    fn add_child(&mut self, parent: u32, action: A, seat: Seat) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let next_sibling = p.first_child;
        p.first_child = id;
        self.nodes.push(Node {
            action: Some(action),
            seat,
            parent,
            first_child: NONE,
            next_sibling,
            visits: 0,
            available: 1,
            reward: 0.0,
        });
        id
    }

    /// The root's children as (action, visits, reward).
    pub(crate) fn root_stats(&self) -> Vec<(A, u32, f64)> {
        let mut out = Vec::new();
        let mut c = self.nodes.first().map_or(NONE, |r| r.first_child);
        while c != NONE {
            let n = &self.nodes[c as usize];
            if let Some(a) = n.action {
                out.push((a, n.visits, n.reward));
            }
            c = n.next_sibling;
        }
        out
    }
}

/// Where a search's iterations take their worlds from.
#[derive(Clone, Copy)]
pub(crate) enum Worlds<'w, G> {
    /// A new determinization of the seat's information set every iteration (SO-ISMCTS:
    /// UCB counts how often an action was available).
    Sampled,
    /// One world, every card in it seen: plain UCT (UCB1 on the parent's visits), as
    /// [`crate::PimcBot`] searches each of its determinizations.
    Fixed(&'w G),
}

/// When a search stops: after `iterations`, or at `deadline`, whichever comes first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop {
    pub iterations: u64,
    pub deadline: Option<Instant>,
}

impl Stop {
    /// The stop `options` set for a search starting at `start` (its budget and time cap).
    pub fn of(options: &IsmctsOptions, start: Instant) -> Stop {
        let cap = options.time_cap.map(|c| start + c);
        match options.budget {
            Budget::Iterations(n) => Stop {
                iterations: u64::from(n),
                deadline: cap,
            },
            Budget::Millis(ms) => {
                let d = start + Duration::from_millis(ms);
                Stop {
                    iterations: u64::MAX,
                    deadline: Some(cap.map_or(d, |cap| cap.min(d))),
                }
            }
        }
    }
}

/// Runs one search from `observer`'s information set, in the worlds `worlds` gives, until
/// `stop`. With `PLACES`, the tree also sums the searching seat's place at the end of every
/// iteration for each root child (see [`place_of`]); the bots search without.
pub(crate) fn search<G: Game, const PLACES: bool>(
    tree: &mut Tree<G::Action>,
    observer: &Observer<'_, G>,
    worlds: Worlds<'_, G>,
    options: &IsmctsOptions,
    stop: Stop,
    rng: &mut ChaCha8Rng,
) {
    tree.nodes.clear();
    if PLACES {
        tree.places.clear();
    }
    tree.nodes.push(Node {
        action: None,
        seat: observer.seat(),
        parent: NONE,
        first_child: NONE,
        next_sibling: NONE,
        visits: 0,
        available: 0,
        reward: 0.0,
    });
    let mut iteration = 0u64;
    while iteration < stop.iterations {
        if let Some(d) = stop.deadline {
            if iteration & 15 == 0 && Instant::now() >= d {
                break;
            }
        }
        iteration += 1;
        let mut game = match worlds {
            Worlds::Sampled => observer.determinize(rng),
            Worlds::Fixed(world) => world.clone(),
        };
        let mut node = 0u32;
        // Selection and expansion.
        while let Some(seat) = game.to_act() {
            game.legal_actions(&mut tree.legal);
            if node == 0 {
                // The root: only what the bot may choose (see `Observer::avoiding`).
                tree.legal.retain(|&a| observer.allows(a));
            }
            if tree.legal.is_empty() {
                break;
            }
            tree.tried.clear();
            tree.tried.resize(tree.legal.len(), false);
            // Plain UCT counts the parent's visits; SO-ISMCTS how often the child could
            // have been chosen.
            let parent_visits = tree.nodes[node as usize].visits;
            let mut best = (f64::NEG_INFINITY, NONE);
            let mut c = tree.nodes[node as usize].first_child;
            while c != NONE {
                let child = &mut tree.nodes[c as usize];
                let next = child.next_sibling;
                if child.seat == seat {
                    let found = child
                        .action
                        .and_then(|a| tree.legal.iter().position(|&l| l == a));
                    if let Some(i) = found {
                        tree.tried[i] = true;
                        child.available += 1;
                        let v = f64::from(child.visits.max(1));
                        let n = match worlds {
                            Worlds::Sampled => child.available,
                            Worlds::Fixed(_) => parent_visits.max(1),
                        };
                        let ucb =
                            child.reward / v + options.exploration * (f64::from(n).ln() / v).sqrt();
                        if ucb > best.0 {
                            best = (ucb, c);
                        }
                    }
                }
                c = next;
            }
            tree.untried.clear();
            tree.untried.extend(
                tree.legal
                    .iter()
                    .zip(&tree.tried)
                    .filter(|(_, &t)| !t)
                    .map(|(&a, _)| a),
            );
            if let Some(&a) = tree.untried.choose(rng) {
                if game.apply(a).is_err() {
                    break;
                }
                node = tree.add_child(node, a, seat);
                break;
            }
            let Some(a) = tree.nodes.get(best.1 as usize).and_then(|n| n.action) else {
                break;
            };
            if game.apply(a).is_err() {
                break;
            }
            node = best.1;
        }
        // Playout, cut off and scored by the evaluation.
        let mut mover = tree.nodes[node as usize].seat;
        let mut turns = 0u32;
        let mut steps = 0u32;
        while let Some(seat) = game.to_act() {
            if seat != mover {
                mover = seat;
                turns += 1;
                if options.playout_turns.is_some_and(|t| turns > t) {
                    break;
                }
            }
            if options.playout_depth.is_some_and(|d| steps >= d) {
                break;
            }
            game.legal_actions(&mut tree.legal);
            let Some(&a) = tree.legal.choose(rng) else {
                break;
            };
            if game.apply(a).is_err() {
                break;
            }
            steps += 1;
        }
        game.evaluate_all(&mut tree.rewards);
        if PLACES {
            let place = place_of(&game, &tree.rewards, observer.seat());
            let mut child = node;
            while child != NONE && tree.nodes[child as usize].parent != 0 {
                child = tree.nodes[child as usize].parent;
            }
            if child != NONE && child != 0 {
                if tree.places.len() <= child as usize {
                    tree.places.resize(child as usize + 1, 0.0);
                }
                tree.places[child as usize] += place;
            }
        }
        // Backpropagation: each edge collects the reward of the seat that chose it.
        while node != NONE {
            let n = &mut tree.nodes[node as usize];
            n.visits += 1;
            n.reward += tree.rewards.get(n.seat).copied().unwrap_or(0.0);
            node = n.parent;
        }
    }
}

/// `seat`'s place (1 = first) where an iteration stopped: the outcome's place in a finished
/// game; otherwise 1 plus the seats the evaluation (`rewards`, by seat) puts strictly
/// ahead, as [`engine::Outcome::ranked`] shares places.
fn place_of<G: Game>(game: &G, rewards: &[f64], seat: Seat) -> f64 {
    if let Some(outcome) = game.outcome() {
        return f64::from(outcome.places.get(seat).copied().unwrap_or(0)) + 1.0;
    }
    let own = rewards.get(seat).copied().unwrap_or(0.0);
    1.0 + rewards.iter().filter(|&&r| r > own).count() as f64
}

/// What one search found for one root action.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RootStat<A> {
    pub action: A,
    pub visits: u32,
    /// The sum of the searching seat's rewards over the visits.
    pub reward: f64,
    /// The sum of the searching seat's places (1 = first) over the visits.
    pub place: f64,
}

/// One search of `options.budget` iterations on one tree (time cap and trees ignored, so
/// the answer depends only on what `observer`'s seat knows and on `seed`), with every root
/// action's statistics, places included: the coach's search.
pub(crate) fn root_search<G: Game>(
    observer: &Observer<'_, G>,
    options: &IsmctsOptions,
    seed: u64,
) -> Vec<RootStat<G::Action>> {
    let options = IsmctsOptions {
        budget: match options.budget {
            Budget::Iterations(n) => Budget::Iterations(n),
            Budget::Millis(_) => IsmctsOptions::default().budget,
        },
        trees: 1,
        time_cap: None,
        ..options.clone()
    };
    let mut tree = Tree::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let stop = Stop::of(&options, Instant::now());
    search::<G, true>(
        &mut tree,
        observer,
        Worlds::Sampled,
        &options,
        stop,
        &mut rng,
    );
    let mut out = Vec::new();
    let mut c = tree.nodes.first().map_or(NONE, |r| r.first_child);
    while c != NONE {
        let n = &tree.nodes[c as usize];
        if let Some(action) = n.action {
            out.push(RootStat {
                action,
                visits: n.visits,
                reward: n.reward,
                place: tree.places.get(c as usize).copied().unwrap_or(0.0),
            });
        }
        c = n.next_sibling;
    }
    out
}

/// Information-set Monte Carlo tree search (single-observer SO-ISMCTS, Cowling et al.
/// 2012): every iteration samples a determinization of what the seat knows, descends a
/// tree whose edges are actions (shared by all determinizations), counts how often each
/// action was available so UCB treats actions legal only in some worlds fairly, then
/// plays random moves to a cutoff and scores every seat with [`engine::Search::evaluate`].
pub struct IsmctsBot<G: Game> {
    options: IsmctsOptions,
    name: String,
    rng: ChaCha8Rng,
    tree: Tree<G::Action>,
    legal: Vec<G::Action>,
}

impl<G: Game> IsmctsBot<G> {
    /// A bot with default options.
    pub fn new(seed: u64) -> Self {
        Self::with_options(IsmctsOptions::default(), seed)
    }

    /// A bot with the given options.
    pub fn with_options(options: IsmctsOptions, seed: u64) -> Self {
        Self::named(format!("ismcts:{}", options.budget), options, seed)
    }

    /// A bot with the given options, named for tables and logs.
    pub fn named(name: String, options: IsmctsOptions, seed: u64) -> Self {
        IsmctsBot {
            options,
            name,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tree: Tree::new(),
            legal: Vec::new(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &IsmctsOptions {
        &self.options
    }

    /// Searches and returns every root action with its visits and total reward, summed
    /// over the trees (for analysis and tests).
    pub fn analyse(&mut self, observer: &Observer<'_, G>) -> Vec<(G::Action, u32, f64)> {
        let trees = match self.options.trees {
            0 => rayon::current_num_threads().max(1),
            n => n,
        };
        let base = self.rng.random::<u64>();
        let stop = Stop::of(&self.options, Instant::now());
        if trees == 1 {
            let mut rng = ChaCha8Rng::seed_from_u64(base);
            let worlds = Worlds::Sampled;
            search::<G, false>(
                &mut self.tree,
                observer,
                worlds,
                &self.options,
                stop,
                &mut rng,
            );
            return self.tree.root_stats();
        }
        let options = &self.options;
        let per_tree: Vec<Vec<(G::Action, u32, f64)>> = (0..trees as u64)
            .into_par_iter()
            .map(|t| {
                let mut tree = Tree::new();
                let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(base, t));
                search::<G, false>(
                    &mut tree,
                    observer,
                    Worlds::Sampled,
                    options,
                    stop,
                    &mut rng,
                );
                tree.root_stats()
            })
            .collect();
        let mut merged: Vec<(G::Action, u32, f64)> = Vec::new();
        for stats in per_tree {
            add_stats(&mut merged, stats);
        }
        merged
    }
}

/// Adds one search's root statistics `(action, visits, reward)` into `merged`.
pub(crate) fn add_stats<A: PartialEq>(merged: &mut Vec<(A, u32, f64)>, stats: Vec<(A, u32, f64)>) {
    for (a, v, r) in stats {
        match merged.iter_mut().find(|m| m.0 == a) {
            Some(m) => {
                m.1 += v;
                m.2 += r;
            }
            None => merged.push((a, v, r)),
        }
    }
}

/// The searching bots' choice among `legal` from root statistics `(action, visits,
/// reward)`: the most visited action, the mean reward breaking ties, then the legal order.
/// A deal is pursued only when it beats the best other move by [`DEAL_MARGIN`].
pub(crate) fn most_visited<G: Game>(
    observer: &Observer<'_, G>,
    legal: &[G::Action],
    stats: &[(G::Action, u32, f64)],
) -> Option<G::Action> {
    let mut best: Option<(G::Action, u32, f64)> = None;
    let mut best_other: Option<(G::Action, u32, f64)> = None;
    for &a in legal {
        let Some(&(_, v, r)) = stats.iter().find(|s| s.0 == a) else {
            continue;
        };
        let mean = if v > 0 { r / f64::from(v) } else { 0.0 };
        let better = |b: Option<(G::Action, u32, f64)>| {
            b.is_none_or(|(_, bv, bm)| v > bv || (v == bv && mean > bm))
        };
        if better(best) {
            best = Some((a, v, mean));
        }
        if observer.deal(a) != Deal::Pursue && better(best_other) {
            best_other = Some((a, v, mean));
        }
    }
    let best = best.map(|(a, _, m)| (a, m));
    let best_other = best_other.map(|(a, _, m)| (a, m));
    let pursues = best.is_some_and(|(a, _)| observer.deal(a) == Deal::Pursue);
    let choice = if pursues {
        less_keen(best, best_other, DEAL_MARGIN)
    } else {
        best.map(|b| b.0)
    };
    choice.or(legal.first().copied())
}

impl<G: Game> Bot<G> for IsmctsBot<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action> {
        observer.legal_actions(&mut self.legal);
        if self.legal.len() <= 1 {
            return self.legal.first().copied();
        }
        let stats = self.analyse(observer);
        most_visited(observer, &self.legal, &stats)
    }
}
