//! Placing a worker (spec 5.3) and every action space's benefit (3.2-3.7).

use crate::cards::{
    market_faction, market_threshold, Cost, Faction, Good, GoodClass, Penalty, Space, SpaceKind,
    DICE, MARKETS, TUNNEL_END,
};
use crate::cards::{site_cost, tunnel_end_reward, tunnel_resource};
use crate::cards::{Recruit, GOODS};
use crate::cards::{
    AREA_SPACES, BUMPABLE_SPACES, FREE_SPACES, ICARUS_SPACES, SITES_PRINTING, SITE_SPACES, SPACES,
};
use crate::config::Rewards;
use crate::refusal::Refusal;
use crate::rules::checks::StarSpot;
use crate::rules::payment::{set_payable, units_payable, Substitutes};
use crate::state::{Die, DieLoc, Euphoria, PayUnit, SetPayment, StarTarget, Step, Trigger};
use engine::Seat;
use std::cell::Cell;

impl Euphoria {
    /// The dice on a space (seat, die index, value).
    pub fn occupants(&self, space: Space) -> impl Iterator<Item = (Seat, usize, u8)> + '_ {
        self.players.iter().enumerate().flat_map(move |(s, p)| {
            p.dice
                .iter()
                .enumerate()
                .filter_map(move |(i, d)| match *d {
                    DieLoc::Board(sp, v) if sp == space => Some((s, i, v)),
                    _ => None,
                })
        })
    }

    /// The die of `seat` available with `value` (eligible for doubles if asked).
    pub fn ready_die(&self, seat: Seat, value: u8, doubles: bool) -> Option<Die> {
        Die::all().find(|d| {
            let i = d.index();
            matches!(self.players[seat].dice[i], DieLoc::Ready(v) if v == value)
                && (!doubles || self.turn.eligible[i])
        })
    }

    /// Why `seat` may not place a die showing `value` on `space`, if it may not.
    pub fn check_place(
        &self,
        seat: Seat,
        value: u8,
        space: Space,
        doubles: bool,
    ) -> Result<(), Refusal> {
        if self.ready_die(seat, value, doubles).is_none() {
            return Err(if doubles {
                Refusal::NoDoubledDie(value)
            } else {
                Refusal::NoDie(value)
            });
        }
        self.check_space(seat, space, doubles)
    }

    /// Why `seat` may not place a worker on `space`, whatever its value (a value it has
    /// is checked by [`Euphoria::check_place`]).
    pub(crate) fn check_space(
        &self,
        seat: Seat,
        space: Space,
        doubles: bool,
    ) -> Result<(), Refusal> {
        self.check_space_in(&Placing::new(self, seat), space, doubles)
    }

    /// [`Euphoria::check_space`] with what does not depend on the space worked out once
    /// (the legal sweep asks it for every space).
    pub(crate) fn check_space_in(
        &self,
        ctx: &Placing,
        space: Space,
        doubles: bool,
    ) -> Result<(), Refusal> {
        let seat = ctx.seat;
        if doubles && self.config.doubles_cost_morale && self.players[seat].morale < 2 {
            return Err(Refusal::DoubledMorale);
        }
        let icarus = space.region() == Some(Faction::Icarite);
        if icarus && ctx.suffers(Penalty::NoIcarus) {
            return Err(Refusal::Apothecary);
        }
        if icarus && ctx.subs.brian && !self.v1() && !self.morale_room(seat, 1) {
            return Err(Refusal::BrianMorale);
        }
        let here = ctx.occupied[space.0 as usize % SPACES];
        let mine_here = here & (1 << seat) != 0;
        match space.kind() {
            SpaceKind::Area(_) if ctx.suffers(Penalty::OneWorkerPerArea) && mine_here => {
                return Err(Refusal::Arena);
            }
            SpaceKind::TunnelEnd(f) => self.check_tunnel_end(seat, f)?,
            SpaceKind::Site(m, _) => self.check_site(ctx, m, here)?,
            SpaceKind::Built(m) => {
                if !self.markets[m].built {
                    return Err(Refusal::MarketNotBuilt);
                }
                if ctx.suffers(Penalty::NoForeignBuiltMarket)
                    && self.markets[m].stars & (1 << seat) == 0
                {
                    return Err(Refusal::Plaza);
                }
            }
            _ => {}
        }
        if space.is_bumpable() && mine_here && ctx.suffers(Penalty::NoSelfBump) {
            return Err(Refusal::Spa);
        }
        if !self.payable(ctx, space, here) {
            return Err(match space.kind() {
                SpaceKind::ArtifactMarket(_) => {
                    if ctx.suffers(Penalty::NoPair) {
                        Refusal::ArtifactCards { courthouse: true }
                    } else {
                        Refusal::ArtifactCards { courthouse: false }
                    }
                }
                _ => Refusal::CannotPay(space),
            });
        }
        Ok(())
    }

    /// Why `seat` may not use `f`'s tunnel end.
    fn check_tunnel_end(&self, seat: Seat, f: Faction) -> Result<(), Refusal> {
        if self.miners[f.index()] < TUNNEL_END {
            return Err(Refusal::TunnelClosed(f));
        }
        if self.kaden_needed(seat, f)
            && !(self.has(seat, Recruit::Kaden) && self.knowledge_room(seat, 2))
        {
            return Err(Refusal::TunnelRecruit(f));
        }
        Ok(())
    }

    /// Why a construction site of market `m` (occupied by the seats in `here`) is closed.
    fn check_site(&self, ctx: &Placing, m: usize, here: u8) -> Result<(), Refusal> {
        if self.markets[m].built {
            return Err(Refusal::MarketBuilt);
        }
        if here != 0 {
            return Err(Refusal::SiteTaken);
        }
        if ctx.lounge_blocks(m) {
            return Err(Refusal::Lounge);
        }
        Ok(())
    }

    /// The spaces (bits by index) where the placing seat may put a worker: those
    /// [`Euphoria::check_space_in`] accepts (debug-asserted for every space), its checks
    /// made a set of spaces at a time. A construction site that is open (of an unbuilt
    /// market, free) depends only on its market (the Lounge penalty) and on the resource
    /// it prints, each worked out once.
    pub(crate) fn open_spaces(&self, ctx: &Placing, doubles: bool) -> u64 {
        let seat = ctx.seat;
        let mut open =
            if doubles && self.config.doubles_cost_morale && self.players[seat].morale < 2 {
                0
            } else {
                !ctx.closed(self) & ((1u64 << SPACES) - 1)
            };
        if ctx.suffers(Penalty::NoIcarus)
            || (ctx.subs.brian && !self.v1() && !self.morale_room(seat, 1))
        {
            open &= !ICARUS_SPACES;
        }
        if ctx.suffers(Penalty::OneWorkerPerArea) {
            open &= !(AREA_SPACES & ctx.mine);
        }
        if ctx.suffers(Penalty::NoSelfBump) {
            open &= !(BUMPABLE_SPACES & ctx.mine);
        }
        let mut sites = open & SITE_SPACES;
        // A commodity area left open takes the worker (no refusal, nothing to pay).
        let mut rest = open & !SITE_SPACES & !AREA_SPACES;
        open &= AREA_SPACES;
        while rest != 0 {
            let space = Space(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            if self.space_open(ctx, space) {
                open |= 1 << space.0;
            }
        }
        for m in 0..MARKETS {
            let market = 0b1111u64 << Space::site(m, 0).0;
            if sites & market != 0 && ctx.lounge_blocks(m) {
                sites &= !market;
            }
        }
        // The open sites printing one resource are all payable or none is.
        for printing in SITES_PRINTING {
            let these = sites & printing;
            if these == 0 {
                continue;
            }
            if let SpaceKind::Site(m, slot) = Space(these.trailing_zeros() as u8).kind() {
                if self.site_payable(ctx, m, slot) {
                    open |= these;
                }
            }
        }
        debug_assert!(Space::all().all(|space| {
            (open & (1 << space.0) != 0) == self.check_space_in(ctx, space, doubles).is_ok()
        }));
        open
    }

    /// The rest of [`Euphoria::check_space_in`] for a space that is not a construction
    /// site, once the board's closed spaces and the seat's penalties by kind of space
    /// are out of the way (see [`Euphoria::open_spaces`]).
    fn space_open(&self, ctx: &Placing, space: Space) -> bool {
        let here = ctx.occupied[space.0 as usize % SPACES];
        let refused = match space.kind() {
            SpaceKind::TunnelEnd(f) => self.check_tunnel_end(ctx.seat, f).is_err(),
            SpaceKind::Built(m) => {
                ctx.suffers(Penalty::NoForeignBuiltMarket)
                    && self.markets[m].stars & (1 << ctx.seat) == 0
            }
            _ => false,
        };
        if refused {
            return false;
        }
        // A free space is payable (no unit to pay, whatever the recruits).
        FREE_SPACES & (1 << space.0) != 0 || self.payable(ctx, space, here)
    }

    /// Whether the placing seat can pay for `space` (occupied by the seats in `here`).
    fn payable(&self, ctx: &Placing, space: Space, here: u8) -> bool {
        let seat = ctx.seat;
        match space.kind() {
            SpaceKind::ArtifactMarket(_) => {
                ctx.set_payable
                    || (self.jacko_at(seat, space) && self.players[seat].hand_size() >= 1)
            }
            SpaceKind::Site(m, s) => self.site_payable(ctx, m, s),
            // Matthew pays a tunnel where he bumps another player.
            SpaceKind::Tunnel(_) if ctx.matthew && here & !(1 << seat) != 0 => true,
            _ => self.pay_printed(ctx, space),
        }
    }

    /// Whether the placing seat can pay for site `slot` of market `m`. The sites printing
    /// the same resource cost the same: each resource is worked out once per sweep.
    fn site_payable(&self, ctx: &Placing, m: usize, slot: usize) -> bool {
        let k = site_cost(m, slot).index() % 3;
        let mut memo = ctx.sites.get();
        if memo[k] == 0 {
            memo[k] = if self.pay_printed(ctx, Space::site(m, slot)) {
                2
            } else {
                1
            };
            ctx.sites.set(memo);
        }
        memo[k] == 2
    }

    /// Whether the placing seat can pay the printed cost of `space`, with what its
    /// recruits let it pay instead.
    fn pay_printed(&self, ctx: &Placing, space: Space) -> bool {
        if ctx.substitutes {
            let mut have = ctx.have;
            units_payable(&mut have, self.units_for(ctx.subs, space).as_slice())
        } else {
            let pays = ctx.pays(self.cost_of(space));
            debug_assert_eq!(pays, self.can_pay_from(&ctx.have, self.cost_of(space)));
            pays
        }
    }

    /// Whether using tunnel end `f` needs Kaden (no active recruit of `f`, D-05).
    pub fn kaden_needed(&self, seat: Seat, f: Faction) -> bool {
        self.config.tunnel_end_requires_faction && !self.players[seat].has_active(f)
    }

    /// The worker a placement on `space` would bump, if any.
    fn bump_target(&self, space: Space) -> Option<(Seat, usize, u8)> {
        if space.is_bumpable() {
            self.occupants(space).next()
        } else {
            None
        }
    }

    /// Whether Matthew the Thief may replace the tunnel commodity on `space`.
    fn matthew_at(&self, seat: Seat, space: Space) -> bool {
        self.can_use(seat, Recruit::Matthew, Trigger::Plain)
            && self.bump_target(space).is_some_and(|o| o.0 != seat)
    }

    /// Places the die (already checked), pays the fixed cost and queues the rest.
    pub(crate) fn place(&mut self, value: u8, space: Space, doubles: bool) {
        let seat = self.current as usize;
        let Some(die) = self.ready_die(seat, value, doubles) else {
            return;
        };
        if self.turn.placed == 0 {
            let group: [bool; DICE] = std::array::from_fn(|i| {
                self.turn.at_start[i] && self.players[seat].dice[i] == DieLoc::Ready(value)
            });
            let size = group.iter().filter(|&&g| g).count();
            let allowed = size >= 2 && !self.penalized(seat, Penalty::NoDoubles);
            for (eligible, in_group) in self.turn.eligible.iter_mut().zip(group) {
                *eligible = allowed && in_group;
            }
        }
        if doubles && self.config.doubles_cost_morale {
            self.shift_morale(seat, -1);
        }
        self.turn.eligible[die.index()] = false;
        self.turn.placed += 1;
        let bumped = self.bump_target(space);
        let matthew = matches!(space.kind(), SpaceKind::Tunnel(_)) && self.matthew_at(seat, space);
        let jacko = self.jacko_at(seat, space);
        let units = self.units_for(self.substitutes(seat), space);
        self.players[seat].dice[die.index()] = DieLoc::Board(space, value);
        self.turn.space = Some(space);
        self.turn.die = die;
        self.turn.victim = bumped.map(|(s, _, v)| (s as u8, v));
        self.turn.brian = false;
        // A unit only one good pays is paid now; the others wait for the payer's choice.
        let fixed = |u: &&PayUnit| u.accepts.count_ones() == 1;
        if !matthew {
            for u in units.as_slice().iter().filter(fixed) {
                if let Some(g) = Good::ALL.iter().find(|g| u.accepts & (1 << g.index()) != 0) {
                    self.spend(seat, *g, 1);
                }
            }
        }
        if let SpaceKind::TunnelEnd(f) = space.kind() {
            if self.kaden_needed(seat, f) {
                self.shift_knowledge(seat, 2);
            }
        }
        if space.region() == Some(Faction::Icarite) && !self.v1() && self.has(seat, Recruit::Brian)
        {
            self.shift_morale(seat, -1);
        }
        self.stack.push(Step::AfterPlacement);
        self.stack.push(Step::Markets);
        self.stack.push(Step::SpaceHooks(space));
        self.stack.push(Step::Benefit(space));
        if let Some((s, i, _)) = bumped {
            if s != seat {
                self.stack.push(Step::BumpHooks);
            }
            if let Some(die) = Die::new(i) {
                self.stack.push(Step::Bump { seat: s as u8, die });
            }
        }
        match space.kind() {
            SpaceKind::ArtifactMarket(_) => self.stack.push(Step::PaySet(SetPayment {
                first: None,
                paid: 0,
                need_three: self.penalized(seat, Penalty::NoPair),
                single: jacko,
            })),
            _ if matthew => self.stack.push(Step::Ask {
                seat: seat as u8,
                id: Recruit::Matthew,
                arg: Trigger::Plain,
            }),
            _ if !units.as_slice().iter().all(|u| fixed(&u)) => {
                let flexible = units.as_slice().iter().filter(|u| !fixed(u));
                self.stack.push(Step::Pay(flexible.copied().collect()))
            }
            _ => {}
        }
    }

    /// A bumped worker returns to its owner and is rolled (D-04, A-03); first Julia (the
    /// placer's) and Amanda (the owner's) may fix its value instead.
    pub(crate) fn bump(&mut self, seat: Seat, die: Die) {
        let cur = self.current as usize;
        // Pushed last first: Julia, then Amanda, then the roll run in that order.
        self.stack.push(Step::BumpRoll {
            seat: seat as u8,
            die,
        });
        if self.has(seat, Recruit::Amanda) && (!self.v1() || seat != cur) {
            self.stack.push(Step::Hook {
                seat: seat as u8,
                id: Recruit::Amanda,
                arg: Trigger::Die(die),
            });
        }
        if !self.v1() && seat != cur && self.has(cur, Recruit::Julia) {
            self.stack.push(Step::Hook {
                seat: cur as u8,
                id: Recruit::Julia,
                arg: Trigger::Die(die),
            });
        }
    }

    /// The bumped die, unless a recruit fixed its value, returns and is rolled.
    pub(crate) fn bump_roll(&mut self, seat: Seat, die: Die) {
        let d = die.index();
        if let DieLoc::Board(_, v) = self.players[seat].dice[d] {
            self.players[seat].dice[d] = DieLoc::Ready(v);
            let steps = self.roll_dice(seat, 1 << d);
            self.push_seq(steps);
        }
    }

    /// The benefit of a space for the current player.
    pub(crate) fn benefit(&mut self, space: Space) {
        let seat = self.current as usize;
        match space.kind() {
            SpaceKind::Area(f) => {
                let total: u32 = self.occupants(space).map(|o| u32::from(o.2)).sum();
                let bonus = u32::from(self.tier_bonus(seat, f, 1));
                let (amount, effect) = commodity_reward(total, &self.config.rewards);
                self.players[seat].add(f.commodity(), amount + bonus);
                match effect {
                    AreaEffect::Allegiance => self.advance(f),
                    AreaEffect::KnowledgeDown => self.shift_knowledge(seat, -1),
                    AreaEffect::KnowledgeUp => self.shift_knowledge(seat, 1),
                }
            }
            SpaceKind::Tunnel(f) => {
                let m = &mut self.miners[f.index()];
                *m = (*m + 1).min(TUNNEL_END);
                if self.tier_bonus(seat, f, 2) {
                    self.players[seat].add(tunnel_resource(f), 1);
                    self.draw_artifact(seat);
                } else {
                    self.stack.push(Step::TunnelTake(f));
                }
            }
            SpaceKind::TunnelEnd(f) => {
                let n = u32::from(self.config.rewards.tunnel_end);
                self.players[seat].add(tunnel_end_reward(f), n);
            }
            SpaceKind::ArtifactMarket(Faction::Icarite) | SpaceKind::Nimbus => {
                let placed = self.place_star(seat, StarSpot::Territory(Faction::Icarite));
                self.advance(Faction::Icarite);
                if placed && self.tier_bonus(seat, Faction::Icarite, 2) {
                    self.draw_artifact(seat);
                }
            }
            SpaceKind::ArtifactMarket(f) => {
                self.stack.push(Step::Advance(f));
                if !self.star_targets(seat, f).is_empty() {
                    self.stack.push(Step::StarChoice(f));
                }
            }
            SpaceKind::Breeze => {
                self.advance(Faction::Icarite);
                self.draw_artifact(seat);
                self.draw_artifact(seat);
            }
            SpaceKind::Sky => {
                self.advance(Faction::Icarite);
                self.stack.push(Step::ChooseResource(2));
            }
            SpaceKind::ActivateEnergy => {
                self.shift_knowledge(seat, -2);
                self.new_worker(seat);
            }
            SpaceKind::ActivateWater => {
                self.shift_morale(seat, 2);
                self.new_worker(seat);
            }
            SpaceKind::Site(..) => {}
            SpaceKind::Built(m) => {
                let f = market_faction(m);
                self.place_star(seat, StarSpot::Territory(f));
                self.advance(f);
            }
        }
    }

    /// Where an artifact-market star of faction `f` may go for `seat` (A-10: may be none).
    pub fn star_targets(&self, seat: Seat, f: Faction) -> Vec<StarTarget> {
        let mut out = Vec::new();
        if self.territory_room(f) > 0 {
            out.push(StarTarget::Territory);
        }
        if f != Faction::Icarite {
            for m in 0..self.markets.len() {
                let mk = &self.markets[m];
                if market_faction(m) == f && mk.built && mk.stars & (1 << seat) == 0 {
                    out.push(StarTarget::Market(m as u8));
                }
            }
        }
        out
    }

    /// A new worker from the reserve, rolled into the pool (5.5), unless the player owns 4
    /// or the Laboratory penalty blocks it.
    pub(crate) fn new_worker(&mut self, seat: Seat) {
        let owned = self.players[seat].owned_dice();
        if owned >= DICE
            || ((2..=3).contains(&owned) && self.penalized(seat, Penalty::NoNewWorkers))
        {
            return;
        }
        let Some(die) = Die::all().find(|d| self.players[seat].dice[d.index()] == DieLoc::Reserve)
        else {
            return;
        };
        let mut steps = self.roll_dice(seat, 1 << die.index());
        // The recruits with a second ability, for a new worker.
        for id in crate::action::TWO_ABILITIES {
            if self.has(seat, id) {
                steps.push(Step::Hook {
                    seat: seat as u8,
                    id,
                    arg: Trigger::NewWorker(die),
                });
            }
        }
        self.push_seq(steps);
    }

    /// Completes every market whose sites hold enough workers (3.7).
    pub(crate) fn check_markets(&mut self) {
        let threshold = market_threshold(self.n());
        // Workers on each market's sites, in one pass over the dice.
        let mut workers = [0usize; MARKETS];
        for p in &self.players {
            for d in &p.dice {
                if let DieLoc::Board(space, _) = *d {
                    if let SpaceKind::Site(m, _) = space.kind() {
                        workers[m % MARKETS] += 1;
                    }
                }
            }
        }
        for (m, count) in workers.into_iter().enumerate() {
            if self.markets[m].built || count < threshold {
                continue;
            }
            let sites: Vec<(Seat, usize, u8)> = (0..4)
                .flat_map(|s| self.occupants(Space::site(m, s)))
                .collect();
            if sites.len() < threshold {
                continue;
            }
            self.markets[m].built = true;
            let mut seats = 0u8;
            for &(s, _, _) in &sites {
                seats |= 1 << s;
            }
            let rays: Vec<Step> = self
                .order_from_current()
                .filter(|&s| {
                    self.players[s]
                        .recruits
                        .iter()
                        .any(|r| r.id == Recruit::Ray)
                })
                .map(|s| Step::Hook {
                    seat: s as u8,
                    id: Recruit::Ray,
                    arg: Trigger::Builders(seats),
                })
                .collect();
            self.push_seq(rays);
            // The builders' stars go on the tile before their dice come back: a builder
            // has a star there when the roll penalty of that very tile is looked up.
            self.market_stars_for(m, seats);
            let mut losses = Vec::new();
            for s in self.order_from_current() {
                let mut mask = 0u8;
                for &(o, i, v) in &sites {
                    if o == s {
                        self.players[s].dice[i] = DieLoc::Ready(v);
                        mask |= 1 << i;
                    }
                }
                if mask != 0 {
                    losses.extend(self.roll_dice(s, mask));
                }
            }
            self.push_seq(losses);
        }
    }

    /// One star per contributor, clockwise from the active player.
    pub(crate) fn market_stars_for(&mut self, market: usize, seats: u8) {
        let base = self.stack.len();
        for s in self.order_from_current() {
            if seats & (1 << s) != 0 {
                self.place_star(s, StarSpot::Market(market));
            }
        }
        // Esme offers, pushed in seat order, must run in seat order.
        self.stack[base..].reverse();
    }

    /// After a placement: offer the doubled dice, or end the turn.
    pub(crate) fn after_placement(&mut self) {
        let seat = self.current as usize;
        let more = (0..DICE).any(|i| {
            self.turn.eligible[i] && matches!(self.players[seat].dice[i], DieLoc::Ready(_))
        });
        if more && !self.penalized(seat, Penalty::NoDoubles) {
            self.stack.push(Step::Doubles);
        } else if self.may_trade_after_placing() {
            self.stack.push(Step::Finish);
        } else {
            self.end_turn();
        }
    }
}

