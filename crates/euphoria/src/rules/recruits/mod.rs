//! The 48 recruit abilities (spec 4.5), 2nd-edition texts by default and the 1st-edition
//! variants behind `edition: v1`.
//!
//! Each recruit's ability is one [`Ability`], whole, in the file of its faction
//! (`icarite.rs`, `euphorian.rs`, `wastelander.rs`, `subterran.rs`): whether a bump or a
//! space triggers it, when it may be used, what it does when triggered, used or declined,
//! and how its offer is answered. This file holds what they share: whether a seat has a
//! recruit, the order in which a moment's triggers are hooked, offers and answers, and the
//! small effects several abilities have. (The moments the rules meet elsewhere, a
//! retrieval, a new worker, a roll, a star, a draw, a bump of one's own worker, queue
//! their recruits' hooks where they happen.)
//!
//! An ability works only while its recruit is face up and its owner is not under the
//! Academy penalty ([`Euphoria::has`]). Automatic abilities resolve when triggered
//! ([`Euphoria::fire`]); optional ones become an [`Step::Ask`] for their owner, offered only
//! when usable ([`Euphoria::can_use`]): a knowledge or morale cost needs room for the full
//! move, a sacrifice is never of the last worker.

mod euphorian;
mod icarite;
mod subterran;
mod wastelander;

use crate::cards::*;
use crate::config::Edition;
use crate::refusal::{Answer, Refusal};
use crate::rules::payment::RESOURCE_BITS;
use crate::state::{Boon, Die, DieLoc, Euphoria, Step, Trigger};
use engine::Seat;

/// One recruit's ability, each part a function of the position. A recruit's file fills in
/// the parts it has; the rest are as [`Ability::new`] makes them.
#[derive(Clone, Copy)]
struct Ability {
    recruit: Recruit,
    /// Whether its owner may use it now (`arg` as in [`Step::Ask`]); checked after
    /// [`Euphoria::has`].
    usable: fn(&Euphoria, Seat, Trigger) -> bool,
    /// Its trigger, for an owner who has it ([`Euphoria::has`]): an automatic ability
    /// resolves; an optional one is offered.
    fire: fn(&mut Euphoria, Seat, Recruit, Trigger),
    /// Its trigger, for a seat that does not have it.
    unheld: fn(&mut Euphoria, Seat),
    /// How its offer is answered, and what the answer does.
    answer: Effect,
    /// Declined (also when it stopped being usable).
    decline: fn(&mut Euphoria, Seat),
    /// Why its offer may not be declined, if it may not.
    refuse_decline: fn(&Euphoria, Seat) -> Result<(), Refusal>,
    /// Whether the latest placement, bumping another player, triggers it for the placing
    /// player (spec 5.3 step 4; hooked in the order of [`BUMP_ORDER`]).
    on_bump: fn(&Euphoria) -> bool,
    /// Whether the latest placement, on `space`, triggers it for the placing player `seat`
    /// (spec 5.3 step 6; hooked in the order of [`SPACE_ORDER`]).
    on_space: fn(&Euphoria, Seat, Space) -> bool,
}

/// How an ability's offer is answered, and what the answer does.
#[derive(Clone, Copy)]
enum Effect {
    /// `use KEY` (or `use KEY-new`, offered for a new worker).
    Use(fn(&mut Euphoria, Seat, Trigger)),
    /// `set V`: a die's value.
    Set(fn(&mut Euphoria, Seat, Trigger, u8)),
    /// `discard KIND`: an artifact card.
    Discard(fn(&mut Euphoria, Seat, Good)),
}

impl Ability {
    /// A recruit with nothing of its own here: never usable, offered when triggered, and
    /// nothing when declined or triggered for a seat without it. (The recruits that only
    /// change a rule elsewhere keep it so: Josh, Kaden, Jefferson, Michael, Brian,
    /// Flartner, Nick, Andrew, Curtis.)
    const fn new(recruit: Recruit) -> Ability {
        Ability {
            recruit,
            usable: |_, _, _| false,
            fire: Euphoria::offer,
            unheld: |_, _| {},
            answer: Effect::Use(|_, _, _| {}),
            decline: |_, _| {},
            refuse_decline: |_, _| Ok(()),
            on_bump: |_| false,
            on_space: |_, _, _| false,
        }
    }
}

