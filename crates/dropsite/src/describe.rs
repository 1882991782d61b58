//! Each legal move told for the seat to act: a label in words for this position, the
//! card it takes from the hand (`card:7`) and where it goes (`debt`, `new`, `site:3`), in
//! the keys the table page gives its parts.
use crate::action::{Action, Target};
use crate::events::DropSiteEvent;
use crate::state::DropSite;
use crate::{cards, config, guide};
use engine::{About, MoveText, Present, Viewer};

impl DropSite {
    /// What a client shows for `action`, worked out only from what the seat to act sees
    /// (its hand, the sites, the deck's size).
    pub(crate) fn move_text(&self, action: Action) -> MoveText {
        let card = action.card;
        let ends = if self.ends_round(action) {
            ": this ends the round"
        } else {
            ""
        };
        let (label, to) = match action.target {
            Target::Debt => (
                format!(
                    "Play {card} on your debt: {} for each drop site showing {card} when the round ends, else {}{ends}",
                    signed(self.points(card)),
                    signed(crate::cards::UNMATCHED)
                ),
                "debt".to_string(),
            ),
            Target::New => (
                format!(
                    "Play {card} to start drop site {}{}{ends}",
                    self.piles.len() + 1,
                    if card == 0 { ", lying sideways" } else { "" }
                ),
                "new".to_string(),
            ),
            Target::Site(i) => {
                let n = i as usize + 1;
                let on = match self.piles.get(i as usize) {
                    Some(p) if p.sideways && !p.restarted => {
                        " (starting a new drop site on its sideways zero)".to_string()
                    }
                    Some(p) => format!(" (on the {})", p.top()),
                    None => String::new(),
                };
                (
                    format!("Play {card} on drop site {n}{on}{ends}"),
                    format!("site:{n}"),
                )
            }
        };
        MoveText::place(label, Some(format!("card:{card}")), Some(to))
    }

    /// Whether `action` ends the round at once: it makes the last drop site the round
    /// allows (S10), or the card drawn after it is the deck's last (Note 3).
    pub(crate) fn ends_round(&self, action: Action) -> bool {
        let limit =
            action.target == Target::New && self.piles.len() + 1 == self.config.pile_limit();
        limit || self.deck.len() <= 1
    }
}

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

impl Present for DropSite {
    type Event = DropSiteEvent;
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
    fn ending(&self, names: &engine::Names) -> Option<engine::Ending> {
        self.explain_end(names)
    }
    fn standing(&self) -> Option<Vec<engine::SeatScore>> {
        Some(self.round_lines())
    }
    fn public_action(&self, action: Action, viewer: Viewer) -> String {
        // A banked card is face down, to its owner too unless `open_debt` (ruling S11).
        match action.target {
            Target::Debt if !self.sees_own_bank(viewer) => "debt".into(),
            _ => action.to_string(),
        }
    }
    fn events(before: &Self, action: Action, after: &Self, viewer: Viewer) -> Vec<DropSiteEvent> {
        DropSite::events(before, action, after, viewer)
    }
    fn describe(&self, action: Action) -> engine::MoveText {
        self.move_text(action)
    }
}
