//! Conformance with the engine's harness and random-game properties.

use engine::conformance::{run, Options};
use engine::prelude::*;
use engine::rng_from_seed;
use euphoria::{Config, Edition, Euphoria, KnowledgeCheck};
use proptest::prelude::*;
use rand::seq::IndexedRandom;

/// Random games with recruits in play (every seat keeps two, and dilemmas draw more),
/// trading under the rulebook with two offers a turn at most (random play would otherwise
/// spend most of its actions on offers).
fn conformance(players: usize, edition: Edition, games: u64, deep_every: usize) {
    let config = Config {
        edition,
        ..Config::players(players).with_offers(2)
    };
    run::<Euphoria>(
        &config,
        &Options {
            games,
            first_seed: 100 * players as u64 + edition as u64,
            max_steps: MOVE_CAP,
            deep_every,
        },
    );
}

#[test]
fn conformance_2p() {
    conformance(2, Edition::V2, 6, 3);
    conformance(2, Edition::V1, 4, 3);
}

#[test]
fn conformance_3p() {
    conformance(3, Edition::V2, 5, 3);
    conformance(3, Edition::V1, 4, 3);
}

#[test]
fn conformance_4p() {
    conformance(4, Edition::V2, 4, 4);
    conformance(4, Edition::V1, 3, 4);
}

#[test]
fn conformance_5p() {
    conformance(5, Edition::V2, 2, 7);
    conformance(5, Edition::V1, 2, 7);
}

#[test]
fn conformance_6p() {
    conformance(6, Edition::V2, 2, 7);
    conformance(6, Edition::V1, 2, 7);
}

#[test]
fn conformance_published_flags() {
    for edition in [Edition::V2, Edition::V1] {
        let config = Config {
            players: 3,
            edition,
            knowledge_check: KnowledgeCheck::OnRollOnly,
            tunnel_end_requires_faction: false,
            doubles_cost_morale: true,
            starting_recruit_discards: euphoria::StartingRecruitDiscards::Discard,
            trading: euphoria::Trading::OneOfferBeforePlacing,
            offers_per_turn: None,
            legacy_actions: true,
            // Card data other than the printed board, through the same harness.
            rewards: euphoria::Rewards {
                area: [2, 3, 4],
                tunnel_end: 5,
            },
        };
        run::<Euphoria>(
            &config,
            &Options {
                games: 2,
                first_seed: 7,
                max_steps: MOVE_CAP,
                deep_every: 41,
            },
        );
    }
}

/// Random 5-player games are long: markets need all four sites filled at once and
/// workers may leave sites; see docs/rulings.md for the measured lengths.
const MOVE_CAP: usize = 1_000_000;

/// Plays one random game, checking the invariants after every action; returns its length.
fn random_game(players: usize, edition: Edition, seed: u64) -> Result<usize, String> {
    let config = Config {
        edition,
        ..Config::players(players).with_offers(2)
    };
    let mut game = Euphoria::new(&config, seed).map_err(|e| e.to_string())?;
    let mut rng = rng_from_seed(seed.wrapping_mul(31) + 5);
    let mut legal = Vec::new();
    let mut steps = 0;
    while game.to_act().is_some() {
        if steps > MOVE_CAP {
            return Err("move cap reached: the game did not end".into());
        }
        game.legal_actions(&mut legal);
        let a = *legal.choose(&mut rng).ok_or("no legal action")?;
        game.apply(a).map_err(|e| e.to_string())?;
        if steps % 64 == 0 {
            game.validate().map_err(|p| p.join("; "))?;
        }
        steps += 1;
    }
    game.validate().map_err(|p| p.join("; "))?;
    if game.outcome().is_none() {
        return Err("no outcome".into());
    }
    Ok(steps)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_260_501),
        failure_persistence: None,
        .. ProptestConfig::default()
    })]

    /// No good negative (unsigned, and validate checks the rest), stars, artifacts and dice
    /// conserved, and every random game ends.
    #[test]
    fn random_games_end_and_conserve(players in 2usize..=6, v1 in any::<bool>(), seed in any::<u64>()) {
        let edition = if v1 { Edition::V1 } else { Edition::V2 };
        let r = random_game(players, edition, seed);
        prop_assert!(r.is_ok(), "{:?}", r);
    }
}
