//! Paying for a placement (spec 5.3 step 2): the printed cost of a space or a built
//! market, the artifact markets' "3 any or 2 identical", and what recruits let a player
//! pay instead (Michael, Flartner, Josh, Brian), one good at a time.

use crate::action::Action;
use crate::cards::{
    space_cost, Cost, Faction, Good, Penalty, Recruit, Space, SpaceKind, ARTIFACTS, DILEMMAS,
    GOODS, MARKET_TILES,
};
use crate::refusal::Refusal;
use crate::state::{Euphoria, PayUnit, Player, SetPayment, Step};
use engine::Seat;

/// Mask of the three resources (bits of [`Good::index`]).
pub const RESOURCE_BITS: u16 = 0b111 << 4;
/// Mask of the four commodities.
pub const COMMODITY_BITS: u16 = 0b1111;
/// Mask of the six artifact kinds.
pub const ARTIFACT_BITS: u16 = 0x3f << 7;
/// Every artifact kind, as a [`Step::Shed`] mask.
pub const ANY_KIND: u8 = 0x3f;

/// Most units a cost has (the largest printed cost is 5 goods).
const MAX_UNITS: usize = 8;

/// The face-up recruits (usable: no Academy penalty) that change what a payer may pay
/// with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Substitutes {
    pub michael: bool,
    pub flartner: bool,
    pub josh: bool,
    pub brian: bool,
}

impl Substitutes {
    /// Those of `p`'s recruits, face up, when its abilities work (`abilities`: no
    /// Academy penalty).
    pub(crate) fn of(p: &Player, abilities: bool) -> Substitutes {
        let up = |id: Recruit| abilities && p.recruits.iter().any(|r| r.up && r.id == id);
        Substitutes {
            michael: up(Recruit::Michael),
            flartner: up(Recruit::Flartner),
            josh: up(Recruit::Josh),
            brian: up(Recruit::Brian),
        }
    }
}

/// Whether `p` can pay an artifact market with cards: 3 any, or 2 identical unless
/// `no_pair` (the Courthouse).
pub(crate) fn set_payable(p: &Player, no_pair: bool) -> bool {
    p.hand_size() >= 3 || (!no_pair && p.hand.iter().any(|&c| c >= 2))
}

/// The units of one cost, held inline (a cost has at most [`MAX_UNITS`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Units {
    items: [PayUnit; MAX_UNITS],
    len: usize,
}

impl Default for Units {
    fn default() -> Units {
        Units {
            items: [PayUnit {
                printed: 0,
                accepts: 0,
            }; MAX_UNITS],
            len: 0,
        }
    }
}

impl Units {
    fn push(&mut self, u: PayUnit) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = u;
            self.len += 1;
        }
    }

    pub(crate) fn as_slice(&self) -> &[PayUnit] {
        &self.items[..self.len]
    }

    fn as_mut_slice(&mut self) -> &mut [PayUnit] {
        &mut self.items[..self.len]
    }
}

fn bit(g: Good) -> u16 {
    1 << g.index()
}

/// Whether the goods in `have` can pay every unit (a small exact search).
pub fn units_payable(have: &mut [u32; GOODS], units: &[PayUnit]) -> bool {
    let Some((u, rest)) = units.split_first() else {
        return true;
    };
    for g in 0..GOODS {
        if u.accepts & (1 << g) != 0 && have[g] > 0 {
            have[g] -= 1;
            let ok = units_payable(have, rest);
            have[g] += 1;
            if ok {
                return true;
            }
        }
    }
    false
}

impl Euphoria {
    /// The cost of placing on `space` (built markets: the tile's visit cost).
    pub fn cost_of(&self, space: Space) -> Cost {
        match space.kind() {
            SpaceKind::Built(m) => MARKET_TILES[self.markets[m].tile as usize].cost,
            _ => space_cost(space),
        }
    }

    /// Whether `seat` can pay `cost` (fixed part first; the chosen parts use disjoint
    /// classes of goods, so counting each class after the fixed part is exact).
    pub fn can_pay(&self, seat: Seat, cost: Cost) -> bool {
        let p = &self.players[seat];
        self.can_pay_from(&std::array::from_fn(|i| p.count(Good::ALL[i])), cost)
    }

