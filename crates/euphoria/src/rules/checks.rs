//! Shared effects and the continuous checks: knowledge (5.6), morale and the hand limit
//! (5.7), recruit reveal and tier-4 stars (5.9), stars, rolls and penalties.

use crate::cards::{
    Faction, Good, Penalty, Recruit, ALLEGIANCE_MAX, DICE, KNOWLEDGE_LIMIT, MARKET_TILES, TIERS,
    TUNNEL_END, TUNNEL_REVEAL,
};
use crate::config::KnowledgeCheck;
use crate::state::{DieLoc, DilemmaState, Euphoria, Step, Trigger};
use engine::shuffle;
use engine::Seat;
use rand::Rng;

/// What the checks "at all times" ([`Euphoria::global_checks`]) have to do.
#[derive(Clone, Copy, Debug, Default)]
struct ChecksDue {
    /// Some player has placed all ten stars.
    won: bool,
    /// Seats (bits) at or over the knowledge limit.
    knowledge: u8,
    /// Some recruit is to be revealed or to get a tier-4 star.
    recruits: bool,
    /// Seats (bits) holding more artifact cards than their morale.
    hands: u8,
}

impl ChecksDue {
    /// Nothing to do (under a knowledge check on rolls only, a seat at the limit counts
    /// as something: the cautious reading, as the check then leaves it be).
    fn clear(&self) -> bool {
        !self.won && self.knowledge == 0 && !self.recruits && self.hands == 0
    }
}

/// Where a star is placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StarSpot {
    Territory(Faction),
    Market(usize),
    Recruit(usize),
    Dilemma,
}

impl Euphoria {
    /// Whether `seat` suffers `penalty`: a built tile carries it and `seat` has no star there.
    pub fn penalized(&self, seat: Seat, penalty: Penalty) -> bool {
        if matches!(penalty, Penalty::RollLoss(_)) {
            return self.penalized_exactly(seat, penalty);
        }
        self.penalties(seat) & penalty.bit() != 0
    }

    /// The penalties `seat` suffers, as a set of [`Penalty::bit`]s.
    pub fn penalties(&self, seat: Seat) -> u16 {
        self.markets
            .iter()
            .filter(|m| m.built && m.stars & (1 << seat) == 0)
            .fold(0, |set, m| {
                set | MARKET_TILES[m.tile as usize % MARKET_TILES.len()]
                    .penalty
                    .bit()
            })
    }

    fn penalized_exactly(&self, seat: Seat, penalty: Penalty) -> bool {
        self.markets.iter().any(|m| {
            m.built
                && m.stars & (1 << seat) == 0
                && MARKET_TILES[m.tile as usize].penalty == penalty
        })
    }

    /// Whether faction `f`'s recruits are revealed (allegiance tier 3 or its miner at 6).
    pub fn unlocked(&self, f: Faction) -> bool {
        self.allegiance[f.index()] >= TIERS[2]
            || (f != Faction::Icarite && self.miners[f.index()] >= TUNNEL_REVEAL)
    }

    /// Whether the tunnel end of `f` is open.
    pub fn tunnel_end_open(&self, f: Faction) -> bool {
        f != Faction::Icarite && self.miners[f.index()] >= TUNNEL_END
    }

    /// Whether `seat` gets the tier-`tier` (1 or 2) bonus of `f` now.
    pub fn tier_bonus(&self, seat: Seat, f: Faction, tier: usize) -> bool {
        self.allegiance[f.index()] >= TIERS[tier - 1]
            && self.players[seat].has_active(f)
            && !self.penalized(seat, Penalty::NoTierBonus)
    }

    /// Moves knowledge by `delta`, kept within 1..=6.
    /// Nick the Understudy: a rise also gives 1 morale.
    pub(crate) fn shift_knowledge(&mut self, seat: Seat, delta: i32) {
        let p = &mut self.players[seat];
        let before = p.knowledge;
        p.knowledge = (p.knowledge as i32 + delta).clamp(1, 6) as u8;
        if self.players[seat].knowledge > before && self.has(seat, Recruit::Nick) {
            self.shift_morale(seat, 1);
        }
    }

