//! Many games of one table stepped together in Rust: what `tabletop.Batch` holds.
//!
//! Each call steps every game once and writes, per game, the observation and the mask of
//! the seat to act, the rewards of a game that ended, whether it ended or was cut short,
//! and the seat to act. A game that ends is replaced at once by the next game of its own
//! seed stream (auto-reset), so every row always shows a game waiting for a move. Nothing
//! is allocated per step but what the games themselves allocate.
use engine::{derive_seed, rng_from_seed, GameRng, Seat, Tensor, Viewer};
use rand::Rng;

/// The table's sizes: seats, observation length, action indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub players: usize,
    pub observation: usize,
    pub actions: usize,
}

/// The arrays one call fills, one row per game.
pub struct Rows<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [i8],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_act: &'a mut [i64],
    /// The action index each game took in this call.
    pub actions: &'a mut [i64],
}

impl<'a> Rows<'a> {
    /// The first `k` games' rows and the rest.
    fn split_at(self, k: usize, dims: Dims) -> (Rows<'a>, Rows<'a>) {
        let (obs_a, obs_b) = self.obs.split_at_mut(k * dims.observation);
        let (mask_a, mask_b) = self.mask.split_at_mut(k * dims.actions);
        let (rew_a, rew_b) = self.rewards.split_at_mut(k * dims.players);
        let (term_a, term_b) = self.terminated.split_at_mut(k);
        let (trunc_a, trunc_b) = self.truncated.split_at_mut(k);
        let (act_a, act_b) = self.to_act.split_at_mut(k);
        let (taken_a, taken_b) = self.actions.split_at_mut(k);
        (
            Rows {
                obs: obs_a,
                mask: mask_a,
                rewards: rew_a,
                terminated: term_a,
                truncated: trunc_a,
                to_act: act_a,
                actions: taken_a,
            },
            Rows {
                obs: obs_b,
                mask: mask_b,
                rewards: rew_b,
                terminated: term_b,
                truncated: trunc_b,
                to_act: act_b,
                actions: taken_b,
            },
        )
    }
}

/// What a call does with each game.
#[derive(Clone, Copy)]
pub enum Moves<'a> {
    /// Play these action indices, one per game (checked legal beforehand).
    Given(&'a [i64]),
    /// Play a uniformly random legal action, drawn from each game's own stream.
    Random,
}

/// Many games of one table, whatever the game.
pub trait Batched: Send + Sync {
    fn dims(&self) -> Dims;
    /// How many games the batch holds.
    fn games(&self) -> usize;
    /// Starts a new game everywhere: game `k` of row `i` is seeded from `seed`, `i` and
    /// `k`; with `seed` `None` each row starts its next game.
    ///
    /// # Errors
    /// A game that cannot be made (the options were checked when the batch was made).
    fn reset(&mut self, seed: Option<u64>, rows: Rows<'_>) -> Result<(), String>;
    /// Why `actions` cannot be played (the first game whose action is not legal, in
    /// words), or `Ok`.
    ///
    /// # Errors
    /// A count that is not one per game, or an index that is not legal in its game.
    fn check(&self, actions: &[i64]) -> Result<(), String>;
    /// Steps every game once (after [`Batched::check`] for given actions), on `pool`'s
    /// threads when there is one.
    ///
    /// # Errors
    /// A refused action or a game that cannot be made (neither happens after `check`).
    fn step(
        &mut self,
        moves: Moves<'_>,
        rows: Rows<'_>,
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<(), String>;
    /// What `viewer` sees of row `i`'s game, into `out`.
    fn observe(&self, i: usize, viewer: Viewer, out: &mut [f32]);
    /// A copy of row `i`'s game.
    fn table(&self, i: usize) -> Box<dyn crate::table::Table>;
    /// Actions played in row `i`'s current game.
    fn steps(&self, i: usize) -> u64;
}

struct Slot<G: Tensor> {
    game: G,
    /// The legal actions of the seat to act (empty when nobody is to act).
    legal: Vec<G::Action>,
    /// Random moves' stream.
    rng: GameRng,
    /// The random move of the next step with its index, drawn from `rng` when the legal
    /// actions are listed (while they are in the nearest cache: drawn at the next step,
    /// the look-up waited on memory the other rows had pushed out) and played as it is,
    /// with no index to turn back into an action; `None` when no seat is to act. A step
    /// given its actions leaves it unplayed: each row's stream advances once a step
    /// either way.
    next: Option<(usize, G::Action)>,
    /// This row's seed: its game `k` is seeded with `derive_seed(seed, k)`.
    seed: u64,
    episode: u64,
    steps: u64,
    /// The game ended (or was cut short) and waits for a reset (without auto-reset).
    done: bool,
}

/// The settings every row shares.
struct Shared<'a, G: Tensor> {
    config: &'a G::Config,
    dims: Dims,
    max_steps: Option<u64>,
    autoreset: bool,
}

impl<G: Tensor> Slot<G> {
    fn start(&mut self, config: &G::Config) -> Result<(), String> {
        self.game =
            G::new(config, derive_seed(self.seed, self.episode)).map_err(|e| e.to_string())?;
        self.episode += 1;
        self.steps = 0;
        self.done = false;
        Ok(())
    }

