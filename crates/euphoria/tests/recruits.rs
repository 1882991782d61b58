//! The 48 recruit abilities: each one firing, and each one where it must not (face down,
//! the Academy penalty, or its condition unmet); 1st-edition variants where they differ.
//! Tests are named after the recruit's key (`Recruit::key`).

use crate::common;

use common::*;
use engine::prelude::*;
use euphoria::cards::*;
use euphoria::{Answer, Config, DieLoc, Edition, Euphoria, Refusal, Step};

fn fresh(players: usize) -> Euphoria {
    fresh_with(Config::players(players))
}

fn fresh_v1() -> Euphoria {
    fresh_with(Config {
        edition: Edition::V1,
        ..Config::players(3)
    })
}

/// [`bare`], with every seat at knowledge 3 and morale 1.
fn fresh_with(config: Config) -> Euphoria {
    let mut g = bare(&without_trading_stops(config), 21);
    for s in 0..g.players().len() {
        edit(&mut g, |e| e.knowledge(s, 3).morale(s, 1));
    }
    g
}

/// `seat` holds recruit `id` face up (or down).
fn give(g: &mut Euphoria, seat: usize, id: Recruit, up: bool) {
    let mut held: Vec<(Recruit, bool)> = g
        .player(seat)
        .recruits
        .iter()
        .map(|r| (r.id, r.up))
        .collect();
    held.push((id, up));
    edit(g, |e| e.recruits(seat, &held));
}

/// Seat 0 is under the Academy penalty (built on slot WB with seat 2's star).
fn academy(g: &mut Euphoria) {
    edit(g, |e| e.built(5, tile(Penalty::NoAbilities), &[2]));
    assert!(g.penalized(0, Penalty::NoAbilities));
}

fn asked(g: &Euphoria, seat: usize, id: Recruit) -> bool {
    matches!(g.pending(), Some(Step::Ask { seat: s, id: i, .. }) if *s as usize == seat && *i == id)
}

fn choosing(g: &Euphoria, seat: usize) -> bool {
    matches!(g.pending(), Some(Step::Choose { seat: s, .. }) if *s as usize == seat)
}

const TUN_E: Space = Space(4);
const TUN_S: Space = Space(5);
const GEN: Space = Space(0);
const AQU: Space = Space(1);
const FARM: Space = Space(2);
const CLOUD: Space = Space(3);

/// Seat 1 has a worker showing `v` on the Euphorian tunnel; seat 0 holds `mine` and 1 energy.
fn tunnel_bump(g: &mut Euphoria, v: u8, mine: u8) {
    edit(g, |e| {
        e.dice(1, &[on(TUN_E, v), ready(1)])
            .dice(0, &[ready(mine)])
            .good(0, Good::Energy, 1)
    });
}

/// Seat 0 places on the Euphorian artifact market with a pair of books.
fn artifact_market(g: &mut Euphoria) {
    edit(g, |e| e.dice(0, &[ready(2)]).good(0, Good::Book, 2));
    // Two books are the only way to pay: the payment makes itself.
    act(g, "2@art-e");
}

// --- Icarite

#[test]
fn amanda_fires_on_any_bump() {
    let mut g = fresh(3);
    give(&mut g, 1, Recruit::Amanda, true);
    edit(&mut g, |e| e.good(1, Good::Bliss, 1));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert_eq!(g.to_act(), Some(1));
    assert!(offered(&g, "set 6") && offered(&g, "decline"));
    act(&mut g, "set 6");
    assert!(g.ready_values(1).contains(&6));
    assert_eq!(g.player(1).count(Good::Bliss), 0);
    assert_eq!(g.to_act(), Some(0));
    // 2nd edition: also when its owner bumps themself.
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Amanda, true);
    edit(&mut g, |e| {
        e.good(0, Good::Bliss, 1)
            .good(0, Good::Energy, 1)
            .dice(0, &[on(TUN_E, 2), ready(3)])
    });
    act(&mut g, "3@tun-e");
    assert!(asked(&g, 0, Recruit::Amanda));
}

#[test]
fn amanda_not_face_down_nor_without_bliss() {
    for (up, bliss) in [(false, 1), (true, 0)] {
        let mut g = fresh(3);
        give(&mut g, 1, Recruit::Amanda, up);
        edit(&mut g, |e| e.good(1, Good::Bliss, bliss));
        tunnel_bump(&mut g, 2, 3);
        act(&mut g, "3@tun-e");
        assert_eq!(g.to_act(), Some(0));
        assert!(matches!(g.pending(), Some(Step::TunnelTake(_))));
    }
}

#[test]
fn amanda_v1_only_opponents_and_bliss_to_bumper() {
    let mut g = fresh_v1();
    give(&mut g, 1, Recruit::Amanda, true);
    edit(&mut g, |e| e.good(1, Good::Bliss, 1));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "set 4");
    assert_eq!(g.player(0).count(Good::Bliss), 1);
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Amanda, true);
    edit(&mut g, |e| {
        e.good(0, Good::Bliss, 1)
            .good(0, Good::Energy, 1)
            .dice(0, &[on(TUN_E, 2), ready(3)])
    });
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Amanda));
}

#[test]
fn flavio_fires_on_a_market() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Flavio, true);
    artifact_market(&mut g);
    assert!(asked(&g, 0, Recruit::Flavio));
    act(&mut g, "use flavio");
    assert_eq!(g.player(0).knowledge, 4);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn flavio_not_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Flavio, true);
    academy(&mut g);
    artifact_market(&mut g);
    assert!(!asked(&g, 0, Recruit::Flavio));
}

