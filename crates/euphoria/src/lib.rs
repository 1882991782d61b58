//! Euphoria: Build a Better Dystopia, for 2-6 players: the whole board and turn, and the
//! 48 recruit abilities.
//!
//! The rules are the Korean rulebook as rendered and completed in the project's
//! specification (`euphoria.md`, sections 1-6): where the Korean rulebook and the published
//! game differ, the rulebook wins and the other reading is a config flag.
//!
//! # Config ([`Config`])
//! - `players` 2..=6 (default 4);
//! - `edition` `"v1"`/`"v2"` (default v2; the recruit texts);
//! - `knowledge_check` `"continuous"` (default, the rulebook: at any time, repeated) or
//!   `"on_roll_only"` (published: after a roll, one die);
//! - `tunnel_end_requires_faction` (default true, D-05);
//! - `doubles_cost_morale` (default false; the optional variant);
//! - `starting_recruit_discards` `"return_to_deck"` (default, D-02) or `"discard"`;
//! - `trading` `"rulebook"` (default) or `"one_offer_before_placing"` (the rule before
//!   issue 16, for old games), `offers_per_turn` (default `null`: no bound);
//! - `legacy_actions` (default false; true for a config written before issue 16): a
//!   payment with one way paid good by good, and a bare `use KEY` for a new worker.
//! - `rewards` (card data for studies, docs/cards.md): what a commodity area gives by dice
//!   total (`area`, printed `[1, 1, 2]`) and what a tunnel end gives (`tunnel_end`, 3).
//!
//! # Rulings (details and reasons in `docs/rulings.md`)
//! - Every PROPOSED ruling of the spec (A-01..A-34) as written.
//! - Decisions are small: a placement is `value@space`, then each chosen part of a cost is
//!   paid one good at a time; a decision with a single possible choice (a payment, a
//!   discard, a loss, a star spot, a drawn recruit) resolves itself.
//! - Trading (`trade`, `offer pN`, `give`/`ask` item by item, `propose`; the partner
//!   answers `accept`/`decline` as their own decision) happens any time in the active
//!   player's turn, before, between and after the placements (then `end` closes the turn),
//!   any goods in any amounts, up to `offers_per_turn` offers; asking for artifact cards is
//!   limited by the partner's hand size only, since the kinds are secret.
//! - A completed market's builders get their stars before their dice are rolled again.
//! - The artifact and recruit discard piles are face up; a star placed on the Theater tile
//!   itself does not trigger the Theater penalty.
//! - Roll-off: players with no available dice total 0 and, if all tied players have none,
//!   share the place; at most 20 rounds.
//! - `pass` only when no placement, retrieval or dilemma is possible.
//!
//! # Recruits (part 2)
//! All 48 abilities (`rules/recruits.rs`), 2nd-edition texts by default and the
//! 1st-edition variants with `edition: "v1"`. Every automatic effect runs through
//! `Euphoria::exec`: a trigger is a `Step::Hook`; an optional ability becomes a
//! `Step::Ask` for its owner (`use KEY` / `decline`, or `set V` for Amanda and Yordy,
//! `discard KIND` for Esme), offered only when it can be used, even on another player's
//! turn; a reward with a choice is a `Step::Choose` (`choose gold`, `choose morale`,
//! `choose -knowledge`). Details and rulings in `docs/rulings.md` and `docs/recruits.md`.
//!
//! Invariants checked by `validate`: tracks in range; 10 stars per player (left + placed
//! in territories, on tiles, recruits and the dilemma); 6 of each artifact (36); each of
//! the 48 recruits, 6 dilemmas and 18 tiles exactly once; 4 dice per player by
//! construction (`[DieLoc; 4]`: reserve, available or on the board), at least one
//! owned; no worker on a closed space; goods are unsigned and can never go negative.

pub mod action;
pub mod cards;
pub mod config;
mod describe;
pub mod events;
mod inline;
pub mod rules;
pub mod state;
mod study;
mod tensor;
pub mod view;