    /// Writes the observation, mask and seat to act of the current game.
    fn show(&mut self, config: &G::Config, obs: &mut [f32], mask: &mut [i8], to_act: &mut i64) {
        let seat = self.game.to_act().filter(|_| !self.done);
        self.game
            .observe(seat.map_or(Viewer::Spectator, Viewer::Seat), obs);
        *to_act = seat.map_or(-1, |s| s as i64);
        self.next = None;
        if seat.is_none() {
            mask.fill(0);
            self.legal.clear();
            return;
        }
        // The legal list and the mask in one pass (a game that writes the mask as it lists
        // its actions needs no look-up of each action's index).
        self.game.legal_mask(&mut self.legal, mask);
        // The next random move, kept with its index (every legal action has one in the
        // mask: the tensor check holds it). Drawn from a `u32` range, as `choose` (and so
        // `tabletop bench`) draws for a list this short: a `usize` range costs twice the
        // instructions.
        let drawn = match self.legal.len() {
            0 => return,
            n => self.rng.random_range(0..n as u32) as usize,
        };
        if let Some(&action) = self.legal.get(drawn) {
            self.next = G::action_index(config, action)
                .filter(|&i| i < mask.len())
                .map(|i| (i, action));
        }
    }

    fn step(
        &mut self,
        shared: &Shared<'_, G>,
        given: Option<i64>,
        row: Row<'_>,
    ) -> Result<(), String> {
        if self.done {
            // Without auto-reset a finished game stays as it ended until the next reset.
            *row.action = -1;
            row.rewards.fill(0.0);
            return Ok(());
        }
        let index = match given {
            Some(a) => {
                let index =
                    usize::try_from(a).map_err(|_| format!("action index {a} is negative"))?;
                self.game.apply_index(index).map_err(|e| e.to_string())?;
                index
            }
            None => {
                let (index, action) = self
                    .next
                    .ok_or("a game has no legal action with an index to play")?;
                self.game.apply(action).map_err(|e| e.to_string())?;
                index
            }
        };
        self.steps += 1;
        *row.action = index as i64;
        row.rewards.fill(0.0);
        let over = self.game.to_act().is_none();
        let cut = !over && shared.max_steps.is_some_and(|m| self.steps >= m);
        if over {
            if let Some(outcome) = self.game.outcome() {
                for (s, r) in row.rewards.iter_mut().enumerate() {
                    *r = outcome.reward(s as Seat) as f32;
                }
            }
        } else if cut {
            // A game cut short is a draw: an equal share for every seat.
            row.rewards.fill(1.0 / shared.dims.players as f32);
        }
        *row.terminated = over;
        *row.truncated = cut;
        if over || cut {
            if shared.autoreset {
                self.start(shared.config)?;
            } else {
                self.done = true;
            }
        }
        self.show(shared.config, row.obs, row.mask, row.to_act);
        Ok(())
    }
}

/// One game's part of [`Rows`].
struct Row<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_act: &'a mut i64,
    action: &'a mut i64,
}

fn run<G: Tensor>(
    shared: &Shared<'_, G>,
    slots: &mut [Slot<G>],
    moves: Moves<'_>,
    rows: Rows<'_>,
) -> Result<(), String> {
    let d = shared.dims;
    let parts = rows
        .obs
        .chunks_mut(d.observation)
        .zip(rows.mask.chunks_mut(d.actions))
        .zip(rows.rewards.chunks_mut(d.players))
        .zip(rows.terminated.iter_mut())
        .zip(rows.truncated.iter_mut())
        .zip(rows.to_act.iter_mut())
        .zip(rows.actions.iter_mut());
    for (i, (slot, ((((((obs, mask), rewards), terminated), truncated), to_act), action))) in
        slots.iter_mut().zip(parts).enumerate()
    {
        let given = match moves {
            Moves::Given(a) => Some(a[i]),
            Moves::Random => None,
        };
        let row = Row {
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            to_act,
            action,
        };
        slot.step(shared, given, row)?;
    }
    Ok(())
}

