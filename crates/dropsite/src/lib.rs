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
//! use engine::Game;
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

use engine::{About, ConfigError, Game, IllegalAction, Outcome, Seat, Viewer};

impl Game for DropSite {
    type Config = Config;
    type Action = Action;
    type View = DropSiteView;
    type Event = DropSiteEvent;
    type Refusal = Refusal;
    const NAME: &'static str = "dropsite";
    const FORMAT: u32 = upgrade::FORMAT;

    fn about() -> About {
        About {
            players: engine::Players { min: 2, max: 4 },
            title: "Drop Site".into(),
            summary:
                "Play cards on falling drop sites; what you cannot place becomes debt. 2-4 players."
                    .into(),
            options: config::options(),
            components: cards::components(),
        }
    }
    fn rules() -> engine::Rules {
        guide::rules()
    }

    /// The lessons (`lessons/*.json`, the format of `engine::lesson`, docs/lessons.md).
    fn lessons() -> &'static [&'static str] {
        &[include_str!("../lessons/basics.json")]
    }

    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        DropSite::setup(config, seed)
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn seats(&self) -> usize {
        self.config.players
    }
    fn to_act(&self) -> Option<Seat> {
        self.to_act
    }
    fn position_key(&self) -> Option<engine::PositionKey> {
        self.key()
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }
    fn is_legal(&self, action: Action) -> bool {
        self.refusal(action).is_none()
    }
    /// Nothing can be taken back in Drop Site (ruling S23): every action ends with a card
    /// drawn from the deck, so it is the engine's default, stated here on purpose.
    fn may_take_back(&self, _action: Action) -> bool {
        false
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.play(action)
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.to_act.is_some() {
            return None;
        }
        Some(Outcome::ranked(self.totals.clone(), &self.totals))
    }
    fn ending(&self, names: &engine::Names) -> Option<engine::Ending> {
        self.explain_end(names)
    }
    fn standing(&self) -> Option<Vec<engine::SeatScore>> {
        Some(self.round_lines())
    }
    fn view(&self, viewer: Viewer) -> DropSiteView {
        self.make_view(viewer)
    }
    fn public_action(&self, action: Action, viewer: Viewer) -> String {
        // A banked card is face down, to its owner too unless `open_debt` (ruling S11).
        let owner_sees = self.config.open_debt && viewer.seat() == self.to_act;
        match action.target {
            Target::Debt if !owner_sees => "debt".into(),
            _ => action.to_string(),
        }
    }
    fn events(before: &Self, action: Action, after: &Self, viewer: Viewer) -> Vec<DropSiteEvent> {
        DropSite::events(before, action, after, viewer)
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
        self.history.len() as u32
    }
    fn holdings(&self, seat: Seat, moment: engine::Moment) -> Vec<engine::Holding> {
        self.held(seat, moment)
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        self.estimate(seat)
    }
    fn describe(&self, action: Action) -> engine::MoveText {
        self.move_text(action)
    }
}