use crate::cards::{market_threshold, SpaceKind, MARKETS};
pub use action::{Action, RetrievePay};
pub use cards::{Faction, Good, Space};
pub use config::{Config, Edition, KnowledgeCheck, Rewards, StartingRecruitDiscards, Trading};
pub use inline::InlineVec;
pub use rules::{Refused, Why};
use state::MAX_SEATS;
pub use state::{DieLoc, DilemmaState, Euphoria, Setup, SetupError, StarTarget, Step};
pub use view::EuphoriaView;

use cards::{recruit, ARTIFACTS, ARTIFACT_COPIES, DILEMMAS, RECRUITS, STARS, TILES};
use engine::shuffle;
use engine::{rng_from_seed, ConfigError, Game, IllegalAction, Outcome, Seat, Viewer};

impl Game for Euphoria {
    type Config = Config;
    type Action = Action;
    type View = EuphoriaView;
    type Event = events::EuphoriaEvent;
    type Refusal = String;

    const NAME: &'static str = "euphoria";

    fn about() -> engine::About {
        engine::About {
            players: engine::Players { min: 2, max: 6 },
            title: "Euphoria".into(),
            summary:
                "Place worker dice, dig tunnels, build markets and place your stars. 2-6 players."
                    .into(),
            options: config::options(),
            components: serde_json::to_value(cards::card_data()).unwrap_or_default(),
        }
    }

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

    fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check::<String>(action)
            .map_err(|reason| IllegalAction::new(action, reason))?;
        // A move that changes nothing the checks at all times look at leaves them with
        // nothing to do if they had nothing to do before it.
        let settled = self.checks.clear && self.keeps_checks(action);
        self.perform(action);
        self.run_from(settled);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn position_key(&self) -> Option<engine::PositionKey> {
        self.key()
    }

    fn proposal_to(&self, action: Action) -> Option<Seat> {
        match (action, self.stack.last()) {
            (Action::Offer(to), Some(Step::TradePartner)) => Some(to as Seat),
            _ => None,
        }
    }

    fn deal(&self, action: Action) -> engine::Deal {
        use engine::Deal;
        match action {
            Action::Trade
            | Action::Offer(_)
            | Action::Give(_)
            | Action::Ask(_)
            | Action::Propose
            | Action::Accept => Deal::Pursue,
            Action::Cancel | Action::Decline
                if matches!(
                    self.stack.last(),
                    Some(Step::TradePartner | Step::TradeBuild(_) | Step::TradeAnswer(_))
                ) =>
            {
                Deal::Drop
            }
            _ => Deal::None,
        }
    }

    fn view(&self, viewer: Viewer) -> EuphoriaView {
        self.make_view(viewer)
    }

    fn public_action(&self, action: Action, viewer: Viewer) -> String {
        // Which recruit a seat keeps is its own secret (face-up ones show once setup ends).
        match action {
            Action::KeepUp(_) | Action::KeepDown(_) | Action::Keep(_)
                if viewer.seat() != self.actor() =>
            {
                "keep a recruit".into()
            }
            _ => action.to_string(),
        }
    }

    fn events(
        before: &Self,
        action: Action,
        after: &Self,
        viewer: Viewer,
    ) -> Vec<events::EuphoriaEvent> {
        Euphoria::events(before, action, after, viewer)
    }