/// Every recruit's ability, by number − 1, gathered from the faction files (each recruit
/// once: checked as it is built).
static ABILITIES: [Ability; RECRUITS] = {
    let factions: [&[Ability]; 4] = [
        &icarite::ABILITIES,
        &euphorian::ABILITIES,
        &wastelander::ABILITIES,
        &subterran::ABILITIES,
    ];
    let mut all = [Ability::new(Recruit::Amanda); RECRUITS];
    let mut placed = [false; RECRUITS];
    let mut f = 0;
    while f < factions.len() {
        let mut k = 0;
        while k < factions[f].len() {
            let a = factions[f][k];
            let i = a.recruit.index();
            assert!(!placed[i], "a recruit's ability is listed twice");
            placed[i] = true;
            all[i] = a;
            k += 1;
        }
        f += 1;
    }
    let mut i = 0;
    while i < RECRUITS {
        assert!(placed[i], "a recruit has no ability listed");
        i += 1;
    }
    all
};

/// The order in which the recruits a bump triggers are hooked (spec 5.3 step 4).
const BUMP_ORDER: [Recruit; 9] = [
    Recruit::Dave,
    Recruit::Laura,
    Recruit::Xander,
    Recruit::Julia,
    Recruit::Rebecca,
    Recruit::Phil,
    Recruit::Lee,
    Recruit::Maxime,
    Recruit::Flavio,
];

/// The order in which the recruits a space triggers are hooked (spec 5.3 step 6): on a
/// commodity area the automatic ones first, then the optional ones.
const SPACE_ORDER: [Recruit; 18] = [
    Recruit::Katy,
    Recruit::Gary,
    Recruit::Faith,
    Recruit::Soulless,
    Recruit::Ian,
    Recruit::Scarby,
    Recruit::Sarinee,
    Recruit::Josiah,
    Recruit::Zong,
    Recruit::Reitz,
    Recruit::Chase,
    Recruit::Flavio,
    Recruit::Bradley,
    Recruit::Brett,
    Recruit::Nakagawa,
    Recruit::Artist,
    Recruit::Jacko,
    Recruit::Kyle,
];

/// Whether a space is a market outside Icarus: a built market or a non-Icarite artifact
/// market.
fn non_icarite_market(kind: SpaceKind) -> bool {
    matches!(kind, SpaceKind::Built(_))
        || matches!(kind, SpaceKind::ArtifactMarket(f) if f != Faction::Icarite)
}

/// Recruit `id`'s ability.
fn ability(id: Recruit) -> &'static Ability {
    &ABILITIES[id.index()]
}

impl Euphoria {
    /// Whether the 1st-edition texts are in use.
    pub fn v1(&self) -> bool {
        self.config.edition == Edition::V1
    }

    /// Whether `seat` may use recruit `id`'s ability: face up, no Academy penalty.
    pub fn has(&self, seat: Seat, id: Recruit) -> bool {
        self.players[seat]
            .recruits
            .iter()
            .any(|r| r.up && r.id == id)
            && !self.penalized(seat, Penalty::NoAbilities)
    }

    /// Whether `seat` has a face-up recruit that changes what a placement may be paid
    /// with (a quick test before the exact one).
    pub fn may_substitute(&self, seat: Seat) -> bool {
        self.players[seat].recruits.iter().any(|r| {
            r.up && [
                Recruit::Michael,
                Recruit::Flartner,
                Recruit::Josh,
                Recruit::Brian,
            ]
            .contains(&r.id)
        })
    }