    /// Moves morale by `delta`, kept within 1..=6.
    /// Curtis the Propagandist: a drop also costs 1 knowledge.
    pub(crate) fn shift_morale(&mut self, seat: Seat, delta: i32) {
        let p = &mut self.players[seat];
        let before = p.morale;
        p.morale = (p.morale as i32 + delta).clamp(1, 6) as u8;
        if self.players[seat].morale < before && self.has(seat, Recruit::Curtis) {
            self.shift_knowledge(seat, -1);
        }
    }

    /// Advances an allegiance track by one (it stops at 11).
    pub(crate) fn advance(&mut self, f: Faction) {
        let a = &mut self.allegiance[f.index()];
        *a = (*a + 1).min(ALLEGIANCE_MAX);
    }

    /// Draws one artifact card for `seat`, reshuffling the discards into an empty deck
    /// . Nothing happens if every card is in a hand. Returns the card drawn.
    pub(crate) fn draw_artifact(&mut self, seat: Seat) -> Option<Good> {
        if self.artifact_deck.is_empty() {
            self.artifact_deck = std::mem::take(&mut self.artifact_discard);
            shuffle(&mut self.artifact_deck[..], &mut self.rng);
        }
        let card = self.artifact_deck.pop()?;
        self.players[seat].add(card, 1);
        self.after_draw(seat, card);
        Some(card)
    }

    /// Pays one good: commodities and resources go back to the supply, cards to the
    /// discard pile.
    pub(crate) fn spend(&mut self, seat: Seat, g: Good, n: u32) {
        self.players[seat].remove(g, n);
        if g.is_artifact() {
            for _ in 0..n {
                self.artifact_discard.push(g);
            }
        }
    }

    /// Free spots in a territory.
    pub fn territory_room(&self, f: Faction) -> usize {
        self.n().saturating_sub(self.territory[f.index()].len())
    }

    /// Places one of `seat`'s stars; false if none is left or the spot is taken.
    /// Theater of Revelatory Propaganda: +1 knowledge afterwards.
    pub(crate) fn place_star(&mut self, seat: Seat, spot: StarSpot) -> bool {
        if self.players[seat].stars_left == 0 {
            return false;
        }
        match spot {
            StarSpot::Territory(f) => {
                if self.territory_room(f) == 0 {
                    return false;
                }
                self.territory[f.index()].push(seat as u8);
            }
            StarSpot::Market(m) => {
                if self.markets[m].stars & (1 << seat) != 0 {
                    return false;
                }
                self.markets[m].stars |= 1 << seat;
            }
            StarSpot::Recruit(i) => match self.players[seat].recruits.get_mut(i) {
                Some(r) if !r.star => r.star = true,
                _ => return false,
            },
            StarSpot::Dilemma => {
                if self.players[seat].dilemma_state != DilemmaState::Unresolved {
                    return false;
                }
                self.players[seat].dilemma_state = DilemmaState::Conformed;
            }
        }
        self.players[seat].stars_left -= 1;
        if self.penalized(seat, Penalty::KnowledgePerStar) {
            self.shift_knowledge(seat, 1);
        }
        if !matches!(spot, StarSpot::Recruit(_)) {
            self.offer(seat, Recruit::Esme, Trigger::Plain);
        }
        true
    }

    /// Stars `seat` has placed on market tiles.
    pub fn market_stars(&self, seat: Seat) -> u32 {
        self.markets
            .iter()
            .filter(|m| m.stars & (1 << seat) != 0)
            .count() as u32
    }

    /// Available dice plus knowledge (5.6).
    pub fn knowledge_value(&self, seat: Seat) -> u32 {
        let p = &self.players[seat];
        // Added in a plain fold: the checks at all times ask it for every seat.
        let ready = |d: DieLoc| match d {
            DieLoc::Ready(v) => u32::from(v),
            _ => 0,
        };
        let [a, b, c, d] = p.dice;
        ready(a) + ready(b) + ready(c) + ready(d) + u32::from(p.knowledge)
    }

