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
//!   issue 16, for old games), `offers_per_turn` (default `null`: no bound).
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
pub mod events;
pub mod rules;
pub mod state;
mod tensor;
pub mod view;

pub use action::{Action, RetrievePay};
pub use cards::{Faction, Good, Space};
pub use config::{Config, Edition, KnowledgeCheck, StartingRecruitDiscards, Trading};
pub use rules::{Refused, Why};
pub use state::{DieLoc, DilemmaState, Euphoria, StarTarget, Step};
pub use view::EuphoriaView;

use cards::{recruit, ARTIFACT_COPIES, DILEMMAS, RECRUITS, STARS, TILES};
use engine::{rng_from_seed, ConfigError, Game, IllegalAction, Outcome, Seat, Viewer};
use rand::seq::SliceRandom;

impl Game for Euphoria {
    type Config = Config;
    type Action = Action;
    type View = EuphoriaView;
    type Event = events::EuphoriaEvent;

    const NAME: &'static str = "euphoria";

    fn about() -> engine::About {
        engine::About {
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
        self.perform(action);
        self.run();
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
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

    fn evaluate(&self, seat: Seat) -> f64 {
        if let Some(o) = self.final_outcome() {
            return o.reward(seat);
        }
        // Stars placed, plus small credit for what buys the next ones (resources and
        // artifacts pay for markets and stars, commodities for retrieving, dice are
        // workers), as a margin over the best other seat.
        let progress = |s: usize| {
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
        };
        let best_other = (0..self.n())
            .filter(|&s| s != seat)
            .map(progress)
            .fold(f64::NEG_INFINITY, f64::max);
        (0.5 + (progress(seat) - best_other) / 20.0).clamp(0.0, 1.0)
    }

    fn is_legal(&self, action: Action) -> bool {
        self.check::<Refused>(action).is_ok()
    }
}

impl Euphoria {
    /// A copy where everything `seat` cannot see is reshuffled consistently.
    pub fn resample<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Euphoria {
        let mut g = self.clone();
        let others: Vec<Seat> = (0..self.n()).filter(|&s| s != seat).collect();
        // Recruits: decks, the box, others' hidden cards, a drawn pair seat cannot see.
        let mut pool: Vec<u8> = Vec::new();
        pool.append(&mut g.recruit_deck);
        pool.append(&mut g.recruit_box);
        for &s in &others {
            pool.extend(g.players[s].dealt.iter().copied());
            for r in &g.players[s].recruits {
                if !(g.setup_done && r.up) {
                    pool.push(r.id);
                }
            }
        }
        let hidden_draw = self.current as usize != seat;
        if hidden_draw {
            if let Some(Step::DilemmaKeep(ids)) = g.stack.last() {
                pool.extend(ids.iter().copied());
            }
        }
        // Sorted first, so the sample depends only on what the seat sees, not on where
        // the hidden cards happen to lie.
        pool.sort_unstable();
        pool.shuffle(rng);
        let deck_len = self.recruit_deck.len();
        let box_len = self.recruit_box.len();
        g.recruit_deck = pool.split_off(pool.len() - deck_len);
        g.recruit_box = pool.split_off(pool.len() - box_len);
        for &s in &others {
            for d in g.players[s].dealt.iter_mut() {
                *d = pool.pop().unwrap_or(*d);
            }
            let setup_done = g.setup_done;
            for r in g.players[s].recruits.iter_mut() {
                if !(setup_done && r.up) {
                    r.id = pool.pop().unwrap_or(r.id);
                }
            }
        }
        if hidden_draw {
            if let Some(Step::DilemmaKeep(ids)) = g.stack.last_mut() {
                for id in ids.iter_mut() {
                    *id = pool.pop().unwrap_or(*id);
                }
            }
        }
        // Artifacts: the deck and others' hands.
        let mut cards: Vec<Good> = std::mem::take(&mut g.artifact_deck);
        for &s in &others {
            for (k, &kind) in Good::ARTIFACT_KINDS.iter().enumerate() {
                for _ in 0..g.players[s].hand[k] {
                    cards.push(kind);
                }
            }
        }
        // Sorted first, so the sample depends only on what the seat sees, not on where
        // the hidden cards happen to lie.
        cards.sort_unstable();
        cards.shuffle(rng);
        for &s in &others {
            let size = g.players[s].hand_size();
            g.players[s].hand = [0; 6];
            for _ in 0..size {
                if let Some(c) = cards.pop() {
                    g.players[s].add(c, 1);
                }
            }
        }
        g.artifact_deck = cards;
        // A pending "keep 1 of the 2 drawn" names kinds only its owner saw.
        for st in g.stack.iter_mut() {
            if let Step::Shed { seat: s, mask, .. } = st {
                if *s as usize != seat {
                    *mask = crate::rules::recruits::ANY_KIND;
                }
            }
        }
        // Dilemmas nobody else can see yet.
        let mut dilemmas: Vec<u8> = std::mem::take(&mut g.dilemma_box);
        let hidden: Vec<Seat> = others
            .iter()
            .copied()
            .filter(|&s| !self.dilemma_visible(s, Some(seat)))
            .collect();
        for &s in &hidden {
            dilemmas.push(g.players[s].dilemma);
        }
        // Sorted first, so the sample depends only on what the seat sees, not on where
        // the hidden cards happen to lie.
        dilemmas.sort_unstable();
        dilemmas.shuffle(rng);
        for &s in &hidden {
            g.players[s].dilemma = dilemmas.pop().unwrap_or(0);
        }
        g.dilemma_box = dilemmas;
        // Face-down market tiles.
        let mut tiles: Vec<u8> = std::mem::take(&mut g.box_tiles);
        for m in &g.markets {
            if !m.built {
                tiles.push(m.tile);
            }
        }
        // Sorted first, so the sample depends only on what the seat sees, not on where
        // the hidden cards happen to lie.
        tiles.sort_unstable();
        tiles.shuffle(rng);
        for m in g.markets.iter_mut() {
            if !m.built {
                m.tile = tiles.pop().unwrap_or(m.tile);
            }
        }
        g.box_tiles = tiles;
        g.rng = rng_from_seed(rng.random());
        g
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
        out
    }
}
