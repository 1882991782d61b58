//! The positions of Distop-IA's lessons (`lessons/*.json`), built with the checked
//! [`Builder`] and printed as state files by name: a designer changes a position here,
//! runs `cargo run -p distopia --example distopia_lessons`, and pastes the state file
//! into the lesson's step (docs/lessons.md). Cards are given by the number players see
//! (1-30, `crates/distopia/data/cards.csv`); `G` is a guard.
use distopia::Builder;
use distopia::Card;

const G: u8 = 0;

/// Cards by number (1-30), `G` for the next guard.
fn cards(numbers: &[u8], guards: &mut u8) -> Vec<Card> {
    numbers
        .iter()
        .map(|&n| {
            if n == G {
                *guards += 1;
                Card::guard(*guards - 1)
            } else {
                Card::from_number(n).unwrap_or_else(|| panic!("no card {n}"))
            }
        })
        .collect()
}

/// A table by ring (seat 1's A-D, then seat 2's A-D), the deck's next cards (top
/// first), and each seat's won cards.
fn table(ring: [&[u8]; 8], deck_top: &[u8], won: [&[u8]; 2]) -> Builder {
    let mut guards = 0;
    let mut b = Builder::empty();
    for (i, d) in ring.iter().enumerate() {
        b.districts[i] = cards(d, &mut guards);
    }
    b.deck_top = cards(deck_top, &mut guards);
    b.won = [cards(won[0], &mut guards), cards(won[1], &mut guards)];
    b
}

/// Every contraband card not named in `used`, for filling a won pile.
fn rest(used: &[u8]) -> Vec<u8> {
    (1..=30).filter(|n| !used.contains(n)).collect()
}

fn main() {
    let end_used: Vec<u8> = vec![23, 11, 4, 14, 5, 6, 10, 16, 12, 13, 2];
    let end_rest = rest(&end_used);
    let (end_won0, end_won1) = end_rest.split_at(end_rest.len() / 2);
    let positions = [
        (
            // Steps 1-5: the learner's B holds a yo-yo, a library book and a first-aid
            // kit; their D is guarded; seat 2's A is full (3 cards, limit 3).
            "basics/turn",
            table(
                [
                    &[1],
                    &[2, 20, 30],
                    &[4],
                    &[G],
                    &[5, 6, 8],
                    &[10],
                    &[11, 12],
                    &[14],
                ],
                &[15],
                [&[], &[]],
            ),
        ),
        (
            // Step 6: the learner's D holds one card; the refill is a siren (alarm clock).
            "basics/siren",
            table(
                [&[G], &[2], &[4], &[22], &[5, 6, 8], &[10], &[G], &[14]],
                &[21],
                [&[], &[]],
            ),
        ),
        (
            // Step 7: one card left in the deck; the other contraband cards are won,
            // the five guards are on the table.
            "basics/end",
            table(
                [
                    &[G],
                    &[23],
                    &[11],
                    &[4, 14, G],
                    &[5, 6],
                    &[10, 16, G],
                    &[12, 13, G],
                    &[G],
                ],
                &[2],
                [end_won0, end_won1],
            ),
        ),
    ];
    engine::lesson::print_positions(
        positions.map(|(name, builder)| (name, builder.build(7).map_err(|p| p.join("; ")))),
    );
}
