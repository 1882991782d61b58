//! Every action space (allowed and refused), bumping, doubles, retrieval and the 18
//! market penalties.

use crate::common;

use common::*;
use engine::prelude::*;
use euphoria::cards::{Faction, Good, Penalty, Recruit, Space};
use euphoria::{Config, DieLoc, Euphoria, Refusal, Step};

fn fresh(players: usize) -> Euphoria {
    fresh_with(Config::players(players))
}

fn fresh_with(config: Config) -> Euphoria {
    bare(&without_trading_stops(config), 21)
}

/// Seat 0 suffers `p`: the tile is built on slot WB with seat 1's star only.
fn penalized(p: Penalty) -> Euphoria {
    let mut g = fresh(3);
    edit(&mut g, |e| e.built(5, tile(p), &[1]));
    assert!(g.penalized(0, p));
    assert!(!g.penalized(1, p));
    g
}

// --- commodity areas

#[test]
fn commodity_areas_are_free_and_shared() {
    for f in Faction::ALL {
        let mut g = fresh(3);
        edit(&mut g, |e| {
            e.dice(1, &[on(Space::area(f), 2)])
                .dice(0, &[ready(3), ready(3)])
        });
        act(&mut g, &format!("3@{}", Space::area(f)));
        assert_eq!(g.player(0).count(f.commodity()), 1);
        assert_eq!(g.occupants(Space::area(f)).count(), 2);
    }
}

// --- tunnels

#[test]
fn tunnel_mouth_pays_a_commodity_and_advances_the_miner() {
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    assert_refused!(&mut g, "2@tun-e", Refusal::CannotPay(_));
    edit(&mut g, |e| e.good(0, Good::Energy, 1));
    act(&mut g, "2@tun-e");
    assert_eq!(g.miners()[0], 1);
    assert_eq!(g.player(0).count(Good::Energy), 0);
    assert_refused!(&mut g, "take stone", Refusal::TunnelGives(Good::Gold));
    act(&mut g, "draw");
    assert_eq!(g.player(0).hand_size(), 1);
    // The miner stops at the end and the end space opens.
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.miner(Faction::from_index(2), 8)
            .dice(0, &[ready(2)])
            .good(0, Good::Food, 1)
            .recruits(0, &[(Recruit::Brian, true)])
    });
    act(&mut g, "2@tun-w");
    act(&mut g, "take clay");
    assert_eq!(g.miners()[2], 9);
    assert!(g.tunnel_end_open(Faction::Wastelander));
    assert_eq!(g.player(0).count(Good::Clay), 1);
}

#[test]
fn tunnel_ends_open_at_nine_for_the_faction_only() {
    let rewards = [Good::Water, Good::Food, Good::Energy];
    let ids = [Recruit::Ben, Recruit::Andrew, Recruit::Brian];
    for f in [Faction::Euphorian, Faction::Subterran, Faction::Wastelander] {
        let mut g = fresh(3);
        edit(&mut g, |e| {
            e.dice(0, &[ready(4)])
                .recruits(0, &[(ids[f.index()], true)])
        });
        let end = Space::tunnel_end(f);
        assert_refused!(&mut g, &format!("4@{end}"), Refusal::TunnelClosed(_));
        edit(&mut g, |e| {
            e.miner(f, 9).recruits(0, &[(ids[f.index()], false)])
        });
        assert_refused!(&mut g, &format!("4@{end}"), Refusal::TunnelRecruit(_));
        edit(&mut g, |e| e.recruits(0, &[(ids[f.index()], true)]));
        act(&mut g, &format!("4@{end}"));
        assert_eq!(g.player(0).count(rewards[f.index()]), 3);
    }
    // The flag lifts the faction requirement.
    let mut g = fresh_with(Config {
        players: 3,
        tunnel_end_requires_faction: false,
        ..Config::default()
    });
    edit(&mut g, |e| {
        e.miner(Faction::from_index(0), 9).dice(0, &[ready(4)])
    });
    act(&mut g, "4@end-e");
    assert_eq!(g.player(0).count(Good::Water), 3);
}

// --- artifact markets