#[test]
fn flavio_v1_on_bumping_at_a_market() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Flavio, true);
    edit(&mut g, |e| e.morale(0, 3));
    artifact_market(&mut g);
    assert!(!asked(&g, 0, Recruit::Flavio), "v1: no bump, no trigger");
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Flavio, true);
    edit(&mut g, |e| {
        e.morale(0, 3).dice(
            1,
            &[on(Space::artifact_market(Faction::Euphorian), 4), ready(1)],
        )
    });
    artifact_market(&mut g);
    assert!(asked(&g, 0, Recruit::Flavio));
    act(&mut g, "use flavio");
    assert_eq!(g.player(0).morale, 1);
    assert_eq!(g.player(0).hand_size(), 1);
}

fn retrieve_setup(g: &mut Euphoria, dice: &[DieLoc]) {
    edit(g, |e| e.dice(0, dice));
}

#[test]
fn gidget_fires_on_bliss_retrieval() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Gidget, true);
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    edit(&mut g, |e| e.good(0, Good::Bliss, 1));
    act(&mut g, "ret 1@gen");
    act(&mut g, "fin bliss");
    assert!(asked(&g, 0, Recruit::Gidget));
    act(&mut g, "use gidget");
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (1, 1));
}

#[test]
fn gidget_declined_or_face_down_gives_morale() {
    for up in [true, false] {
        let mut g = fresh(3);
        give(&mut g, 0, Recruit::Gidget, up);
        retrieve_setup(&mut g, &[on(GEN, 1)]);
        edit(&mut g, |e| e.good(0, Good::Bliss, 1));
        act(&mut g, "ret 1@gen");
        act(&mut g, "fin bliss");
        if up {
            act(&mut g, "decline");
        }
        assert_eq!((g.player(0).knowledge, g.player(0).morale), (3, 3));
    }
}

fn courthouse_on_ea(g: &mut Euphoria) {
    // Courthouse of Hasty Judgment: 4 energy + 1 stone.
    edit(g, |e| {
        e.built(0, tile(Penalty::NoPair), &[1])
            .dice(0, &[ready(2)])
            .good(0, Good::Energy, 4)
            .good(0, Good::Bliss, 1)
    });
}

#[test]
fn josh_pays_bliss_for_the_resource() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Josh, true);
    courthouse_on_ea(&mut g);
    act(&mut g, "2@mea");
    assert_eq!(g.player(0).count(Good::Bliss), 0);
    assert_eq!(g.player(0).count(Good::Energy), 0);
    assert_eq!(g.territory()[0], vec![0]);
}

#[test]
fn josh_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Josh, false);
    courthouse_on_ea(&mut g);
    assert_refused!(&mut g, "2@mea", Refusal::CannotPay(_));
}

#[test]
fn kaden_opens_tunnel_ends_for_knowledge() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Kaden, true);
    edit(&mut g, |e| {
        e.miner(Faction::from_index(0), 9).dice(0, &[ready(2)])
    });
    act(&mut g, "2@end-e");
    assert_eq!(g.player(0).knowledge, 5);
    assert_eq!(g.player(0).count(Good::Water), 3);
}

#[test]
fn kaden_not_without_knowledge_room_or_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Kaden, true);
    edit(&mut g, |e| {
        e.miner(Faction::from_index(0), 9)
            .dice(0, &[ready(2)])
            .knowledge(0, 5)
    });
    assert_refused!(&mut g, "2@end-e", Refusal::TunnelRecruit(_));
    edit(&mut g, |e| e.knowledge(0, 3));
    academy(&mut g);
    assert_refused!(&mut g, "2@end-e", Refusal::TunnelRecruit(_));
}

#[test]
fn lee_fires_when_bumping_an_opponent() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Lee, true);
    edit(&mut g, |e| e.morale(0, 2));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(asked(&g, 0, Recruit::Lee));
    act(&mut g, "use lee");
    assert_eq!(g.player(0).morale, 1);
    assert_eq!(g.player(1).knowledge, 4);
    assert!(!offered(&g, "choose gold"));
    act(&mut g, "choose bliss");
    assert_eq!(g.player(0).count(Good::Bliss), 1);
}

#[test]
fn lee_not_at_morale_one() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Lee, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Lee));
}

#[test]
fn matthew_pays_the_tunnel_with_knowledge() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Matthew, true);
    tunnel_bump(&mut g, 2, 3);
    edit(&mut g, |e| e.good(0, Good::Energy, 0));
    // No energy: Matthew is the only way, so it is used at once.
    act(&mut g, "3@tun-e");
    assert_eq!(g.player(0).knowledge, 4);
    // With energy it is a choice.
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Matthew, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(asked(&g, 0, Recruit::Matthew));
    act(&mut g, "decline");
    assert_eq!(g.player(0).count(Good::Energy), 0);
    assert_eq!(g.player(0).knowledge, 3);
}

#[test]
fn matthew_not_without_a_bump() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Matthew, true);
    edit(&mut g, |e| e.dice(0, &[ready(3)]));
    assert_refused!(&mut g, "3@tun-e", Refusal::CannotPay(_));
}

#[test]
fn maxime_fires_when_bumping_an_opponent() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Maxime, true);
    edit(&mut g, |e| e.morale(0, 3));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use maxime");
    assert_eq!(g.player(0).morale, 1);
    assert_eq!(g.player(0).hand_size(), 1);
    assert_eq!(g.player(1).knowledge, 4);
}

#[test]
fn maxime_not_on_own_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Maxime, true);
    edit(&mut g, |e| {
        e.morale(0, 3)
            .good(0, Good::Energy, 1)
            .dice(0, &[on(TUN_E, 2), ready(3)])
    });
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Maxime));
}

#[test]
fn rebecca_fires_when_bumping_an_opponent() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Rebecca, true);
    edit(&mut g, |e| e.morale(0, 3));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use rebecca");
    act(&mut g, "choose stone");
    assert_eq!(g.player(0).count(Good::Stone), 1);
    assert_eq!(g.player(1).knowledge, 4);
}

#[test]
fn rebecca_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Rebecca, false);
    edit(&mut g, |e| e.morale(0, 3));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Rebecca));
}