    fn determinize<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        self.resample(seat, rng)
    }

    fn validate(&self) -> Result<(), Vec<String>> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }

    fn rounds(&self) -> u32 {
        self.turns / self.n().max(1) as u32 + 1
    }

    fn holdings(&self, seat: Seat, moment: engine::Moment) -> Vec<engine::Holding> {
        self.held(seat, moment)
    }

    fn evaluate(&self, seat: Seat) -> f64 {
        if let Some(o) = self.final_outcome() {
            return o.reward(seat);
        }
        let progress: InlineVec<f64, MAX_SEATS> = (0..self.n()).map(|s| self.progress(s)).collect();
        value_among(&progress, seat)
    }

    /// Each seat's progress is worked out once for all the seats.
    fn evaluate_all(&self, out: &mut Vec<f64>) {
        out.clear();
        if let Some(o) = self.final_outcome() {
            out.extend((0..self.n()).map(|s| o.reward(s)));
            return;
        }
        let progress: InlineVec<f64, MAX_SEATS> = (0..self.n()).map(|s| self.progress(s)).collect();
        out.extend((0..self.n()).map(|s| value_among(&progress, s)));
        debug_assert!((0..self.n()).all(|s| out[s].to_bits() == self.evaluate(s).to_bits()));
    }

    /// Nothing is taken back yet (docs/rulings.md, "Taking back a move"): even a plain
    /// placement's effects were found to depend on what other seats cannot see, so the
    /// default (`false`) stands until each case is pinned down.
    fn may_take_back(&self, action: Action) -> bool {
        self.may_take_back_action(action)
    }

    fn describe(&self, action: Action) -> engine::MoveText {
        self.move_text(action)
    }
    fn is_legal(&self, action: Action) -> bool {
        self.check::<Refused>(action).is_ok()
    }
}

/// The value for `seat` of the seats' `progress`: its margin over the best other seat.
fn value_among(progress: &[f64], seat: Seat) -> f64 {
    let best_other = (progress.iter().enumerate())
        .filter(|&(s, _)| s != seat)
        .map(|(_, &p)| p)
        .fold(f64::NEG_INFINITY, f64::max);
    let own = progress.get(seat).copied().unwrap_or(0.0);
    (0.5 + (own - best_other) / 20.0).clamp(0.0, 1.0)
}

impl Euphoria {
    /// Stars placed, plus small credit for what buys the next ones (resources and
    /// artifacts pay for markets and stars, commodities for retrieving, dice are
    /// workers): what [`Game::evaluate`] compares between the seats.
    fn progress(&self, s: Seat) -> f64 {
        let p = &self.players[s];
        let stars = f64::from(STARS - p.stars_left);
        let commodities: u32 = p.supply[..4].iter().map(|&n| n.min(6)).sum();
        let resources: u32 = p.supply[4..].iter().map(|&n| n.min(6)).sum();
        let artifacts = p.hand_size().min(u32::from(p.morale));
        stars
            + 0.03 * f64::from(commodities)
            + 0.08 * f64::from(resources)
            + 0.1 * f64::from(artifacts)
            + 0.2 * p.owned_dice() as f64
            + self.building(s)
    }

    /// Credit for `s`'s workers on the construction sites of markets not yet built: a
    /// quarter of a star for having a hand in the market, plus up to half a star as it
    /// fills, less a fifth of a star for each of its workers there (they wait on the site
    /// until the market is built). Without it a search that looks a turn ahead sees only
    /// what a site costs, never the star, and keeps to the commodity areas for ever
    /// (`easy` games at 4 seats did not end). The variants tried are in docs/bots.md.
    fn building(&self, s: Seat) -> f64 {
        let mut workers = [0u32; MARKETS];
        let mut own = [0u32; MARKETS];
        for (o, p) in self.players.iter().enumerate() {
            for d in &p.dice {
                if let DieLoc::Board(space, _) = *d {
                    if let SpaceKind::Site(m, _) = space.kind() {
                        workers[m % MARKETS] += 1;
                        own[m % MARKETS] += u32::from(o == s);
                    }
                }
            }
        }
        let threshold = market_threshold(self.n()) as f64;
        (0..MARKETS)
            .filter(|&m| own[m] > 0 && !self.markets[m].built)
            .map(|m| {
                0.25 + 0.5 * (f64::from(workers[m]) / threshold).min(1.0) - 0.2 * f64::from(own[m])
            })
            .sum()
    }

