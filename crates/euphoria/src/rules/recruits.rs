//! The 48 recruit abilities (spec 4.5), 2nd-edition texts by default and the 1st-edition
//! variants behind `edition: v1`.
//!
//! An ability works only while its recruit is face up and its owner is not under the
//! Academy penalty ([`Euphoria::has`]). Automatic abilities resolve in [`Euphoria::fire`];
//! optional ones become an [`Step::Ask`] for their owner, offered only when usable
//! ([`Euphoria::can_use`]): a knowledge or morale cost needs room for the full move, a
//! sacrifice is never of the last worker.

use crate::cards::*;
use crate::config::Edition;
use crate::refusal::{Answer, Refusal};
use crate::rules::checks::StarSpot;
use crate::rules::payment::{ANY_KIND, COMMODITY_BITS, RESOURCE_BITS};
use crate::state::{Boon, DieLoc, Euphoria, Step, Trigger};
use engine::Seat;

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

    /// Pushes steps so that they run in the given order.
    pub(crate) fn push_seq(&mut self, steps: Vec<Step>) {
        for s in steps.into_iter().rev() {
            self.stack.push(s);
        }
    }

    /// Queues the hooks of those of `ids` that `seat` has, to run in the order given.
    fn push_hooks(&mut self, seat: Seat, ids: &[Recruit]) {
        for &id in ids.iter().rev() {
            if self.has(seat, id) {
                self.stack.push(Step::Hook {
                    seat: seat as u8,
                    id,
                    arg: Trigger::Plain,
                });
            }
        }
    }

    /// The die of the current player just placed, if still on the board.
    fn placed_die(&self) -> Option<usize> {
        let seat = self.current as usize;
        let die = self.turn.die as usize % DICE;
        match (self.players[seat].dice[die], self.turn.space) {
            (DieLoc::Board(sp, _), Some(s)) if sp == s => Some(die),
            _ => None,
        }
    }

    /// The value of the die just placed.
    fn placed_value(&self) -> u8 {
        let die = self.turn.die as usize % DICE;
        self.players[self.current as usize].dice[die]
            .value()
            .unwrap_or(0)
    }

    /// A die being retrieved that is still on the board (before the roll).
    pub fn retrieving_die(&self) -> Option<usize> {
        let seat = self.current as usize;
        let dice = self.stack.iter().rev().find_map(|s| match s {
            Step::RetrieveRoll { dice } => Some(*dice),
            _ => None,
        })?;
        (0..DICE).find(|&i| {
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

    /// Whether `seat` may use optional ability `id` now (`arg` as in [`Step::Ask`]).
    pub fn can_use(&self, seat: Seat, id: Recruit, arg: Trigger) -> bool {
        if !self.has(seat, id) {
            return false;
        }
        let p = &self.players[seat];
        let v1 = self.v1();
        let sacrifice_ok = p.owned_dice() > 1;
        match id {
            Recruit::Amanda => {
                p.count(Good::Bliss) >= 1
                    && arg
                        .die()
                        .is_some_and(|d| matches!(p.dice[d], DieLoc::Board(..)))
            }
            Recruit::Flavio if v1 => self.morale_room(seat, 2),
            Recruit::Flavio | Recruit::Matthew | Recruit::Zong | Recruit::Xander => {
                self.knowledge_room(seat, 1)
            }
            Recruit::Gidget => true,
            Recruit::Nakagawa if !v1 => true,
            Recruit::Lee => self.morale_room(seat, 1) && self.victim().is_some(),
            Recruit::Maxime | Recruit::Rebecca => {
                self.morale_room(seat, 2) && self.victim().is_some()
            }
            Recruit::Sheppard | Recruit::Pete if arg == Trigger::Plain => {
                sacrifice_ok && self.retrieving_die().is_some()
            }
            Recruit::Sheppard | Recruit::Ben => self.morale_room(seat, 2),
            Recruit::Pete | Recruit::Bradley | Recruit::Artist | Recruit::Kyle | Recruit::Reitz => {
                self.knowledge_room(seat, 2)
            }
            Recruit::Esme => p.hand_size() >= 1,
            Recruit::Julia if v1 => self.morale_room(seat, 2),
            Recruit::Julia => {
                self.morale_room(seat, 1)
                    && self.victim().is_some_and(|v| {
                        arg.die()
                            .is_some_and(|d| matches!(self.players[v].dice[d], DieLoc::Board(..)))
                    })
            }
            Recruit::Laura => p.count(Good::Gold) >= 1 && self.victim().is_some(),
            Recruit::Nakagawa => {
                sacrifice_ok
                    && self.placed_die().is_some()
                    && p.stars_left > 0
                    && self
                        .market_territory()
                        .is_some_and(|f| self.territory_room(f) > 0)
            }
            Recruit::Yordy => p.count(Good::Energy) >= 1 && self.retrieving_die().is_some(),
            Recruit::Geek => self.knowledge_room(seat, if v1 { 2 } else { 1 }),
            Recruit::Jacko => {
                p.hand_size() >= 2
                    && p.stars_left > 0
                    && self
                        .market_territory()
                        .is_some_and(|f| self.territory_room(f) > 0)
            }
            Recruit::Brett | Recruit::Dave | Recruit::Phil => {
                self.knowledge_room(seat, if v1 { 2 } else { 1 })
            }
            Recruit::Chase => match arg {
                Trigger::NewWorker(d) => matches!(p.dice[d as usize % DICE], DieLoc::Ready(_)),
                _ => sacrifice_ok && self.placed_die().is_some(),
            },
            Recruit::Gambler => !v1 || self.knowledge_room(seat, 1),
            _ => false,
        }
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
        if !self.has(seat, id) {
            if id == Recruit::Gidget {
                self.shift_morale(seat, 2);
            }
            return;
        }
        let space = self.turn.space.unwrap_or(Space(0));
        // The values of the other dice on the space (at most every die of six players).
        let mut values = [0u8; 6 * DICE];
        let mut n = 0;
        for o in self.occupants(space) {
            if !(o.0 == seat && o.1 == self.turn.die as usize) && n < values.len() {
                values[n] = o.2;
                n += 1;
            }
        }
        let others = &values[..n];
        let mine = self.placed_value();
        let choose = |g: &mut Euphoria, boons: &[Boon]| {
            g.stack.push(Step::Choose {
                seat: seat as u8,
                menu: boons.iter().map(|b| b.bit()).fold(0, |a, b| a | b),
            })
        };
        let hand_empty = self.players[seat].hand_size() == 0;
        let no_resources = self.players[seat].supply[4..7].iter().all(|&c| c == 0);
        match id {
            Recruit::Sarinee if others.is_empty() => {
                choose(self, &[Boon::LessKnowledge, Boon::Good(Good::Bliss)])
            }
            Recruit::Zong if self.v1() => {
                if hand_empty && no_resources {
                    choose(self, &[Boon::Good(Good::Water), Boon::Good(Good::Energy)])
                }
            }
            Recruit::Gary if others.contains(&mine) => {
                choose(self, &[Boon::Morale, Boon::Good(Good::Energy)])
            }
            Recruit::Katy if hand_empty => self.players[seat].add(Good::Food, 1),
            Recruit::Faith if hand_empty => self.players[seat].add(Good::Energy, 1),
            Recruit::Ian if no_resources => self.players[seat].add(Good::Water, 1),
            Recruit::Ray => {
                if matches!(arg, Trigger::Builders(seats) if seats & (1 << seat) != 0) {
                    self.shift_morale(seat, 2);
                } else {
                    self.shift_knowledge(seat, -2);
                }
            }
            Recruit::Scarby if others.iter().all(|&v| v < mine) => {
                choose(self, &[Boon::LessKnowledge, Boon::Good(Good::Food)])
            }
            Recruit::Soulless if others.iter().all(|&v| v > mine) => {
                choose(self, &[Boon::Morale, Boon::Good(Good::Water)])
            }
            Recruit::Steven => {
                self.draw_artifact(seat);
                self.stack.push(Step::Choose {
                    seat: seat as u8,
                    menu: RESOURCE_BITS,
                });
            }
            Recruit::Josiah => {
                let mut seen = 0u8;
                let here: Vec<Seat> = self.occupants(space).map(|o| o.0).collect();
                for s in here {
                    if s != seat && seen & (1 << s) == 0 {
                        seen |= 1 << s;
                        self.shift_knowledge(s, 1);
                    }
                }
                self.shift_morale(seat, 1);
            }
            Recruit::Maggie => choose(self, &[Boon::Good(Good::Water), Boon::Good(Good::Stone)]),
            Recruit::Sarinee
            | Recruit::Gary
            | Recruit::Katy
            | Recruit::Faith
            | Recruit::Ian
            | Recruit::Scarby
            | Recruit::Soulless => {}
            _ => self.offer(seat, id, arg),
        }
    }

    /// The resource choice some abilities give.
    fn choose_resource(&mut self, seat: Seat) {
        self.stack.push(Step::Choose {
            seat: seat as u8,
            menu: RESOURCE_BITS,
        });
    }

    /// Uses optional ability `id` (`use KEY`): each ability's effect is its own method.
    pub(crate) fn use_ability(&mut self, seat: Seat, id: Recruit, arg: Trigger) {
        let v1 = self.v1();
        match id {
            Recruit::Flavio => self.flavio(seat),
            Recruit::Gidget => self.shift_knowledge(seat, -2),
            Recruit::Matthew => self.shift_knowledge(seat, 1),
            Recruit::Lee => self.lee(seat),
            Recruit::Maxime => self.maxime(seat),
            Recruit::Rebecca => self.rebecca(seat),
            Recruit::Sheppard | Recruit::Pete if arg == Trigger::Plain => {
                self.sheppard_or_pete_sacrifice(seat, id)
            }
            Recruit::Sheppard => self.sheppard_new_worker(seat),
            Recruit::Pete | Recruit::Artist | Recruit::Kyle => self.knowledge_for_artifact(seat, 2),
            Recruit::Zong => self.zong(seat),
            Recruit::Ben => self.ben(seat),
            Recruit::Bradley => self.bradley(seat),
            Recruit::Julia => self.julia(seat, arg),
            Recruit::Laura => self.laura(seat),
            Recruit::Nakagawa if v1 => self.nakagawa_v1(seat),
            Recruit::Nakagawa => self.advance(Faction::Euphorian),
            Recruit::Geek => self.geek(seat),
            Recruit::Jacko => self.jacko_extra_star(seat),
            Recruit::Reitz => self.reitz(seat),
            Recruit::Brett => self.brett(seat),
            Recruit::Chase if arg == Trigger::Plain => self.chase_sacrifice(seat),
            Recruit::Chase => self.chase_new_worker(arg),
            Recruit::Dave => self.dave(seat),
            Recruit::Xander => self.xander(seat),
            Recruit::Phil => self.knowledge_for_artifact(seat, if v1 { 2 } else { 1 }),
            Recruit::Gambler => self.gamble(seat, arg),
            _ => {}
        }
    }

    /// Flavio the Merchant: +1 knowledge (1st ed.: −2 morale) to draw 1 artifact.
    fn flavio(&mut self, seat: Seat) {
        if self.v1() {
            self.shift_morale(seat, -2);
        } else {
            self.shift_knowledge(seat, 1);
        }
        self.draw_artifact(seat);
    }

    /// Pete, Jonathan the Artist, Kyle (+2 knowledge) and Phil (+1, 1st ed. +2): knowledge
    /// for 1 artifact.
    fn knowledge_for_artifact(&mut self, seat: Seat, knowledge: i32) {
        self.shift_knowledge(seat, knowledge);
        self.draw_artifact(seat);
    }

    /// The cost shared by Lee, Maxime and Rebecca: `morale` for the bumper, +1 knowledge
    /// for the bumped player.
    fn bump_gift(&mut self, seat: Seat, morale: i32) {
        let victim = self.victim();
        self.shift_morale(seat, morale);
        if let Some(v) = victim {
            self.shift_knowledge(v, 1);
        }
    }

    /// Lee the Gossip: −1 morale, the bumped player +1 knowledge; choose 1 commodity.
    fn lee(&mut self, seat: Seat) {
        self.bump_gift(seat, -1);
        self.stack.push(Step::Choose {
            seat: seat as u8,
            menu: COMMODITY_BITS,
        });
    }

    /// Maxime the Ambassador: −2 morale, the bumped player +1 knowledge; draw 1 artifact.
    fn maxime(&mut self, seat: Seat) {
        self.bump_gift(seat, -2);
        self.draw_artifact(seat);
    }

    /// Rebecca the Peddler: −2 morale, the bumped player +1 knowledge; choose 1 resource.
    fn rebecca(&mut self, seat: Seat) {
        self.bump_gift(seat, -2);
        self.choose_resource(seat);
    }

    /// Dr. Sheppard (4 bliss) or Pete (4 food): a retrieved worker sacrificed before the
    /// roll, and 1 resource.
    fn sheppard_or_pete_sacrifice(&mut self, seat: Seat, id: Recruit) {
        if let Some(d) = self.retrieving_die() {
            self.players[seat].dice[d] = DieLoc::Reserve;
            let g = if id == Recruit::Sheppard {
                Good::Bliss
            } else {
                Good::Food
            };
            self.players[seat].add(g, 4);
            self.choose_resource(seat);
        }
    }

    /// Dr. Sheppard on a new worker: −2 morale to draw 1 artifact.
    fn sheppard_new_worker(&mut self, seat: Seat) {
        self.shift_morale(seat, -2);
        self.draw_artifact(seat);
    }

    /// Zong the Astronomer: +1 knowledge to draw 1 artifact; every other player +1 bliss.
    fn zong(&mut self, seat: Seat) {
        self.shift_knowledge(seat, 1);
        self.draw_artifact(seat);
        for s in self.order_from_current() {
            if s != seat {
                self.players[s].add(Good::Bliss, 1);
            }
        }
    }

    /// Ben the Ludologist: −2 morale to choose 1 resource.
    fn ben(&mut self, seat: Seat) {
        self.shift_morale(seat, -2);
        self.choose_resource(seat);
    }

    /// Bradley the Futurist: +2 knowledge to draw 2 artifacts and keep 1.
    fn bradley(&mut self, seat: Seat) {
        self.shift_knowledge(seat, 2);
        let mut mask = 0u8;
        for _ in 0..2 {
            if let Some(k) = self.draw_artifact(seat).and_then(|g| g.artifact_index()) {
                mask |= 1 << k;
            }
        }
        if mask != 0 {
            self.stack.push(Step::Shed {
                seat: seat as u8,
                n: 1,
                mask,
            });
        }
    }

    /// Julia the Thought Inspector: −1 morale, the bumped die takes your value (1st ed.:
    /// −2 morale); choose 1 resource.
    fn julia(&mut self, seat: Seat, arg: Trigger) {
        let victim = self.victim();
        if self.v1() {
            self.shift_morale(seat, -2);
        } else {
            self.shift_morale(seat, -1);
            let value = self.placed_value();
            if let (Some(v), Some(d)) = (victim, arg.die()) {
                if matches!(self.players[v].dice[d], DieLoc::Board(..)) {
                    self.players[v].dice[d] = DieLoc::Ready(value);
                }
            }
        }
        self.choose_resource(seat);
    }

    /// Laura the Philanthropist: 1 gold to the bumped player, draw 2 artifacts.
    fn laura(&mut self, seat: Seat) {
        if let Some(v) = self.victim() {
            self.players[seat].remove(Good::Gold, 1);
            self.players[v].add(Good::Gold, 1);
            self.draw_artifact(seat);
            self.draw_artifact(seat);
        }
    }

    /// Dr. Nakagawa (1st ed.): the market worker sacrificed for an extra territory star.
    fn nakagawa_v1(&mut self, seat: Seat) {
        if let (Some(d), Some(f)) = (self.placed_die(), self.market_territory()) {
            self.players[seat].dice[d] = DieLoc::Reserve;
            self.place_star(seat, StarSpot::Territory(f));
        }
    }

    /// Geek the Oracle: +1 knowledge to draw 2 more and discard 2 (1st ed.: +2, 1 and 1).
    fn geek(&mut self, seat: Seat) {
        self.turn.geek |= 1 << seat;
        let (cost, more) = if self.v1() { (2, 1) } else { (1, 2) };
        self.shift_knowledge(seat, cost);
        for _ in 0..more {
            self.draw_artifact(seat);
        }
        self.stack.push(Step::Shed {
            seat: seat as u8,
            n: more,
            mask: ANY_KIND,
        });
    }

    /// Jacko the Archivist (1st ed.): an extra territory star for 2 artifact cards.
    fn jacko_extra_star(&mut self, seat: Seat) {
        if let Some(f) = self.market_territory() {
            self.place_star(seat, StarSpot::Territory(f));
            self.stack.push(Step::Shed {
                seat: seat as u8,
                n: 2,
                mask: ANY_KIND,
            });
        }
    }

    /// Professor Reitz: +2 knowledge to draw 1 artifact and move the miner 1 more.
    fn reitz(&mut self, seat: Seat) {
        self.shift_knowledge(seat, 2);
        self.draw_artifact(seat);
        self.extra_miner();
    }

    /// Brett the Lockpicker: +1 knowledge (1st ed.: +2) to choose 1 resource.
    fn brett(&mut self, seat: Seat) {
        self.shift_knowledge(seat, if self.v1() { 2 } else { 1 });
        self.choose_resource(seat);
    }

    /// Chase the Miner: the tunnel worker sacrificed for 2 more of its resource.
    fn chase_sacrifice(&mut self, seat: Seat) {
        if let Some(d) = self.placed_die() {
            self.players[seat].dice[d] = DieLoc::Reserve;
            if let Some(SpaceKind::Tunnel(f)) = self.turn.space.map(|s| s.kind()) {
                self.players[seat].add(tunnel_resource(f), 2);
            }
        }
    }

    /// Chase the Miner on a new worker: it may be placed this turn.
    fn chase_new_worker(&mut self, arg: Trigger) {
        if let Some(d) = arg.die() {
            self.turn.eligible[d] = true;
        }
    }

    /// Major Dave: +1 knowledge (1st ed.: +2) for 1 more of the tunnel's resource and 1
    /// more miner space.
    fn dave(&mut self, seat: Seat) {
        self.shift_knowledge(seat, if self.v1() { 2 } else { 1 });
        self.tunnel_extra(seat);
        self.extra_miner();
    }

    /// Xander the Excavator: +1 knowledge for 1 more of the tunnel's resource.
    fn xander(&mut self, seat: Seat) {
        self.shift_knowledge(seat, 1);
        self.tunnel_extra(seat);
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

    /// Jonathan the Gambler; `arg` names the card that triggered it.
    fn gamble(&mut self, seat: Seat, arg: Trigger) {
        self.turn.gambler |= 1 << seat;
        if !self.v1() {
            self.draw_artifact(seat);
            if self.players[seat].hand.iter().any(|&c| c >= 2) {
                for s in self.order_from_current() {
                    if s != seat {
                        self.draw_artifact(s);
                    }
                }
            }
            return;
        }
        self.shift_knowledge(seat, 1);
        let Trigger::Drawn(first) = arg else {
            return;
        };
        let mut three = vec![first];
        for _ in 0..2 {
            if let Some(g) = self.draw_artifact(seat) {
                three.push(g);
            }
        }
        let matched = |g: Good| three.iter().filter(|&&x| x == g).count() >= 2;
        let any = three.iter().any(|&g| matched(g));
        let lose: Vec<Good> = three
            .iter()
            .copied()
            .filter(|&g| !any || !matched(g))
            .collect();
        for g in lose {
            if self.players[seat].count(g) > 0 {
                self.spend(seat, g, 1);
            }
        }
    }

    /// Declines optional ability `id` (also when it stopped being usable).
    pub(crate) fn decline(&mut self, seat: Seat, id: Recruit) {
        match id {
            Recruit::Gidget => self.shift_morale(seat, 2),
            Recruit::Matthew => {
                if let Some(SpaceKind::Tunnel(f)) = self.turn.space.map(|s| s.kind()) {
                    self.spend(seat, f.commodity(), 1);
                }
            }
            _ => {}
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
        match action {
            Action::Decline if id == Recruit::Matthew => match self.turn.space.map(|s| s.kind()) {
                Some(SpaceKind::Tunnel(f)) if self.players[seat].count(f.commodity()) > 0 => Ok(()),
                _ => Err(Refusal::MatthewCommodity),
            },
            Action::Decline => Ok(()),
            Action::Set(_) if id == Recruit::Amanda || id == Recruit::Yordy => {
                if self.can_use(seat, id, arg) {
                    Ok(())
                } else {
                    Err(Refusal::CannotUse(id))
                }
            }
            Action::Discard(k) if id == Recruit::Esme => {
                if self.players[seat].count(k) > 0 {
                    Ok(())
                } else {
                    Err(Refusal::NoCard(k))
                }
            }
            // A new-worker offer is answered `use KEY-new`, or a bare `use KEY` in games
            // made before issue 16.
            Action::Use(r)
                if r == id
                    && ![Recruit::Amanda, Recruit::Yordy, Recruit::Esme].contains(&id)
                    && (self.config.legacy_actions || !matches!(arg, Trigger::NewWorker(_))) =>
            {
                if self.can_use(seat, id, arg) {
                    Ok(())
                } else {
                    Err(Refusal::CannotUse(id))
                }
            }
            Action::UseNew(r)
                if r == id
                    && matches!(arg, Trigger::NewWorker(_))
                    && !self.config.legacy_actions =>
            {
                if self.can_use(seat, id, arg) {
                    Ok(())
                } else {
                    Err(Refusal::CannotUse(id))
                }
            }
            _ => Err(match id {
                Recruit::Amanda | Recruit::Yordy => Refusal::AnswerWith {
                    recruit: id,
                    how: Answer::Set,
                },
                Recruit::Esme => Refusal::AnswerWith {
                    recruit: id,
                    how: Answer::Discard,
                },
                _ if matches!(arg, Trigger::NewWorker(_)) && !self.config.legacy_actions => {
                    Refusal::AnswerWith {
                        recruit: id,
                        how: Answer::UseNew,
                    }
                }
                _ => Refusal::AnswerWith {
                    recruit: id,
                    how: Answer::Use,
                },
            }),
        }
    }

    /// `set V` for Amanda (the bumped die) or Yordy (one retrieved die).
    pub(crate) fn set_value(&mut self, seat: Seat, id: Recruit, arg: Trigger, v: u8) {
        if id == Recruit::Amanda {
            self.spend(seat, Good::Bliss, 1);
            if self.v1() {
                let cur = self.current as usize;
                self.players[cur].add(Good::Bliss, 1);
            }
            if let Some(d) = arg.die() {
                self.players[seat].dice[d] = DieLoc::Ready(v);
            }
        } else if let Some(d) = self.retrieving_die() {
            self.spend(seat, Good::Energy, 1);
            self.players[seat].dice[d] = DieLoc::Ready(v);
        }
    }

    /// Esme the Fireman: the discarded card decides the reward.
    pub(crate) fn esme(&mut self, seat: Seat, k: Good) {
        self.spend(seat, k, 1);
        if k == Good::Book && !self.v1() {
            self.players[seat].add(Good::Energy, 2);
            self.shift_knowledge(seat, -2);
            self.shift_morale(seat, 2);
        } else {
            self.players[seat].add(Good::Energy, 1);
            self.stack.push(Step::Choose {
                seat: seat as u8,
                menu: Boon::LessKnowledge.bit() | Boon::Morale.bit(),
            });
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

    /// The placing player's bump-triggered recruits (spec 5.3 step 4), in the order
    /// Dave, Laura, Xander, Julia (1st ed.), Rebecca, Phil, Lee, Maxime, Flavio (1st ed.).
    pub(crate) fn bump_hooks(&mut self) {
        let seat = self.current as usize;
        let Some(victim) = self.victim() else {
            return;
        };
        let theirs = self.turn.victim.map(|v| v.1).unwrap_or(0);
        let mine = self.placed_value();
        let kind = self.turn.space.map(|s| s.kind());
        let tunnel = matches!(kind, Some(SpaceKind::Tunnel(_)));
        let activation = matches!(
            kind,
            Some(SpaceKind::ActivateEnergy | SpaceKind::ActivateWater)
        );
        let market = matches!(kind, Some(SpaceKind::Built(_)))
            || matches!(kind, Some(SpaceKind::ArtifactMarket(f)) if f != Faction::Icarite);
        let v1 = self.v1();
        let mut ids = Ids::default();
        if tunnel {
            ids.push(Recruit::Dave);
        }
        if tunnel || activation {
            ids.push(Recruit::Laura);
        }
        if tunnel && theirs > mine {
            ids.push(Recruit::Xander);
        }
        if v1 && theirs == mine {
            ids.push(Recruit::Julia);
        }
        ids.push(Recruit::Rebecca);
        if !self.players[victim].has_active(Faction::Subterran) {
            ids.push(Recruit::Phil);
        }
        ids.extend([Recruit::Lee, Recruit::Maxime]);
        if v1 && market {
            ids.push(Recruit::Flavio);
        }
        self.push_hooks(seat, ids.as_slice());
    }

    /// The placing player's space-triggered recruits (spec 5.3 step 6): automatic ones
    /// first, then the optional ones.
    pub(crate) fn space_hooks(&mut self, space: Space) {
        let seat = self.current as usize;
        let v1 = self.v1();
        let alone = self.occupants(space).count() == 1;
        let mut ids = Ids::default();
        match space.kind() {
            SpaceKind::Area(Faction::Euphorian) => {
                ids.extend([Recruit::Katy, Recruit::Gary, Recruit::Josiah])
            }
            SpaceKind::Area(Faction::Subterran) => ids.extend([Recruit::Faith, Recruit::Soulless]),
            SpaceKind::Area(Faction::Wastelander) => {
                ids.extend([Recruit::Ian, Recruit::Scarby, Recruit::Josiah])
            }
            SpaceKind::Area(Faction::Icarite) => {
                ids.extend([Recruit::Sarinee, Recruit::Josiah, Recruit::Zong])
            }
            SpaceKind::Tunnel(_) => {
                if self.turn.victim.is_none() {
                    ids.push(Recruit::Reitz);
                }
                ids.push(Recruit::Chase);
            }
            SpaceKind::Site(m, _) => {
                if !v1 {
                    ids.push(Recruit::Nakagawa);
                }
                let mine = self.placed_value();
                let die = self.turn.die as usize;
                let highest = (0..4)
                    .flat_map(|s| self.occupants(Space::site(m, s)))
                    .filter(|o| !(o.0 == seat && o.1 == die))
                    .all(|o| o.2 < mine);
                if highest {
                    ids.push(Recruit::Artist);
                }
            }
            SpaceKind::Built(_) if v1 => ids.extend([
                Recruit::Bradley,
                Recruit::Brett,
                Recruit::Nakagawa,
                Recruit::Jacko,
            ]),
            SpaceKind::Built(_) => ids.extend([Recruit::Flavio, Recruit::Bradley, Recruit::Brett]),
            SpaceKind::ArtifactMarket(f) => {
                if f != Faction::Icarite {
                    ids.extend(if v1 {
                        [Recruit::Bradley, Recruit::Brett]
                    } else {
                        [Recruit::Flavio, Recruit::Bradley]
                    });
                    if !v1 {
                        ids.push(Recruit::Brett);
                    }
                }
                if v1 {
                    ids.extend([Recruit::Nakagawa, Recruit::Jacko]);
                }
            }
            _ => {}
        }
        if alone && matches!(space.kind(), SpaceKind::Area(f) if f != Faction::Icarite) {
            ids.push(Recruit::Kyle);
        }
        self.push_hooks(seat, ids.as_slice());
    }

    /// Andrew the Spelunker: an artifact card with a non-Subterran tunnel's resource,
    /// for an empty hand.
    pub(crate) fn andrew(&mut self, seat: Seat, f: Faction) {
        if f != Faction::Subterran
            && self.has(seat, Recruit::Andrew)
            && self.players[seat].hand_size() == 0
        {
            self.draw_artifact(seat);
        }
    }

    /// Jacko the Archivist (2nd ed.): one card paid the Ark; every other player draws.
    pub(crate) fn jacko_single_card(&mut self, seat: Seat) {
        for s in self.order_from_current() {
            if s != seat {
                self.draw_artifact(s);
            }
        }
    }
}

/// The recruits a moment may trigger, in order, without allocating.
#[derive(Default)]
struct Ids {
    ids: [Recruit; 12],
    len: usize,
}

impl Ids {
    fn push(&mut self, id: Recruit) {
        if let Some(slot) = self.ids.get_mut(self.len) {
            *slot = id;
            self.len += 1;
        }
    }

    fn extend<const N: usize>(&mut self, ids: [Recruit; N]) {
        for id in ids {
            self.push(id);
        }
    }

    fn as_slice(&self) -> &[Recruit] {
        &self.ids[..self.len]
    }
}