/// The rows of one game `G`.
pub struct Slots<G: Tensor> {
    config: G::Config,
    max_steps: Option<u64>,
    autoreset: bool,
    slots: Vec<Slot<G>>,
}

impl<G: Tensor> Slots<G> {
    /// `n` games of `config`, row `i` seeded from `derive_seed(seed, i)`.
    ///
    /// # Errors
    /// A config that makes no game.
    pub fn new(
        config: G::Config,
        n: usize,
        seed: u64,
        max_steps: Option<u64>,
        autoreset: bool,
    ) -> Result<Self, String> {
        let mut slots = Vec::with_capacity(n);
        for i in 0..n {
            let row_seed = derive_seed(seed, i as u64);
            let game = G::new(&config, derive_seed(row_seed, 0)).map_err(|e| e.to_string())?;
            slots.push(Slot {
                game,
                legal: Vec::new(),
                rng: rng_from_seed(derive_seed(row_seed, u64::MAX)),
                next: None,
                seed: row_seed,
                episode: 1,
                steps: 0,
                done: false,
            });
        }
        Ok(Slots {
            config,
            max_steps,
            autoreset,
            slots,
        })
    }
}

impl<G: Tensor> Batched for Slots<G> {
    fn dims(&self) -> Dims {
        Dims {
            players: self.slots.first().map_or(0, |s| s.game.seats()),
            observation: G::observation_len(&self.config),
            actions: G::num_distinct_actions(&self.config),
        }
    }

    fn games(&self) -> usize {
        self.slots.len()
    }

    fn reset(&mut self, seed: Option<u64>, rows: Rows<'_>) -> Result<(), String> {
        let d = self.dims();
        let config = &self.config;
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if let Some(seed) = seed {
                slot.seed = derive_seed(seed, i as u64);
                slot.episode = 0;
                slot.rng = rng_from_seed(derive_seed(slot.seed, u64::MAX));
            }
            slot.start(config)?;
            let (o, m) = (i * d.observation, i * d.actions);
            slot.show(
                config,
                &mut rows.obs[o..o + d.observation],
                &mut rows.mask[m..m + d.actions],
                &mut rows.to_act[i],
            );
        }
        rows.rewards.fill(0.0);
        rows.terminated.fill(false);
        rows.truncated.fill(false);
        rows.actions.fill(-1);
        Ok(())
    }

    fn check(&self, actions: &[i64]) -> Result<(), String> {
        if actions.len() != self.slots.len() {
            return Err(format!(
                "{} actions for {} games: give one action index per game",
                actions.len(),
                self.slots.len()
            ));
        }
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            if slot.done {
                return Err(format!(
                    "game {i} is over: reset the batch before stepping it; no game was stepped"
                ));
            }
            let legal = usize::try_from(a)
                .ok()
                .and_then(|a| G::index_action(&self.config, a))
                .is_some_and(|action| slot.legal.contains(&action));
            if !legal {
                let seat = slot
                    .game
                    .to_act()
                    .map_or("nobody".into(), |s| format!("seat {s}"));
                return Err(format!(
                    "game {i}: action index {a} is not legal for {seat} to act \
                     (its mask has {} legal actions); no game was stepped",
                    slot.legal.len()
                ));
            }
        }
        Ok(())
    }

    fn step(
        &mut self,
        moves: Moves<'_>,
        rows: Rows<'_>,
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<(), String> {
        let d = self.dims();
        let config = &self.config;
        let shared = Shared::<G> {
            config,
            dims: d,
            max_steps: self.max_steps,
            autoreset: self.autoreset,
        };
        let Some(pool) = pool.filter(|p| p.current_num_threads() > 1 && self.slots.len() > 1)
        else {
            return run(&shared, &mut self.slots, moves, rows);
        };
        // Contiguous runs of rows, one a thread.
        let per = self.slots.len().div_ceil(pool.current_num_threads());
        let mut parts = Vec::new();
        let (mut slots, mut rows, mut first) = (&mut self.slots[..], rows, 0);
        while !slots.is_empty() {
            let k = per.min(slots.len());
            let (these, rest) = slots.split_at_mut(k);
            let (these_rows, rest_rows) = rows.split_at(k, d);
            let these_moves = match moves {
                Moves::Given(a) => Moves::Given(&a[first..first + k]),
                Moves::Random => Moves::Random,
            };
            parts.push((these, these_rows, these_moves));
            slots = rest;
            rows = rest_rows;
            first += k;
        }
        let shared = &shared;
        pool.install(|| {
            use rayon::prelude::*;
            parts
                .into_par_iter()
                .map(|(slots, rows, moves)| run(shared, slots, moves, rows))
                .collect::<Result<(), String>>()
        })
    }

    fn observe(&self, i: usize, viewer: Viewer, out: &mut [f32]) {
        if let Some(slot) = self.slots.get(i) {
            slot.game.observe(viewer, out);
        }
    }

    fn table(&self, i: usize) -> Box<dyn crate::table::Table> {
        let game = self
            .slots
            .get(i)
            .map_or_else(|| self.slots[0].game.clone(), |s| s.game.clone());
        Box::new(crate::table::Typed::new(game))
    }

    fn steps(&self, i: usize) -> u64 {
        self.slots.get(i).map_or(0, |s| s.steps)
    }
}