#[test]
fn artifact_markets_take_three_cards_or_a_pair() {
    for f in [
        Faction::Euphorian,
        Faction::Subterran,
        Faction::Wastelander,
        Faction::Icarite,
    ] {
        let space = Space::artifact_market(f);
        let mut g = fresh(3);
        edit(&mut g, |e| {
            e.morale(0, 4)
                .dice(0, &[ready(3)])
                .good(0, Good::Book, 1)
                .good(0, Good::Bat, 1)
        });
        assert_refused!(&mut g, &format!("3@{space}"), Refusal::ArtifactCards { .. });
        edit(&mut g, |e| e.good(0, Good::Bear, 1));
        // Three kinds, three cards: the only way to pay, made at once.
        act(&mut g, &format!("3@{space}"));
        assert_eq!(g.player(0).hand_size(), 0);
        assert_eq!(g.territory()[f.index()], vec![0]);
        assert_eq!(g.allegiance()[f.index()], 1);
        // A pair.
        let mut g = fresh(3);
        edit(&mut g, |e| {
            e.morale(0, 4)
                .dice(0, &[ready(3)])
                .good(0, Good::Game, 2)
                .good(0, Good::Bat, 1)
        });
        act(&mut g, &format!("3@{space}"));
        act(&mut g, "pay game");
        act(&mut g, "pay game");
        assert_eq!(g.player(0).hand, [0, 0, 0, 0, 0, 1]);
        assert_eq!(g.player(0).stars_left, 9);
    }
}

#[test]
fn artifact_market_star_may_go_on_a_built_market_tile() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.built(2, 0, &[1])
            .morale(0, 3)
            .dice(0, &[ready(3)])
            .good(0, Good::Book, 2)
    });
    act(&mut g, "3@art-s");
    assert!(matches!(
        g.pending(),
        Some(Step::StarChoice(Faction::Subterran))
    ));
    assert_refused!(&mut g, "star mea", Refusal::NoStarMarket(_));
    act(&mut g, "star msa");
    assert_eq!(g.market(2).stars, 0b011);
    assert!(g.territory()[1].is_empty());
    assert_eq!(g.allegiance()[1], 1);
    // A full territory and no tile: allowed, no star, allegiance still moves.
    let mut g = fresh(2);
    edit(&mut g, |e| {
        e.territory(Faction::Euphorian, &[1, 1])
            .morale(0, 3)
            .dice(0, &[ready(3)])
            .good(0, Good::Book, 2)
    });
    act(&mut g, "3@art-e");
    assert_eq!(g.player(0).stars_left, 10);
    assert_eq!(g.allegiance()[0], 1);
}

// --- Icarite spaces

#[test]
fn nimbus_loft_takes_three_resources() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.dice(0, &[ready(5)])
            .good(0, Good::Gold, 1)
            .good(0, Good::Clay, 1)
    });
    assert_refused!(&mut g, "5@nimbus", Refusal::CannotPay(_));
    edit(&mut g, |e| e.good(0, Good::Stone, 2));
    act(&mut g, "5@nimbus");
    assert_refused!(&mut g, "pay water", Refusal::NotOwed(Good::Water));
    act(&mut g, "pay stone");
    act(&mut g, "pay gold");
    act(&mut g, "pay clay");
    assert_eq!(g.player(0).supply[4..7], [0, 1, 0]);
    assert_eq!(g.territory()[3], vec![0]);
    assert_eq!(g.allegiance()[3], 1);
}

#[test]
fn breeze_bar_and_sky_lounge() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.morale(0, 3).dice(0, &[ready(5)]).good(0, Good::Bliss, 2)
    });
    assert_refused!(&mut g, "5@breeze", Refusal::CannotPay(_));
    edit(&mut g, |e| e.good(0, Good::Food, 1));
    act(&mut g, "5@breeze");
    assert_eq!(g.player(0).hand_size(), 2);
    assert_eq!(g.allegiance()[3], 1);
    assert_eq!(g.player(0).count(Good::Bliss), 1);
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.dice(0, &[ready(5)])
            .good(0, Good::Bliss, 1)
            .good(0, Good::Water, 1)
            .good(0, Good::Energy, 1)
    });
    act(&mut g, "5@sky");
    act(&mut g, "pay water");
    act(&mut g, "take gold");
    act(&mut g, "take gold");
    assert_eq!(g.player(0).count(Good::Gold), 2);
    assert_eq!(g.player(0).count(Good::Energy), 1);
    assert_eq!(g.allegiance()[3], 1);
}

// --- worker activation

