//! Each legal move told for the seat to act: a label in words for this position, the card
//! it takes from the hand (`card:21`, `card:guard`) or the district it takes from
//! (`d:<seat>:<letter>`, the seat counted from 0), in the keys the table page gives its
//! parts. A card goes where the rules send it (the next district, which its label
//! names), so a play is one click on the card: it names no `to`.
use crate::action::{letter_char, Action};
use crate::cards::Collaborator;
use crate::events::DistopiaEvent;
use crate::state::{district, letter_of, opposite, owner, Distopia};
use crate::{cards, config, guide};
use engine::{GameRules, MoveText, Present, Viewer};

impl Distopia {
    /// What a client shows for `action`, worked out only from what the seat to act sees
    /// (the districts, the hand being played, the collaborator).
    pub(crate) fn move_text(&self, action: Action) -> MoveText {
        let me = self.current;
        let key = |i: usize| Some(format!("d:{}:{}", owner(i), letter_char(letter_of(i))));
        let next = self.next_district();
        match action {
            Action::Pick(l) => {
                let n = self.stack(district(me, l)).len();
                MoveText::place(
                    format!(
                        "Pick up your district {} ({n} card{})",
                        letter_char(l),
                        if n == 1 { "" } else { "s" }
                    ),
                    None,
                    key(district(me, l)),
                )
            }
            Action::Play(card) => {
                let values = self.contraband(card);
                let number = card.number().map_or_else(String::new, |n| format!("{n} "));
                MoveText::place(
                    format!(
                        "Play {number}{} ({} point{}{}) into {}",
                        card.name(),
                        values.points,
                        if values.points == 1 { "" } else { "s" },
                        if values.siren { ", siren" } else { "" },
                        self.place_of(next)
                    ),
                    Some(format!(
                        "card:{}",
                        card.number()
                            .map_or_else(|| "guard".to_string(), |n| n.to_string())
                    )),
                    None,
                )
            }
            Action::PlayGuard => MoveText::place(
                format!("Play a guard into {}", self.place_of(next)),
                Some("card:guard".into()),
                None,
            ),
            Action::Skip => MoveText::words(format!(
                "Skip {}: it has a guard and you hold none",
                self.place_of(next)
            )),
            Action::Cross => MoveText::words(format!(
                "{}: cross the border to {}",
                Collaborator::SpyPets,
                self.place_of(opposite(self.turn().pos))
            )),
            Action::Grandma => MoveText::words(format!(
                "{}: play clockwise this turn",
                Collaborator::GrandmaTheHacker
            )),
            Action::Robot(l) => MoveText::place(
                format!(
                    "{}: also take the top card of your district {}",
                    Collaborator::RebelRobot,
                    letter_char(l)
                ),
                None,
                key(district(me, l)),
            ),
            Action::Raid(l) => MoveText::place(
                format!(
                    "{}: take one more card from {}",
                    Collaborator::ShelfRaider,
                    self.place_of(district(1 - me, l))
                ),
                None,
                key(district(1 - me, l)),
            ),
            Action::Pass => MoveText::words(format!("Do not use {}", Collaborator::ShelfRaider)),
        }
    }
}

impl Present for Distopia {
    type Event = DistopiaEvent;
    fn about() -> engine::About {
        engine::About {
            players: engine::Players { min: 2, max: 2 },
            title: "Distop-IA".into(),
            summary: "Smuggle contraband through eight districts past the guards. 2 players."
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
        self.explain_end(names, &GameRules::outcome(self)?)
    }
    fn events(before: &Self, action: Action, after: &Self, _viewer: Viewer) -> Vec<DistopiaEvent> {
        // Everything a move shows is public, so every viewer is told the same.
        Distopia::events(before, action, after)
    }
    fn describe(&self, action: Action) -> engine::MoveText {
        self.move_text(action)
    }
}
