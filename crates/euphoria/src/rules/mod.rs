//! The rules, named after the spec sections: setup (5.1), the turn and its pending steps
//! (5.2), placement and the action spaces (5.3, 3.x), retrieval (5.4), the checks (5.6,
//! 5.7, 5.9), the dilemma (5.8), trading (5.10) and the end (5.11).
//!
//! Every action is checked by [`Euphoria::check`] (which gives the reason a person reads)
//! before [`Euphoria::perform`] changes anything; the legal list is the candidates that
//! pass the check, so the two can never disagree. Effects resolve in one place,
//! [`Euphoria::exec`], where part 2's recruit abilities will hook in.
//!
//! A refusal is a [`Refusal`]: one variant per rule, whose words are built only when
//! shown, so the legal sweep of the bots' hot path formats and allocates nothing.

pub mod checks;
pub mod dilemma;
pub mod end;
pub mod payment;
pub mod placement;
pub mod recruits;
pub mod retrieve;

pub mod trade;
mod undo;

use crate::action::{Action, RetrievePay};
use crate::cards::{tunnel_resource, Faction, Good, Recruit, Space, SpaceKind, DICE};
use crate::config::Config;
use crate::config::Trading;
use crate::rules::checks::StarSpot;
use crate::rules::placement::Placing;
use crate::rules::trade::Offering;
use crate::state::{Boon, DieLoc, DilemmaState, Euphoria, Offer, PayUnit, StarTarget, Step};

use crate::view::EuphoriaView;
use engine::{ConfigError, GameRules, IllegalAction, Outcome, Seat, Viewer};

pub use crate::refusal::{Answer, Prompt, Refusal};

impl Euphoria {
    /// The seat whose decision is pending.
    pub fn actor(&self) -> Option<Seat> {
        if self.over {
            return None;
        }
        Some(match self.stack.last() {
            Some(Step::ChooseUp(s)) | Some(Step::ChooseDown(s)) | Some(Step::Discard(s)) => {
                *s as usize
            }
            Some(Step::Lose { seat, .. })
            | Some(Step::Ask { seat, .. })
            | Some(Step::Choose { seat, .. })
            | Some(Step::Shed { seat, .. }) => *seat as usize,
            Some(Step::TradeAnswer(o)) => o.partner as usize,
            _ => self.current as usize,
        })
    }

    /// Runs automatic steps until a decision is needed or the game is over.
    pub(crate) fn run(&mut self) {
        self.run_from(false);
    }

    /// [`Euphoria::run`], told whether the checks at all times are known to have nothing
    /// to do (`settled`, debug-asserted).
    pub(crate) fn run_from(&mut self, mut settled: bool) {
        // `settled`: the checks at all times had nothing to do and the steps run since
        // changed nothing they look at: they would find nothing again, and are skipped.
        self.checks.clear = false;
        loop {
            if self.over {
                self.stack.clear();
                return;
            }
            if settled {
                debug_assert!(self.checks_clear());
            } else if self.setup_done {
                settled = self.global_checks();
                if self.over {
                    continue;
                }
            }
            let Some(top) = self.stack.last() else {
                self.checks.clear = settled;
                return;
            };
            if top.is_decision() {
                let clear = settled;
                // (A decision made for its seat below changes what the checks look at.)
                settled = false;
                if self.decision_done() {
                    if let Some(Step::Ask { seat, id, .. }) = self.stack.pop() {
                        self.decline(seat as usize, id);
                    }
                    continue;
                }
                if top.forced_when_single() {
                    if let Some(action) = self.only_choice() {
                        self.perform(action);
                        continue;
                    }
                    // A payment only one set of goods can make is made (not in the few
                    // records of before issue 16 that paid cards in an order of their
                    // own: see `upgrade.rs`).
                    if top.is_payment() && !self.config.legacy_actions {
                        if let Some(seat) = self.actor() {
                            if self.only_one_way(seat) {
                                self.pay_all(seat);
                                continue;
                            }
                        }
                    }
                }
                self.checks.clear = clear;
                return;
            }
            if let Some(step) = self.stack.pop() {
                settled &= step.keeps_checks();
                // A market completed changes stars and dice; none completed, nothing.
                let built = |g: &Euphoria| g.markets.iter().filter(|m| m.built).count();
                let before = (settled && matches!(step, Step::Markets)).then(|| built(self));
                self.exec(step);
                settled &= before.is_none_or(|b| b == built(self));
            }
        }
    }