struct Open<'a> {
    options: &'a serde_json::Value,
    n: usize,
    seed: u64,
    max_steps: Option<u64>,
    autoreset: bool,
}

impl catalog::Visit for Open<'_> {
    type Out = Result<Box<dyn Batched>, String>;
    fn visit<G: Tensor>(self) -> Self::Out {
        let config = engine::Typed::<G>::config(self.options).map_err(|e| e.to_string())?;
        Ok(Box::new(Slots::<G>::new(
            config,
            self.n,
            self.seed,
            self.max_steps,
            self.autoreset,
        )?))
    }
}

/// `n` games of the game named `name` with `options`.
///
/// # Errors
/// An unknown game, options that make no game, or no games at all.
pub fn open(
    name: &str,
    options: &serde_json::Value,
    n: usize,
    seed: u64,
    max_steps: Option<u64>,
    autoreset: bool,
) -> Result<Box<dyn Batched>, String> {
    if n == 0 {
        return Err("a batch needs at least one game".into());
    }
    catalog::with_game(
        name,
        Open {
            options,
            n,
            seed,
            max_steps,
            autoreset,
        },
    )
    .map_err(|e| e.to_string())?
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Buffers {
        obs: Vec<f32>,
        mask: Vec<i8>,
        rewards: Vec<f32>,
        terminated: Vec<bool>,
        truncated: Vec<bool>,
        to_act: Vec<i64>,
        actions: Vec<i64>,
    }

    impl Buffers {
        fn new(n: usize, d: Dims) -> Self {
            Buffers {
                obs: vec![0.0; n * d.observation],
                mask: vec![0; n * d.actions],
                rewards: vec![0.0; n * d.players],
                terminated: vec![false; n],
                truncated: vec![false; n],
                to_act: vec![0; n],
                actions: vec![0; n],
            }
        }
        fn rows(&mut self) -> Rows<'_> {
            Rows {
                obs: &mut self.obs,
                mask: &mut self.mask,
                rewards: &mut self.rewards,
                terminated: &mut self.terminated,
                truncated: &mut self.truncated,
                to_act: &mut self.to_act,
                actions: &mut self.actions,
            }
        }
    }

    #[test]
    fn threads_change_nothing_and_bad_actions_are_refused() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a pool");
        let options = serde_json::json!({"players": 3});
        let mut one = open("dropsite", &options, 7, 5, Some(40), true).expect("valid");
        let mut many = open("dropsite", &options, 7, 5, Some(40), true).expect("valid");
        let d = one.dims();
        let (mut a, mut b) = (Buffers::new(7, d), Buffers::new(7, d));
        one.reset(Some(9), a.rows()).expect("resets");
        many.reset(Some(9), b.rows()).expect("resets");
        let mut ended = 0;
        for _ in 0..300 {
            one.step(Moves::Random, a.rows(), None).expect("steps");
            many.step(Moves::Random, b.rows(), Some(&pool))
                .expect("steps");
            assert_eq!(a.obs, b.obs);
            assert_eq!(
                (&a.mask, &a.actions, &a.to_act),
                (&b.mask, &b.actions, &b.to_act)
            );
            assert_eq!((&a.rewards, &a.truncated), (&b.rewards, &b.truncated));
            ended += a.truncated.iter().filter(|&&t| t).count();
        }
        assert!(ended > 0, "games are cut at 40 actions");
        let illegal: Vec<i64> = (0..7)
            .map(|i| {
                let row = &a.mask[i * d.actions..(i + 1) * d.actions];
                if i == 4 {
                    row.iter().position(|&m| m == 0).expect("an illegal index") as i64
                } else {
                    row.iter().position(|&m| m == 1).expect("a legal index") as i64
                }
            })
            .collect();
        let err = one.check(&illegal).expect_err("refused");
        assert!(err.starts_with("game 4: action index"), "{err}");
        assert!(one.check(&illegal[..3]).is_err());
    }
}