#[test]
fn sarinee_fires_alone_on_the_cloud_mine() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Sarinee, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
    assert!(choosing(&g, 0));
    act(&mut g, "choose bliss");
    assert_eq!(g.player(0).count(Good::Bliss), 2);
}

#[test]
fn sarinee_not_when_not_alone() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Sarinee, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(CLOUD, 1), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@cloud");
    assert!(!choosing(&g, 0));
}

#[test]
fn sheppard_sacrifices_on_retrieval_and_draws_on_new_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Sheppard, true);
    retrieve_setup(&mut g, &[on(GEN, 1), on(AQU, 2)]);
    retrieve_free(&mut g, &["1@gen"]);
    act(&mut g, "use sheppard");
    act(&mut g, "choose clay");
    assert_eq!(g.player(0).owned_dice(), 1);
    assert_eq!(g.player(0).count(Good::Bliss), 4);
    assert_eq!(g.player(0).count(Good::Clay), 1);
    // A new worker: lose 2 morale to draw.
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Sheppard, true);
    edit(&mut g, |e| e.dice(0, &[ready(1)]).good(0, Good::Water, 3));
    act(&mut g, "1@act-w");
    assert!(asked(&g, 0, Recruit::Sheppard));
    act(&mut g, "use sheppard-new");
    assert_eq!(g.player(0).morale, 1);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn sheppard_never_the_last_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Sheppard, true);
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    retrieve_free(&mut g, &["1@gen"]);
    assert!(!asked(&g, 0, Recruit::Sheppard));
    assert_eq!(g.player(0).owned_dice(), 1);
}

#[test]
fn zong_fires_on_the_cloud_mine() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Zong, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
    act(&mut g, "use zong");
    assert_eq!(g.player(0).knowledge, 4);
    assert_eq!(g.player(0).hand_size(), 1);
    assert_eq!(g.player(1).count(Good::Bliss), 1);
    assert_eq!(g.player(2).count(Good::Bliss), 1);
}

#[test]
fn zong_not_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Zong, true);
    academy(&mut g);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
    assert!(!asked(&g, 0, Recruit::Zong));
}

#[test]
fn zong_v1_gives_water_or_energy_to_the_empty_handed() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Zong, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
    assert!(choosing(&g, 0));
    act(&mut g, "choose water");
    assert_eq!(g.player(0).count(Good::Water), 1);
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Zong, true);
    edit(&mut g, |e| e.good(0, Good::Gold, 1).dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
    assert!(!choosing(&g, 0));
}

// --- Euphorian

/// Seat 0 retrieves one die next to an available 4 until the roll makes a pair (or not).
fn retrieve_until(pair: bool, setup: impl Fn(&mut Euphoria)) -> Euphoria {
    for k in 0..200 {
        let mut g = fresh(3);
        setup(&mut g);
        edit(&mut g, |e| e.dice(0, &[on(GEN, 1), ready(4)]));
        edit(&mut g, |e| e.reseed(k));
        retrieve_free(&mut g, &["1@gen"]);
        let values = g.ready_values(0);
        if (values.iter().filter(|&&v| v == 4).count() >= 2) == pair {
            return g;
        }
    }
    panic!("no such roll");
}

#[test]
fn ben_fires_on_another_players_pair() {
    let g = retrieve_until(true, |g| {
        give(g, 1, Recruit::Ben, true);
        edit(g, |e| e.morale(1, 3));
    });
    assert!(asked(&g, 1, Recruit::Ben));
    let mut g = g;
    act(&mut g, "use ben");
    act(&mut g, "choose gold");
    assert_eq!(g.player(1).morale, 1);
    assert_eq!(g.player(1).count(Good::Gold), 1);
}

#[test]
fn ben_not_without_a_pair_or_morale() {
    let g = retrieve_until(false, |g| {
        give(g, 1, Recruit::Ben, true);
        edit(g, |e| e.morale(1, 3));
    });
    assert!(!asked(&g, 1, Recruit::Ben));
    let g = retrieve_until(true, |g| give(g, 1, Recruit::Ben, true));
    assert!(!asked(&g, 1, Recruit::Ben));
}

#[test]
fn bradley_draws_two_keeps_one() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Bradley, true);
    artifact_market(&mut g);
    act(&mut g, "use bradley");
    assert_eq!(g.player(0).knowledge, 5);
    assert!(matches!(g.pending(), Some(Step::Shed { n: 1, .. })));
    let kind = legal(&g)[0].clone();
    act(&mut g, &kind);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn bradley_not_without_knowledge_room() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Bradley, true);
    edit(&mut g, |e| e.knowledge(0, 5));
    artifact_market(&mut g);
    assert!(!asked(&g, 0, Recruit::Bradley));
}

fn esme_star(g: &mut Euphoria, card: Good) {
    give(g, 0, Recruit::Esme, true);
    edit(g, |e| {
        e.knowledge(0, 4)
            .morale(0, 3)
            .dice(0, &[ready(2)])
            .good(0, Good::Bat, 2)
            .good(0, card, 1)
    });
    act(g, "2@art-e");
    act(g, "pay bat");
    act(g, "pay bat");
    assert!(asked(g, 0, Recruit::Esme));
    act(g, &format!("discard {card}"));
}

#[test]
fn esme_fires_on_a_star() {
    let mut g = fresh(3);
    esme_star(&mut g, Good::Book);
    assert_eq!(g.player(0).count(Good::Energy), 2);
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (2, 5));
    let mut g = fresh(3);
    esme_star(&mut g, Good::Bear);
    assert_eq!(g.player(0).count(Good::Energy), 1);
    act(&mut g, "choose morale");
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (4, 4));
}