    /// Room on the knowledge track for a cost of `+n`.
    pub fn knowledge_room(&self, seat: Seat, n: u8) -> bool {
        self.players[seat].knowledge + n <= 6
    }

    /// Room on the morale track for a cost of `−n`.
    pub fn morale_room(&self, seat: Seat, n: u8) -> bool {
        self.players[seat].morale > n
    }

    /// Whether `seat` may sacrifice a worker: never the last.
    fn may_sacrifice(&self, seat: Seat) -> bool {
        self.players[seat].owned_dice() > 1
    }

    /// Pushes steps so that they run in the given order.
    pub(crate) fn push_seq(&mut self, steps: Vec<Step>) {
        for s in steps.into_iter().rev() {
            self.stack.push(s);
        }
    }

    /// Queues the hooks of the recruits of `order` that `seat` has ([`Euphoria::has`]) and
    /// that `triggered` picks, to run in that order.
    fn push_triggered(
        &mut self,
        seat: Seat,
        order: &[Recruit],
        triggered: impl Fn(&Euphoria, &Ability) -> bool,
    ) {
        // The recruits `seat` has, as bits: face up, and no Academy penalty.
        if self.penalized(seat, Penalty::NoAbilities) {
            return;
        }
        let held = (self.players[seat].recruits.iter())
            .filter(|r| r.up)
            .fold(0, |bits, r| bits | r.id.bit());
        for &id in order.iter().rev() {
            if held & id.bit() != 0 && triggered(self, ability(id)) {
                self.stack.push(Step::Hook {
                    seat: seat as u8,
                    id,
                    arg: Trigger::Plain,
                });
            }
        }
    }

    /// The die of the current player just placed, if still on the board.
    fn placed_die(&self) -> Option<Die> {
        let seat = self.current as usize;
        let die = self.turn.die;
        match (self.players[seat].dice[die.index()], self.turn.space) {
            (DieLoc::Board(sp, _), Some(s)) if sp == s => Some(die),
            _ => None,
        }
    }

    /// The value of the die just placed.
    fn placed_value(&self) -> u8 {
        let die = self.turn.die.index();
        self.players[self.current as usize].dice[die]
            .value()
            .unwrap_or(0)
    }

    /// A die being retrieved that is still on the board (before the roll).
    pub fn retrieving_die(&self) -> Option<Die> {
        let seat = self.current as usize;
        let dice = self.stack.iter().rev().find_map(|s| match s {
            Step::RetrieveRoll { dice } => Some(*dice),
            _ => None,
        })?;
        Die::all().find(|d| {
            let i = d.index();
            dice & (1 << i) != 0 && matches!(self.players[seat].dice[i], DieLoc::Board(..))
        })
    }

    /// The faction whose territory a market placement's extra star goes to.
    fn market_territory(&self) -> Option<Faction> {
        match self.turn.space?.kind() {
            SpaceKind::Built(m) => Some(market_faction(m)),
            SpaceKind::ArtifactMarket(f) => Some(f),
            _ => None,
        }
    }

    /// The seat bumped by the latest placement, if another player.
    fn victim(&self) -> Option<Seat> {
        self.turn
            .victim
            .map(|(s, _)| s as usize)
            .filter(|&s| s != self.current as usize)
    }

