use crate::deals::{less_keen, DEAL_MARGIN};
use crate::{Bot, Observer};
use engine::prelude::*;
use engine::{Deal, Seat};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// How hard the [`HeuristicBot`] looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeuristicOptions {
    /// Determinizations each action is averaged over (the same ones for every action, so
    /// the comparison between actions is not blurred by different samples).
    pub determinizations: usize,
    /// How many of its own consecutive decisions after the first the bot plays greedily
    /// before evaluating (a turn made of several small decisions is judged whole).
    pub own_lookahead: usize,
}

impl Default for HeuristicOptions {
    fn default() -> Self {
        HeuristicOptions {
            determinizations: 8,
            own_lookahead: 8,
        }
    }
}

impl HeuristicOptions {
    /// Sets [`HeuristicOptions::determinizations`] (at least 1).
    pub fn with_determinizations(mut self, n: usize) -> Self {
        self.determinizations = n.max(1);
        self
    }
    /// Sets [`HeuristicOptions::own_lookahead`].
    pub fn with_own_lookahead(mut self, steps: usize) -> Self {
        self.own_lookahead = steps;
        self
    }
}

/// A one-ply look-ahead on [`engine::Search::evaluate`]: each legal action is applied in a few
/// determinizations, followed greedily through the bot's own next decisions, and scored
/// by the average evaluation for its seat. Ties are broken with the seeded stream.
pub struct HeuristicBot<G: Game> {
    options: HeuristicOptions,
    rng: ChaCha8Rng,
    legal: Vec<G::Action>,
    inner: Vec<G::Action>,
    scores: Vec<f64>,
    best: Vec<G::Action>,
}

impl<G: Game> HeuristicBot<G> {
    /// A bot with default options.
    pub fn new(seed: u64) -> Self {
        Self::with_options(HeuristicOptions::default(), seed)
    }

    /// A bot with the given options.
    pub fn with_options(options: HeuristicOptions, seed: u64) -> Self {
        HeuristicBot {
            options,
            rng: ChaCha8Rng::seed_from_u64(seed),
            legal: Vec::new(),
            inner: Vec::new(),
            scores: Vec::new(),
            best: Vec::new(),
        }
    }

    /// Plays `seat`'s following decisions greedily (each by a one-step evaluation) and
    /// returns the evaluation once the turn passes or the look-ahead runs out. The
    /// look-ahead pursues no deal of its own, and an offer the seat made that another
    /// seat is to answer is taken as declined: a deal is worth only what it brings, and
    /// opening one is not a way to put off the rest of the turn.
    fn finish_turn(&mut self, game: &mut G, seat: Seat) -> f64 {
        for _ in 0..self.options.own_lookahead {
            let Some(to_act) = game.to_act() else { break };
            game.legal_actions(&mut self.inner);
            if to_act != seat {
                let ours = game.position_key().is_some_and(|k| k.owner == seat);
                match self.inner.iter().find(|&&a| game.deal(a) == Deal::Drop) {
                    Some(&drop) if ours => {
                        if game.apply(drop).is_err() {
                            break;
                        }
                        continue;
                    }
                    _ => break,
                }
            }
            if self.inner.iter().any(|&a| game.deal(a) != Deal::Pursue) {
                self.inner.retain(|&a| game.deal(a) != Deal::Pursue);
            }
            let choice = if self.inner.len() == 1 {
                self.inner[0]
            } else {
                let mut best = (f64::NEG_INFINITY, None);
                for &a in &self.inner {
                    let mut next = game.clone();
                    if next.apply(a).is_ok() {
                        let v = next.evaluate(seat);
                        if v > best.0 {
                            best = (v, Some(a));
                        }
                    }
                }
                match best.1 {
                    Some(a) => a,
                    None => break,
                }
            };
            if game.apply(choice).is_err() {
                break;
            }
        }
        game.evaluate(seat)
    }
}

impl<G: Game> Bot<G> for HeuristicBot<G> {
    fn name(&self) -> String {
        "heuristic".into()
    }

    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action> {
        let seat = observer.seat();
        let mut legal = std::mem::take(&mut self.legal);
        observer.legal_actions(&mut legal);
        if legal.len() <= 1 {
            let only = legal.first().copied();
            self.legal = legal;
            return only;
        }
        self.scores.clear();
        self.scores.resize(legal.len(), 0.0);
        for _ in 0..self.options.determinizations {
            let world = observer.determinize(&mut self.rng);
            for (i, &a) in legal.iter().enumerate() {
                let mut game = world.clone();
                // An action legal for the seat is legal in every world it cannot tell
                // apart; a game breaking that rule only costs this action its score.
                self.scores[i] += if game.apply(a).is_ok() {
                    self.finish_turn(&mut game, seat)
                } else {
                    f64::NEG_INFINITY
                };
            }
        }
        let top = self
            .scores
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        self.best.clear();
        // Values within rounding of the best are ties.
        let eps = 1e-9 * (1.0 + top.abs());
        self.best.extend(
            legal
                .iter()
                .zip(&self.scores)
                .filter(|(_, &s)| s >= top - eps)
                .map(|(&a, _)| a),
        );
        let mut choice = self
            .best
            .choose(&mut self.rng)
            .copied()
            .or(legal.first().copied());
        // A deal is pursued only when it beats the best other move by the deal margin.
        if let Some(a) = choice.filter(|&a| observer.deal(a) == Deal::Pursue) {
            let n = self.options.determinizations as f64;
            let other = legal
                .iter()
                .zip(&self.scores)
                .filter(|(&b, _)| observer.deal(b) != Deal::Pursue)
                .map(|(&b, &s)| (b, s / n))
                .fold(None, |best: Option<(G::Action, f64)>, (b, m)| match best {
                    Some((_, bm)) if bm >= m => best,
                    _ => Some((b, m)),
                });
            choice = less_keen(Some((a, top / n)), other, DEAL_MARGIN);
        }
        self.legal = legal;
        choice
    }
}
