//! What one viewer may see, and its text board.
//!
//! District stacks, hands, characters and the advanced cards are public. Won cards lie
//! face down: their owner sees them, everyone else only their number (ruling D23), until
//! the final scoring turns them up. Nobody sees the deck order or the random stream.
use crate::action::letter_char;
use crate::cards::{Border, Card, Character, Collaborator, Kind, Mission};
use crate::ending::Score;
use crate::state::{letter_of, owner, Distopia, Phase};
use engine::{Seat, Viewer};
use serde::Serialize;
use std::fmt;

/// One face-up card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// The printed number (1-30); `None` for a guard.
    pub number: Option<u8>,
    /// The printed name.
    pub name: &'static str,
    /// Its type.
    pub kind: Kind,
    /// Its point value.
    pub points: u8,
    /// Whether it has a siren icon.
    pub siren: bool,
}

impl CardView {
    /// A card as it lies face up in `game` (its values are the game's card data).
    pub fn of(game: &Distopia, card: Card) -> CardView {
        let values = game.contraband(card);
        CardView {
            number: card.number(),
            name: card.name(),
            kind: values.kind,
            points: values.points,
            siren: values.siren,
        }
    }
}

impl fmt::Display for CardView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number {
            None => f.write_str("GUARD"),
            Some(n) => write!(
                f,
                "{n}:{}{}{}",
                self.kind.letter(),
                self.points,
                if self.siren { "!" } else { "" }
            ),
        }
    }
}

/// One district as seen from the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DistrictView {
    /// `A`-`D`.
    pub letter: char,
    /// The border number.
    pub limit: u8,
    /// Bottom first.
    pub cards: Vec<CardView>,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideView {
    /// Whose side.
    pub seat: Seat,
    /// Their character card.
    pub character: Character,
    /// A to D.
    pub districts: Vec<DistrictView>,
    /// How many cards lie under the character card.
    pub won_count: usize,
    /// Which cards: only for their owner, or for everyone once the game is over.
    pub won: Option<Vec<CardView>>,
}

/// The turn in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnView {
    /// The district picked up (the current player's letter).
    pub picked: char,
    /// The cards still to play, public since they lay face up.
    pub hand: Vec<CardView>,
    /// Where the next card goes: (seat, letter).
    pub next: Option<(Seat, char)>,
    /// Grandma the Hacker reversed the direction this turn.
    pub clockwise: bool,
    /// Spy Pets: the next district is across the border.
    pub crossing: bool,
    /// Districts passed so far, as (seat, letter).
    pub passed: Vec<(Seat, char)>,
}

/// The collaborator card on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CollaboratorView {
    /// Which collaborator.
    pub card: Collaborator,
    /// Who may use it; `None` for either player.
    pub usable_by: Option<Seat>,
}

/// The mission card on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MissionView {
    /// Which mission.
    pub card: Mission,
    /// Who earned it (Curfew, Save a Sibling).
    pub claimed_by: Option<Seat>,
}

/// Everything one viewer may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DistopiaView {
    /// Who this view is for.
    pub viewer: Viewer,
    /// The border set in play.
    pub border: Border,
    /// Seat 0's and seat 1's sides.
    pub sides: Vec<SideView>,
    /// Cards left in the face-down deck (not which).
    pub deck_count: usize,
    /// The seat that took the first turn.
    pub first_player: Seat,
    /// The seat to act; `None` once the game is over.
    pub to_act: Option<Seat>,
    /// Where the game is.
    pub phase: Phase,
    /// Turns begun so far.
    pub turn_number: u32,
    /// The turn in progress.
    pub turn: Option<TurnView>,
    /// How often the position this turn started from has come up since a card was last
    /// drawn or won, this time included: the third time ends the game (ruling X15).
    pub repetitions: usize,
    /// The collaborator card, if in play.
    pub collaborator: Option<CollaboratorView>,
    /// The mission card, if in play.
    pub mission: Option<MissionView>,
    /// The final scores, once the game is over.
    pub scores: Option<Vec<Score>>,
}