#[test]
fn worker_activation_gains_a_rolled_worker() {
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Energy, 2));
    assert_refused!(&mut g, "2@act-e", Refusal::CannotPay(_));
    edit(&mut g, |e| e.good(0, Good::Energy, 3).knowledge(0, 4));
    act(&mut g, "2@act-e");
    assert_eq!(g.player(0).knowledge, 2);
    assert_eq!(g.player(0).owned_dice(), 2);
    assert_eq!(g.ready_values(0).len(), 1);
    // Water: morale +2; no fifth worker.
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.dice(
            0,
            &[
                ready(2),
                on(Space::area(Faction::Euphorian), 1),
                ready(4),
                ready(5),
            ],
        )
        .good(0, Good::Water, 3)
    });
    act(&mut g, "2@act-w");
    assert_eq!(g.player(0).morale, 3);
    assert_eq!(g.player(0).owned_dice(), 4);
}

// --- construction and built markets

#[test]
fn construction_sites_cost_their_resource_and_lock() {
    let mut g = fresh(4);
    edit(&mut g, |e| e.dice(0, &[ready(2), ready(3)]));
    assert_refused!(&mut g, "2@ea2", Refusal::CannotPay(_));
    edit(&mut g, |e| {
        e.good(0, Good::Gold, 1)
            .dice(1, &[on(Space::site(0, 1), 6)])
    });
    assert_refused!(&mut g, "2@ea2", Refusal::SiteTaken);
    act(&mut g, "2@ea3");
    assert_eq!(g.player(0).count(Good::Gold), 0);
    // A built market's sites are closed.
    let mut g = fresh(4);
    edit(&mut g, |e| {
        e.built(1, 0, &[1])
            .dice(0, &[ready(2)])
            .good(0, Good::Stone, 1)
    });
    assert_refused!(&mut g, "2@eb1", Refusal::MarketBuilt);
}

#[test]
fn built_markets_open_when_built() {
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    assert_refused!(&mut g, "2@mwa", Refusal::MarketNotBuilt);
    // Courthouse: 4 energy + 1 stone
    edit(&mut g, |e| {
        e.built(4, tile(Penalty::NoPair), &[1])
            .good(0, Good::Energy, 4)
    });
    assert_refused!(&mut g, "2@mwa", Refusal::CannotPay(_));
    edit(&mut g, |e| e.good(0, Good::Stone, 1));
    act(&mut g, "2@mwa");
    assert_eq!(g.territory()[2], vec![0]);
    assert_eq!(g.allegiance()[2], 1);
    assert_eq!(g.player(0).supply, [0; 7]);
}

// --- bumping and doubles

#[test]
fn bumping_returns_and_rerolls_the_die() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.dice(1, &[on(Space::tunnel(Faction::Euphorian), 6)])
            .dice(0, &[ready(2)])
            .good(0, Good::Energy, 1)
    });
    act(&mut g, "2@tun-e");
    act(&mut g, "take gold");
    assert_eq!(
        g.occupants(Space::tunnel(Faction::Euphorian))
            .collect::<Vec<_>>(),
        vec![(0, 0, 2)]
    );
    let values = g.ready_values(1);
    assert_eq!(values.len(), 1);
    assert!((1..=6).contains(&values[0]));
    // Your own worker may be bumped too.
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.dice(0, &[on(Space::ACTIVATE_WATER, 6), ready(2)])
            .good(0, Good::Water, 3)
    });
    act(&mut g, "2@act-w");
    assert_eq!(g.occupants(Space::ACTIVATE_WATER).count(), 1);
    assert_eq!(g.player(0).owned_dice(), 3);
}

#[test]
fn doubles_let_the_same_value_be_placed_again() {
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(0, &[ready(3), ready(3), ready(5)]));
    act(&mut g, "3@gen");
    assert!(matches!(g.pending(), Some(Step::Doubles)));
    assert_refused!(&mut g, "5@aqu", Refusal::NoDoubledDie(5));
    act(&mut g, "3@aqu");
    assert_eq!(g.current(), 1);
    // Stopping early.
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(0, &[ready(3), ready(3)]));
    act(&mut g, "3@gen");
    act(&mut g, "end");
    assert_eq!(g.current(), 1);
    // No doubles: the turn ends after one worker.
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(0, &[ready(3), ready(4)]));
    act(&mut g, "3@gen");
    assert_eq!(g.current(), 1);
}

// --- retrieval