    /// Whether `action`, taken now, changes nothing the checks at all times look at (it
    /// builds, proposes or drops a trade offer, picks a die to retrieve, or ends the turn).
    pub(crate) fn keeps_checks(&self, action: Action) -> bool {
        match action {
            a if a.builds_offer() => true,
            Action::Retrieve { .. } | Action::End | Action::Pass => true,
            // (Declining a recruit's offer may do something.)
            Action::Cancel | Action::Decline => self.in_trade(),
            _ => false,
        }
    }

    /// Whether the decision on top is a trade's: its partner, its offer, or its answer.
    pub(crate) fn in_trade(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Step::TradePartner | Step::TradeBuild(_) | Step::TradeAnswer(_))
        )
    }

    /// Whether the decision on top has nothing left to decide.
    fn decision_done(&self) -> bool {
        match self.stack.last() {
            Some(Step::Discard(s)) => {
                let p = &self.players[*s as usize];
                p.hand_size() <= p.morale as u32
            }
            Some(Step::Lose { seat, n }) => {
                *n == 0 || self.players[*seat as usize].supply.iter().all(|&c| c == 0)
            }
            Some(Step::StarChoice(f)) => self.star_targets(self.current as usize, *f).is_empty(),
            Some(Step::Ask { seat, id, arg }) => !self.can_use(*seat as usize, *id, *arg),
            Some(Step::Shed { seat, n, mask }) => {
                let p = &self.players[*seat as usize];
                *n == 0
                    || !Good::ARTIFACT_KINDS
                        .iter()
                        .enumerate()
                        .any(|(k, &g)| mask & (1 << k) != 0 && p.count(g) > 0)
            }
            _ => false,
        }
    }

    /// Runs one automatic step. The single place where effects resolve.
    pub(crate) fn exec(&mut self, step: Step) {
        match step {
            Step::FinishSetup => self.finish_setup(),
            Step::Bump { seat, die } => self.bump(seat as usize, die),
            Step::Benefit(space) => self.benefit(space),
            Step::Advance(f) => self.advance(f),
            Step::Markets => self.check_markets(),
            Step::MarketStars { market, seats } => self.market_stars_for(market as usize, seats),
            Step::AfterPlacement => self.after_placement(),
            Step::EndTurn => self.end_turn(),
            Step::BumpRoll { seat, die } => self.bump_roll(seat as usize, die),
            Step::BumpHooks => self.bump_hooks(),
            Step::SpaceHooks(space) => self.space_hooks(space),
            Step::Hook { seat, id, arg } => self.fire(seat as usize, id, arg),
            Step::RetrieveRoll { dice } => self.retrieve_roll(dice),
            // Decisions are never executed automatically.
            other => self.stack.push(other),
        }
    }

    /// Why `action` is not legal now, if it is not.
    pub fn legality(&self, action: Action) -> Result<(), Refusal> {
        let Some(seat) = self.actor() else {
            return Err(Refusal::GameOver);
        };
        self.check_for(seat, self.stack.last(), action)
    }

    /// [`Euphoria::check`] for the seat to act, `seat`, and the pending step, `top` (the
    /// legal sweep works them out once for all its candidates).
    fn check_for(&self, seat: Seat, top: Option<&Step>, action: Action) -> Result<(), Refusal> {
        if matches!(action, Action::Trade) && seat != self.current as usize {
            return Err(Refusal::TradeOutOfTurn);
        }
        match (top, action) {
            (Some(Step::ChooseUp(_)), Action::KeepUp(r))
            | (Some(Step::ChooseDown(_)), Action::KeepDown(r)) => {
                if self.players[seat].dealt.contains(&r) {
                    Ok(())
                } else {
                    Err(Refusal::NotDealt(r))
                }
            }
            (None, Action::Place { value, space }) => self.check_place(seat, value, space, false),
            (Some(Step::Doubles), Action::Place { value, space }) => {
                self.check_place(seat, value, space, true)
            }
            (Some(Step::Doubles | Step::Finish), Action::End) => Ok(()),
            (None, Action::Retrieve { value, space }) => self.check_retrieve(0, value, space),
            (Some(Step::Retrieve { dice }), Action::Retrieve { value, space }) => {
                self.check_retrieve(*dice, value, space)
            }
            (Some(Step::Retrieve { .. }), Action::FinishRetrieve(pay)) => {
                self.check_finish_retrieve(pay)
            }
            (None, Action::Dilemma) => self.check_dilemma(seat),
            (Some(Step::DilemmaPay { paid }), Action::Pay(g)) => {
                self.check_dilemma_pay(seat, *paid, g)
            }
            (Some(Step::DilemmaChoice), Action::Rebel | Action::Conform) => Ok(()),
            (Some(Step::DilemmaKeep(ids)), Action::Keep(r)) => {
                if ids.contains(&r) {
                    Ok(())
                } else {
                    Err(Refusal::NotDrawn(r))
                }
            }
            (None | Some(Step::Doubles | Step::Finish), Action::Trade) => self.check_trade(),
            (Some(Step::TradePartner), Action::Offer(to)) => self.check_offer(to),
            (Some(Step::TradePartner), Action::Cancel) => Ok(()),
            (Some(Step::TradeBuild(o)), a @ (Action::Give(_) | Action::Ask(_))) => {
                self.check_offer_item(o, a)
            }
            (Some(Step::TradeBuild(o)), Action::Propose) => {
                if o.items() == 0 {
                    Err(Refusal::EmptyOffer)
                } else {
                    Ok(())
                }
            }
            (Some(Step::TradeBuild(_)), Action::Cancel) => Ok(()),
            (Some(Step::TradeAnswer(o)), Action::Accept) => self.check_accept(o),
            (Some(Step::TradeAnswer(_)), Action::Decline) => Ok(()),
            (None, Action::Pass) => {
                if self.has_main_action(seat) {
                    Err(Refusal::MainActionLeft)
                } else {
                    Ok(())
                }
            }
            (top, _) => self.check_decision(seat, top, action),
        }
    }

    /// Why `action` does not answer the decision on top (a payment, a choice, a loss,
    /// a recruit's offer), if it does not.
    fn check_decision(
        &self,
        seat: Seat,
        top: Option<&Step>,
        action: Action,
    ) -> Result<(), Refusal> {
        match (top, action) {
            (Some(Step::Pay(units)), Action::Pay(g)) => self.check_pay(seat, units, g),
            (Some(Step::PaySet(p)), Action::Pay(g)) => self.check_pay_set(seat, *p, g),
            (Some(Step::PaySet(p)), Action::Use(Recruit::Jacko)) => self.check_jacko_ark(*p),
            (Some(Step::Ask { seat, id, arg }), a) => self.check_ask(*seat as usize, *id, *arg, a),
            (Some(Step::Choose { menu, .. }), Action::Choose(b)) => {
                if menu & b.bit() != 0 {
                    Ok(())
                } else {
                    Err(Refusal::NotOffered)
                }
            }
            (Some(Step::Shed { mask, .. }), Action::Discard(g)) => match g.artifact_index() {
                Some(k) if mask & (1 << k) != 0 && self.players[seat].count(g) > 0 => Ok(()),
                _ => Err(Refusal::NotShed(g)),
            },
            (Some(Step::TunnelTake(f)), Action::Take(g)) => {
                if g == tunnel_resource(*f) {
                    Ok(())
                } else {
                    Err(Refusal::TunnelGives(tunnel_resource(*f)))
                }
            }
            (Some(Step::TunnelTake(_)), Action::Draw) => Ok(()),
            (Some(Step::ChooseResource(_)), Action::Take(g)) => {
                if g.is_resource() {
                    Ok(())
                } else {
                    Err(Refusal::NotResource)
                }
            }
            (Some(Step::StarChoice(f)), Action::Star(t)) => self.check_star(seat, *f, t),
            (Some(Step::Discard(_)), Action::Discard(g)) => {
                if self.players[seat].count(g) > 0 {
                    Ok(())
                } else {
                    Err(Refusal::NoCard(g))
                }
            }
            (Some(Step::Lose { .. }), Action::Lose(g)) => {
                if self.players[seat].count(g) > 0 {
                    Ok(())
                } else {
                    Err(Refusal::NoGood(g))
                }
            }
            (top, _) => Err(Refusal::NotNow(Prompt::of(top))),
        }
    }

    /// Why `pay G` does not answer a pending payment of `units`.
    fn check_pay(&self, seat: Seat, units: &[PayUnit], g: Good) -> Result<(), Refusal> {
        if !units.iter().any(|u| u.accepts & (1 << g.index()) != 0) {
            Err(Refusal::NotOwed(g))
        } else if self.players[seat].count(g) == 0 {
            Err(Refusal::NoGood(g))
        } else if self.pay_unit_index(seat, units, g).is_none() {
            Err(Refusal::Unpayable(g))
        } else {
            Ok(())
        }
    }

    /// Why `star T` is not a place for the star owed in faction `f`.
    fn check_star(&self, seat: Seat, f: Faction, t: StarTarget) -> Result<(), Refusal> {
        if self.star_targets(seat, f).contains(&t) {
            Ok(())
        } else {
            Err(match t {
                StarTarget::Territory => Refusal::TerritoryFull(f),
                StarTarget::Market(_) => Refusal::NoStarMarket(f),
            })
        }
    }

    /// Whether the turn owner has a placement, retrieval or dilemma available.
    fn has_main_action(&self, seat: Seat) -> bool {
        let p = &self.players[seat];
        if p.dice.iter().any(|d| matches!(d, DieLoc::Board(..))) {
            return true;
        }
        if self.check_dilemma(seat).is_ok() {
            return true;
        }
        p.dice.iter().any(|d| match *d {
            DieLoc::Ready(v) => Space::all().any(|sp| self.check_place(seat, v, sp, false).is_ok()),
            _ => false,
        })
    }

    /// Applies an action already checked.
    pub(crate) fn perform(&mut self, action: Action) {
        let seat = self.actor().unwrap_or(0);
        match action {
            Action::KeepUp(r) => self.keep_dealt(seat, r, true),
            Action::KeepDown(r) => self.keep_dealt(seat, r, false),
            Action::Place { value, space } => {
                let doubles = matches!(self.stack.last(), Some(Step::Doubles));
                if doubles {
                    self.stack.pop();
                }
                self.place(value, space, doubles);
            }
            Action::End => {
                self.stack.pop();
                self.end_turn();
            }
            Action::Retrieve { value, space } => self.pick_retrieve(value, space),
            Action::FinishRetrieve(pay) => self.finish_retrieve(pay),
            Action::Pay(g) => self.pay(seat, g),
            Action::Take(g) => self.take(seat, g),
            Action::Draw => {
                self.stack.pop();
                self.draw_artifact(seat);
            }
            Action::Star(t) => {
                if let Some(Step::StarChoice(f)) = self.stack.pop() {
                    let spot = match t {
                        StarTarget::Territory => StarSpot::Territory(f),
                        StarTarget::Market(m) => StarSpot::Market(m as usize),
                    };
                    self.place_star(seat, spot);
                }
            }
            Action::Discard(g) => self.discard(seat, g),
            Action::Lose(g) => {
                self.players[seat].remove(g, 1);
                if let Some(Step::Lose { n, .. }) = self.stack.last_mut() {
                    *n -= 1;
                }
            }
            Action::Dilemma => self.start_dilemma(),
            Action::Rebel => self.rebel(seat),
            Action::Conform => {
                self.stack.pop();
                self.place_star(seat, StarSpot::Dilemma);
            }
            Action::Keep(r) => self.keep_drawn(seat, r),
            Action::Trade => self.open_trade(),
            Action::Offer(to) => self.open_offer(to),
            Action::Give(_) | Action::Ask(_) => self.add_offer_item(action),
            Action::Propose => {
                if let Some(Step::TradeBuild(o)) = self.stack.pop() {
                    self.stack.push(Step::TradeAnswer(o));
                }
            }
            Action::Cancel | Action::Decline => {
                if let Some(Step::Ask { id, .. }) = self.stack.pop() {
                    self.decline(seat, id);
                }
            }
            Action::Use(_) | Action::UseNew(_) => self.use_offered(seat),
            Action::Set(v) => {
                if let Some(Step::Ask { id, arg, .. }) = self.stack.pop() {
                    self.set_value(seat, id, arg, v);
                }
            }
            Action::Choose(b) => {
                self.stack.pop();
                self.take_boon(seat, b);
            }
            Action::Accept => self.accept_offer(),
            Action::Pass => self.end_turn(),
        }
    }

    /// `up N` / `down N`: a dealt recruit kept at setup.
    fn keep_dealt(&mut self, seat: Seat, r: Recruit, up: bool) {
        let p = &mut self.players[seat];
        p.dealt.retain(|&x| x != r);
        p.recruits.push(crate::state::HeldRecruit {
            id: r,
            up,
            star: false,
        });
        self.stack.pop();
    }

    /// `take R`: the Sky Lounge's resources one by one, or the tunnel mouth's resource.
    fn take(&mut self, seat: Seat, g: Good) {
        if let Some(Step::ChooseResource(n)) = self.stack.last_mut() {
            *n -= 1;
            if *n == 0 {
                self.stack.pop();
            }
            self.players[seat].add(g, 1);
            return;
        }
        let top = self.stack.pop();
        self.players[seat].add(g, 1);
        if let Some(Step::TunnelTake(f)) = top {
            self.andrew(seat, f);
        }
    }

    /// `discard K`: for Esme's offer, a recruit's "discard N", or the hand limit.
    fn discard(&mut self, seat: Seat, g: Good) {
        match self.stack.last_mut() {
            Some(&mut Step::Ask { id, .. }) => {
                self.stack.pop();
                self.discard_for(seat, id, g);
            }
            Some(Step::Shed { n, .. }) => {
                *n -= 1;
                if *n == 0 {
                    self.stack.pop();
                }
                self.spend(seat, g, 1);
            }
            _ => {
                self.spend(seat, g, 1);
                let p = &self.players[seat];
                if p.hand_size() <= p.morale as u32 {
                    self.stack.pop();
                }
            }
        }
    }

    /// `use KEY`: the recruit ability offered (or Jacko's one-card Ark payment).
    fn use_offered(&mut self, seat: Seat) {
        match self.stack.pop() {
            Some(Step::PaySet(_)) => self.jacko_single_card(seat),
            Some(Step::Ask { id, arg, .. }) => self.use_ability(seat, id, arg),
            _ => {}
        }
    }

    /// Every legal action, in a fixed order.
    pub fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(seat) = self.actor() else {
            return;
        };
        // The frequent steps list their answers as they pass the very checks `check_for`
        // gives them to; the others filter their candidates through `check_for`. Under
        // debug assertions every list is compared with the filtered candidates.
        if !self.legal_listed(seat, out) {
            self.legal_swept(seat, out);
        }
        debug_assert!({
            let mut swept = Vec::new();
            self.legal_swept(seat, &mut swept);
            swept == *out
        });
    }

    /// The legal actions as the candidates of the step on top that pass `check_for`.
    fn legal_swept(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let top = self.stack.last();
        // The candidates go straight into `out` and the refused ones are dropped: the
        // sweep allocates nothing once `out` has grown.
        let candidates = out;
        if !self.turn_candidates(seat, candidates) {
            self.decision_candidates(candidates);
        }
        // Placements come already checked (see `place_candidates`).
        candidates.retain(|&a| match a {
            Action::Place { .. } => true,
            _ => self.check_for(seat, top, a).is_ok(),
        });
        if self.stack.is_empty()
            && !candidates.iter().any(|a| {
                matches!(
                    a,
                    Action::Place { .. } | Action::Retrieve { .. } | Action::Dilemma
                )
            })
        {
            candidates.push(Action::Pass);
        }
    }

    /// The legal actions of the steps most decisions are made at (a turn's start, its
    /// doubles and its end, retrieval, trading), each candidate in the order of
    /// [`Euphoria::legal_swept`] given to the check `check_for` would give it to (the turn
    /// owner acts at these steps, so `trade` is theirs); false for the other steps.
    fn legal_listed(&self, seat: Seat, out: &mut Vec<Action>) -> bool {
        let trade = |out: &mut Vec<Action>| {
            if self.check_trade().is_ok() {
                out.push(Action::Trade);
            }
        };
        match self.stack.last() {
            Some(Step::TradeBuild(o)) => self.offer_items(o, out),
            None => {
                self.place_candidates(seat, false, out);
                self.legal_retrievals(seat, 0, out);
                if self.check_dilemma(seat).is_ok() {
                    out.push(Action::Dilemma);
                }
                // `pass` only when there is no placement, retrieval or dilemma.
                let main = !out.is_empty();
                trade(out);
                if !main {
                    out.push(Action::Pass);
                }
            }
            Some(Step::Doubles) => {
                self.place_candidates(seat, true, out);
                out.push(Action::End);
                trade(out);
            }
            Some(Step::Finish) => {
                out.push(Action::End);
                trade(out);
            }
            Some(Step::Retrieve { dice }) => {
                self.legal_retrievals(seat, *dice, out);
                out.extend(
                    [
                        RetrievePay::Food,
                        RetrievePay::Bliss,
                        RetrievePay::Free,
                        RetrievePay::Energy,
                    ]
                    .into_iter()
                    .filter(|&pay| self.check_finish_retrieve(pay).is_ok())
                    .map(Action::FinishRetrieve),
                );
            }
            Some(Step::TradePartner) => {
                let seats = 0..self.n() as u8;
                out.extend((seats.filter(|&to| self.check_offer(to).is_ok())).map(Action::Offer));
                out.push(Action::Cancel);
            }
            Some(Step::TradeAnswer(o)) => {
                if self.check_accept(o).is_ok() {
                    out.push(Action::Accept);
                }
                out.push(Action::Decline);
            }
            _ => return false,
        }
        true
    }

    /// The legal answers while an offer `o` is built: each good given, then each asked,
    /// that the offer may take, then `propose` (once it holds an item) and `cancel`.
    fn offer_items(&self, o: &Offer, out: &mut Vec<Action>) {
        let ctx = Offering::new(self, o);
        let items = o.items();
        let open =
            self.config.trading != Trading::OneOfferBeforePlacing || items < trade::OLD_OFFER_ITEMS;
        let item: [fn(Good) -> Action; 2] = [Action::Give, Action::Ask];
        for make in item {
            for g in Good::ALL {
                let a = make(g);
                let takes = open && ctx.takes(a);
                debug_assert_eq!(takes, self.check_offer_item_in(&ctx, a).is_ok());
                if takes {
                    out.push(a);
                }
            }
        }
        if items > 0 {
            out.push(Action::Propose);
        }
        out.push(Action::Cancel);
    }

    /// The legal placements of `seat`, each die value once in increasing order. Whether a
    /// space takes a worker does not depend on the value, so each space is checked once.
    fn place_candidates(&self, seat: Seat, doubles: bool, c: &mut Vec<Action>) {
        // ready[v]: `ready_die(seat, v, doubles)` finds a die, for v in 1..=6.
        let mut ready = [false; 7];
        for (i, d) in self.players[seat].dice.iter().enumerate() {
            if let DieLoc::Ready(v @ 1..=6) = *d {
                if !doubles || self.turn.eligible[i] {
                    ready[usize::from(v)] = true;
                }
            }
        }
        if !ready.contains(&true) {
            return;
        }
        let ctx = Placing::new(self, seat);
        // The open spaces, as bits by index (SPACES < 64).
        let open = self.open_spaces(&ctx, doubles);
        for v in (1..=6u8).filter(|&v| ready[usize::from(v)]) {
            let mut rest = open;
            while rest != 0 {
                let space = Space(rest.trailing_zeros() as u8);
                rest &= rest - 1;
                c.push(Action::Place { value: v, space });
            }
        }
    }

    /// The dice of `seat` on the board, as `ret` candidates (each value and space once).
    fn retrieve_candidates(&self, seat: Seat, c: &mut Vec<Action>) {
        let first = c.len();
        for d in &self.players[seat].dice {
            if let DieLoc::Board(space, value) = *d {
                let action = Action::Retrieve { value, space };
                if !c[first..].contains(&action) {
                    c.push(action);
                }
            }
        }
    }

    /// The `ret` candidates of the turn owner `seat` that pick a die not picked already
    /// (`picked`, a bitmask).
    fn legal_retrievals(&self, seat: Seat, picked: u8, c: &mut Vec<Action>) {
        let first = c.len();
        self.retrieve_candidates(seat, c);
        let mut kept = first;
        for i in first..c.len() {
            let a = c[i];
            if let Action::Retrieve { value, space } = a {
                if self.check_retrieve(picked, value, space).is_ok() {
                    c[kept] = a;
                    kept += 1;
                }
            }
        }
        c.truncate(kept);
    }

    /// The candidates of a turn's own steps (its start, doubles, its end, setup choices,
    /// retrieval); false when the pending step is another decision.
    fn turn_candidates(&self, seat: Seat, candidates: &mut Vec<Action>) -> bool {
        match self.stack.last() {
            None => {
                self.place_candidates(seat, false, candidates);
                self.retrieve_candidates(seat, candidates);
                candidates.push(Action::Dilemma);
                candidates.push(Action::Trade);
                // `pass` is added after the sweep: it is legal exactly when no placement,
                // retrieval or dilemma passed it (what `has_main_action` would sweep again).
            }
            Some(Step::Doubles) => {
                self.place_candidates(seat, true, candidates);
                candidates.push(Action::End);
                candidates.push(Action::Trade);
            }
            Some(Step::Finish) => candidates.extend([Action::End, Action::Trade]),
            Some(Step::ChooseUp(_)) => {
                for &r in &self.players[seat].dealt {
                    candidates.push(Action::KeepUp(r));
                }
            }
            Some(Step::ChooseDown(_)) => {
                for &r in &self.players[seat].dealt {
                    candidates.push(Action::KeepDown(r));
                }
            }
            Some(Step::Retrieve { .. }) => {
                self.retrieve_candidates(seat, candidates);
                candidates.extend([
                    Action::FinishRetrieve(RetrievePay::Food),
                    Action::FinishRetrieve(RetrievePay::Bliss),
                    Action::FinishRetrieve(RetrievePay::Free),
                    Action::FinishRetrieve(RetrievePay::Energy),
                ]);
            }
            _ => return false,
        }
        true
    }

    /// The candidates of a pending payment, choice, loss, dilemma, trade or recruit offer.
    fn decision_candidates<C: Extend<Action>>(&self, candidates: &mut C) {
        match self.stack.last() {
            Some(Step::Pay(_)) => candidates.extend(Good::ALL.iter().map(|&g| Action::Pay(g))),
            Some(Step::PaySet(_)) | Some(Step::DilemmaPay { .. }) => {
                candidates.extend(Good::ARTIFACT_KINDS.iter().map(|&g| Action::Pay(g)));
                candidates.extend([Action::Use(Recruit::Jacko)]);
            }
            Some(Step::Ask { id, arg, .. }) => {
                match self.answer_of(*id, *arg) {
                    Answer::Set => candidates.extend((1..=6).map(Action::Set)),
                    Answer::Discard => {
                        candidates.extend(Good::ARTIFACT_KINDS.iter().map(|&g| Action::Discard(g)))
                    }
                    Answer::UseNew => candidates.extend([Action::UseNew(*id)]),
                    Answer::Use => candidates.extend([Action::Use(*id)]),
                }
                candidates.extend([Action::Decline]);
            }
            Some(Step::Choose { .. }) => candidates.extend(Boon::all().map(Action::Choose)),
            Some(Step::Shed { .. }) => {
                candidates.extend(Good::ARTIFACT_KINDS.iter().map(|&g| Action::Discard(g)))
            }
            Some(Step::TunnelTake(_)) | Some(Step::ChooseResource(_)) => {
                candidates.extend(Good::RESOURCES.iter().map(|&g| Action::Take(g)));
                candidates.extend([Action::Draw]);
            }
            Some(Step::StarChoice(_)) => {
                candidates.extend([Action::Star(StarTarget::Territory)]);
                candidates.extend((0..6).map(|m| Action::Star(StarTarget::Market(m))));
            }
            Some(Step::Discard(_)) => {
                candidates.extend(Good::ARTIFACT_KINDS.iter().map(|&g| Action::Discard(g)))
            }
            Some(Step::Lose { .. }) => {
                candidates.extend(Good::ALL[..7].iter().map(|&g| Action::Lose(g)))
            }
            Some(Step::DilemmaChoice) => candidates.extend([Action::Rebel, Action::Conform]),
            Some(Step::DilemmaKeep(ids)) => candidates.extend(ids.iter().map(|&r| Action::Keep(r))),
            Some(Step::TradePartner) => {
                candidates.extend((0..self.n() as u8).map(Action::Offer));
                candidates.extend([Action::Cancel]);
            }
            Some(Step::TradeBuild(_)) => {
                candidates.extend(Good::ALL.iter().map(|&g| Action::Give(g)));
                candidates.extend(Good::ALL.iter().map(|&g| Action::Ask(g)));
                candidates.extend([Action::Propose, Action::Cancel]);
            }
            Some(Step::TradeAnswer(_)) => candidates.extend([Action::Accept, Action::Decline]),
            _ => {}
        }
    }

    /// The one legal answer to the decision on top, if there is exactly one (for the
    /// decisions that resolve themselves then); it allocates nothing.
    fn only_choice(&self) -> Option<Action> {
        let mut few = Few::default();
        self.decision_candidates(&mut few);
        let mut legal = few.items[..few.len]
            .iter()
            .filter(|&&a| self.legality(a).is_ok());
        let first = legal.next().copied();
        if legal.next().is_some() {
            None
        } else {
            first
        }
    }

    /// Dice a player has in each state, for quick assertions.
    pub fn ready_values(&self, seat: Seat) -> Vec<u8> {
        (0..DICE)
            .filter_map(|i| match self.players[seat].dice[i] {
                DieLoc::Ready(v) => Some(v),
                _ => None,
            })
            .collect()
    }

    /// Whether the dilemma of `seat` is still unresolved.
    pub fn dilemma_open(&self, seat: Seat) -> bool {
        self.players[seat].dilemma_state == DilemmaState::Unresolved
    }
}