pub(crate) fn build(game: &Distopia, viewer: Viewer) -> DistopiaView {
    let over = game.phase() == Phase::Over;
    let sides = (0..2)
        .map(|seat| SideView {
            seat,
            character: game.character(seat),
            districts: (0..4)
                .map(|l| DistrictView {
                    letter: letter_char(l),
                    limit: game.config.limits()[l as usize],
                    cards: game
                        .district(seat, l)
                        .iter()
                        .map(|&c| CardView::of(game, c))
                        .collect(),
                })
                .collect(),
            won_count: game.won(seat).len(),
            won: (over || viewer == Viewer::Seat(seat)).then(|| {
                game.won(seat)
                    .iter()
                    .map(|&c| CardView::of(game, c))
                    .collect()
            }),
        })
        .collect();
    let place = |i: usize| (owner(i), letter_char(letter_of(i)));
    let turn = matches!(game.phase(), Phase::Play | Phase::Raid).then(|| {
        let t = game.turn();
        TurnView {
            picked: letter_char(letter_of(t.picked)),
            hand: t.hand.iter().map(|&c| CardView::of(game, c)).collect(),
            next: (game.phase() == Phase::Play).then(|| place(game.next_district())),
            clockwise: t.clockwise,
            crossing: t.crossing,
            passed: (0..8)
                .filter(|i| t.visited & (1 << i) != 0)
                .map(place)
                .collect(),
        }
    });
    DistopiaView {
        viewer,
        border: game.border(),
        sides,
        deck_count: game.deck().len(),
        first_player: game.first_player(),
        to_act: (!over).then(|| game.current()),
        phase: game.phase(),
        turn_number: game.turns,
        turn,
        repetitions: game.repetitions(),
        collaborator: game.collaborator().map(|c| CollaboratorView {
            card: c.card,
            usable_by: c.holder,
        }),
        mission: game.mission().map(|m| MissionView {
            card: m.card,
            claimed_by: m.claimed_by,
        }),
        scores: over.then(|| (0..2).map(|s| game.score(s)).collect()),
    }
}

fn cards(f: &mut fmt::Formatter<'_>, cards: &[CardView]) -> fmt::Result {
    if cards.is_empty() {
        return f.write_str("-");
    }
    for (k, c) in cards.iter().enumerate() {
        if k > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{c}")?;
    }
    Ok(())
}

/// Width of one district's column on the text board.
const COLUMN: usize = 12;

/// What the phase asks of the seat to act, in words.
fn asks(phase: Phase) -> &'static str {
    match phase {
        Phase::Pick => "pick up one of their districts",
        Phase::Play => "play the next card",
        Phase::Raid => "decide on The Shelf Raider",
        Phase::Over => "nothing: the game is over",
    }
}

impl DistopiaView {
    /// One row of districts as columns, west to east, each stack's top card next to the
    /// border (seat 2's row sits above it, seat 1's below).
    fn row(&self, f: &mut fmt::Formatter<'_>, seat: Seat) -> fmt::Result {
        let Some(side) = self.sides.get(seat) else {
            return Ok(());
        };
        // Seat 1 letters its row A-D west to east; seat 2, facing it, D-A.
        let letters: [usize; 4] = if seat == 0 {
            [0, 1, 2, 3]
        } else {
            [3, 2, 1, 0]
        };
        let stacks: Vec<&DistrictView> = letters
            .iter()
            .filter_map(|&l| side.districts.get(l))
            .collect();
        let heading = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            let text: String = stacks
                .iter()
                .map(|d| format!("{:<COLUMN$}", format!("  {} [{}]", d.letter, d.limit)))
                .collect();
            writeln!(f, "{}", text.trim_end())
        };
        let height = stacks
            .iter()
            .map(|d| d.cards.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let line = |f: &mut fmt::Formatter<'_>, depth: usize| -> fmt::Result {
            // `depth` 0 is the card next to the border: the top of every stack.
            let mut text = String::new();
            for d in &stacks {
                let card = d
                    .cards
                    .len()
                    .checked_sub(depth + 1)
                    .and_then(|k| d.cards.get(k))
                    .map_or(
                        if depth == 0 && d.cards.is_empty() {
                            "-".to_string()
                        } else {
                            String::new()
                        },
                        ToString::to_string,
                    );
                text.push_str(&format!("{:<COLUMN$}", format!("  {card}")));
            }
            writeln!(f, "{}", text.trim_end())
        };
        if seat == 1 {
            heading(f)?;
            for depth in (0..height).rev() {
                line(f, depth)?;
            }
        } else {
            for depth in 0..height {
                line(f, depth)?;
            }
            heading(f)?;
        }
        Ok(())
    }

    fn side_line(&self, f: &mut fmt::Formatter<'_>, seat: Seat) -> fmt::Result {
        let Some(side) = self.sides.get(seat) else {
            return Ok(());
        };
        let you = if self.viewer == Viewer::Seat(side.seat) {
            " (you)"
        } else {
            ""
        };
        write!(
            f,
            "Seat {}{you}: {} · won {}",
            side.seat + 1,
            side.character,
            engine::ending::plural(side.won_count as i64, "card", "cards")
        )?;
        if let Some(won) = &side.won {
            f.write_str(": ")?;
            cards(f, won)?;
        }
        writeln!(f)
    }
}

