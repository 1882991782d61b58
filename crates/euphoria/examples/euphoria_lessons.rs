//! The positions of Euphoria's lessons (`lessons/*.json`), built with the checked
//! [`Builder`] and printed as state files by name: a designer changes a position here,
//! runs `cargo run -p euphoria --example euphoria_lessons`, and pastes the state file
//! into the lesson's step (docs/lessons.md). Two players; unless a lesson is about
//! recruits, the learner (seat 1) holds Kaden the Infiltrator face up, whose ability only
//! works at a tunnel end, so no step is interrupted by a recruit's offer.
use euphoria::cards::Recruit;
use euphoria::{Builder, Config, DieLoc, Euphoria, Faction, Good, Space};

fn space(code: &str) -> Space {
    Space::from_code(code).unwrap_or_else(|| panic!("no space {code}"))
}

fn two_players() -> Config {
    Config {
        players: 2,
        ..Config::default()
    }
}

/// A two-player game past setup, the learner's turn about to start.
fn start(seed: u64) -> Builder {
    match Builder::started(&two_players(), seed) {
        Ok(b) => b
            .recruits(0, &[(Recruit::Kaden, true), (Recruit::Josh, false)])
            .recruits(1, &[(Recruit::Amanda, false), (Recruit::Gidget, false)]),
        Err(e) => panic!("{e}"),
    }
}

/// `start(seed)` with the learner's recruits replaced.
fn holding(seed: u64, recruits: &[(Recruit, bool)]) -> Builder {
    start(seed).recruits(0, recruits)
}

fn ready(values: &[u8]) -> Vec<DieLoc> {
    values.iter().map(|&v| DieLoc::Ready(v)).collect()
}

fn on(code: &str, value: u8) -> DieLoc {
    DieLoc::Board(space(code), value)
}

/// A star of each of `seats` in every territory.
fn everywhere(mut b: Builder, seats: &[usize]) -> Builder {
    for f in [
        Faction::Euphorian,
        Faction::Subterran,
        Faction::Wastelander,
        Faction::Icarite,
    ] {
        b = b.territory(f, seats);
    }
    b
}