    /// The knowledge check: while the value is 16 or more, the highest available die
    /// goes to the reserve (once only unless `cascade`). Returns the dice lost.
    pub(crate) fn knowledge_check(&mut self, seat: Seat, cascade: bool) -> u8 {
        let mut lost = 0;
        while self.knowledge_value(seat) >= KNOWLEDGE_LIMIT {
            let p = &self.players[seat];
            let best = (0..DICE)
                .filter_map(|i| match p.dice[i] {
                    DieLoc::Ready(v) => Some((v, i)),
                    _ => None,
                })
                .max_by_key(|&(v, i)| (v, std::cmp::Reverse(i)));
            let Some((_, i)) = best else { break };
            self.players[seat].dice[i] = DieLoc::Reserve;
            lost += 1;
            if seat == self.current as usize {
                self.turn.eligible[i] = false;
            }
            if !cascade {
                break;
            }
        }
        lost
    }

    /// Rolls the dice of `seat` in `mask` into its pool (they must not be on the board),
    /// then the roll penalties and (roll-only mode, or always) the knowledge check.
    /// Returns the steps that follow, in order: the roll-penalty decision, Steven the
    /// Scholar for a lost worker, Ben the Ludologist for the other players on a pair.
    pub(crate) fn roll_dice(&mut self, seat: Seat, mask: u8) -> Vec<Step> {
        let mut rolled = [0u8; DICE];
        for (i, face) in rolled.iter_mut().enumerate() {
            if mask & (1 << i) != 0 {
                let v = self.rng.random_range(1..=6u8);
                self.players[seat].dice[i] = DieLoc::Ready(v);
                *face = v;
                if seat == self.current as usize {
                    self.turn.eligible[i] = false;
                }
            }
        }
        let mut losses = 0u8;
        for m in &self.markets {
            if !m.built || m.stars & (1 << seat) != 0 {
                continue;
            }
            if let Penalty::RollLoss(face) = MARKET_TILES[m.tile as usize].penalty {
                losses += rolled.iter().filter(|&&v| v == face).count() as u8;
            }
        }
        let cascade = self.config.knowledge_check == KnowledgeCheck::Continuous;
        let lost = self.knowledge_check(seat, cascade);
        let mut out = Vec::new();
        let holds_any = self.players[seat].supply.iter().any(|&c| c > 0);
        if losses > 0 && holds_any {
            out.push(Step::Lose {
                seat: seat as u8,
                n: losses,
            });
        }
        for _ in 0..lost {
            out.push(Step::Hook {
                seat: seat as u8,
                id: Recruit::Steven,
                arg: Trigger::Plain,
            });
        }
        let mut faces = [0u8; 7];
        for d in &self.players[seat].dice {
            if let DieLoc::Ready(v) = *d {
                faces[usize::from(v).min(6)] += 1;
            }
        }
        let pair = faces.iter().any(|&c| c >= 2);
        if pair && self.setup_done {
            for s in self.order_from_current() {
                if s != seat && self.has(s, Recruit::Ben) {
                    out.push(Step::Hook {
                        seat: s as u8,
                        id: Recruit::Ben,
                        arg: Trigger::Roller(seat as u8),
                    });
                }
            }
        }
        out
    }

    /// Flips hidden recruits of unlocked factions (tier 3, tunnel at 6).
    pub(crate) fn reveal(&mut self) {
        let unlocked = Faction::ALL.map(|f| self.unlocked(f));
        if !unlocked.contains(&true) {
            return;
        }
        for p in &mut self.players {
            for r in &mut p.recruits {
                if !r.up && unlocked[r.id.faction().index()] {
                    r.up = true;
                }
            }
        }
    }

    /// Tier 4: a star on each active recruit of a faction at 11, clockwise from the
    /// active player.
    pub(crate) fn tier_four(&mut self) {
        for f in Faction::ALL {
            if self.allegiance[f.index()] < ALLEGIANCE_MAX {
                continue;
            }
            for seat in self.order_from_current() {
                for i in 0..self.players[seat].recruits.len() {
                    let r = self.players[seat].recruits[i];
                    if r.up && !r.star && r.id.faction() == f {
                        self.place_star(seat, StarSpot::Recruit(i));
                    }
                }
            }
        }
    }

