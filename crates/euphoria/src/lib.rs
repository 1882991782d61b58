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
pub use state::{DieLoc, DilemmaState, Euphoria, StarTarget, Step};
pub use view::EuphoriaView;
