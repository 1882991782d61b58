//! What one seat, or a spectator, may see.
use crate::cards::DECK;
use crate::state::{DropSite, Pile, RoundEnd, RoundResult};
use engine::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A drop site as everyone sees it (the piles are face up).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PileView {
    pub cards: Vec<u8>,
    pub sideways: bool,
    pub restarted: bool,
    pub closed: bool,
    /// The values it shows for matching at round end.
    pub shows: Vec<u8>,
}

/// One viewer's view of the table. Debts are face down: only their sizes show, except a
/// seat's own debt under `open_debt`. The deck order and the random stream never show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DropSiteView {
    pub viewer: Viewer,
    pub players: usize,
    pub target: i64,
    pub round: u32,
    pub round_first: Seat,
    pub to_act: Option<Seat>,
    /// The viewer's own hand (none for a spectator).
    pub hand: Option<Vec<u8>>,
    pub hand_sizes: Vec<usize>,
    pub debt_sizes: Vec<usize>,
    /// The viewer's own debt, only with `open_debt`.
    pub own_debt: Option<Vec<u8>>,
    pub piles: Vec<PileView>,
    /// Drop sites that end the round.
    pub pile_limit: usize,
    pub deck_size: usize,
    pub totals: Vec<i64>,
    /// Every scored round, with the revealed debts.
    pub history: Vec<RoundResult>,
    /// The winner, once the game is over.
    pub winner: Option<Seat>,
}

impl DropSite {
    pub(crate) fn make_view(&self, viewer: Viewer) -> DropSiteView {
        let seat = viewer.seat().filter(|&s| s < self.config.players);
        DropSiteView {
            viewer,
            players: self.config.players,
            target: self.config.target,
            round: self.round,
            round_first: self.round_first,
            to_act: self.to_act,
            hand: seat.map(|s| self.hands[s].clone()),
            hand_sizes: self.hands.iter().map(Vec::len).collect(),
            debt_sizes: self.debts.iter().map(Vec::len).collect(),
            own_debt: seat
                .filter(|_| self.config.open_debt)
                .map(|s| self.debts[s].clone()),
            piles: self.piles.iter().map(pile_view).collect(),
            pile_limit: self.config.pile_limit(),
            deck_size: self.deck.len(),
            totals: self.totals.clone(),
            history: self.history.clone(),
            winner: self.winner(),
        }
    }
}

fn pile_view(p: &Pile) -> PileView {
    PileView {
        cards: p.cards.clone(),
        sideways: p.sideways,
        restarted: p.restarted,
        closed: p.closed,
        shows: p.shows().collect(),
    }
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 card".into()
    } else {
        format!("{n} cards")
    }
}

fn cards(cards: &[u8]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for DropSiteView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let me = self.viewer.seat();
        let who = |s: Seat| {
            if Some(s) == me {
                format!("seat {} (you)", s + 1)
            } else {
                format!("seat {}", s + 1)
            }
        };
        writeln!(
            f,
            "Round {} · playing to {} · deck {}",
            self.round,
            engine::ending::points(self.target),
            count(self.deck_size)
        )?;
        writeln!(
            f,
            "Drop sites ({} of {}; starting drop site {} ends the round):",
            self.piles.len(),
            self.pile_limit,
            self.pile_limit
        )?;
        for (i, p) in self.piles.iter().enumerate() {
            let state = if p.closed {
                " [closed]"
            } else if p.sideways && !p.restarted {
                " [sideways: a new drop site may be started on it]"
            } else if p.sideways {
                " [sideways]"
            } else {
                ""
            };
            writeln!(
                f,
                "  {}: {:<24} shows {}{state}",
                i + 1,
                cards(&p.cards),
                cards(&p.shows).replace(' ', " and ")
            )?;
        }
        for s in 0..self.players {
            let debt = match (&self.own_debt, Some(s) == me) {
                (Some(d), true) => format!("{}: {}", count(d.len()), cards(d)),
                _ => count(self.debt_sizes[s]),
            };
            writeln!(
                f,
                "  {:<14} total {:>4} · debt {debt}",
                who(s),
                self.totals[s]
            )?;
        }
        if let Some(last) = self.history.last() {
            let why = match last.ended_by {
                RoundEnd::PileLimit => "the last drop site was started",
                RoundEnd::DeckEmpty => "the deck ran out",
            };
            writeln!(f, "Round {} scored ({why}):", last.round)?;
            for s in 0..self.players {
                writeln!(
                    f,
                    "  {:<14} debt [{}] scored {:+}",
                    who(s),
                    cards(&last.debts[s]),
                    last.scores[s]
                )?;
            }
        }
        if let Some(h) = &self.hand {
            let with_points: Vec<String> = h
                .iter()
                .map(|&c| format!("{c} ({:+})", DECK.points(c)))
                .collect();
            writeln!(
                f,
                "Your hand: {} (what each card scores on your debt for each drop site it matches)",
                with_points.join(", ")
            )?;
        }
        match (self.to_act, self.winner) {
            (Some(s), _) => write!(f, "{} to play", who(s)),
            (None, Some(w)) => write!(
                f,
                "Game over: {} wins with {}",
                who(w),
                engine::ending::points(self.totals[w])
            ),
            (None, None) => write!(f, "Game over"),
        }
    }
}