#[test]
fn esme_not_without_cards_nor_for_tier_four_stars() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Esme, true);
    edit(&mut g, |e| {
        e.good(0, Good::Book, 2)
            .allegiance(Faction::from_index(0), 11)
            .dice(0, &[ready(2)])
    });
    act(&mut g, "2@gen");
    assert!(g.player(0).recruits[0].star);
    assert!(!asked(&g, 0, Recruit::Esme));
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Esme, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Book, 2));
    act(&mut g, "2@art-e");
    assert!(!asked(&g, 0, Recruit::Esme));
}

#[test]
fn esme_v1_book_is_an_ordinary_card() {
    let mut g = fresh_v1();
    esme_star(&mut g, Good::Book);
    assert_eq!(g.player(0).count(Good::Energy), 1);
    assert!(choosing(&g, 0));
}

#[test]
fn gary_fires_on_a_matching_die() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Gary, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(GEN, 2), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@gen");
    act(&mut g, "choose energy");
    assert_eq!(g.player(0).count(Good::Energy), 2);
}

#[test]
fn gary_not_on_a_different_value() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Gary, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(GEN, 1), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@gen");
    assert!(!choosing(&g, 0));
}

#[test]
fn jefferson_retrieves_with_energy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Jefferson, true);
    edit(&mut g, |e| e.morale(0, 3).good(0, Good::Energy, 1));
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    act(&mut g, "ret 1@gen");
    act(&mut g, "fin energy");
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (2, 4));
}

#[test]
fn jefferson_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Jefferson, false);
    edit(&mut g, |e| e.good(0, Good::Energy, 1));
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    act(&mut g, "ret 1@gen");
    assert_refused!(&mut g, "fin energy", Refusal::EnergyNeedsJefferson);
}

#[test]
fn julia_fixes_the_bumped_die() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Julia, true);
    edit(&mut g, |e| e.morale(0, 2));
    tunnel_bump(&mut g, 2, 5);
    act(&mut g, "5@tun-e");
    assert!(asked(&g, 0, Recruit::Julia));
    act(&mut g, "use julia");
    act(&mut g, "choose gold");
    assert_eq!(g.player(0).morale, 1);
    assert!(g.ready_values(1).contains(&5));
}

#[test]
fn julia_not_at_morale_one() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Julia, true);
    tunnel_bump(&mut g, 2, 5);
    act(&mut g, "5@tun-e");
    assert!(!asked(&g, 0, Recruit::Julia));
}

#[test]
fn julia_v1_needs_equal_values_and_two_morale() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Julia, true);
    edit(&mut g, |e| e.morale(0, 3));
    tunnel_bump(&mut g, 2, 5);
    act(&mut g, "5@tun-e");
    assert!(!asked(&g, 0, Recruit::Julia));
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Julia, true);
    edit(&mut g, |e| e.morale(0, 3));
    tunnel_bump(&mut g, 5, 5);
    act(&mut g, "5@tun-e");
    act(&mut g, "use julia");
    act(&mut g, "choose gold");
    assert_eq!(g.player(0).morale, 1);
}

#[test]
fn katy_fires_without_artifacts() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Katy, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@gen");
    assert_eq!(g.player(0).count(Good::Food), 1);
}

#[test]
fn katy_not_with_an_artifact() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Katy, true);
    edit(&mut g, |e| e.good(0, Good::Bat, 1).dice(0, &[ready(2)]));
    act(&mut g, "2@gen");
    assert_eq!(g.player(0).count(Good::Food), 0);
}

#[test]
fn laura_gives_gold_to_draw_two() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Laura, true);
    edit(&mut g, |e| e.good(0, Good::Gold, 1));
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use laura");
    assert_eq!(g.player(1).count(Good::Gold), 1);
    assert_eq!(g.player(0).hand_size(), 2);
}

#[test]
fn laura_not_without_gold() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Laura, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Laura));
}

#[test]
fn michael_pays_any_resource_and_gold_rewards() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Michael, true);
    edit(&mut g, |e| e.good(0, Good::Gold, 1).dice(0, &[ready(2)]));
    // ea1 prints clay.
    act(&mut g, "2@ea1");
    assert_eq!(g.player(0).count(Good::Gold), 0);
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (4, 2));
}

#[test]
fn michael_not_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Michael, true);
    academy(&mut g);
    edit(&mut g, |e| e.good(0, Good::Gold, 1).dice(0, &[ready(2)]));
    assert_refused!(&mut g, "2@ea1", Refusal::CannotPay(_));
}

#[test]
fn nakagawa_advances_euphorian_allegiance_on_a_site() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Nakagawa, true);
    edit(&mut g, |e| e.good(0, Good::Clay, 1).dice(0, &[ready(2)]));
    act(&mut g, "2@ea1");
    act(&mut g, "use nakagawa");
    assert_eq!(g.allegiance()[0], 1);
}

#[test]
fn nakagawa_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Nakagawa, false);
    edit(&mut g, |e| e.good(0, Good::Clay, 1).dice(0, &[ready(2)]));
    act(&mut g, "2@ea1");
    assert!(!asked(&g, 0, Recruit::Nakagawa));
}

#[test]
fn nakagawa_v1_sacrifices_for_an_extra_star() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Nakagawa, true);
    edit(&mut g, |e| {
        e.dice(0, &[ready(2), ready(5)]).good(0, Good::Book, 2)
    });
    act(&mut g, "2@art-e");
    act(&mut g, "use nakagawa");
    assert_eq!(g.territory()[0], vec![0, 0]);
    assert_eq!(g.player(0).owned_dice(), 1);
    // Never the last worker.
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Nakagawa, true);
    artifact_market(&mut g);
    assert!(!asked(&g, 0, Recruit::Nakagawa));
}

/// Seat 0 completes market EA (3 players: 2 sites) with seat 0's workers.
fn complete_ea(g: &mut Euphoria) {
    edit(g, |e| {
        e.dice(0, &[on(Space::site(0, 1), 3), ready(2)])
            .good(0, Good::Clay, 1)
    });
    act(g, "2@ea1");
}