    /// Whether the goods `have` (by [`Good::index`]) pay `cost`.
    pub fn can_pay_from(&self, have: &[u32; GOODS], cost: Cost) -> bool {
        let mut left = *have;
        for &(g, n) in cost.fixed {
            if left[g.index()] < n as u32 {
                return false;
            }
            left[g.index()] -= n as u32;
        }
        cost.choice.iter().all(|&(c, n)| {
            let have: u32 = Good::ALL
                .iter()
                .filter(|g| c.accepts(**g))
                .map(|g| left[g.index()])
                .sum();
            have >= n as u32
        })
    }

    /// Whether `seat` can pay an artifact market (3 any, or 2 identical unless the
    /// Courthouse forbids it).
    pub fn can_pay_set(&self, seat: Seat) -> bool {
        set_payable(&self.players[seat], self.penalized(seat, Penalty::NoPair))
    }

    /// The goods a placement costs `seat`, one unit per good, with what its recruits let
    /// it pay instead (Michael, Flartner, Josh, Brian).
    pub fn pay_units(&self, seat: Seat, space: Space) -> Vec<PayUnit> {
        self.units_for(self.substitutes(seat), space)
            .as_slice()
            .to_vec()
    }

    /// The recruits that change what `seat` may pay with (see [`Substitutes`]).
    pub(crate) fn substitutes(&self, seat: Seat) -> Substitutes {
        Substitutes::of(
            &self.players[seat],
            !self.penalized(seat, Penalty::NoAbilities),
        )
    }

    /// [`Euphoria::pay_units`] for a payer with the recruits `subs`, without allocating.
    pub(crate) fn units_for(&self, subs: Substitutes, space: Space) -> Units {
        let cost = self.cost_of(space);
        let mut units = Units::default();
        for &(g, n) in cost.fixed {
            for _ in 0..n {
                units.push(PayUnit {
                    printed: bit(g),
                    accepts: bit(g),
                });
            }
        }
        for &(c, n) in cost.choice {
            let mask = Good::ALL
                .iter()
                .filter(|g| c.accepts(**g))
                .fold(0u16, |m, &g| m | bit(g));
            for _ in 0..n {
                units.push(PayUnit {
                    printed: mask,
                    accepts: mask,
                });
            }
        }
        let site = matches!(space.kind(), SpaceKind::Site(..));
        let built = matches!(space.kind(), SpaceKind::Built(_));
        let michael = site && subs.michael;
        let flartner = site && subs.flartner;
        let josh = built && subs.josh;
        for u in units.as_mut_slice() {
            let resource_only = u.printed & !RESOURCE_BITS == 0;
            if michael && resource_only {
                u.accepts |= RESOURCE_BITS;
            }
            if flartner {
                u.accepts |= ARTIFACT_BITS;
            }
            if josh && resource_only {
                u.accepts |= bit(Good::Bliss);
            }
            if subs.brian && u.accepts & bit(Good::Bliss) != 0 {
                u.accepts |= bit(Good::Food);
            }
        }
        units
    }

    /// Which unit a good `g` pays, keeping the rest payable; a unit that prints `g` is
    /// preferred (no substitution).
    pub fn pay_unit_index(&self, seat: Seat, units: &[PayUnit], g: Good) -> Option<usize> {
        Self::unit_for(&self.players[seat], units, g)
    }

    fn unit_for(p: &Player, units: &[PayUnit], g: Good) -> Option<usize> {
        if p.count(g) == 0 {
            return None;
        }
        let mut have: [u32; GOODS] = std::array::from_fn(|i| p.count(Good::ALL[i]));
        have[g.index()] -= 1;
        // Whether the units other than `k` stay payable, without allocating.
        let fits = |k: usize, have: &mut [u32; GOODS]| {
            let mut rest = [PayUnit {
                printed: 0,
                accepts: 0,
            }; MAX_UNITS];
            let mut n = 0;
            for (i, u) in units.iter().enumerate() {
                if i != k && n < MAX_UNITS {
                    rest[n] = *u;
                    n += 1;
                }
            }
            units_payable(have, &rest[..n])
        };
        let printed =
            (0..units.len()).find(|&k| units[k].printed & bit(g) != 0 && fits(k, &mut have));
        printed.or_else(|| {
            (0..units.len()).find(|&k| units[k].accepts & bit(g) != 0 && fits(k, &mut have))
        })
    }