    /// A copy where everything `seat` cannot see is reshuffled consistently.
    pub fn resample<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Euphoria {
        let mut g = self.clone();
        // (Face-down recruits resampled may be of an unlocked faction: the checks look again.)
        g.checks = Default::default();
        g.resample_recruits(seat, rng);
        g.resample_artifacts(seat, rng);
        g.resample_dilemmas(self, seat, rng);
        g.resample_tiles(rng);
        g.rng = rng_from_seed(rng.random());
        g
    }

    /// Recruits: the deck, the box, the others' hidden cards, a drawn pair `seat` cannot
    /// see. Resampled in place: the hidden cards are gathered on the stack, shuffled, and
    /// dealt back where they came from (the deck last, then the box, from the end).
    fn resample_recruits<R: rand::Rng + ?Sized>(&mut self, seat: Seat, rng: &mut R) {
        let hidden_draw = self.current as usize != seat;
        let setup_done = self.setup_done;
        let mut pool = [0u8; RECRUITS];
        let mut len = 0;
        let mut gather = |id: u8| {
            if let Some(slot) = pool.get_mut(len) {
                *slot = id;
                len += 1;
            }
        };
        self.recruit_deck.iter().for_each(|&id| gather(id));
        self.recruit_box.iter().for_each(|&id| gather(id));
        for (s, p) in self.players.iter().enumerate() {
            if s == seat {
                continue;
            }
            p.dealt.iter().for_each(|&id| gather(id));
            p.recruits
                .iter()
                .filter(|r| !(setup_done && r.up))
                .for_each(|r| gather(r.id));
        }
        if hidden_draw {
            if let Some(Step::DilemmaKeep(ids)) = self.stack.last() {
                ids.iter().for_each(|&id| gather(id));
            }
        }
        let pool = &mut pool[..len];
        // Sorted first (each recruit is there once: by marking the numbers), so the sample
        // depends only on what the seat sees, not on where the hidden cards happen to lie.
        let mut present = [false; RECRUITS + 1];
        for &id in pool.iter() {
            if let Some(p) = present.get_mut(usize::from(id)) {
                *p = true;
            }
        }
        let mut sorted = (1..=RECRUITS as u8).filter(|&id| present[usize::from(id)]);
        for slot in pool.iter_mut() {
            *slot = sorted.next().unwrap_or(*slot);
        }
        shuffle(&mut pool[..], rng);
        // A face-down recruit is never of an unlocked faction (those are turned face up):
        // the others' face-down recruits are dealt from the cards that may lie face down,
        // gathered at the end of the pool; the rest is shuffled again for the other places.
        let unlocked = cards::Faction::ALL.map(|f| self.unlocked(f));
        let may_hide = |id: u8| !unlocked[cards::recruit_faction(id).index()];
        let face_down = (self.players.iter().enumerate())
            .filter(|(s, _)| *s != seat)
            .map(|(_, p)| {
                (p.recruits.iter())
                    .filter(|r| !(setup_done && r.up))
                    .count()
            })
            .sum::<usize>();
        let mut rest = len;
        for _ in 0..face_down.min(len) {
            if let Some(j) = (0..rest).rev().find(|&j| may_hide(pool[j])) {
                pool.swap(j, rest - 1);
            }
            rest -= 1;
        }
        shuffle(&mut pool[..rest], rng);
        let mut hidden_end = len;
        for (s, p) in self.players.iter_mut().enumerate() {
            if s == seat {
                continue;
            }
            for r in p.recruits.iter_mut() {
                if !(setup_done && r.up) && hidden_end > rest {
                    hidden_end -= 1;
                    r.id = pool[hidden_end];
                }
            }
        }
        let mut end = rest;
        let mut take_last = |dest: &mut [u8]| {
            if let Some(start) = end.checked_sub(dest.len()) {
                dest.copy_from_slice(&pool[start..end]);
                end = start;
            }
        };
        take_last(&mut self.recruit_deck);
        take_last(&mut self.recruit_box);
        let mut pop = || {
            end = end.checked_sub(1)?;
            Some(pool[end])
        };
        for (s, p) in self.players.iter_mut().enumerate() {
            if s == seat {
                continue;
            }
            for d in p.dealt.iter_mut() {
                *d = pop().unwrap_or(*d);
            }
        }
        if hidden_draw {
            if let Some(Step::DilemmaKeep(ids)) = self.stack.last_mut() {
                for id in ids.iter_mut() {
                    *id = pop().unwrap_or(*id);
                }
            }
        }
    }

