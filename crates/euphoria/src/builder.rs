//! A checked way to build a position for a test, a puzzle or a lesson: start from a game,
//! change what the position needs, and [`Builder::build`] checks it like a loaded state.
use crate::cards::*;
use crate::config::Config;
use crate::state::*;
use engine::Seat;

/// A position that does not break the game's invariants, for tests, puzzles and tools:
/// start from a game ([`Builder::started`], or [`Euphoria::edit`]), change what the
/// position needs, then [`Builder::build`] checks it and lists every problem.
///
/// The changes bypass the rules (they are not moves), so each one keeps what it can
/// conserved: artifact cards come from and go back to the deck, recruits and tiles are
/// moved, not copied, and stars come from their owner's supply.
#[derive(Clone, Debug)]
pub struct Builder {
    pub(crate) game: Euphoria,
    /// What an editing step could not do (a list past what the game holds).
    pub(crate) problems: Vec<String>,
}

/// A position that breaks the game's invariants: every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this is not a possible Euphoria position: {}", .problems.join("; "))]
pub struct BuilderError {
    /// Each problem, in words.
    pub problems: Vec<String>,
}

impl Builder {
    /// A game past setup: every seat kept its first dealt recruit face up and its second
    /// face down; the first player is to start a turn on an empty board.
    ///
    /// # Errors
    /// A config that does not validate.
    pub fn started(config: &Config, seed: u64) -> Result<Builder, engine::ConfigError> {
        Ok(Euphoria::started(config, seed)?.edit())
    }

    /// The position, if it breaks no invariant.
    ///
    /// # Errors
    /// [`BuilderError`] with every problem found.
    pub fn build(self) -> Result<Euphoria, BuilderError> {
        let mut problems = self.problems;
        problems.extend(self.game.problems());
        if problems.is_empty() {
            Ok(self.game)
        } else {
            Err(BuilderError { problems })
        }
    }

    /// Makes it the start of `seat`'s turn, with no pending step.
    pub fn turn(mut self, seat: Seat) -> Builder {
        let g = &mut self.game;
        g.stack.clear();
        g.current = seat.min(g.n().saturating_sub(1)) as u8;
        g.start_turn();
        self
    }

    /// Sets the dice of `seat` (missing entries are in the reserve), then restarts the
    /// turn bookkeeping if `seat` is to start a turn.
    pub fn dice(mut self, seat: Seat, dice: &[DieLoc]) -> Builder {
        let g = &mut self.game;
        for i in 0..DICE {
            g.players[seat].dice[i] = dice.get(i).copied().unwrap_or(DieLoc::Reserve);
        }
        if seat == g.current as usize && g.stack.is_empty() {
            g.start_turn();
        }
        self
    }

    /// Sets how many of `good` the seat holds. Artifact cards come from (or go back to)
    /// the deck and the discards, so the 36 cards stay conserved.
    pub fn good(mut self, seat: Seat, good: Good, n: u32) -> Builder {
        let g = &mut self.game;
        if !good.is_artifact() {
            g.players[seat].supply[good.index()] = n;
            return self;
        }
        while g.players[seat].count(good) > n {
            if g.artifact_discard.try_push(good).is_err() {
                self.problems
                    .push(format!("more than {ARTIFACT_CARDS} artifact cards"));
                break;
            }
            g.players[seat].remove(good, 1);
        }
        while g.players[seat].count(good) < n {
            if let Some(pos) = g.artifact_deck.iter().position(|&c| c == good) {
                g.artifact_deck.remove(pos);
            } else if let Some(pos) = g.artifact_discard.iter().position(|&c| c == good) {
                g.artifact_discard.remove(pos);
            } else {
                break;
            }
            g.players[seat].add(good, 1);
        }
        self
    }

    /// Sets `seat`'s knowledge (1..=6, checked by [`Builder::build`]).
    pub fn knowledge(mut self, seat: Seat, knowledge: u8) -> Builder {
        self.game.players[seat].knowledge = knowledge;
        self
    }

    /// Sets `seat`'s morale (1..=6, checked by [`Builder::build`]).
    pub fn morale(mut self, seat: Seat, morale: u8) -> Builder {
        self.game.players[seat].morale = morale;
        self
    }

