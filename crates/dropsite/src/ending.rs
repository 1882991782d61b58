//! The end explained (`Present::ending`): why the game ended (You Win: the target reached,
//! or the last round allowed, ruling S19) and each seat's total round by round, from the
//! rounds scored (`score_round`'s results, kept in the history). The same lines are the
//! board's standing during play (`Present::standing`): scored rounds are public.
use crate::state::{DropSite, RoundEnd};
use engine::ending::{plural, points};
use engine::text::{seat, word};
use engine::{Ending, Names, SeatScore};

impl DropSite {
    /// Each seat's total, a line for each round scored.
    pub(crate) fn round_lines(&self) -> Vec<SeatScore> {
        (0..self.config.players)
            .map(|seat| {
                let mut score = SeatScore::default();
                for round in &self.history {
                    let debt = round.debts.get(seat).map_or(&[][..], Vec::as_slice);
                    let cards = if debt.is_empty() {
                        "no debt".to_string()
                    } else {
                        let values: Vec<String> = debt.iter().map(u8::to_string).collect();
                        format!("debt {}", values.join(", "))
                    };
                    score.push(
                        format!("round {} ({cards})", round.round),
                        round.scores.get(seat).copied().unwrap_or(0),
                    );
                }
                if self.history.is_empty() {
                    score.push("no round scored yet", 0);
                }
                score
            })
            .collect()
    }

    /// Why the game ended and each seat's rounds; `None` before the end.
    pub(crate) fn explain_end(&self, names: &Names) -> Option<Ending> {
        if self.to_act.is_some() {
            return None;
        }
        let last = self.history.last()?;
        let winner = self.leader()?;
        let best = self.totals[winner];
        let round_end = match last.ended_by {
            RoundEnd::PileLimit => format!("drop site {} was started", self.config.pile_limit()),
            RoundEnd::DeckEmpty => "the last card of the deck was drawn".to_string(),
        };
        let rule = if best >= self.config.target {
            names.say(
                "{who} reached the target of {target} with {best}, more than anyone else",
                &[
                    ("who", seat(winner)),
                    ("target", word(points(self.config.target))),
                    ("best", word(points(best))),
                ],
            )
        } else {
            names.say(
                "nobody reached the target of {target}, and the game stops after {rounds}: \
                 {who} {who:have|has} the most, {best}",
                &[
                    ("target", word(points(self.config.target))),
                    (
                        "rounds",
                        word(plural(i64::from(self.config.max_rounds), "round", "rounds")),
                    ),
                    ("who", seat(winner)),
                    ("best", word(points(best))),
                ],
            )
        };
        Some(Ending {
            why: format!(
                "round {} ended when {round_end}, and after its scoring {rule}",
                last.round
            ),
            seats: self.round_lines(),
        })
    }
}