    /// What the checks "at all times" have to do, found in one pass over the players.
    fn checks_due(&self) -> ChecksDue {
        // The recruit numbers (bits) of the unlocked factions and of those at 11.
        const { assert!(TIERS[2] <= ALLEGIANCE_MAX) };
        let mut unlocked = 0u64;
        let mut maxed = 0u64;
        for f in Faction::ALL {
            if self.unlocked(f) {
                unlocked |= Recruit::of_faction(f);
            }
            if self.allegiance[f.index()] >= ALLEGIANCE_MAX {
                maxed |= Recruit::of_faction(f);
            }
        }
        let mut due = ChecksDue::default();
        for (s, p) in self.players.iter().enumerate() {
            let bit = 1u8 << s;
            due.won |= p.stars_left == 0;
            if self.knowledge_value(s) >= KNOWLEDGE_LIMIT {
                due.knowledge |= bit;
            }
            if p.hand_size() > u32::from(p.morale) {
                due.hands |= bit;
            }
            if unlocked | maxed != 0 && !due.recruits {
                // A face-down recruit of an unlocked faction is revealed; an unstarred one
                // of a faction at 11 (face up, or about to be: 11 is past the tier that
                // unlocks) gets a star.
                due.recruits = p.recruits.iter().any(|r| {
                    let id = r.id.bit();
                    (!r.up && unlocked & id != 0) || (!r.star && maxed & id != 0)
                });
            }
        }
        due
    }

    /// Whether some player has placed all ten stars.
    pub fn someone_won(&self) -> bool {
        self.players.iter().any(|p| p.stars_left == 0)
    }

    /// The checks that hold "at all times", run before every step. True when they had
    /// nothing to do: then they changed nothing, and find nothing again until a player's
    /// dice, goods, tracks, stars or recruits, or the board's tracks, change.
    pub(crate) fn global_checks(&mut self) -> bool {
        // What each check would find is worked out first, in one pass; a check with
        // nothing to do is skipped (most of the time, all of them).
        let due = self.checks_due();
        if due.clear() {
            return true;
        }
        self.resolve_checks(due);
        false
    }

    /// Whether the checks at all times have nothing to do now.
    pub(crate) fn checks_clear(&self) -> bool {
        self.checks_due().clear()
    }

    /// The checks at all times that have something to do (`due`).
    fn resolve_checks(&mut self, due: ChecksDue) {
        if due.won {
            self.finish();
            return;
        }
        if self.config.knowledge_check == KnowledgeCheck::Continuous && due.knowledge != 0 {
            // A seat's check moves only its own dice: the others' values stay as found.
            for seat in (0..self.n()).filter(|s| due.knowledge & (1 << s) != 0) {
                let lost = self.knowledge_check(seat, true);
                // 1st edition: Steven counts every knowledge-check loss, not only a roll's.
                if lost > 0 && self.v1() && self.has(seat, Recruit::Steven) {
                    for _ in 0..lost {
                        self.stack.push(Step::Hook {
                            seat: seat as u8,
                            id: Recruit::Steven,
                            arg: Trigger::Plain,
                        });
                    }
                }
            }
        }
        // Only a reveal or a tier-4 star (which may move knowledge, and with Nick morale)
        // can change the stars and hands counted above.
        if due.recruits {
            self.reveal();
            self.tier_four();
            if self.someone_won() {
                self.finish();
                return;
            }
        }
        if matches!(
            self.stack.last(),
            Some(
                Step::Discard(_)
                    | Step::Shed { .. }
                    | Step::Hook { .. }
                    | Step::Pay(_)
                    | Step::PaySet(_)
                    | Step::DilemmaPay { .. }
            )
        ) {
            return;
        }
        if due.hands == 0 && !due.recruits {
            return;
        }
        let over = self
            .order_from_current()
            .find(|&s| self.players[s].hand_size() > self.players[s].morale as u32);
        if let Some(seat) = over {
            self.stack.push(Step::Discard(seat as u8));
        }
    }
}