/// A few candidate actions without allocating (a decision has at most 16).
struct Few {
    items: [Action; 16],
    len: usize,
}

impl Default for Few {
    fn default() -> Few {
        Few {
            items: [Action::Pass; 16],
            len: 0,
        }
    }
}

impl Extend<Action> for Few {
    fn extend<I: IntoIterator<Item = Action>>(&mut self, actions: I) {
        for a in actions {
            if let Some(slot) = self.items.get_mut(self.len) {
                *slot = a;
                self.len += 1;
            }
        }
    }
}

impl Step {
    /// Whether the step is a payment made good by good.
    pub fn is_payment(&self) -> bool {
        matches!(
            self,
            Step::Pay(_) | Step::PaySet(_) | Step::DilemmaPay { .. }
        )
    }

    /// Whether running the step leaves alone all that the checks at all times look at
    /// (it queues other steps, or passes the turn); [`Step::Markets`] does when no
    /// market completes.
    fn keeps_checks(&self) -> bool {
        matches!(
            self,
            Step::SpaceHooks(_)
                | Step::BumpHooks
                | Step::Bump { .. }
                | Step::AfterPlacement
                | Step::EndTurn
                | Step::Markets
        )
    }

    /// Whether the step waits for a seat's decision.
    pub fn is_decision(&self) -> bool {
        !matches!(
            self,
            Step::FinishSetup
                | Step::Bump { .. }
                | Step::Benefit(_)
                | Step::Advance(_)
                | Step::Markets
                | Step::MarketStars { .. }
                | Step::AfterPlacement
                | Step::EndTurn
                | Step::BumpRoll { .. }
                | Step::BumpHooks
                | Step::SpaceHooks(_)
                | Step::Hook { .. }
                | Step::RetrieveRoll { .. }
        )
    }

