//! The positions of Drop Site's lessons (`lessons/*.json`), built with the checked
//! [`Builder`] and printed as state files by name: a designer changes a position here,
//! runs `cargo run -p dropsite --example dropsite_lessons`, and pastes the state file
//! into the lesson's step (docs/lessons.md).
use dropsite::Builder;

fn main() {
    let positions = [
        (
            // Step 1: one drop site showing 10; the learner's next draws are a 5 and a
            // 3, seat 2's a 2 and a 12.
            "basics/cover",
            Builder::new(2)
                .hand(0, &[3, 5, 8, 11, 12])
                .hand(1, &[1, 4, 6, 7, 9])
                .pile(&[10])
                .deck_top(&[12, 3, 2, 1, 2, 5]),
        ),
        (
            // Step 4: a zero in hand, a site showing 3.
            "basics/zero",
            Builder::new(2)
                .hand(0, &[0, 4, 9, 10, 12])
                .hand(1, &[2, 5, 6, 8, 11])
                .pile(&[12, 3])
                .pile(&[7])
                .debt(0, &[7])
                .debt(1, &[5])
                .deck_top(&[6, 1]),
        ),
        (
            // Step 6: four sites made of five, the learner's debt a 2, an 11 and a 9.
            "basics/round-end",
            Builder::new(2)
                .hand(0, &[1, 5, 9, 10, 12])
                .hand(1, &[4, 6, 7, 8, 8])
                .pile(&[12, 7])
                .pile(&[2])
                .pile(&[0])
                .pile(&[11])
                .debt(0, &[2, 11, 9])
                .debt(1, &[3])
                .deck_top(&[6]),
        ),
    ];
    engine::lesson::print_positions(
        positions.map(|(name, builder)| (name, builder.build().map_err(|p| p.join("; ")))),
    );
}
