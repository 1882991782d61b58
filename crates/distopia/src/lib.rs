//! Distop-IA: two smugglers move contraband from district to district and across the
//! border; the player with the most points at the end wins.
//!
//! The rules follow the Distop-IA rulebook; card data and open points follow the
//! project's rulings D1-D35 (see `docs/rulings.md` for the ones decided in this crate).
//!
//! # The table
//! Eight districts form one counterclockwise ring: seat 0's A-D, then seat 1's A-D.
//! Each player letters their row from their own left, so the districts across a border
//! card are A↔D, B↔C, C↔B, D↔A (D1-D5). District X of either player uses the border
//! set's number for letter X.
//!
//! # A turn as small actions
//! `pick B` takes a district into the hand; then for each district reached the player
//! plays a card (`play 21`, `play guard`) or, on a guarded district without a guard in
//! hand, `skip`. Winning cards, refilling and the siren happen on their own once the
//! hand is empty. Advanced mode adds `cross` (Spy Pets), `grandma`, `robot A` (Rebel
//! Robot) and `raid C` / `pass` (The Shelf Raider).
//!
//! # Options ([`Config`])
//! - `border`: `meadow` (default), `city`, `coast` or `mountain`.
//! - `advanced`: play with one collaborator and one mission card.
//! - `collaborator`, `mission`: a card name, `random` (the advanced default) or `none`;
//!   naming one without `advanced` is an error.
//! - card data for studies (`--cards`, docs/cards.md): `limits` (district limits A-D
//!   instead of the border set's) and `contraband` (the type, points and siren of cards
//!   1-30 instead of `data/cards.csv`'s). The rules read card values only from the
//!   config, so a record or a shard carries its card data and replays with it.
//!
//! # Deliberate decisions (beyond D1-D35)
//! - Characters are dealt at random; seat 0 owns districts 0-3 whoever goes first, and
//!   the first player is the one with fewer guards (a tie is random, D8), so seat 0 does
//!   not always start.
//! - Forced skips are explicit `skip` actions, so every district reached is a visible step.
//! - Guard removal at the end always takes the lowest scorable cards (D21's default);
//!   no other choice can score more, so it is not offered as a decision.
//! - Spy Pets' `cross` may be used before any step while cards remain in hand, Grandma
//!   and Rebel Robot only before the first card (their texts say "before playing").
//! - Once the game is over, the won piles are turned up for the final scoring: every view
//!   shows them.

mod action;
mod builder;
mod cards;
mod config;
mod describe;
mod determinize;
mod ending;
mod evaluate;
mod events;
mod guide;
mod refusal;
mod rules;
mod setup;
mod state;
mod study;
mod tensor;
mod upgrade;
mod validate;
mod view;

pub use action::{letter_char, Action, Letter};
pub use builder::Builder;
pub use cards::{
    parse_cards, Border, Card, CardData, Character, Collaborator, Contraband, Kind, Mission, CARDS,
    CARD_DATA, CONTRABAND, GUARDS,
};
pub use config::{Choice, Config};
pub use ending::Score;
pub use events::{DistopiaEvent, GuardMove, Place};
pub use refusal::{Refusal, Where};
pub use state::{
    at_column, column, district, letter_of, opposite, owner, step, CollaboratorState, Distopia,
    MissionState, Phase, Turn, DISTRICTS, REPETITIONS,
};
pub use view::{
    CardView, CollaboratorView, DistopiaView, DistrictView, MissionView, SideView, TurnView,
};
