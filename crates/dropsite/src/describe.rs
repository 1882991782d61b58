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
    /// (its hand, the sites, the deck's size). Written piece by piece rather than with
    /// `format!`: the server tells every legal move in words on every push.
    pub(crate) fn move_text(&self, action: Action) -> MoveText {
        let card = i64::from(action.card);
        let ends = if self.ends_round(action) {
            ": this ends the round"
        } else {
            ""
        };
        let mut label = String::with_capacity(96);
        label.push_str("Play ");
        push_int(&mut label, card);
        let to = match action.target {
            Target::Debt => {
                label.push_str(" on your debt: ");
                push_signed(&mut label, self.points(action.card));
                label.push_str(" for each drop site showing ");
                push_int(&mut label, card);
                label.push_str(" when the round ends, else ");
                push_signed(&mut label, crate::cards::UNMATCHED);
                "debt".to_string()
            }
            Target::New => {
                label.push_str(" to start drop site ");
                push_int(&mut label, self.piles.len() as i64 + 1);
                if card == 0 {
                    label.push_str(", lying sideways");
                }
                "new".to_string()
            }
            Target::Site(i) => {
                let n = i64::from(i) + 1;
                label.push_str(" on drop site ");
                push_int(&mut label, n);
                match self.piles.get(i as usize) {
                    Some(p) if p.sideways && !p.restarted => {
                        label.push_str(" (starting a new drop site on its sideways zero)");
                    }
                    Some(p) => {
                        label.push_str(" (on the ");
                        push_int(&mut label, i64::from(p.top()));
                        label.push(')');
                    }
                    None => {}
                }
                let mut to = String::with_capacity(8);
                to.push_str("site:");
                push_int(&mut to, n);
                to
            }
        };
        label.push_str(ends);
        let mut from = String::with_capacity(8);
        from.push_str("card:");
        push_int(&mut from, card);
        MoveText::place(label, Some(from), Some(to))
    }

    /// Whether `action` ends the round at once: it makes the last drop site the round
    /// allows (S10), or the card drawn after it is the deck's last (Note 3).
    pub(crate) fn ends_round(&self, action: Action) -> bool {
        let limit =
            action.target == Target::New && self.piles.len() + 1 == self.config.pile_limit();
        limit || self.deck.len() <= 1
    }
}

/// Appends `n` in decimal (as `{n}` writes it).
fn push_int(text: &mut String, n: i64) {
    if n < 0 {
        text.push('-');
    }
    let mut rest = n.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    text.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// Appends `n` with its sign, `+` for a positive number.
fn push_signed(text: &mut String, n: i64) {
    if n > 0 {
        text.push('+');
    }
    push_int(text, n);
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