/// The non-commodity effect of a commodity-area placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaEffect {
    Allegiance,
    KnowledgeDown,
    KnowledgeUp,
}

/// The commodity table (3.3): the amount (before the tier-1 bonus; printed 1, 1, 2, or
/// the config's card data) and the effect for the total of all dice in the area.
pub fn commodity_reward(total: u32, rewards: &Rewards) -> (u32, AreaEffect) {
    let (band, effect) = match total {
        0..=4 => (0, AreaEffect::Allegiance),
        5..=8 => (1, AreaEffect::KnowledgeDown),
        _ => (2, AreaEffect::KnowledgeUp),
    };
    (u32::from(rewards.area[band]), effect)
}

/// What a placement check needs to know about the placing seat and the board, worked out
/// once for all the spaces.
pub(crate) struct Placing {
    seat: Seat,
    /// The penalties the seat suffers ([`Penalty::bit`]).
    penalties: u16,
    /// The seats (bits) with a worker on each space.
    occupied: [u8; SPACES],
    /// The spaces (bits by index) with a worker of the seat.
    mine: u64,
    /// The seat's goods, by [`Good::index`].
    have: [u32; GOODS],
    /// The seat's goods of each class, by [`GoodClass`] in order.
    classes: [u32; 4],
    /// A face-up recruit changes what the seat may pay with.
    substitutes: bool,
    /// The recruits working for the seat that change what it may pay with (Brian also
    /// makes a worker in Icarus cost morale).
    subs: Substitutes,
    /// Matthew the Thief could pay a tunnel for the seat.
    matthew: bool,
    /// The seat can pay an artifact market with cards (3, or a pair unless forbidden).
    set_payable: bool,
    /// Whether the construction sites printing each resource (by index among the
    /// resources) are payable: 0 not worked out yet, 1 no, 2 yes.
    sites: Cell<[u8; 3]>,
}