    /// Gives `seat` exactly these recruits (face up or down), returning its previous
    /// ones to the deck and taking these from wherever they were.
    pub fn recruits(mut self, seat: Seat, recruits: &[(Recruit, bool)]) -> Builder {
        let g = &mut self.game;
        let old = std::mem::take(&mut g.players[seat].recruits);
        for r in old {
            if g.recruit_deck.try_push(r.id).is_err() {
                self.problems.push(format!("more than {RECRUITS} recruits"));
            }
        }
        for &(id, up) in recruits {
            g.recruit_deck.retain(|&x| x != id);
            g.recruit_discard.retain(|&x| x != id);
            g.recruit_box.retain(|&x| x != id);
            for p in g.players.iter_mut() {
                p.recruits.retain(|r| r.id != id);
                p.dealt.retain(|&x| x != id);
            }
            let held = HeldRecruit {
                id,
                up,
                star: false,
            };
            if g.players[seat].recruits.try_push(held).is_err() {
                self.problems
                    .push(format!("P{seat}: more than {HELD_RECRUITS} recruits"));
            }
        }
        self
    }

    /// Puts market tile `tile` on slot `m` (swapping it with wherever it was).
    pub fn tile(mut self, m: usize, tile: u8) -> Builder {
        let g = &mut self.game;
        let old = g.markets[m].tile;
        if let Some(k) = (0..MARKETS).find(|&k| g.markets[k].tile == tile) {
            g.markets[k].tile = old;
        } else if let Some(b) = g.box_tiles.iter_mut().find(|t| **t == tile) {
            *b = old;
        }
        g.markets[m].tile = tile;
        self
    }

    /// Builds market `m` with tile `tile` and stars of `seats` on it (stars taken from
    /// their supplies).
    pub fn built(mut self, m: usize, tile: u8, seats: &[Seat]) -> Builder {
        self = self.tile(m, tile);
        self.game.markets[m].built = true;
        for &s in seats {
            self = self.market_star(m, s);
        }
        self
    }

    /// A star of `seat` on market tile `m`, from its supply.
    pub fn market_star(mut self, m: usize, seat: Seat) -> Builder {
        let g = &mut self.game;
        if g.markets[m].stars & (1 << seat) == 0 {
            g.markets[m].stars |= 1 << seat;
            g.players[seat].stars_left = g.players[seat].stars_left.saturating_sub(1);
        }
        self
    }

    /// Sets how many stars `seat` has left to place. The others must be somewhere on the
    /// board ([`Builder::build`] checks the ten).
    pub fn stars_left(mut self, seat: Seat, n: u8) -> Builder {
        self.game.players[seat].stars_left = n;
        self
    }

    /// Sets the seats with a star in `f`'s territory, in placement order (the stars are
    /// taken from and given back to the supplies).
    pub fn territory(mut self, f: Faction, seats: &[Seat]) -> Builder {
        let g = &mut self.game;
        for s in std::mem::take(&mut g.territory[f.index()]) {
            g.players[s as usize].stars_left += 1;
        }
        for &s in seats {
            if g.territory[f.index()].try_push(s as u8).is_err() {
                self.problems.push(format!(
                    "the territory of {} holds more than {MAX_SEATS} stars",
                    f.region()
                ));
                break;
            }
            g.players[s].stars_left = g.players[s].stars_left.saturating_sub(1);
        }
        self
    }

    /// A star of `seat` on its dilemma card (conformed), from its supply.
    pub fn conform(mut self, seat: Seat) -> Builder {
        let p = &mut self.game.players[seat];
        if p.dilemma_state != DilemmaState::Conformed {
            p.dilemma_state = DilemmaState::Conformed;
            p.stars_left = p.stars_left.saturating_sub(1);
        }
        self
    }

    /// A new random stream for what the position rolls and draws next.
    pub fn reseed(mut self, seed: u64) -> Builder {
        self.game.rng = engine::rng_from_seed(seed);
        self
    }

    /// Ends the game now, as the rules do once a player has placed the tenth star: the
    /// tied winners roll off.
    pub fn end_game(mut self) -> Builder {
        self.game.finish();
        self
    }

    /// Sets `f`'s allegiance track (0..=11).
    pub fn allegiance(mut self, f: Faction, position: u8) -> Builder {
        self.game.allegiance[f.index()] = position;
        self
    }

    /// Sets the miner of `f`'s tunnel (0..=9; not the Icarites, who have no tunnel).
    pub fn miner(mut self, f: Faction, position: u8) -> Builder {
        if let Some(m) = self.game.miners.get_mut(f.index()) {
            *m = position;
        }
        self
    }
}

impl Euphoria {
    /// A position to edit from this one (for tests and tools).
    pub fn edit(mut self) -> Builder {
        self.checks = ChecksSeen::default();
        Builder {
            game: self,
            problems: Vec::new(),
        }
    }
}