    /// Decisions resolved automatically when only one choice exists (a forced payment,
    /// discard, loss or star spot).
    pub fn forced_when_single(&self) -> bool {
        matches!(
            self,
            Step::Pay(_)
                | Step::PaySet(_)
                | Step::DilemmaPay { .. }
                | Step::Discard(_)
                | Step::Lose { .. }
                | Step::StarChoice(_)
                | Step::DilemmaKeep(_)
                | Step::Ask { .. }
                | Step::Choose { .. }
                | Step::Shed { .. }
        )
    }
}

/// Whether a space is a construction site (for tests and the view).
pub fn is_site(space: Space) -> bool {
    matches!(space.kind(), SpaceKind::Site(..))
}

impl Euphoria {
    /// Applies `action` once it is checked; refused, nothing changes.
    pub(crate) fn play(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.legality(action)
            .map_err(|reason| IllegalAction::new(action, reason))?;
        // A move that changes nothing the checks at all times look at leaves them with
        // nothing to do if they had nothing to do before it.
        let settled = self.checks.clear && self.keeps_checks(action);
        self.perform(action);
        self.run_from(settled);
        Ok(())
    }
}

impl GameRules for Euphoria {
    type Config = Config;
    type Action = Action;
    type View = EuphoriaView;
    type Refusal = Refusal;
    const NAME: &'static str = "euphoria";
    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        Euphoria::setup(config, seed)
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn seats(&self) -> usize {
        self.n()
    }
    fn to_act(&self) -> Option<Seat> {
        self.actor()
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.play(action)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }
    fn view(&self, viewer: Viewer) -> EuphoriaView {
        self.make_view(viewer)
    }
    fn is_legal(&self, action: Action) -> bool {
        self.legality(action).is_ok()
    }
}
