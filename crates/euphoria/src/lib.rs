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
//!   issue 16: one offer a turn of at most 4 items), `offers_per_turn` (default `null`: no
//!   bound);
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
//! All 48 abilities (`rules/recruits/`, a file per faction, each recruit's ability whole
//! in one place; the cards' printed data in `cards/recruit.rs`), 2nd-edition texts by
//! default and the 1st-edition variants with `edition: "v1"`. Every automatic effect runs
//! through `Euphoria::exec`: a trigger is a `Step::Hook`; an optional ability becomes a
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
mod builder;
pub mod cards;
pub mod config;
mod describe;
mod determinize;
mod ending;
mod evaluate;
pub mod events;
mod guide;
mod refusal;
pub mod rules;
mod setup;
pub mod state;
mod study;
mod tensor;
mod upgrade;
mod validate;
pub mod view;

pub use action::{Action, RetrievePay};
pub use builder::{Builder, BuilderError};
pub use cards::{Faction, Good, Space};
pub use config::{Config, Edition, KnowledgeCheck, Rewards, StartingRecruitDiscards, Trading};
pub use engine::InlineVec;
pub use refusal::{Answer, Prompt, Refusal};
use state::MAX_SEATS;
pub use state::{DieLoc, DilemmaState, Euphoria, StarTarget, Step};
pub use view::EuphoriaView;

use engine::{ConfigError, Game, IllegalAction, Outcome, Seat, Viewer};

impl Game for Euphoria {
    type Config = Config;
    type Action = Action;
    type View = EuphoriaView;
    type Event = events::EuphoriaEvent;
    type Refusal = Refusal;

    const NAME: &'static str = "euphoria";
    const FORMAT: u32 = upgrade::FORMAT;

    fn upgrade_record(from: u32, record: &mut engine::GameRecord) -> Result<Vec<usize>, String> {
        upgrade::upgrade_record(from, record)
    }

    fn upgrade_state(from: u32, state: &mut serde_json::Value) -> Result<(), String> {
        upgrade::upgrade_state(from, state)
    }

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
    fn rules() -> engine::Rules {
        guide::rules()
    }

    /// The lessons (`lessons/*.json`, the format of `engine::lesson`, docs/lessons.md).
    fn lessons() -> &'static [&'static str] {
        &[
            include_str!("../lessons/basics.json"),
            include_str!("../lessons/bumping.json"),
            include_str!("../lessons/knowledge.json"),
            include_str!("../lessons/recruits.json"),
            include_str!("../lessons/markets.json"),
            include_str!("../lessons/tunnels.json"),
            include_str!("../lessons/artifacts.json"),
            include_str!("../lessons/allegiance.json"),
            include_str!("../lessons/dilemma.json"),
            include_str!("../lessons/trading.json"),
            include_str!("../lessons/stars.json"),
        ]
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

    fn apply(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.check(action)
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

    fn ending(&self, names: &engine::Names) -> Option<engine::Ending> {
        self.explain_end(names)
    }

    fn standing(&self) -> Option<Vec<engine::SeatScore>> {
        Some(self.star_lines())
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
            a if a.builds_offer() || a == Action::Accept => Deal::Pursue,
            Action::Cancel | Action::Decline if self.in_trade() => Deal::Drop,
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
        evaluate::value_among(&progress, seat)
    }

    /// Each seat's progress is worked out once for all the seats.
    fn evaluate_all(&self, out: &mut Vec<f64>) {
        out.clear();
        if let Some(o) = self.final_outcome() {
            out.extend((0..self.n()).map(|s| o.reward(s)));
            return;
        }
        let progress: InlineVec<f64, MAX_SEATS> = (0..self.n()).map(|s| self.progress(s)).collect();
        out.extend((0..self.n()).map(|s| evaluate::value_among(&progress, s)));
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
        self.check(action).is_ok()
    }
}