#[test]
fn retrieval_paid_or_with_morale() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.morale(0, 3).dice(
            0,
            &[
                on(Space::area(Faction::Euphorian), 2),
                on(Space::site(0, 1), 5),
            ],
        )
    });
    assert_refused!(&mut g, "ret 4@gen", Refusal::NoWorker { value: 4, .. });
    act(&mut g, "ret 2@gen");
    act(&mut g, "ret 5@ea2");
    assert_refused!(&mut g, "fin food", Refusal::NoGood(Good::Food));
    edit(&mut g, |e| e.good(0, Good::Food, 1));
    act(&mut g, "fin food");
    assert_eq!(g.player(0).morale, 5);
    assert_eq!(g.player(0).count(Good::Food), 0);
    assert!(g
        .player(0)
        .dice
        .iter()
        .all(|d| !matches!(d, DieLoc::Board(..))));
    assert_eq!(g.current(), 1);
    // Free at morale 1.
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.dice(0, &[on(Space::area(Faction::Icarite), 2)])
    });
    retrieve_free(&mut g, &["2@cloud"]);
    assert_eq!(g.player(0).morale, 1);
}

// --- the 18 penalties

#[test]
fn penalty_laboratory_blocks_new_workers_at_two_or_three() {
    let mut g = penalized(Penalty::NoNewWorkers);
    edit(&mut g, |e| {
        e.dice(0, &[ready(2), ready(4)]).good(0, Good::Water, 3)
    });
    act(&mut g, "2@act-w");
    assert_eq!(g.player(0).owned_dice(), 2);
    assert_eq!(g.player(0).morale, 3);
}

#[test]
fn penalty_spa_forbids_bumping_yourself() {
    let mut g = penalized(Penalty::NoSelfBump);
    edit(&mut g, |e| {
        e.dice(0, &[on(Space::ACTIVATE_WATER, 6), ready(2)])
            .good(0, Good::Water, 3)
    });
    assert_refused!(&mut g, "2@act-w", Refusal::Spa);
    edit(&mut g, |e| {
        e.dice(0, &[ready(2)])
            .dice(1, &[on(Space::ACTIVATE_WATER, 6)])
    });
    act(&mut g, "2@act-w");
}

#[test]
fn penalty_courthouse_forbids_the_pair() {
    let mut g = penalized(Penalty::NoPair);
    edit(&mut g, |e| {
        e.morale(0, 3).dice(0, &[ready(2)]).good(0, Good::Bat, 2)
    });
    assert_refused!(
        &mut g,
        "2@art-i",
        Refusal::ArtifactCards { courthouse: true }
    );
    edit(&mut g, |e| e.good(0, Good::Book, 1));
    // Three cards are the only way left: paid at once.
    act(&mut g, "2@art-i");
    assert_eq!(g.player(0).hand_size(), 0);
}

#[test]
fn penalty_plaza_forbids_markets_without_your_star() {
    let mut g = penalized(Penalty::NoForeignBuiltMarket);
    edit(&mut g, |e| {
        e.good(0, Good::Water, 4)
            .good(0, Good::Clay, 1)
            .dice(0, &[ready(2)])
    });
    assert_refused!(&mut g, "2@mwb", Refusal::Plaza);
}

#[test]
fn penalty_fountain_forbids_doubles() {
    let mut g = penalized(Penalty::NoDoubles);
    edit(&mut g, |e| e.dice(0, &[ready(3), ready(3)]));
    act(&mut g, "3@gen");
    assert_eq!(g.current(), 1);
}

#[test]
fn penalty_lounge_forbids_building_beside_others() {
    let mut g = penalized(Penalty::NoSharedConstruction);
    edit(&mut g, |e| {
        e.dice(1, &[on(Space::site(0, 1), 3)])
            .dice(0, &[ready(2)])
            .good(0, Good::Gold, 1)
    });
    assert_refused!(&mut g, "2@ea3", Refusal::Lounge);
    act(&mut g, "2@eb2");
}

#[test]
fn penalty_academy_is_recorded_for_part_two() {
    // No abilities exist yet; the penalty is known and blocks nothing on the board.
    let mut g = penalized(Penalty::NoAbilities);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@gen");
}

#[test]
fn penalty_cafeteria_makes_free_retrieval_cost_two() {
    let mut g = penalized(Penalty::CostlyRetrieval);
    edit(&mut g, |e| {
        e.morale(0, 4)
            .dice(0, &[on(Space::area(Faction::Euphorian), 2)])
    });
    retrieve_free(&mut g, &["2@gen"]);
    assert_eq!(g.player(0).morale, 2);
}

#[test]
fn penalty_apothecary_closes_icarus() {
    let mut g = penalized(Penalty::NoIcarus);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Gold, 3));
    assert_refused!(&mut g, "2@cloud", Refusal::Apothecary);
    assert_refused!(&mut g, "2@nimbus", Refusal::Apothecary);
    act(&mut g, "2@aqu");
}