#[test]
fn ray_fires_on_every_completion() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Ray, true);
    complete_ea(&mut g);
    assert!(g.market(0).built);
    assert_eq!(g.player(0).morale, 3);
    let mut g = fresh(3);
    give(&mut g, 1, Recruit::Ray, true);
    complete_ea(&mut g);
    assert_eq!(g.player(1).knowledge, 1);
}

#[test]
fn ray_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 1, Recruit::Ray, false);
    complete_ea(&mut g);
    assert_eq!(g.player(1).knowledge, 3);
}

#[test]
fn yordy_sets_a_retrieved_die_for_energy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Yordy, true);
    edit(&mut g, |e| e.morale(0, 3).good(0, Good::Energy, 1));
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    retrieve_free(&mut g, &["1@gen"]);
    act(&mut g, "set 6");
    assert_eq!(g.player(1 - 1).count(Good::Energy), 0);
    assert_eq!(g.ready_values(0), vec![6]);
}

#[test]
fn yordy_not_on_a_paid_retrieval() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Yordy, true);
    edit(&mut g, |e| {
        e.good(0, Good::Energy, 1).good(0, Good::Food, 1)
    });
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    act(&mut g, "ret 1@gen");
    act(&mut g, "fin food");
    assert!(!asked(&g, 0, Recruit::Yordy));
}

#[test]
fn yordy_v1_free_retrieval_costs_no_morale_with_two_workers() {
    for (dice, morale) in [(2, 3), (3, 2)] {
        let mut g = fresh_v1();
        give(&mut g, 0, Recruit::Yordy, true);
        edit(&mut g, |e| e.morale(0, 3));
        let mut d = vec![on(GEN, 1), ready(1)];
        if dice == 3 {
            d.push(ready(2));
        }
        retrieve_setup(&mut g, &d);
        retrieve_free(&mut g, &["1@gen"]);
        assert_eq!(g.player(0).morale, morale);
    }
}

// --- Wastelander

#[test]
fn brian_pays_food_for_bliss_and_icarus_costs_morale() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Brian, true);
    edit(&mut g, |e| {
        e.morale(0, 2).good(0, Good::Food, 2).dice(0, &[ready(2)])
    });
    act(&mut g, "2@breeze");
    assert_eq!(g.player(0).count(Good::Food), 0);
    assert_eq!(g.player(0).morale, 1);
    assert_eq!(g.player(0).hand_size(), 2);
    // Morale 1: no worker into Icarus.
    edit(&mut g, |e| e.turn(0).dice(0, &[ready(3)]));
    assert_refused!(&mut g, "3@cloud", Refusal::BrianMorale);
    // Food for bliss at a non-Icarite market: knowledge +1, Wastelander allegiance +1.
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Brian, true);
    // Apothecary: 4 bliss + 1 resource
    edit(&mut g, |e| {
        e.built(0, tile(Penalty::NoIcarus), &[1])
            .good(0, Good::Food, 4)
            .good(0, Good::Gold, 1)
            .dice(0, &[ready(2)])
    });
    // Food and gold are the only way to pay: the payment makes itself.
    act(&mut g, "2@mea");
    assert_eq!(g.player(0).count(Good::Food), 0);
    assert_eq!(g.player(0).knowledge, 4);
    assert_eq!(g.allegiance()[2], 1);
}

#[test]
fn brian_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Brian, false);
    edit(&mut g, |e| e.good(0, Good::Food, 2).dice(0, &[ready(2)]));
    assert_refused!(&mut g, "2@breeze", Refusal::CannotPay(_));
}

#[test]
fn brian_v1_icarus_is_free_of_morale() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Brian, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@cloud");
    assert_eq!(g.player(0).morale, 1);
}

#[test]
fn flartner_pays_a_site_with_an_artifact() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Flartner, true);
    edit(&mut g, |e| e.good(0, Good::Bat, 1).dice(0, &[ready(2)]));
    act(&mut g, "2@ea1");
    assert_eq!(g.player(0).hand_size(), 0);
    assert_eq!(g.player(0).morale, 2);
}

#[test]
fn flartner_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Flartner, false);
    edit(&mut g, |e| e.good(0, Good::Bat, 1).dice(0, &[ready(2)]));
    assert_refused!(&mut g, "2@ea1", Refusal::CannotPay(_));
}

/// Seat 0 takes an artifact from the Euphorian tunnel.
fn tunnel_draw(g: &mut Euphoria) {
    edit(g, |e| {
        e.dice(0, &[ready(2)]).good(0, Good::Energy, 1).morale(0, 6)
    });
    act(g, "2@tun-e");
    act(g, "draw");
}

#[test]
fn geek_draws_two_more_then_discards_two() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Geek, true);
    tunnel_draw(&mut g);
    act(&mut g, "use geek");
    assert_eq!(g.player(0).knowledge, 4);
    assert_eq!(g.player(0).hand_size(), 3);
    for _ in 0..2 {
        let d = legal(&g)[0].clone();
        act(&mut g, &d);
    }
    assert_eq!(g.player(0).hand_size(), 1);
    assert!(
        g.stack().is_empty() || !asked(&g, 0, Recruit::Geek),
        "once per turn"
    );
}

#[test]
fn geek_not_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Geek, true);
    academy(&mut g);
    tunnel_draw(&mut g);
    assert!(!asked(&g, 0, Recruit::Geek));
}

#[test]
fn geek_v1_one_more_for_two_knowledge() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Geek, true);
    tunnel_draw(&mut g);
    act(&mut g, "use geek");
    assert_eq!(g.player(0).knowledge, 5);
    assert_eq!(g.player(0).hand_size(), 2);
    assert!(matches!(g.pending(), Some(Step::Shed { n: 1, .. })));
}

#[test]
fn ian_fires_without_resources() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Ian, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@farm");
    assert_eq!(g.player(0).count(Good::Water), 1);
}