    /// The values of the other dice on the space of the latest placement (every one but
    /// the die `seat` just placed).
    fn other_values(&self, seat: Seat) -> impl Iterator<Item = u8> + '_ {
        let space = self.turn.space.unwrap_or(Space(0));
        let die = self.turn.die.index();
        self.occupants(space)
            .filter(move |o| !(o.0 == seat && o.1 == die))
            .map(|o| o.2)
    }

    /// Whether `seat` holds no artifact card.
    fn hand_empty(&self, seat: Seat) -> bool {
        self.players[seat].hand_size() == 0
    }

    /// Whether `seat` holds no resource.
    fn no_resources(&self, seat: Seat) -> bool {
        self.players[seat].supply[4..7].iter().all(|&c| c == 0)
    }

    /// `seat` chooses one of `boons` (`choose ...`).
    fn offer_boons(&mut self, seat: Seat, boons: &[Boon]) {
        self.stack.push(Step::Choose {
            seat: seat as u8,
            menu: boons.iter().map(|b| b.bit()).fold(0, |a, b| a | b),
        });
    }

    /// Whether `seat` may use optional ability `id` now (`arg` as in [`Step::Ask`]).
    pub fn can_use(&self, seat: Seat, id: Recruit, arg: Trigger) -> bool {
        self.has(seat, id) && (ability(id).usable)(self, seat, arg)
    }

    /// Offers optional ability `id` to `seat` if usable now.
    pub(crate) fn offer(&mut self, seat: Seat, id: Recruit, arg: Trigger) {
        if self.can_use(seat, id, arg) {
            self.stack.push(Step::Ask {
                seat: seat as u8,
                id,
                arg,
            });
        }
    }

    /// A recruit's trigger: automatic abilities resolve, optional ones are offered.
    pub(crate) fn fire(&mut self, seat: Seat, id: Recruit, arg: Trigger) {
        let ability = ability(id);
        if self.has(seat, id) {
            (ability.fire)(self, seat, id, arg);
        } else {
            (ability.unheld)(self, seat);
        }
    }

    /// The resource choice some abilities give.
    fn choose_resource(&mut self, seat: Seat) {
        self.stack.push(Step::Choose {
            seat: seat as u8,
            menu: RESOURCE_BITS,
        });
    }

    /// Pete, Jonathan the Artist, Kyle (+2 knowledge) and Phil (+1, 1st ed. +2): knowledge
    /// for 1 artifact.
    fn knowledge_for_artifact(&mut self, seat: Seat, knowledge: i32) {
        self.shift_knowledge(seat, knowledge);
        self.draw_artifact(seat);
    }

    /// Dr. Sheppard (4 bliss) or Pete (4 food): a retrieved worker sacrificed before the
    /// roll for 4 of `g` and 1 resource.
    fn sacrifice_retrieved(&mut self, seat: Seat, g: Good) {
        if let Some(d) = self.retrieving_die() {
            self.players[seat].dice[d.index()] = DieLoc::Reserve;
            self.players[seat].add(g, 4);
            self.choose_resource(seat);
        }
    }

    /// One more of the resource of the tunnel just placed on.
    fn tunnel_extra(&mut self, seat: Seat) {
        if let Some(SpaceKind::Tunnel(f)) = self.turn.space.map(|s| s.kind()) {
            self.players[seat].add(tunnel_resource(f), 1);
        }
    }

    /// Moves the miner of the tunnel just placed on one extra space.
    fn extra_miner(&mut self) {
        if let Some(SpaceKind::Tunnel(f)) = self.turn.space.map(|s| s.kind()) {
            let m = &mut self.miners[f.index()];
            *m = (*m + 1).min(TUNNEL_END);
        }
    }

    /// Uses optional ability `id` (`use KEY`).
    pub(crate) fn use_ability(&mut self, seat: Seat, id: Recruit, arg: Trigger) {
        if let Effect::Use(effect) = ability(id).answer {
            effect(self, seat, arg);
        }
    }

    /// `set V` for an ability answered so (Amanda, Yordy).
    pub(crate) fn set_value(&mut self, seat: Seat, id: Recruit, arg: Trigger, v: u8) {
        if let Effect::Set(effect) = ability(id).answer {
            effect(self, seat, arg, v);
        }
    }

    /// `discard KIND` for an ability answered so (Esme).
    pub(crate) fn discard_for(&mut self, seat: Seat, id: Recruit, k: Good) {
        if let Effect::Discard(effect) = ability(id).answer {
            effect(self, seat, k);
        }
    }

    /// Declines optional ability `id` (also when it stopped being usable).
    pub(crate) fn decline(&mut self, seat: Seat, id: Recruit) {
        (ability(id).decline)(self, seat);
    }

    /// How the offer of ability `id` is answered (`arg` as in [`Step::Ask`]): a new-worker
    /// offer is answered `use KEY-new`.
    pub(crate) fn answer_of(&self, id: Recruit, arg: Trigger) -> Answer {
        match ability(id).answer {
            Effect::Set(_) => Answer::Set,
            Effect::Discard(_) => Answer::Discard,
            Effect::Use(_) if matches!(arg, Trigger::NewWorker(_)) => Answer::UseNew,
            Effect::Use(_) => Answer::Use,
        }
    }

    /// Why `action` does not answer the offer of ability `id` to `seat`.
    pub fn check_ask(
        &self,
        seat: Seat,
        id: Recruit,
        arg: Trigger,
        action: crate::Action,
    ) -> Result<(), Refusal> {
        use crate::Action;
        let usable = || {
            if self.can_use(seat, id, arg) {
                Ok(())
            } else {
                Err(Refusal::CannotUse(id))
            }
        };
        let how = self.answer_of(id, arg);
        match (action, how) {
            (Action::Decline, _) => (ability(id).refuse_decline)(self, seat),
            (Action::Set(_), Answer::Set) => usable(),
            (Action::Discard(k), Answer::Discard) => {
                if self.players[seat].count(k) > 0 {
                    Ok(())
                } else {
                    Err(Refusal::NoCard(k))
                }
            }
            (Action::Use(r), Answer::Use) | (Action::UseNew(r), Answer::UseNew) if r == id => {
                usable()
            }
            _ => Err(Refusal::AnswerWith { recruit: id, how }),
        }
    }

    /// Takes a boon from a `choose` menu.
    pub(crate) fn take_boon(&mut self, seat: Seat, b: Boon) {
        match b {
            Boon::Good(g) if g.is_artifact() => {
                self.draw_artifact(seat);
            }
            Boon::Good(g) => self.players[seat].add(g, 1),
            Boon::Morale => self.shift_morale(seat, 1),
            Boon::LessKnowledge => self.shift_knowledge(seat, -1),
        }
    }

    /// After a draw: Geek the Oracle and Jonathan the Gambler may be offered.
    pub(crate) fn after_draw(&mut self, seat: Seat, card: Good) {
        if !self.setup_done {
            return;
        }
        let pending = |g: &Euphoria, id: Recruit| {
            g.stack
                .iter()
                .any(|s| matches!(s, Step::Ask { seat: s2, id: i, .. } if *s2 as usize == seat && *i == id))
        };
        if self.turn.geek & (1 << seat) == 0 && !pending(self, Recruit::Geek) {
            self.offer(seat, Recruit::Geek, Trigger::Plain);
        }
        if self.turn.gambler & (1 << seat) == 0 && !pending(self, Recruit::Gambler) {
            self.offer(seat, Recruit::Gambler, Trigger::Drawn(card));
        }
    }

    /// The placing player's recruits triggered by bumping another player (spec 5.3 step
    /// 4), each as its `on_bump` says.
    pub(crate) fn bump_hooks(&mut self) {
        if self.victim().is_some() {
            let seat = self.current as usize;
            self.push_triggered(seat, &BUMP_ORDER, |g, a| (a.on_bump)(g));
        }
    }

    /// The placing player's recruits triggered by the space (spec 5.3 step 6), each as its
    /// `on_space` says.
    pub(crate) fn space_hooks(&mut self, space: Space) {
        let seat = self.current as usize;
        self.push_triggered(seat, &SPACE_ORDER, |g, a| (a.on_space)(g, seat, space));
    }

    /// The kind of the space of the latest placement.
    fn placed_kind(&self) -> Option<SpaceKind> {
        self.turn.space.map(|s| s.kind())
    }

    /// The value the worker bumped by the latest placement showed.
    fn bumped_value(&self) -> u8 {
        self.turn.victim.map(|v| v.1).unwrap_or(0)
    }
}