    /// Artifacts: the deck and the others' hands, resampled in place; a pending "keep 1
    /// of the 2 drawn" of another seat names kinds only its owner saw.
    fn resample_artifacts<R: rand::Rng + ?Sized>(&mut self, seat: Seat, rng: &mut R) {
        const CARDS: usize = ARTIFACTS * ARTIFACT_COPIES as usize;
        let mut cards = [Good::Book; CARDS];
        let mut len = 0;
        let mut gather = |card: Good| {
            if let Some(slot) = cards.get_mut(len) {
                *slot = card;
                len += 1;
            }
        };
        self.artifact_deck.iter().for_each(|&c| gather(c));
        for (s, p) in self.players.iter().enumerate() {
            if s == seat {
                continue;
            }
            for (k, &kind) in Good::ARTIFACT_KINDS.iter().enumerate() {
                (0..p.hand[k]).for_each(|_| gather(kind));
            }
        }
        let cards = &mut cards[..len];
        // Sorted first, as above (by counting the kinds).
        let mut counts = [0usize; ARTIFACTS];
        for c in cards.iter() {
            if let Some(k) = c.artifact_index() {
                counts[k] += 1;
            }
        }
        let mut i = 0;
        for (k, &n) in counts.iter().enumerate() {
            for slot in cards.iter_mut().skip(i).take(n) {
                *slot = Good::ARTIFACT_KINDS[k];
            }
            i += n;
        }
        shuffle(&mut cards[..], rng);
        let mut end = len;
        for (s, p) in self.players.iter_mut().enumerate() {
            if s == seat {
                continue;
            }
            let size = p.hand_size();
            p.hand = [0; ARTIFACTS];
            for _ in 0..size {
                if let Some(e) = end.checked_sub(1) {
                    end = e;
                    p.add(cards[e], 1);
                }
            }
        }
        self.artifact_deck.clear();
        self.artifact_deck.extend_from_slice(&cards[..end]);
        for st in self.stack.iter_mut() {
            if let Step::Shed { seat: s, mask, .. } = st {
                if *s as usize != seat {
                    *mask = crate::rules::payment::ANY_KIND;
                }
            }
        }
    }

    /// Dilemmas nobody but their holder can see yet (`before`: the state sampled from).
    fn resample_dilemmas<R: rand::Rng + ?Sized>(
        &mut self,
        before: &Euphoria,
        seat: Seat,
        rng: &mut R,
    ) {
        let hidden = |s: Seat| s != seat && !before.dilemma_visible(s, Some(seat));
        // Gathered on the stack (the box, then the hidden cards), without allocating.
        let mut dilemmas = [0u8; DILEMMAS.len()];
        let mut len = 0;
        let held = (self.players.iter().enumerate())
            .filter(|&(s, _)| hidden(s))
            .map(|(_, p)| p.dilemma);
        for d in self.dilemma_box.iter().copied().chain(held) {
            if let Some(slot) = dilemmas.get_mut(len) {
                *slot = d;
                len += 1;
            }
        }
        let dilemmas = &mut dilemmas[..len];
        // Sorted first, as above.
        dilemmas.sort_unstable();
        shuffle(&mut dilemmas[..], rng);
        let mut end = len;
        for (s, p) in self.players.iter_mut().enumerate() {
            if hidden(s) {
                p.dilemma = match end.checked_sub(1) {
                    Some(e) => {
                        end = e;
                        dilemmas[e]
                    }
                    None => 0,
                };
            }
        }
        self.dilemma_box.clear();
        self.dilemma_box.extend_from_slice(&dilemmas[..end]);
    }