fn main() {
    let new_game = Euphoria::setup(&two_players(), 5).map_err(|e| e.to_string());
    let built = [
        (
            // Steps 1-2: the learner's dice show 2 and 5, the opponent's 3 and 4.
            "basics/place",
            start(11)
                .dice(0, &ready(&[2, 5]))
                .dice(1, &ready(&[3, 4]))
                .turn(0),
        ),
        (
            // Step 5: two book cards in hand, a die showing 3 ready.
            "basics/artifact",
            start(13)
                .dice(0, &[DieLoc::Ready(3), on("gen", 2)])
                .dice(1, &[DieLoc::Ready(4), on("aqu", 6)])
                .good(0, Good::Book, 2)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // Step 6: nine of the learner's stars are out; gold, stone and clay in hand.
            "basics/last-star",
            start(14)
                .dice(0, &[DieLoc::Ready(4), on("farm", 1)])
                .dice(1, &[DieLoc::Ready(2), on("cloud", 5)])
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
        (
            // Two 3s ready (doubles), water and energy to pay two tunnels; seat 2's 4
            // stands in the Subterran tunnel.
            "bumping/doubles",
            start(31)
                .dice(0, &ready(&[3, 3]))
                .dice(1, &[DieLoc::Ready(2), on("tun-s", 4)])
                .good(1, Good::Water, 1)
                .good(0, Good::Water, 1)
                .good(0, Good::Energy, 1)
                .turn(0),
        ),
        (
            // Knowledge 3 and three dice ready, 6, 6 and 3: the 3 on the Farm, where seat
            // 2's 6 stands, makes a total of 9 and raises knowledge to 4: 6 + 6 + 4 = 16.
            "knowledge/runaway",
            start(41)
                .dice(0, &ready(&[3, 6, 6]))
                .dice(1, &[DieLoc::Ready(2), on("farm", 6)])
                .turn(0),
        ),
        (
            // Knowledge 5, 3 energy and 3 water, one die ready.
            "knowledge/activate",
            start(42)
                .dice(0, &[DieLoc::Ready(2), on("gen", 4)])
                .dice(1, &[DieLoc::Ready(5), on("aqu", 1)])
                .knowledge(0, 5)
                .good(0, Good::Energy, 3)
                .good(0, Good::Water, 3)
                .turn(0),
        ),
        (
            // Seat 2's 4 on Euphorian market A, site 2; the learner holds gold.
            "markets/build",
            start(51)
                .tile(0, 2)
                .dice(0, &ready(&[3, 5]))
                .dice(1, &[DieLoc::Ready(2), on("ea2", 4)])
                .good(0, Good::Gold, 1)
                .turn(0),
        ),
        (
            // Subterran market A built without the learner: the Fountain of Wishful
            // Thinking, whose penalty forbids doubles. Euphorian market A built with the
            // learner's star: the Courthouse of Hasty Judgment (4 energy and 1 stone).
            "markets/use",
            start(52)
                .built(0, 2, &[0, 1])
                .built(2, 4, &[1])
                .dice(0, &ready(&[4, 4]))
                .dice(1, &[DieLoc::Ready(1), on("cloud", 3)])
                .good(0, Good::Energy, 4)
                .good(0, Good::Stone, 1)
                .turn(0),
        ),
        (
            // The Subterran miner at 5; the learner holds Phil the Spy (Subterran) face
            // down, and water to pay the tunnel.
            "tunnels/dig",
            holding(61, &[(Recruit::Kaden, true), (Recruit::Phil, false)])
                .miner(Faction::Subterran, 5)
                .dice(0, &ready(&[2, 4]))
                .dice(1, &[DieLoc::Ready(3), on("gen", 5)])
                .good(0, Good::Water, 2)
                .turn(0),
        ),
        (
            // The Subterran tunnel open at its end; the learner holds Faith (Subterran)
            // face up.
            "tunnels/end",
            holding(62, &[(Recruit::Kaden, true), (Recruit::Faith, true)])
                .miner(Faction::Subterran, 9)
                .miner(Faction::Euphorian, 3)
                .dice(0, &ready(&[5, 1]))
                .dice(1, &[DieLoc::Ready(3), on("gen", 5)])
                .good(0, Good::Energy, 1)
                .turn(0),
        ),
        (
            // Bliss and water for the Breeze Bar; morale 1.
            "artifacts/breeze",
            start(71)
                .dice(0, &ready(&[3, 2]))
                .dice(1, &[DieLoc::Ready(4), on("farm", 2)])
                .good(0, Good::Bliss, 1)
                .good(0, Good::Water, 1)
                .turn(0),
        ),
        (
            // Three different cards; Euphorian market A built without the learner.
            "artifacts/market",
            start(72)
                .built(0, 2, &[1])
                .dice(0, &ready(&[4, 1]))
                .dice(1, &[DieLoc::Ready(6), on("farm", 2)])
                .good(0, Good::Book, 1)
                .good(0, Good::Bear, 1)
                .good(0, Good::Bat, 1)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // The learner's dilemma and two artifact cards.
            "dilemma/face",
            start(81)
                .dice(0, &[DieLoc::Ready(3), on("gen", 2)])
                .dice(1, &[DieLoc::Ready(4), on("aqu", 6)])
                .good(0, Good::Bear, 1)
                .good(0, Good::Balloon, 1)
                .good(0, Good::Book, 1)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // Euphorian allegiance at 2 (tier 1); the learner holds Ray the Foreman
            // (Euphorian) face up.
            "allegiance/tiers",
            holding(91, &[(Recruit::Kaden, true), (Recruit::Ray, true)])
                .allegiance(Faction::Euphorian, 4)
                .dice(0, &ready(&[2, 5]))
                .dice(1, &[DieLoc::Ready(3), on("farm", 4)])
                .good(0, Good::Energy, 1)
                .turn(0),
        ),
        (
            // Euphorian allegiance at 10: the next step reaches 11.
            "allegiance/top",
            holding(92, &[(Recruit::Kaden, true), (Recruit::Ray, true)])
                .allegiance(Faction::Euphorian, 10)
                .dice(0, &ready(&[1, 5]))
                .dice(1, &[DieLoc::Ready(3), on("farm", 4)])
                .turn(0),
        ),
        (
            // Food to trade; seat 2 holds gold.
            "trading/offer",
            start(101)
                .dice(0, &ready(&[2, 6]))
                .dice(1, &[DieLoc::Ready(3), on("farm", 4)])
                .good(0, Good::Food, 2)
                .good(1, Good::Gold, 2)
                .good(1, Good::Water, 1)
                .turn(0),
        ),
        (
            // The learner holds Kyle the Scavenger face up; the Aquifer is empty.
            "recruits/ability",
            holding(21, &[(Recruit::Kyle, true), (Recruit::Josh, false)])
                .dice(0, &ready(&[2, 4]))
                .dice(1, &[DieLoc::Ready(3), on("gen", 5)])
                .turn(0),
        ),
        (
            // Subterran allegiance at 7; the learner holds Faith (Subterran) face down.
            "recruits/reveal",
            holding(22, &[(Recruit::Kaden, true), (Recruit::Faith, false)])
                .allegiance(Faction::Subterran, 7)
                .dice(0, &ready(&[1, 6]))
                .dice(1, &[DieLoc::Ready(3), on("gen", 5)])
                .turn(0),
        ),
        (
            // Euphorian allegiance at 7; Bradley the Futurist (Euphorian) face down.
            "allegiance/reveal",
            holding(93, &[(Recruit::Kaden, true), (Recruit::Bradley, false)])
                .allegiance(Faction::Euphorian, 7)
                .dice(0, &ready(&[1, 5]))
                .dice(1, &[DieLoc::Ready(3), on("farm", 4)])
                .turn(0),
        ),
        (
            // Wastelander allegiance at 4, and no Wastelander recruit face up.
            "allegiance/none",
            start(94)
                .allegiance(Faction::Wastelander, 4)
                .dice(0, &ready(&[2, 5]))
                .dice(1, &[DieLoc::Ready(3), on("gen", 4)])
                .turn(0),
        ),
        (
            // Two bear cards and a book.
            "artifacts/pair",
            start(73)
                .dice(0, &ready(&[4, 1]))
                .dice(1, &[DieLoc::Ready(6), on("farm", 2)])
                .good(0, Good::Bear, 2)
                .good(0, Good::Book, 1)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // The Euphorian territory full; Euphorian market A built without the learner.
            "stars/market",
            start(112)
                .built(0, 7, &[1])
                .territory(Faction::Euphorian, &[1, 0])
                .dice(0, &ready(&[4, 1]))
                .dice(1, &[DieLoc::Ready(6), on("farm", 2)])
                .good(0, Good::Bear, 2)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // One star left; the dilemma's card in hand (Choose true love: a bear).
            "stars/dilemma",
            everywhere(start(81), &[0, 1])
                .built(0, 0, &[0, 1])
                .built(2, 1, &[0, 1])
                .built(4, 3, &[0])
                .built(1, 5, &[0])
                .built(3, 6, &[0])
                .dice(0, &[DieLoc::Ready(3), on("gen", 2)])
                .dice(1, &[DieLoc::Ready(4), on("aqu", 6)])
                .good(0, Good::Bear, 1)
                .morale(0, 3)
                .turn(0),
        ),
        (
            // Euphorian allegiance at 10; each player has one star left and a face-up
            // Euphorian recruit; the learner's morale is higher.
            "stars/tie",
            everywhere(
                holding(113, &[(Recruit::Kaden, true), (Recruit::Ray, true)]),
                &[0, 1],
            )
            .recruits(1, &[(Recruit::Bradley, true), (Recruit::Gidget, false)])
            .allegiance(Faction::Euphorian, 10)
            .built(0, 0, &[0, 1])
            .built(2, 1, &[0, 1])
            .built(4, 3, &[0, 1])
            .built(1, 5, &[0, 1])
            .conform(0)
            .conform(1)
            .dice(0, &ready(&[1, 5]))
            .dice(1, &[DieLoc::Ready(3), on("farm", 4)])
            .morale(0, 3)
            .turn(0),
        ),
    ];
    let positions = std::iter::once(("recruits/choose", new_game)).chain(
        built
            .into_iter()
            .map(|(name, builder)| (name, builder.build().map_err(|e| e.to_string()))),
    );
    engine::lesson::print_positions(positions);
}
