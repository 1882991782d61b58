//! The end explained (`Present::ending`): which ending of the rulebook's End of the Game
//! came (a side with a guard in every district, the deck's last card drawn, or a position
//! come up a third time, ruling X15), who won and why, and each player's score built up
//! from the final scoring ([`Distopia::score`]): won cards and district cards at face
//! value, minus what the character does not score (step 1), minus the cards the guards
//! remove (step 2, ruling D21), plus or minus the mission. The board shows no score
//! before the end (the won piles are face down), so there is no standing.
use crate::cards::{Card, Kind, Mission};
use crate::state::{district, Distopia, Phase, REPETITIONS};
use engine::ending::{plural, points};
use engine::{Ending, Names, Outcome, Seat, SeatScore};
use serde::Serialize;

/// A player's final count (End of the Game, steps 1-3, plus the mission).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Won cards plus everything left in the player's districts.
    pub collection: Vec<Card>,
    /// Guard cards in the collection.
    pub guards: usize,
    /// Survival cards in the collection (Catastrophe, Police Sting).
    pub survival: usize,
    /// Contraband the character does not score (step 1).
    pub discarded: Vec<Card>,
    /// Scorable cards removed, one per guard, lowest first (step 2, ruling D21).
    pub removed: Vec<Card>,
    /// The cards that score (step 3).
    pub scored: Vec<Card>,
    /// Points from the scored cards.
    pub card_points: i64,
    /// Advanced mode: the mission's bonus or penalty.
    pub mission_points: i64,
    /// The final score: cards plus mission.
    pub total: i64,
}

impl Distopia {
    /// Why the game ended and each player's score line by line; `None` before the end.
    pub(crate) fn explain_end(&self, names: &Names, outcome: &Outcome) -> Option<Ending> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores: Vec<Score> = (0..2).map(|s| self.score(s)).collect();
        let mut why = Vec::new();
        for seat in 0..2 {
            if (0..4).all(|l| self.guarded(district(seat, l))) {
                why.push(format!(
                    "{} side of the border has a guard in every district",
                    names.of(seat)
                ));
            }
        }
        if self.deck.is_empty() {
            why.push("the last card of the deck was drawn".to_string());
        }
        if why.is_empty() || self.ended_by_repetition() {
            why.push(format!(
                "the same position came up for the {} time with no card drawn or won in between",
                match REPETITIONS {
                    2 => "second".to_string(),
                    3 => "third".to_string(),
                    n => format!("{n}th"),
                }
            ));
        }
        let winners = outcome.winners();
        let result = match winners.as_slice() {
            [w] if outcome.scores[0] == outcome.scores[1] => format!(
                "{} won: tied on {}, with fewer guards ({} to {})",
                names.seat(*w),
                points(outcome.scores[*w]),
                scores[*w].guards,
                scores[1 - w].guards
            ),
            [w] => format!(
                "{} won with {} to {}",
                names.seat(*w),
                points(outcome.scores[*w]),
                outcome.scores[1 - w]
            ),
            _ => format!(
                "a draw: tied on {} with as many guards",
                points(outcome.scores[0])
            ),
        };
        Some(Ending {
            why: format!("the game ended because {}; {result}", why.join(", and ")),
            seats: scores
                .iter()
                .enumerate()
                .map(|(seat, score)| self.score_lines(seat, score))
                .collect(),
        })
    }

    /// The face value of the contraband among `cards` (guards are worth nothing).
    fn face(&self, cards: &[Card]) -> i64 {
        cards
            .iter()
            .filter(|c| !c.is_guard())
            .map(|&c| i64::from(self.contraband(c).points))
            .sum()
    }

    /// `cards` by name with their points: "alarm clock (1), kite (2)".
    fn named(&self, cards: &[Card]) -> String {
        let names: Vec<String> = cards
            .iter()
            .map(|&c| format!("{} ({})", c.name(), self.contraband(c).points))
            .collect();
        names.join(", ")
    }

    /// One player's score: the lines of the final scoring, adding up to `score.total`.
    fn score_lines(&self, seat: Seat, score: &Score) -> SeatScore {
        let mut lines = SeatScore::default();
        let won = &self.won[seat];
        let left: Vec<Card> = (0..4)
            .flat_map(|l| self.districts[district(seat, l)].iter().copied())
            .filter(|c| !c.is_guard())
            .collect();
        let contraband = |n: usize| plural(n as i64, "contraband card", "contraband cards");
        let won_contraband = won.iter().filter(|c| !c.is_guard()).count();
        lines.push(
            format!("won cards: {}", contraband(won_contraband)),
            self.face(won),
        );
        lines.push(
            format!("cards left in the districts: {}", contraband(left.len())),
            self.face(&left),
        );
        // Step 1: what the character does not score (and, under Police Sting, Survival).
        let character = self.characters[seat];
        let sting = self.mission.is_some_and(|m| m.card == Mission::PoliceSting);
        let unscored: Vec<String> = [Kind::Hobby, Kind::Education, Kind::Survival]
            .into_iter()
            .filter(|&k| !character.scores(k))
            .map(|k| k.to_string())
            .collect();
        let mut rule = format!("{character} does not score {}", unscored.join(" or "));
        if sting {
            rule.push_str(", and Police Sting scores no Survival");
        }
        let discarded = if score.discarded.is_empty() {
            "nothing discarded".to_string()
        } else {
            format!("discarded {}", self.named(&score.discarded))
        };
        lines.push(format!("{rule}: {discarded}"), -self.face(&score.discarded));
        // Step 2: one scorable card removed a guard, the lowest first.
        let guards = if score.guards == 1 {
            "1 guard removes a scorable card, the lowest".to_string()
        } else {
            format!(
                "{} remove a scorable card each, the lowest first",
                plural(score.guards as i64, "guard", "guards")
            )
        };
        let removed = match (score.guards, score.removed.len()) {
            (0, _) => "no guards: nothing removed".to_string(),
            (g, r) if r < g => format!(
                "{guards}: only {} to remove, {}",
                plural(r as i64, "card", "cards"),
                if r == 0 {
                    "nothing removed".to_string()
                } else {
                    format!("removed {}", self.named(&score.removed))
                }
            ),
            _ => format!("{guards}: removed {}", self.named(&score.removed)),
        };
        lines.push(removed, -self.face(&score.removed));
        if let Some(m) = self.mission {
            let label = match m.card {
                Mission::PoliceSting => format!(
                    "mission Police Sting: 1 point lost for each Survival card, {}",
                    score.survival
                ),
                Mission::Catastrophe => {
                    let theirs = self.score(1 - seat).survival;
                    if score.survival > theirs {
                        format!(
                            "mission Catastrophe: the most Survival cards, {} to {theirs}",
                            score.survival
                        )
                    } else {
                        format!(
                            "mission Catastrophe: not the most Survival cards, {} to {theirs}",
                            score.survival
                        )
                    }
                }
                Mission::Curfew | Mission::SaveASibling => {
                    let task = if m.card == Mission::Curfew {
                        "the first to win 6 contraband cards"
                    } else {
                        "the first through all 8 districts in one turn"
                    };
                    match m.claimed_by {
                        Some(s) if s == seat => format!("mission {}: {task}", m.card),
                        Some(_) => format!("mission {}: the other player was {task}", m.card),
                        None => format!("mission {}: nobody was {task}", m.card),
                    }
                }
            };
            lines.push(label, score.mission_points);
        }
        lines
    }
}