impl fmt::Display for DistopiaView {
    /// A text board of the two facing rows: seat 2's on top (as seen from seat 1's chair),
    /// the border, seat 1's below; then a legend.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Distop-IA · {} border · turn {} · deck {}",
            self.border,
            self.turn_number,
            engine::ending::plural(self.deck_count as i64, "card", "cards")
        )?;
        if self.repetitions > 1 && self.scores.is_none() {
            writeln!(
                f,
                "This position has come up {} times since a card was drawn or won; \
                 a third time ends the game.",
                self.repetitions
            )?;
        }
        if let Some(c) = self.collaborator {
            match c.usable_by {
                None => writeln!(f, "Collaborator: {} (either player)", c.card)?,
                Some(s) => writeln!(f, "Collaborator: {} (seat {} only)", c.card, s + 1)?,
            }
        }
        if let Some(m) = self.mission {
            match m.claimed_by {
                None => writeln!(f, "Mission: {}", m.card)?,
                Some(s) => writeln!(f, "Mission: {} (earned by seat {})", m.card, s + 1)?,
            }
        }
        self.side_line(f, 1)?;
        self.row(f, 1)?;
        writeln!(f, "{}", "=".repeat(COLUMN * 4 - 8) + " border")?;
        self.row(f, 0)?;
        self.side_line(f, 0)?;
        writeln!(
            f,
            "Legend: 21:S1! is card 21, type S (H hobby, E education, S survival), 1 point, ! a siren;\n\
             GUARD a guard; [3] the border number (contraband above it can be won);\n\
             each stack's top card lies next to the border."
        )?;
        if let Some(t) = &self.turn {
            write!(f, "Picked up {}; hand: ", t.picked)?;
            cards(f, &t.hand)?;
            if let Some((s, l)) = t.next {
                write!(f, "; next: seat {}'s {l}", s + 1)?;
            }
            if t.clockwise {
                f.write_str(" (clockwise)")?;
            }
            if t.crossing {
                f.write_str(" (crossing the border)")?;
            }
            writeln!(f)?;
        }
        match (&self.scores, self.to_act) {
            (Some(scores), _) => {
                for (s, sc) in scores.iter().enumerate() {
                    let guards = engine::ending::plural(sc.guards as i64, "guard", "guards");
                    // A mission is named only where one is in play (the advanced mode).
                    match self.mission {
                        Some(_) => writeln!(
                            f,
                            "Seat {}: {} ({} from cards, {} from the mission, {guards})",
                            s + 1,
                            engine::ending::points(sc.total),
                            sc.card_points,
                            sc.mission_points,
                        )?,
                        None => writeln!(
                            f,
                            "Seat {}: {} (from cards; {guards})",
                            s + 1,
                            engine::ending::points(sc.total),
                        )?,
                    }
                }
            }
            (None, Some(s)) => writeln!(f, "Seat {} to {}", s + 1, asks(self.phase))?,
            (None, None) => {}
        }
        Ok(())
    }
}
