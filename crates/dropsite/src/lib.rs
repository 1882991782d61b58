//! Drop Site (Dennis Hoyle, Bellwether Games 2011) for 2-4 players, as a [`engine::Game`].
//!
//! Rulebook: `drop-site.rulebook.txt`, with the component data and rulings S1-S18 that
//! settle what it leaves open (all in `docs/rulings.md`).
//!
//! Players drop cards onto face-up drop sites (strictly lower than the top), start new
//! sites, or bank cards face down in their debt. A round ends at once when the 5th/6th/7th
//! site (2/3/4 players) is made or the deck's last card is drawn; each debt card then
//! scores its points for every site value it matches, or -2. Rounds go on until someone
//! reaches the target.
//!
//! Options ([`Config`]): `players` (2-4), `target` (100; 50 for a short game),
//! `open_debt` (a seat may see its own debt), `first_player` / `random_first`.
//!
//! Rulings worth knowing here:
//! - the deck is 4 × 0-12 with points +2 +3 +4 +4 +4 +5 +5 +5 +6 +6 +6 +7 +7 (S1, S2),
//!   read from `data/deck.csv`;
//! - a site made with a zero (the first flip too) is sideways at once (S5); a new site
//!   started on a sideways zero adds no pile toward the round end (S6); a second zero
//!   closes the pile, and both zeros score (S7);
//! - nobody, the owner included, sees a debt during the round unless `open_debt` (S11);
//! - the first player rotates one seat each round (S13); a tie at the top at or above the
//!   target plays on with more rounds (S14).
//!
//! ```
//! use dropsite::{Action, Config, DropSite};
//! use engine::prelude::*;
//! let mut game = DropSite::new(&Config::default(), 1).expect("the default config is valid");
//! let mut legal = Vec::new();
//! game.legal_actions(&mut legal);
//! let card = game.hand(0)[0];
//! assert!(legal.contains(&Action::debt(card)));
//! game.apply(Action::debt(card)).expect("banking a held card is always legal");
//! ```

mod action;
mod builder;
pub mod cards;
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

pub use action::{Action, Target};
pub use builder::Builder;
pub use config::Config;
pub use events::{DebtMatch, DropSiteEvent, Landing};
pub use refusal::Refusal;
pub use rules::{score_round, score_shown};
pub use state::{DropSite, Pile, RoundEnd, RoundResult};
pub use view::{DropSiteView, PileView};