impl Placing {
    pub(crate) fn new(g: &Euphoria, seat: Seat) -> Placing {
        let mut occupied = [0u8; SPACES];
        let mut mine = 0u64;
        for (s, p) in g.players.iter().enumerate() {
            for d in &p.dice {
                if let DieLoc::Board(space, _) = *d {
                    // (A space past the board, which no rule makes, wraps around as
                    // everywhere the sweep indexes by space; the test skips a division.)
                    let i = usize::from(space.0);
                    let i = if i < SPACES { i } else { i % SPACES };
                    occupied[i] |= 1 << s;
                    if s == seat {
                        mine |= 1 << i;
                    }
                }
            }
        }
        let p = &g.players[seat];
        let substitutes = g.may_substitute(seat);
        // The penalties are worked out once: `has` and `can_pay_set` would ask them again.
        let penalties = g.penalties(seat);
        let subs = if substitutes {
            Substitutes::of(p, penalties & Penalty::NoAbilities.bit() == 0)
        } else {
            Substitutes::default()
        };
        let set_payable = set_payable(p, penalties & Penalty::NoPair.bit() != 0);
        let have: [u32; GOODS] = std::array::from_fn(|i| p.count(Good::ALL[i]));
        let class = |c: GoodClass| {
            (Good::ALL.iter())
                .filter(|&&g| c.accepts(g))
                .map(|&g| have[g.index()])
                .sum()
        };
        Placing {
            seat,
            penalties,
            occupied,
            mine,
            have,
            classes: GoodClass::ALL.map(class),
            substitutes,
            subs,
            // (`can_use` first asks for Matthew face up: most seats have none.)
            matthew: p.recruits.iter().any(|r| r.up && r.id == Recruit::Matthew)
                && g.can_use(seat, Recruit::Matthew, Trigger::Plain),
            set_payable,
            sites: Cell::new([0; 3]),
        }
    }