    /// The face-down market tiles.
    fn resample_tiles<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) {
        // Gathered on the stack (the box, then the unbuilt slots), without allocating.
        let mut tiles = [0u8; TILES];
        let mut len = 0;
        let unbuilt = self.markets.iter().filter(|m| !m.built).map(|m| m.tile);
        for t in self.box_tiles.iter().copied().chain(unbuilt) {
            if let Some(slot) = tiles.get_mut(len) {
                *slot = t;
                len += 1;
            }
        }
        let tiles = &mut tiles[..len];
        // Sorted first, as above.
        tiles.sort_unstable();
        shuffle(&mut tiles[..], rng);
        let mut end = len;
        for m in self.markets.iter_mut() {
            if !m.built {
                if let Some(e) = end.checked_sub(1) {
                    end = e;
                    m.tile = tiles[e];
                }
            }
        }
        self.box_tiles.clear();
        self.box_tiles.extend_from_slice(&tiles[..end]);
    }

    /// Every broken invariant.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.n();
        if !(2..=6).contains(&n) || n != self.config.players {
            out.push(format!(
                "{n} players for a {}-player config",
                self.config.players
            ));
            return out;
        }
        self.player_problems(&mut out);
        self.card_problems(&mut out);
        self.board_problems(&mut out);
        out
    }

    /// Tracks, dice and the ten stars of each player.
    fn player_problems(&self, out: &mut Vec<String>) {
        for (s, p) in self.players.iter().enumerate() {
            if !(1..=6).contains(&p.knowledge) {
                out.push(format!("P{s} knowledge {} out of 1..6", p.knowledge));
            }
            if !(1..=6).contains(&p.morale) {
                out.push(format!("P{s} morale {} out of 1..6", p.morale));
            }
            for d in &p.dice {
                if let Some(v) = d.value() {
                    if !(1..=6).contains(&v) {
                        out.push(format!("P{s} has a die showing {v}"));
                    }
                }
            }
            if self.setup_done && p.owned_dice() == 0 {
                out.push(format!("P{s} owns no worker"));
            }
            let placed = self
                .territory
                .iter()
                .flatten()
                .filter(|&&x| x as usize == s)
                .count()
                + self.market_stars(s) as usize
                + p.recruits.iter().filter(|r| r.star).count()
                + usize::from(p.dilemma_state == DilemmaState::Conformed);
            if placed + p.stars_left as usize != STARS as usize {
                out.push(format!(
                    "P{s}: {placed} stars placed and {} left, not {STARS}",
                    p.stars_left
                ));
            }
            for r in &p.recruits {
                if r.star && !r.up {
                    out.push(format!("P{s}: a star on a face-down recruit"));
                }
            }
        }
    }

    /// Each artifact, recruit, dilemma and market tile where it belongs, once.
    fn card_problems(&self, out: &mut Vec<String>) {
        // Artifacts: 6 of each kind.
        for (k, &kind) in Good::ARTIFACT_KINDS.iter().enumerate() {
            let total = self.artifact_deck.iter().filter(|&&c| c == kind).count()
                + self.artifact_discard.iter().filter(|&&c| c == kind).count()
                + self
                    .players
                    .iter()
                    .map(|p| p.hand[k] as usize)
                    .sum::<usize>();
            if total != ARTIFACT_COPIES as usize {
                out.push(format!("{total} {kind} cards instead of {ARTIFACT_COPIES}"));
            }
        }
        if self
            .artifact_deck
            .iter()
            .chain(&self.artifact_discard)
            .any(|c| !c.is_artifact())
        {
            out.push("a non-artifact in the artifact deck".into());
        }
        // Recruits: each once.
        let mut seen = [0u8; RECRUITS + 1];
        let mut note = |id: u8| {
            if (1..=RECRUITS as u8).contains(&id) {
                seen[id as usize] += 1;
            }
        };
        self.recruit_deck.iter().for_each(|&r| note(r));
        self.recruit_discard.iter().for_each(|&r| note(r));
        self.recruit_box.iter().for_each(|&r| note(r));
        for p in &self.players {
            p.dealt.iter().for_each(|&r| note(r));
            p.recruits.iter().for_each(|r| note(r.id));
        }
        for st in &self.stack {
            if let Step::DilemmaKeep(ids) = st {
                ids.iter().for_each(|&r| note(r));
            }
        }
        for (id, &c) in seen.iter().enumerate().skip(1) {
            if c != 1 {
                out.push(format!(
                    "recruit {id} ({}) appears {c} times",
                    recruit(id as u8).name
                ));
            }
        }
        // Dilemmas and tiles: each once.
        let mut dil = [0u8; 6];
        for p in &self.players {
            dil[p.dilemma as usize % 6] += 1;
        }
        for &d in &self.dilemma_box {
            dil[d as usize % 6] += 1;
        }
        if dil.iter().any(|&c| c != 1) || DILEMMAS.len() != 6 {
            out.push(format!("dilemma cards miscounted: {dil:?}"));
        }
        let mut tiles = [0u8; TILES];
        for m in &self.markets {
            tiles[m.tile as usize % TILES] += 1;
        }
        for &t in &self.box_tiles {
            tiles[t as usize % TILES] += 1;
        }
        if tiles.iter().any(|&c| c != 1) {
            out.push(format!("market tiles miscounted: {tiles:?}"));
        }
    }

    /// Allegiance, miners, territories and the workers on the spaces.
    fn board_problems(&self, out: &mut Vec<String>) {
        let n = self.n();
        // Board.
        for (f, &a) in self.allegiance.iter().enumerate() {
            if a > cards::ALLEGIANCE_MAX {
                out.push(format!("allegiance {f} at {a}"));
            }
        }
        if self.miners.iter().any(|&m| m > cards::TUNNEL_END) {
            out.push("a miner beyond the tunnel end".into());
        }
        for (f, t) in self.territory.iter().enumerate() {
            if t.len() > n {
                out.push(format!(
                    "territory {f} holds {} stars for {n} spots",
                    t.len()
                ));
            }
        }
        let bumping: Vec<(usize, usize)> = self
            .stack
            .iter()
            .filter_map(|s| match s {
                Step::Bump { seat, die } | Step::BumpRoll { seat, die } => {
                    Some((*seat as usize, *die as usize))
                }
                _ => None,
            })
            .collect();
        for space in Space::all() {
            let occ: Vec<_> = self.occupants(space).collect();
            if space.is_multi() {
                continue;
            }
            let staying = occ
                .iter()
                .filter(|o| !bumping.contains(&(o.0, o.1)))
                .count();
            if staying > 1 {
                out.push(format!("{} workers on {space}", occ.len()));
            }
            if !occ.is_empty() {
                if let cards::SpaceKind::Built(m) = space.kind() {
                    if !self.markets[m].built {
                        out.push(format!("a worker on unbuilt market {space}"));
                    }
                }
                if let cards::SpaceKind::Site(m, _) = space.kind() {
                    if self.markets[m].built {
                        out.push(format!("a worker on a closed site {space}"));
                    }
                }
                if let cards::SpaceKind::TunnelEnd(f) = space.kind() {
                    if !self.tunnel_end_open(f) {
                        out.push(format!("a worker on closed {space}"));
                    }
                }
            }
        }
        if self.rolloff.len() != n {
            out.push("roll-off table of the wrong size".into());
        }
        if self.over != self.someone_won() {
            out.push("the game is over exactly when someone has placed all stars".into());
        }
    }
}