#[test]
fn ian_not_with_a_resource() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Ian, true);
    edit(&mut g, |e| e.good(0, Good::Stone, 1).dice(0, &[ready(2)]));
    act(&mut g, "2@farm");
    assert_eq!(g.player(0).count(Good::Water), 0);
}

#[test]
fn jacko_pays_the_ark_with_one_card() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Jacko, true);
    edit(&mut g, |e| {
        e.morale(0, 6)
            .good(0, Good::Bat, 1)
            .good(0, Good::Bear, 1)
            .good(0, Good::Book, 1)
            .dice(0, &[ready(2)])
    });
    act(&mut g, "2@art-w");
    act(&mut g, "pay bat");
    assert!(offered(&g, "pay book"));
    act(&mut g, "use jacko");
    assert_eq!(g.player(0).hand_size(), 2);
    assert_eq!(g.territory()[2], vec![0]);
    assert_eq!(g.player(1).hand_size(), 1);
    assert_eq!(g.player(2).hand_size(), 1);
}

#[test]
fn jacko_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Jacko, false);
    edit(&mut g, |e| e.good(0, Good::Bat, 1).dice(0, &[ready(2)]));
    assert_refused!(&mut g, "2@art-w", Refusal::ArtifactCards { .. });
}

#[test]
fn jacko_v1_pays_two_cards_for_an_extra_star() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Jacko, true);
    edit(&mut g, |e| {
        e.morale(0, 6)
            .good(0, Good::Book, 2)
            .good(0, Good::Bat, 1)
            .good(0, Good::Bear, 1)
            .good(0, Good::Glasses, 1)
            .dice(0, &[ready(2)])
    });
    act(&mut g, "2@art-e");
    act(&mut g, "pay book");
    act(&mut g, "pay book");
    act(&mut g, "use jacko");
    act(&mut g, "discard bat");
    act(&mut g, "discard bear");
    assert_eq!(g.player(0).hand_size(), 1);
    assert_eq!(g.territory()[0], vec![0, 0]);
    // Not with fewer than two cards left.
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Jacko, true);
    artifact_market(&mut g);
    assert!(!asked(&g, 0, Recruit::Jacko));
}

#[test]
fn artist_fires_with_the_highest_die() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Artist, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(Space::site(0, 1), 3), ready(1)])
            .good(0, Good::Clay, 1)
            .dice(0, &[ready(4)])
    });
    act(&mut g, "4@ea1");
    act(&mut g, "use artist");
    assert_eq!(g.player(0).knowledge, 5);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn artist_not_when_outvalued() {
    let mut g = fresh(4);
    give(&mut g, 0, Recruit::Artist, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(Space::site(0, 1), 4), ready(1)])
            .good(0, Good::Clay, 1)
            .dice(0, &[ready(4)])
    });
    act(&mut g, "4@ea1");
    assert!(!asked(&g, 0, Recruit::Artist));
}

#[test]
fn kyle_fires_alone() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Kyle, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@aqu");
    act(&mut g, "use kyle");
    assert_eq!(g.player(0).knowledge, 5);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn kyle_not_when_not_alone() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Kyle, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(AQU, 1), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@aqu");
    assert!(!asked(&g, 0, Recruit::Kyle));
}

#[test]
fn nick_gains_morale_with_knowledge() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Nick, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(GEN, 3), ready(1)]).dice(0, &[ready(6)])
    });
    act(&mut g, "6@gen");
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (4, 2));
}

#[test]
fn nick_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Nick, false);
    edit(&mut g, |e| {
        e.dice(1, &[on(GEN, 3), ready(1)]).dice(0, &[ready(6)])
    });
    act(&mut g, "6@gen");
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (4, 1));
}

#[test]
fn pete_sacrifices_on_retrieval_and_draws_on_new_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Pete, true);
    retrieve_setup(&mut g, &[on(GEN, 1), on(AQU, 2)]);
    retrieve_free(&mut g, &["1@gen", "2@aqu"]);
    act(&mut g, "use pete");
    act(&mut g, "choose gold");
    assert_eq!(g.player(0).owned_dice(), 1);
    assert_eq!(g.player(0).count(Good::Food), 4);
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Pete, true);
    edit(&mut g, |e| e.good(0, Good::Water, 3).dice(0, &[ready(1)]));
    act(&mut g, "1@act-w");
    act(&mut g, "use pete-new");
    assert_eq!(g.player(0).knowledge, 5);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn pete_not_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Pete, true);
    academy(&mut g);
    retrieve_setup(&mut g, &[on(GEN, 1), on(AQU, 2)]);
    retrieve_free(&mut g, &["1@gen"]);
    assert!(!asked(&g, 0, Recruit::Pete));
}

#[test]
fn reitz_fires_without_bumping() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Reitz, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Energy, 1));
    act(&mut g, "2@tun-e");
    act(&mut g, "take gold");
    act(&mut g, "use reitz");
    assert_eq!(g.miners()[0], 2);
    assert_eq!(g.player(0).hand_size(), 1);
    assert_eq!(g.player(0).knowledge, 5);
}

#[test]
fn reitz_not_when_bumping() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Reitz, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "take gold");
    assert!(!asked(&g, 0, Recruit::Reitz));
}

#[test]
fn scarby_fires_with_the_highest_die() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Scarby, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(FARM, 1), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@farm");
    act(&mut g, "choose food");
    assert_eq!(g.player(0).count(Good::Food), 2);
}

#[test]
fn scarby_not_on_a_tie() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Scarby, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(FARM, 2), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@farm");
    assert!(!choosing(&g, 0));
}