    /// Whether the seat's goods pay `cost` ([`Euphoria::can_pay_from`] with the class
    /// totals worked out once: a class's goods left after the fixed part are its total
    /// less the fixed goods of that class).
    fn pays(&self, cost: Cost) -> bool {
        let mut left = self.have;
        for &(g, n) in cost.fixed {
            let l = &mut left[g.index()];
            if *l < u32::from(n) {
                return false;
            }
            *l -= u32::from(n);
        }
        cost.choice.iter().all(|&(c, n)| {
            let fixed: u32 = (cost.fixed.iter())
                .filter(|(g, _)| c.accepts(*g))
                .map(|&(_, n)| u32::from(n))
                .sum();
            self.classes[c.index()] - fixed >= u32::from(n)
        })
    }

    /// The spaces (bits by index) that [`Euphoria::check_space_in`] refuses whoever
    /// places, for what the board shows: the sites of built markets and the taken ones,
    /// the unbuilt markets, the closed tunnel ends. The sweep does not ask about them.
    pub(crate) fn closed(&self, g: &Euphoria) -> u64 {
        let mut closed = 0u64;
        for (m, market) in g.markets.iter().enumerate() {
            if market.built {
                closed |= (0..4).fold(0, |c, s| c | 1 << Space::site(m, s).0);
            } else {
                closed |= 1 << Space::built(m).0;
            }
        }
        for f in [Faction::Euphorian, Faction::Subterran, Faction::Wastelander] {
            if g.miners[f.index()] < TUNNEL_END {
                closed |= 1 << Space::tunnel_end(f).0;
            }
        }
        for m in 0..MARKETS {
            for s in 0..4 {
                let site = Space::site(m, s);
                if self.occupied[site.0 as usize % SPACES] != 0 {
                    closed |= 1 << site.0;
                }
            }
        }
        closed
    }

    fn suffers(&self, penalty: Penalty) -> bool {
        self.penalties & penalty.bit() != 0
    }

    /// Whether the Lounge penalty keeps the seat off market `m`'s sites (another
    /// player's worker is on one).
    fn lounge_blocks(&self, m: usize) -> bool {
        if !self.suffers(Penalty::NoSharedConstruction) {
            return false;
        }
        let others = (0..4)
            .map(|s| self.occupied[Space::site(m, s).0 as usize % SPACES])
            .fold(0, |a, b| a | b)
            & !(1 << self.seat);
        others != 0
    }
}
