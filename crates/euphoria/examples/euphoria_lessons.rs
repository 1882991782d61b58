//! The positions of Euphoria's lessons (`lessons/*.json`), built with the checked
//! [`Builder`] and printed as state files by name: a designer changes a position here,
//! runs `cargo run -p euphoria --example euphoria_lessons`, and pastes the state file
//! into the lesson's step (docs/lessons.md). Two players; the learner (seat 1) holds
//! Kaden the Infiltrator face up, whose ability only works at a tunnel end, so no step is
//! interrupted by a recruit's offer.
use euphoria::cards::Recruit;
use euphoria::{Builder, Config, DieLoc, Faction, Good, Space};

fn space(code: &str) -> Space {
    Space::from_code(code).unwrap_or_else(|| panic!("no space {code}"))
}

/// A two-player game past setup, the learner's turn about to start.
fn start(seed: u64) -> Builder {
    let config = Config {
        players: 2,
        ..Config::default()
    };
    match Builder::started(&config, seed) {
        Ok(b) => b
            .recruits(0, &[(Recruit::Kaden, true), (Recruit::Josh, false)])
            .recruits(1, &[(Recruit::Amanda, false), (Recruit::Gidget, false)]),
        Err(e) => panic!("{e}"),
    }
}

fn main() {
    let positions = [
        (
            // Steps 1-2: the learner's dice show 2 and 5, the opponent's 3 and 4.
            "basics/place",
            start(11)
                .dice(0, &[DieLoc::Ready(2), DieLoc::Ready(5)])
                .dice(1, &[DieLoc::Ready(3), DieLoc::Ready(4)])
                .turn(0),
        ),
        (
            // Step 5: two book cards in hand, a die showing 3 ready.
            "basics/artifact",
            start(13)
                .dice(0, &[DieLoc::Ready(3), DieLoc::Board(space("gen"), 2)])
                .dice(1, &[DieLoc::Ready(4), DieLoc::Board(space("aqu"), 6)])
                .good(0, Good::Book, 2)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // Step 6: nine of the learner's stars are out; gold, stone and clay in hand.
            "basics/last-star",
            start(14)
                .dice(0, &[DieLoc::Ready(4), DieLoc::Board(space("farm"), 1)])
                .dice(1, &[DieLoc::Ready(2), DieLoc::Board(space("cloud"), 5)])
                .territory(Faction::Euphorian, &[0, 1])
                .territory(Faction::Subterran, &[0, 0])
                .territory(Faction::Wastelander, &[0, 0])
                .territory(Faction::Icarite, &[0])
                .built(0, 0, &[0, 1])
                .built(2, 1, &[0])
                .conform(0)
                .good(0, Good::Gold, 1)
                .good(0, Good::Stone, 1)
                .good(0, Good::Clay, 1)
                .turn(0),
        ),
    ];
    engine::lesson::print_positions(
        positions.map(|(name, builder)| (name, builder.build().map_err(|e| e.to_string()))),
    );
}