/// Seat 0 (knowledge 6, a 5 available) retrieves a die until the roll costs a worker.
fn roll_loss(config: Config) -> Euphoria {
    for k in 0..200 {
        let mut g = fresh_with(config.clone());
        give(&mut g, 0, Recruit::Steven, true);
        edit(&mut g, |e| {
            e.knowledge(0, 6)
                .morale(0, 6)
                .dice(0, &[on(GEN, 1), ready(4)])
        });
        edit(&mut g, |e| e.reseed(k));
        retrieve_free(&mut g, &["1@gen"]);
        if g.player(0).owned_dice() == 1 {
            return g;
        }
    }
    panic!("no losing roll");
}

#[test]
fn steven_fires_on_a_roll_loss() {
    let mut g = roll_loss(Config::players(3));
    assert_eq!(g.player(0).hand_size(), 1);
    act(&mut g, "choose stone");
    assert_eq!(g.player(0).count(Good::Stone), 1);
}

#[test]
fn steven_not_on_a_track_loss() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Steven, true);
    edit(&mut g, |e| {
        e.knowledge(0, 5)
            .dice(0, &[ready(6), ready(4)])
            .dice(1, &[on(GEN, 3), ready(1)])
    });
    act(&mut g, "6@gen");
    // Knowledge 6 + the 4 left is below 16: nothing lost, nothing gained.
    assert_eq!(g.player(0).hand_size(), 0);
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Steven, true);
    edit(&mut g, |e| {
        e.knowledge(0, 5)
            .dice(0, &[ready(6), ready(5), ready(5)])
            .dice(1, &[on(GEN, 3), ready(1)])
    });
    act(&mut g, "6@gen");
    assert_eq!(g.player(0).owned_dice(), 2);
    assert_eq!(g.player(0).hand_size(), 0);
}

#[test]
fn steven_v1_any_knowledge_loss() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Steven, true);
    edit(&mut g, |e| {
        e.knowledge(0, 5)
            .morale(0, 6)
            .dice(0, &[ready(6), ready(5), ready(5)])
            .dice(1, &[on(GEN, 3), ready(1)])
    });
    act(&mut g, "6@gen");
    assert_eq!(g.player(0).owned_dice(), 2);
    assert_eq!(g.player(0).hand_size(), 1);
    let mut v1 = Config::players(3);
    v1.edition = Edition::V1;
    let g = roll_loss(v1);
    assert_eq!(g.player(0).hand_size(), 1);
}

// --- Subterran

#[test]
fn andrew_draws_too_on_a_foreign_tunnel() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Andrew, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Energy, 1));
    act(&mut g, "2@tun-e");
    act(&mut g, "take gold");
    assert_eq!(g.player(0).count(Good::Gold), 1);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn andrew_not_on_the_subterran_tunnel() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Andrew, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Water, 1));
    act(&mut g, "2@tun-s");
    act(&mut g, "take stone");
    assert_eq!(g.player(0).hand_size(), 0);
    let _ = TUN_S;
}

#[test]
fn brett_gains_a_resource_at_a_market() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Brett, true);
    artifact_market(&mut g);
    act(&mut g, "use brett");
    act(&mut g, "choose clay");
    assert_eq!(g.player(0).knowledge, 4);
    assert_eq!(g.player(0).count(Good::Clay), 1);
}

#[test]
fn brett_not_on_the_wind_salon() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Brett, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Book, 2));
    act(&mut g, "2@art-i");
    assert!(!asked(&g, 0, Recruit::Brett));
}

#[test]
fn brett_v1_costs_two_knowledge() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Brett, true);
    artifact_market(&mut g);
    act(&mut g, "use brett");
    assert_eq!(g.player(0).knowledge, 5);
}

#[test]
fn chase_sacrifices_for_resources_and_places_a_new_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Chase, true);
    edit(&mut g, |e| {
        e.dice(0, &[ready(2), ready(5)]).good(0, Good::Energy, 1)
    });
    act(&mut g, "2@tun-e");
    act(&mut g, "take gold");
    act(&mut g, "use chase");
    assert_eq!(g.player(0).count(Good::Gold), 3);
    assert_eq!(g.player(0).owned_dice(), 1);
    // A new worker may be placed at once.
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Chase, true);
    edit(&mut g, |e| e.good(0, Good::Water, 3).dice(0, &[ready(1)]));
    act(&mut g, "1@act-w");
    assert_refused!(
        &mut g,
        "use chase",
        Refusal::AnswerWith {
            how: Answer::UseNew,
            ..
        }
    );
    act(&mut g, "use chase-new");
    assert!(matches!(g.pending(), Some(Step::Doubles)));
    let v = g.ready_values(0)[0];
    act(&mut g, &format!("{v}@gen"));
}

// A bare `use chase` for the new worker (before issue 16) is rewritten when an old record
// is loaded: tests/compat.rs.

#[test]
fn chase_never_the_last_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Chase, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]).good(0, Good::Energy, 1));
    act(&mut g, "2@tun-e");
    act(&mut g, "take gold");
    assert!(!asked(&g, 0, Recruit::Chase));
}

#[test]
fn curtis_loses_knowledge_with_morale() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Curtis, true);
    edit(&mut g, |e| e.morale(0, 3));
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    retrieve_free(&mut g, &["1@gen"]);
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (2, 2));
}

#[test]
fn curtis_not_under_academy() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Curtis, true);
    academy(&mut g);
    edit(&mut g, |e| e.morale(0, 3));
    retrieve_setup(&mut g, &[on(GEN, 1)]);
    retrieve_free(&mut g, &["1@gen"]);
    assert_eq!((g.player(0).knowledge, g.player(0).morale), (3, 2));
}

#[test]
fn dave_demolishes_for_resource_and_miner() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Dave, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use dave");
    act(&mut g, "take gold");
    assert_eq!(g.player(0).count(Good::Gold), 2);
    assert_eq!(g.miners()[0], 2);
    assert_eq!(g.player(0).knowledge, 4);
}

#[test]
fn dave_not_without_a_bump() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Dave, true);
    edit(&mut g, |e| e.dice(0, &[ready(3)]).good(0, Good::Energy, 1));
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Dave));
}

