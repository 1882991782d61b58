//! The end explained (`Present::ending`): who placed their last authority star (the end of
//! the game, spec 1.10), the tie-break when several did (5.11, A-23), and each player's
//! score, the stars placed, by where they stand: each territory, the markets, the
//! recruits, the ethical dilemma. Every star on the board is public, so the same lines
//! are the standing during play (`Present::standing`), what a resigned game keeps.
use crate::cards::{Faction, MARKET_TILES, STARS};
use crate::state::{DilemmaState, Euphoria};
use engine::ending::plural;
use engine::{Ending, Names, Seat, SeatScore};

impl Euphoria {
    /// Each player's stars placed, a line for each place they stand on.
    pub(crate) fn star_lines(&self) -> Vec<SeatScore> {
        (0..self.n()).map(|s| self.stars_of(s)).collect()
    }

    fn stars_of(&self, seat: Seat) -> SeatScore {
        let mut score = SeatScore::default();
        for f in Faction::ALL {
            let n = self.territory[f.index()]
                .iter()
                .filter(|&&x| usize::from(x) == seat)
                .count();
            if n > 0 {
                score.push(format!("stars on the {}' territory", f.name()), n as i64);
            }
        }
        let markets: Vec<&str> = self
            .markets
            .iter()
            .filter(|m| m.stars & (1 << seat) != 0)
            .map(|m| {
                MARKET_TILES
                    .get(usize::from(m.tile))
                    .map_or("a market", |t| t.name)
            })
            .collect();
        if !markets.is_empty() {
            score.push(
                format!("stars on markets: {}", markets.join(", ")),
                markets.len() as i64,
            );
        }
        let player = &self.players[seat];
        let recruits: Vec<&str> = player
            .recruits
            .iter()
            .filter(|r| r.star)
            .map(|r| r.id.name())
            .collect();
        if !recruits.is_empty() {
            score.push(
                format!("stars on recruits: {}", recruits.join(", ")),
                recruits.len() as i64,
            );
        }
        if player.dilemma_state == DilemmaState::Conformed {
            score.push("a star for the ethical dilemma, conformed to", 1);
        }
        if score.lines.is_empty() {
            score.push("no star placed", 0);
        }
        score
    }

    /// Why the game ended and each player's stars; `None` before the end.
    pub(crate) fn explain_end(&self, names: &Names) -> Option<Ending> {
        let outcome = self.final_outcome()?;
        let done: Vec<Seat> = (0..self.n())
            .filter(|&s| self.players[s].stars_left == 0)
            .collect();
        let all = plural(i64::from(STARS), "authority star", "authority stars");
        let mut why = match done.as_slice() {
            [] => "the game is over".to_string(),
            [one] => format!("{} placed the last of {all}", names.seat(*one)),
            more => format!("{} each placed the last of {all}", names.list(more)),
        };
        if done.len() > 1 {
            let first = outcome.winners();
            why.push_str(&format!(
                "; the tie-break (more morale, then less knowledge, then more stars on markets, then a roll-off) puts {} first",
                names.list(&first)
            ));
        }
        Some(Ending {
            why,
            seats: self.star_lines(),
        })
    }
}