#[test]
fn penalty_theater_adds_knowledge_per_star() {
    let mut g = penalized(Penalty::KnowledgePerStar);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Gold, 3));
    act(&mut g, "2@nimbus");
    assert_eq!(g.player(0).knowledge, 4);
}

#[test]
fn penalty_registry_removes_tier_bonuses() {
    let mut g = penalized(Penalty::NoTierBonus);
    edit(&mut g, |e| {
        e.recruits(0, &[(Recruit::Ben, true)])
            .allegiance(Faction::from_index(0), 6)
            .dice(0, &[ready(1), ready(2)])
    });
    act(&mut g, "1@gen");
    assert_eq!(g.player(0).count(Good::Energy), 1);
}

#[test]
fn penalty_arena_allows_one_worker_per_area() {
    let mut g = penalized(Penalty::OneWorkerPerArea);
    edit(&mut g, |e| {
        e.dice(0, &[on(Space::area(Faction::Wastelander), 1), ready(2)])
    });
    assert_refused!(&mut g, "2@farm", Refusal::Arena);
    act(&mut g, "2@gen");
}

#[test]
fn roll_penalties_cost_a_good_per_matching_die() {
    for face in 1..=6u8 {
        let (mut seen, mut lost) = (false, false);
        for k in 0..100 {
            // Two dice and knowledge 1 stay below the knowledge limit; retrieving them
            // rolls both.
            let mut g = penalized(Penalty::RollLoss(face));
            edit(&mut g, |e| {
                e.good(0, Good::Gold, 10)
                    .good(0, Good::Food, 10)
                    .knowledge(0, 1)
                    .morale(0, 3)
                    .dice(
                        0,
                        &[
                            on(Space::area(Faction::Euphorian), 1),
                            on(Space::area(Faction::Subterran), 1),
                        ],
                    )
                    .reseed(k)
            });
            retrieve_free(&mut g, &["1@gen", "1@aqu"]);
            let matching = g.ready_values(0).iter().filter(|&&v| v == face).count() as u8;
            match g.pending() {
                Some(Step::Lose { seat: 0, n }) => {
                    assert_eq!(*n, matching);
                    seen = true;
                    // The loss is the owner's choice, one good at a time.
                    if !lost {
                        assert_eq!(g.to_act(), Some(0));
                        act(&mut g, "lose food");
                        assert_eq!(g.player(0).count(Good::Food), 9);
                        assert_eq!(g.player(0).count(Good::Gold), 10);
                        lost = true;
                    }
                }
                None => assert_eq!(matching, 0),
                other => panic!("{other:?}"),
            }
        }
        assert!(seen, "face {face} never rolled");
    }
}

#[test]
fn a_star_on_the_tile_lifts_its_penalty() {
    let mut g = penalized(Penalty::NoIcarus);
    let m = 5;
    edit(&mut g, |e| e.market_star(m, 0));
    assert!(!g.penalized(0, Penalty::NoIcarus));
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
}

#[test]
fn a_payment_with_one_way_makes_itself() {
    // Three different cards are the only way to pay the artifact market.
    let three = |legacy_actions: bool| {
        let g = fresh_with(Config {
            legacy_actions,
            ..Config::players(3)
        });
        g.edit()
            .morale(0, 4)
            .dice(0, &[ready(3)])
            .good(0, Good::Book, 1)
            .good(0, Good::Bat, 1)
            .good(0, Good::Bear, 1)
            .build()
            .expect("a possible position")
    };
    let mut g = three(false);
    act(&mut g, "3@art-e");
    assert_eq!(g.player(0).hand_size(), 0);
    assert_eq!(g.territory()[0], vec![0]);
    // Games made before issue 16 paid card by card.
    let mut g = three(true);
    act(&mut g, "3@art-e");
    assert_eq!(legal(&g), vec!["pay book", "pay bear", "pay bat"]);
    act(&mut g, "pay bear");
    act(&mut g, "pay book");
    assert_eq!(g.player(0).hand_size(), 0);
    // A pair or three cards: two ways, paid card by card.
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.morale(0, 4)
            .dice(0, &[ready(3)])
            .good(0, Good::Game, 2)
            .good(0, Good::Bat, 1)
    });
    act(&mut g, "3@art-e");
    assert_eq!(legal(&g), vec!["pay game", "pay bat"]);
}
