//! A bot's one face ([`Bot`]) and all it may know of a game ([`Observer`]).
use engine::{Game, Seat};
use rand::Rng;

/// What a bot may know of a game: the acting seat's view, legal actions, and
/// determinizations.
pub struct Observer<'a, G: Game> {
    game: &'a G,
    seat: Seat,
    /// Legal actions the bot is not to choose (see [`crate::Guarded`]); never all of them.
    avoid: &'a [G::Action],
}

impl<'a, G: Game> Observer<'a, G> {
    /// The observer of the seat to act, or `None` once the game is over.
    pub fn new(game: &'a G) -> Option<Self> {
        game.to_act().map(|seat| Observer {
            game,
            seat,
            avoid: &[],
        })
    }
    /// The same observer with `avoid` left out of the legal actions (unless that would
    /// leave none).
    pub fn avoiding(&self, avoid: &'a [G::Action]) -> Observer<'a, G> {
        Observer {
            game: self.game,
            seat: self.seat,
            avoid,
        }
    }
    /// The seat this observer sits at.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// Number of seats at the table.
    pub fn seats(&self) -> usize {
        self.game.seats()
    }
    /// The seat's view.
    pub fn view(&self) -> G::View {
        self.game.view(engine::Viewer::Seat(self.seat))
    }
    /// The legal actions the bot may choose (they depend only on what the seat knows),
    /// less those it is to avoid.
    pub fn legal_actions(&self, out: &mut Vec<G::Action>) {
        self.game.legal_actions(out);
        if !self.avoid.is_empty() && out.iter().any(|a| !self.avoid.contains(a)) {
            out.retain(|a| !self.avoid.contains(a));
        }
    }
    /// Whether the bot may choose `action` among the legal ones (a search filters its
    /// root with this).
    pub fn allows(&self, action: G::Action) -> bool {
        !self.avoid.contains(&action)
    }
    /// Where the game stands for this seat ([`engine::Search::position_key`]).
    pub fn position_key(&self) -> Option<engine::PositionKey> {
        self.game.position_key()
    }
    /// What `action` does in a deal between seats ([`engine::Search::deal`]).
    pub fn deal(&self, action: G::Action) -> engine::Deal {
        self.game.deal(action)
    }
    /// The seat `action` opens a proposal to ([`engine::Search::proposal_to`]).
    pub fn proposal_to(&self, action: G::Action) -> Option<Seat> {
        self.game.proposal_to(action)
    }
    /// A full state consistent with what the seat knows, hidden parts sampled with `rng`.
    pub fn determinize<R: Rng + ?Sized>(&self, rng: &mut R) -> G {
        self.game.determinize(self.seat, rng)
    }
}

/// A bot for game `G`.
pub trait Bot<G: Game>: Send {
    /// A short name for tables and logs (`random`, `ismcts:5000`).
    fn name(&self) -> String;
    /// The action to play, or `None` when there is no legal action.
    fn choose(&mut self, observer: &Observer<'_, G>) -> Option<G::Action>;
}