    /// The side effects of paying `g` for a unit that does not print it.
    pub(crate) fn substituted(&mut self, seat: Seat, g: Good) {
        let kind = self.turn.space.map(|s| s.kind());
        match kind {
            Some(SpaceKind::Site(..)) if g.is_artifact() => self.shift_morale(seat, 1),
            Some(SpaceKind::Site(..)) if g == Good::Gold => {
                self.shift_morale(seat, 1);
                self.shift_knowledge(seat, 1);
            }
            Some(SpaceKind::Built(_)) if g == Good::Food && !self.turn.brian => {
                self.turn.brian = true;
                self.shift_knowledge(seat, 1);
                self.advance(Faction::Wastelander);
            }
            _ => {}
        }
    }

    /// Why `seat` may not pay `g` towards an artifact market now.
    pub fn check_pay_set(&self, seat: Seat, p: SetPayment, g: Good) -> Result<(), Refusal> {
        let player = &self.players[seat];
        if !g.is_artifact() || player.count(g) == 0 {
            return Err(Refusal::NoCard(g));
        }
        let n = player.hand_size();
        let ok = match p.paid {
            0 => p.single || n >= 3 || (!p.need_three && player.count(g) >= 2),
            1 => (p.first == Some(g) && !p.need_three) || n >= 2,
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            Err(Refusal::SetUnpayable)
        }
    }

    /// `pay G`: one good towards the pending cost, the artifact market or the dilemma.
    pub(crate) fn pay(&mut self, seat: Seat, g: Good) {
        match self.stack.last_mut() {
            Some(Step::Pay(units)) => {
                let Some(k) = Self::unit_for(&self.players[seat], units, g) else {
                    return;
                };
                let unit = units.remove(k);
                if units.is_empty() {
                    self.stack.pop();
                }
                self.spend(seat, g, 1);
                if unit.printed & (1 << g.index()) == 0 {
                    self.substituted(seat, g);
                }
            }
            Some(Step::PaySet(p)) => {
                let done = if p.paid == 0 {
                    p.first = Some(g);
                    false
                } else {
                    (p.paid == 1 && p.first == Some(g) && !p.need_three) || p.paid == 2
                };
                p.paid += 1;
                if done {
                    self.stack.pop();
                }
                self.spend(seat, g, 1);
            }
            Some(Step::DilemmaPay { paid }) => {
                let pictured = DILEMMAS[self.players[seat].dilemma as usize].pictured;
                let done = *paid == 1 || g == pictured;
                *paid += 1;
                if done {
                    self.stack.pop();
                }
                self.spend(seat, g, 1);
            }
            _ => {}
        }
    }

    /// Whether the payment on top can be completed in exactly one way (one set of goods)
    /// while more than one good could be paid next (with one good to choose, the payment
    /// resolves itself as every single choice does).
    pub fn only_one_way(&self, seat: Seat) -> bool {
        let payable = Good::ALL
            .iter()
            .filter(|&&g| self.legality(Action::Pay(g)).is_ok())
            .count();
        payable >= 2 && self.payment_ways(seat) == 1
    }