#[test]
fn dave_v1_costs_two_knowledge() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Dave, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use dave");
    assert_eq!(g.player(0).knowledge, 5);
}

#[test]
fn faith_fires_without_artifacts() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Faith, true);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@aqu");
    assert_eq!(g.player(0).count(Good::Energy), 1);
}

#[test]
fn faith_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Faith, false);
    edit(&mut g, |e| e.dice(0, &[ready(2)]));
    act(&mut g, "2@aqu");
    assert_eq!(g.player(0).count(Good::Energy), 0);
}

#[test]
fn gambler_draws_another() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Gambler, true);
    tunnel_draw(&mut g);
    act(&mut g, "use gambler");
    let pair = g.player(0).hand.iter().any(|&c| c >= 2);
    assert_eq!(g.player(0).hand_size(), 2);
    assert_eq!(g.player(1).hand_size(), u32::from(pair));
}

#[test]
fn gambler_not_face_down() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Gambler, false);
    tunnel_draw(&mut g);
    assert!(!asked(&g, 0, Recruit::Gambler));
}

#[test]
fn gambler_v1_keeps_only_matches() {
    for k in 0..20 {
        let mut g = fresh_v1();
        edit(&mut g, |e| e.reseed(k));
        give(&mut g, 0, Recruit::Gambler, true);
        tunnel_draw(&mut g);
        act(&mut g, "use gambler");
        assert_eq!(g.player(0).knowledge, 4);
        let h = g.player(0).hand;
        // What is left is matched cards only: 0, 2 or 3 cards, never a lone one.
        assert!(h.iter().all(|&c| c != 1), "{h:?}");
        assert_eq!(g.player(1).hand_size(), 0);
    }
}

#[test]
fn josiah_gives_knowledge_to_others_there() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Josiah, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(FARM, 1), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@farm");
    assert_eq!(g.player(1).knowledge, 4);
    assert_eq!(g.player(2).knowledge, 3);
    assert_eq!(g.player(0).morale, 2);
}

#[test]
fn josiah_not_on_the_aquifer() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Josiah, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(AQU, 1), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@aqu");
    assert_eq!(g.player(1).knowledge, 3);
    assert_eq!(g.player(0).morale, 1);
}

#[test]
fn maggie_fires_on_a_subterran_retrieval() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Maggie, true);
    retrieve_setup(&mut g, &[on(AQU, 1), on(TUN_S, 2)]);
    retrieve_free(&mut g, &["1@aqu", "2@tun-s"]);
    act(&mut g, "choose stone");
    assert_eq!(g.player(0).count(Good::Stone), 1);
}

#[test]
fn maggie_not_when_a_worker_was_elsewhere() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Maggie, true);
    retrieve_setup(&mut g, &[on(AQU, 1), on(GEN, 2)]);
    retrieve_free(&mut g, &["1@aqu", "2@gen"]);
    assert!(!choosing(&g, 0));
}

#[test]
fn phil_spies_on_an_opponent_without_subterrans() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Phil, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use phil");
    assert_eq!(g.player(0).knowledge, 4);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn phil_not_on_an_opponent_with_a_subterran() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Phil, true);
    give(&mut g, 1, Recruit::Maggie, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Phil));
}

#[test]
fn phil_v1_costs_two_knowledge() {
    let mut g = fresh_v1();
    give(&mut g, 0, Recruit::Phil, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use phil");
    assert_eq!(g.player(0).knowledge, 5);
}

#[test]
fn soulless_fires_with_the_unique_lowest_die() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Soulless, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(AQU, 3), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@aqu");
    act(&mut g, "choose water");
    assert_eq!(g.player(0).count(Good::Water), 2);
}

#[test]
fn soulless_not_on_a_tie() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Soulless, true);
    edit(&mut g, |e| {
        e.dice(1, &[on(AQU, 2), ready(1)]).dice(0, &[ready(2)])
    });
    act(&mut g, "2@aqu");
    assert!(!choosing(&g, 0));
}

#[test]
fn xander_excavates_under_a_higher_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Xander, true);
    tunnel_bump(&mut g, 5, 3);
    act(&mut g, "3@tun-e");
    act(&mut g, "use xander");
    act(&mut g, "take gold");
    assert_eq!(g.player(0).count(Good::Gold), 2);
}

#[test]
fn xander_not_under_a_lower_worker() {
    let mut g = fresh(3);
    give(&mut g, 0, Recruit::Xander, true);
    tunnel_bump(&mut g, 2, 3);
    act(&mut g, "3@tun-e");
    assert!(!asked(&g, 0, Recruit::Xander));
}

// --- shared rules

#[test]
fn abilities_are_offered_to_the_owner_then_play_returns() {
    let mut g = fresh(3);
    give(&mut g, 2, Recruit::Amanda, true);
    edit(&mut g, |e| {
        e.good(2, Good::Bliss, 1)
            .dice(2, &[on(TUN_E, 2), ready(1)])
            .dice(0, &[ready(3)])
            .good(0, Good::Energy, 1)
    });
    act(&mut g, "3@tun-e");
    assert_eq!(g.to_act(), Some(2));
    assert_refused!(
        &mut g,
        "take gold",
        Refusal::AnswerWith {
            how: Answer::Set,
            ..
        }
    );
    act(&mut g, "decline");
    assert_eq!(g.to_act(), Some(0));
}

#[test]
fn actions_round_trip_as_text() {
    for text in [
        "use amanda",
        "use artist",
        "use gambler",
        "set 3",
        "choose gold",
        "choose morale",
        "choose -knowledge",
        "fin energy",
    ] {
        let a: euphoria::Action = text.parse().expect(text);
        assert_eq!(a.to_string(), text);
    }
    assert!("use nobody".parse::<euphoria::Action>().is_err());
    assert!("set 7".parse::<euphoria::Action>().is_err());
}