    /// How many sets of goods complete the payment on top (0, 1, or 2 for "several").
    fn payment_ways(&self, seat: Seat) -> usize {
        let p = &self.players[seat];
        let hand: [u32; ARTIFACTS] = std::array::from_fn(|k| p.count(Good::ARTIFACT_KINDS[k]));
        let mut ways = Ways::default();
        match self.stack.last() {
            Some(Step::Pay(units)) => {
                let mut have: [u32; GOODS] = std::array::from_fn(|i| p.count(Good::ALL[i]));
                let mut paid = [0u8; GOODS];
                unit_ways(&mut have, units, 0, &mut paid, &mut ways);
            }
            Some(Step::PaySet(set)) if !set.single => {
                let first = set.first.and_then(Good::artifact_index);
                match set.paid {
                    0 => {
                        card_ways(&hand, 3, [0; ARTIFACTS], [0; ARTIFACTS], &mut ways);
                        if !set.need_three {
                            for k in (0..ARTIFACTS).filter(|&k| hand[k] >= 2) {
                                let mut pair = [0u8; ARTIFACTS];
                                pair[k] = 2;
                                ways.add(pair);
                            }
                        }
                    }
                    1 => {
                        let mut base = [0u8; ARTIFACTS];
                        if let Some(f) = first {
                            base[f] = 1;
                            if !set.need_three && hand[f] >= 1 {
                                let mut pair = base;
                                pair[f] = 2;
                                ways.add(pair);
                            }
                        }
                        card_ways(&hand, 2, base, [0; ARTIFACTS], &mut ways);
                    }
                    _ => card_ways(&hand, 1, [0; ARTIFACTS], [0; ARTIFACTS], &mut ways),
                }
            }
            Some(Step::DilemmaPay { paid }) => {
                let pictured = DILEMMAS[p.dilemma as usize].pictured.artifact_index();
                if *paid == 0 {
                    if let Some(k) = pictured.filter(|&k| hand[k] >= 1) {
                        let mut one = [0u8; ARTIFACTS];
                        one[k] = 1;
                        ways.add(one);
                    }
                    card_ways(&hand, 2, [0; ARTIFACTS], [0; ARTIFACTS], &mut ways);
                } else {
                    card_ways(&hand, 1, [0; ARTIFACTS], [0; ARTIFACTS], &mut ways);
                }
            }
            _ => return 2,
        }
        ways.count
    }

    /// The payment on top, the only way it can be made, good by good.
    pub(crate) fn pay_all(&mut self, seat: Seat) {
        let depth = self.stack.len();
        for _ in 0..MAX_UNITS {
            let next = Good::ALL
                .into_iter()
                .find(|&g| self.legality(Action::Pay(g)).is_ok());
            let Some(g) = next else {
                return;
            };
            self.pay(seat, g);
            if self.stack.len() != depth {
                return;
            }
        }
    }
}

/// Distinct sets of goods found so far, up to two (all that "only one way" needs).
#[derive(Default)]
struct Ways {
    first: Option<[u8; GOODS]>,
    count: usize,
}

impl Ways {
    fn add<const N: usize>(&mut self, set: [u8; N]) {
        let mut key = [0u8; GOODS];
        key[..N].copy_from_slice(&set);
        match self.first {
            None => {
                self.first = Some(key);
                self.count = 1;
            }
            Some(f) if f != key => self.count = 2,
            Some(_) => {}
        }
    }
}

/// Every set of goods that pays `units[i..]` from `have` (`paid` so far), into `ways`.
fn unit_ways(
    have: &mut [u32; GOODS],
    units: &[PayUnit],
    i: usize,
    paid: &mut [u8; GOODS],
    ways: &mut Ways,
) {
    if ways.count >= 2 {
        return;
    }
    let Some(u) = units.get(i) else {
        ways.add(*paid);
        return;
    };
    for g in 0..GOODS {
        if u.accepts & (1 << g) != 0 && have[g] > 0 {
            have[g] -= 1;
            paid[g] += 1;
            unit_ways(have, units, i + 1, paid, ways);
            paid[g] -= 1;
            have[g] += 1;
        }
    }
}

/// Every set of `n` more artifact cards from `hand` (`taken` of them so far), on top of
/// the cards `base` already paid, into `ways`.
fn card_ways(
    hand: &[u32; ARTIFACTS],
    n: usize,
    base: [u8; ARTIFACTS],
    taken: [u8; ARTIFACTS],
    ways: &mut Ways,
) {
    if ways.count >= 2 {
        return;
    }
    if n == 0 {
        ways.add(std::array::from_fn::<u8, ARTIFACTS, _>(|k| {
            base[k] + taken[k]
        }));
        return;
    }
    // Cards in non-decreasing kind order, so that each set is met once.
    let from = (0..ARTIFACTS).rev().find(|&k| taken[k] > 0).unwrap_or(0);
    for k in from..ARTIFACTS {
        if hand[k] > u32::from(taken[k]) {
            let mut more = taken;
            more[k] += 1;
            card_ways(hand, n - 1, base, more, ways);
        }
    }
}
