//! The rulebook, section by section: setup, the commodity table, the knowledge check, the
//! hand limit, market completion, allegiance tiers, the dilemma, trading and the end.

use crate::common;

use common::{act, bare, edit, offer, ready, retrieve_free, without_trading_stops};
use engine::prelude::*;
use engine::Viewer;
use euphoria::cards::{market_threshold, Faction, Good, Penalty, Recruit, Space, MARKET_TILES};
use euphoria::{Action, Config, DieLoc, DilemmaState, Euphoria, KnowledgeCheck, Refusal, Step};

/// A game past setup, seat 0 to play, nobody holding recruits or dice.
fn fresh(players: usize) -> Euphoria {
    fresh_with(Config::players(players))
}

fn fresh_with(config: Config) -> Euphoria {
    bare(&without_trading_stops(config), 11)
}

fn players_of(g: &Euphoria) -> usize {
    g.players().len()
}

// --- setup (1.2, 5.1)

#[test]
fn setup_leaves_one_territory_spot_per_player_and_six_hidden_markets() {
    for n in 2..=6 {
        let g = Euphoria::new(&Config::players(n), 3).expect("config");
        for f in Faction::ALL {
            assert_eq!(g.territory_room(f), n);
        }
        assert!(g.markets().iter().all(|m| !m.built));
        assert_eq!(g.box_tiles().len(), 12);
        assert_eq!(g.allegiance(), [0; 4]);
        assert_eq!(g.miners(), [0; 3]);
        assert_eq!(g.artifact_deck().len(), 36);
        assert_eq!(g.recruit_deck().len(), 48 - 4 * n);
        assert!(g.players().iter().all(|p| p.dealt.len() == 4));
        assert_eq!(g.to_act(), Some(0));
        assert!(g
            .view(Viewer::Spectator)
            .markets
            .iter()
            .all(|m| m.tile.is_none()));
    }
}

#[test]
fn recruit_choice_is_secret_until_everyone_chose() {
    let mut g = Euphoria::new(&Config::players(3), 5).expect("config");
    let up = g.player(0).dealt[0];
    let down = g.player(0).dealt[1];
    act(&mut g, &format!("up {up}"));
    act(&mut g, &format!("down {down}"));
    assert_eq!(g.to_act(), Some(1));
    let seen_by_1 = g.view(Viewer::Seat(1));
    assert!(seen_by_1.players[0].recruits.iter().all(|r| r.id.is_none()));
    assert!(seen_by_1.players[0].dealt.is_none());
    let own = g.view(Viewer::Seat(0));
    assert_eq!(own.players[0].recruits[0].id, Some(up));
    // Unchosen cards are refused.
    assert_refused!(&mut g, &format!("up {up}"), Refusal::NotDealt(_));
    for s in 1..3 {
        let a = g.player(s).dealt[2];
        let b = g.player(s).dealt[3];
        act(&mut g, &format!("up {a}"));
        act(&mut g, &format!("down {b}"));
    }
    assert!(g.setup_done());
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(spectator.players[0].recruits[0].id, Some(up));
    assert_eq!(spectator.players[0].recruits[1].id, None);
    // The two unchosen cards of each player went back into the deck (D-02).
    assert_eq!(g.recruit_deck().len(), 48 - 2 * 3);
    for p in g.players() {
        assert_eq!(p.knowledge, 3);
        assert_eq!(p.morale, 1);
        assert_eq!(p.stars_left, 10);
        assert_eq!(p.supply, [0; 7]);
        assert_eq!(p.hand_size(), 0);
        assert_eq!(p.owned_dice(), 2);
        assert_eq!(p.dilemma_state, DilemmaState::Unresolved);
    }
    // The highest starting roll begins.
    let total = |s: usize| g.ready_values(s).iter().map(|&v| v as u32).sum::<u32>();
    let first = g.current();
    assert!((0..3).all(|s| total(s) <= total(first)));
    // Each seat sees its own dilemma, not the others'.
    let v = g.view(Viewer::Seat(2));
    assert!(v.players[2].dilemma.is_some());
    assert!(v.players[0].dilemma.is_none());
}

#[test]
fn published_discard_flag_removes_unchosen_recruits() {
    let config = Config {
        players: 2,
        starting_recruit_discards: euphoria::StartingRecruitDiscards::Discard,
        ..Config::default()
    };
    let g = Euphoria::started(&config, 1).expect("config");
    assert_eq!(g.recruit_box().len(), 4);
    assert_eq!(g.recruit_deck().len(), 48 - 8);
}

#[test]
fn bad_config_lists_problems() {
    let e = Euphoria::new(&Config::players(7), 0).expect_err("7 players");
    assert!(e.problems[0].contains("2 to 6"));
    let parsed: Result<Config, _> = serde_json::from_str(r#"{"players":3,"colour":1}"#);
    assert!(parsed.is_err());
    let parsed: Config =
        serde_json::from_str(r#"{"knowledge_check":"on_roll_only","edition":"v1"}"#).expect("ok");
    assert_eq!(parsed.players, 4);
    assert_eq!(parsed.knowledge_check, KnowledgeCheck::OnRollOnly);
}

// --- commodity areas (3.3)

fn area_total(total_before: &[u8], die: u8) -> Euphoria {
    let mut g = fresh(3);
    let dice: Vec<DieLoc> = total_before
        .iter()
        .map(|&v| DieLoc::Board(Space::area(Faction::Euphorian), v))
        .collect();
    edit(&mut g, |e| e.dice(1, &dice).dice(0, &[ready(die)]));
    act(&mut g, &format!("{die}@gen"));
    g
}

#[test]
fn commodity_table_breakpoints() {
    // 4: one energy and the allegiance track.
    let g = area_total(&[3], 1);
    assert_eq!(g.player(0).count(Good::Energy), 1);
    assert_eq!(g.allegiance()[0], 1);
    assert_eq!(g.player(0).knowledge, 3);
    // 5: one energy, knowledge -1.
    let g = area_total(&[3], 2);
    assert_eq!(g.player(0).count(Good::Energy), 1);
    assert_eq!(g.allegiance()[0], 0);
    assert_eq!(g.player(0).knowledge, 2);
    // 8: still one.
    let g = area_total(&[4, 2], 2);
    assert_eq!(g.player(0).count(Good::Energy), 1);
    assert_eq!(g.player(0).knowledge, 2);
    // 9: two energy, knowledge +1.
    let g = area_total(&[4, 2], 3);
    assert_eq!(g.player(0).count(Good::Energy), 2);
    assert_eq!(g.player(0).knowledge, 4);
}

/// A 3-seat game where seat `holder` (from 0) holds `recruit` (face up or not), the
/// allegiance of `f` stands at `level`, and the seat to act has one die, showing `die`.
fn at_allegiance(
    holder: usize,
    recruit: (Recruit, bool),
    f: Faction,
    level: u8,
    die: u8,
) -> Euphoria {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.recruits(holder, &[recruit])
            .allegiance(f, level)
            .dice(0, &[ready(die)])
    });
    g
}

#[test]
fn tier_one_bonus_for_each_faction() {
    let ids = [
        Recruit::Ben,
        Recruit::Andrew,
        Recruit::Brian,
        Recruit::Amanda,
    ]; // one recruit of EUP, SUB, WAS, ICA
       // Without an active recruit of that faction (face down): no bonus.
    for (f, up, commodities) in Faction::ALL
        .iter()
        .flat_map(|&f| [(f, true, 2), (f, false, 1)])
    {
        let mut g = at_allegiance(0, (ids[f.index()], up), f, 2, 1);
        act(&mut g, &format!("1@{}", Space::area(f)));
        assert_eq!(
            g.player(0).count(f.commodity()),
            commodities,
            "{f}, face up {up}"
        );
    }
    // A-20: the tier is checked before this placement's own advance.
    let mut g = at_allegiance(0, (Recruit::Ben, true), Faction::from_index(0), 1, 1);
    act(&mut g, "1@gen");
    assert_eq!(g.player(0).count(Good::Energy), 1);
    assert_eq!(g.allegiance()[0], 2);
}

#[test]
fn tier_two_for_each_faction() {
    let ids = [Recruit::Ben, Recruit::Andrew, Recruit::Brian];
    for f in [Faction::Euphorian, Faction::Subterran, Faction::Wastelander] {
        let mut g = at_allegiance(0, (ids[f.index()], true), f, 5, 2);
        let cost = [Good::Energy, Good::Water, Good::Food][f.index()];
        edit(&mut g, |e| e.good(0, cost, 1));
        act(&mut g, &format!("2@{}", Space::tunnel(f)));
        let res = [Good::Gold, Good::Stone, Good::Clay][f.index()];
        assert_eq!(g.player(0).count(res), 1, "{f}");
        assert_eq!(g.player(0).hand_size(), 1, "{f}");
        assert_eq!(g.miners()[f.index()], 1);
    }
    // Icarite tier 2: an extra artifact when placing a star in the Icarite territory.
    let mut g = at_allegiance(0, (Recruit::Amanda, true), Faction::from_index(3), 4, 2);
    edit(&mut g, |e| e.good(0, Good::Gold, 3));
    act(&mut g, "2@nimbus");
    assert_eq!(g.territory()[3], vec![0]);
    assert_eq!(g.allegiance()[3], 5);
    assert_eq!(g.player(0).hand_size(), 1);
}

#[test]
fn tier_three_reveals_and_tier_four_stars_for_each_faction() {
    let ids = [
        Recruit::Ben,
        Recruit::Andrew,
        Recruit::Brian,
        Recruit::Amanda,
    ];
    for f in Faction::ALL {
        let mut g = at_allegiance(1, (ids[f.index()], false), f, 7, 1);
        act(&mut g, &format!("1@{}", Space::area(f)));
        assert_eq!(g.allegiance()[f.index()], 8);
        assert!(g.player(1).recruits[0].up, "{f} tier 3 reveals");
        assert!(!g.player(1).recruits[0].star);
        edit(&mut g, |e| e.allegiance(f, 10).turn(0).dice(0, &[ready(1)]));
        act(&mut g, &format!("1@{}", Space::area(f)));
        assert_eq!(g.allegiance()[f.index()], 11);
        assert!(g.player(1).recruits[0].star, "{f} tier 4 star");
        assert_eq!(g.player(1).stars_left, 9);
    }
}

#[test]
fn tunnel_at_six_reveals_its_faction() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.recruits(2, &[(Recruit::Andrew, false), (Recruit::Ben, false)])
            .miner(Faction::from_index(1), 5)
            .dice(0, &[ready(2)])
            .good(0, Good::Water, 1)
    });
    act(&mut g, "2@tun-s");
    act(&mut g, "take stone");
    assert_eq!(g.miners()[1], 6);
    assert!(g.player(2).recruits[0].up);
    assert!(!g.player(2).recruits[1].up);
}

// --- knowledge check (1.5 (3), 5.6)

#[test]
fn knowledge_check_at_sixteen_and_fifteen() {
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(1, &[ready(6), ready(6)]).knowledge(1, 4));
    // The check runs for everyone at every step: seat 0's placement is one.
    act(&mut g, "1@gen");
    assert_eq!(g.ready_values(1), vec![6]);
    let mut g = fresh(3);
    edit(&mut g, |e| e.dice(1, &[ready(6), ready(5)]).knowledge(1, 4));
    act(&mut g, "1@gen");
    assert_eq!(g.ready_values(1), vec![6, 5]);
}

#[test]
fn continuous_check_follows_a_knowledge_gain() {
    for (knowledge, kept) in [(4u8, vec![5]), (3, vec![6, 5])] {
        let mut g = fresh(3);
        edit(&mut g, |e| {
            e.dice(1, &[DieLoc::Board(Space::area(Faction::Euphorian), 6)])
                .dice(0, &[ready(6), ready(5), ready(3)])
                .knowledge(0, knowledge)
        });
        act(&mut g, "3@gen"); // total 9: knowledge +1
        assert_eq!(g.player(0).knowledge, knowledge + 1);
        assert_eq!(g.ready_values(0), kept, "knowledge {knowledge}");
    }
    // The published timing ignores a gain without a roll.
    let mut g = fresh_with(Config {
        players: 3,
        knowledge_check: KnowledgeCheck::OnRollOnly,
        ..Config::default()
    });
    edit(&mut g, |e| {
        e.dice(1, &[DieLoc::Board(Space::area(Faction::Euphorian), 6)])
            .dice(0, &[ready(6), ready(5), ready(3)])
            .knowledge(0, 4)
    });
    act(&mut g, "3@gen");
    assert_eq!(g.ready_values(0), vec![6, 5]);
}

// --- hand limit (1.5 (3), 5.7)

#[test]
fn hand_limit_makes_the_owner_choose_discards() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.morale(0, 2)
            .good(0, Good::Book, 1)
            .good(0, Good::Bat, 1)
            .good(0, Good::Bliss, 1)
            .good(0, Good::Food, 1)
            .dice(0, &[ready(2)])
    });
    act(&mut g, "2@breeze");
    let hand = g.player(0).hand_size();
    assert_eq!(hand, 4);
    assert!(matches!(g.pending(), Some(Step::Discard(0))));
    assert_eq!(g.to_act(), Some(0));
    act(&mut g, "discard book");
    if g.player(0).hand_size() > 2 {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert!(legal.iter().all(|a| matches!(a, Action::Discard(_))));
        act(&mut g, &legal[0].to_string());
    }
    assert_eq!(g.player(0).hand_size(), 2);
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn losing_morale_forces_discards() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.morale(0, 3)
            .good(0, Good::Book, 3)
            .dice(0, &[DieLoc::Board(Space::area(Faction::Euphorian), 2)])
    });
    retrieve_free(&mut g, &["2@gen"]);
    assert_eq!(g.player(0).morale, 2);
    // One kind only: the discard resolves itself.
    assert_eq!(g.player(0).hand_size(), 2);
}

// --- markets (1.5 (4), 3.7)

fn complete_market(players: usize) -> Euphoria {
    let mut g = fresh(players);
    let need = market_threshold(players);
    // Seats 1.. fill need-1 sites of market EA (seat 1 twice when it can).
    let mut placed = Vec::new();
    for (slot, k) in (1..).zip(0..need - 1) {
        let seat = 1 + (k % (players - 1));
        placed.push(seat);
        let mut dice: Vec<DieLoc> = g.player(seat).dice.to_vec();
        let free = dice
            .iter()
            .position(|d| *d == DieLoc::Reserve)
            .expect("a free die");
        dice[free] = DieLoc::Board(Space::site(0, slot), 4);
        edit(&mut g, |e| e.dice(seat, &dice));
    }
    edit(&mut g, |e| e.dice(0, &[ready(3)]).good(0, Good::Clay, 1));
    act(&mut g, "3@ea1");
    g
}

#[test]
fn market_completes_at_the_threshold_for_2_4_and_6_players() {
    for players in [2usize, 4, 6] {
        let g = complete_market(players);
        assert!(g.market(0).built, "{players} players");
        // Every contributor got exactly one star; dice are back in their pools.
        let contributors: Vec<usize> = (0..players)
            .filter(|&s| g.market(0).stars & (1 << s) != 0)
            .collect();
        assert!(contributors.contains(&0));
        for &s in &contributors {
            assert_eq!(g.player(s).stars_left, 9);
            assert!(g
                .player(s)
                .dice
                .iter()
                .all(|d| !matches!(d, DieLoc::Board(..))));
        }
        assert_eq!(
            g.view(Viewer::Spectator).markets[0].tile,
            Some(g.market(0).tile)
        );
    }
    // One site short: not built.
    let mut g = fresh(4);
    edit(&mut g, |e| {
        e.dice(1, &[DieLoc::Board(Space::site(0, 1), 4)])
            .dice(0, &[ready(3)])
            .good(0, Good::Clay, 1)
    });
    act(&mut g, "3@ea1");
    assert!(!g.market(0).built);
}

/// Seat 0 completes market EA, carrying the tile with the roll penalty on `face`, at 4
/// players with seats 1 and 2 as the other builders; the seed is the first one whose
/// re-roll of seat 0's returned die shows `face`.
fn build_roll_loss_tile(face: u8) -> Euphoria {
    let tile = MARKET_TILES
        .iter()
        .position(|t| t.penalty == Penalty::RollLoss(face))
        .expect("a roll-loss tile") as u8;
    for seed in 0..500 {
        let mut g = Euphoria::started(&Config::players(4), seed).expect("config");
        for s in 0..4 {
            edit(&mut g, |e| {
                e.recruits(s, &[])
                    .dice(s, &[DieLoc::Ready(1)])
                    .good(s, Good::Water, 2)
                    .good(s, Good::Food, 2)
            });
        }
        edit(&mut g, |e| {
            e.turn(0)
                .tile(0, tile)
                .dice(1, &[DieLoc::Board(Space::site(0, 1), 4)])
                .dice(2, &[DieLoc::Board(Space::site(0, 2), 5)])
                .dice(0, &[ready(3)])
                .good(0, Good::Clay, 1)
        });
        act(&mut g, "3@ea1");
        if g.ready_values(0) == [face] {
            return g;
        }
    }
    panic!("no seed rolls a {face}");
}

#[test]
fn builders_place_their_stars_before_their_dice_are_rolled_again() {
    for face in 1..=6u8 {
        let g = build_roll_loss_tile(face);
        assert!(g.market(0).built);
        for s in 0..3 {
            assert!(g.market(0).stars & (1 << s) != 0, "face {face} seat {s}");
            assert!(!g.penalized(s, Penalty::RollLoss(face)), "face {face}");
        }
        // Seat 0's returned die shows the penalty's face, and seat 0 loses nothing.
        assert!(g.stack().iter().all(|st| !matches!(st, Step::Lose { .. })));
        assert_eq!(g.player(0).count(Good::Water), 2, "face {face}");
        assert_eq!(g.player(0).count(Good::Food), 2, "face {face}");
        // Seat 3 built nothing: the penalty is theirs.
        assert!(g.penalized(3, Penalty::RollLoss(face)), "face {face}");
    }
}

#[test]
fn several_dice_of_one_player_earn_one_star() {
    let mut g = fresh(2);
    edit(&mut g, |e| {
        e.dice(0, &[DieLoc::Board(Space::site(2, 1), 2), ready(3)])
            .good(0, Good::Gold, 1)
    });
    act(&mut g, "3@sa1");
    assert!(g.market(2).built);
    assert_eq!(g.player(0).stars_left, 9);
    assert_eq!(g.player(0).owned_dice(), 2);
}

// --- dilemma (1.7, 5.8)

/// The artifact kind seat 0's dilemma pictures, and another kind.
fn dilemma_kinds(g: &Euphoria) -> (Good, Good) {
    let pictured = euphoria::cards::DILEMMAS[g.player(0).dilemma as usize].pictured;
    let other = Good::ARTIFACT_KINDS
        .into_iter()
        .find(|&k| k != pictured)
        .expect("another kind");
    (pictured, other)
}

#[test]
fn dilemma_conform_places_a_star() {
    let mut g = fresh(3);
    let (pictured, _) = dilemma_kinds(&g);
    edit(&mut g, |e| {
        e.good(0, pictured, 1).morale(0, 3).dice(0, &[ready(2)])
    });
    act(&mut g, "dilemma");
    // One pictured card only: it pays itself.
    assert!(matches!(g.pending(), Some(Step::DilemmaChoice)));
    assert!(g.view(Viewer::Seat(1)).players[0].dilemma.is_some());
    act(&mut g, "conform");
    assert_eq!(g.player(0).dilemma_state, DilemmaState::Conformed);
    assert_eq!(g.player(0).stars_left, 9);
    assert_eq!(g.current(), 1);
    // A dilemma is resolved once.
    let mut g = g.edit().turn(0).build().expect("a possible position");
    assert_refused!(&mut g, "dilemma", Refusal::DilemmaResolved);
}

#[test]
fn dilemma_rebel_draws_two_recruits_and_keeps_one() {
    let mut g = fresh(3);
    let (_, other) = dilemma_kinds(&g);
    edit(&mut g, |e| e.morale(0, 3).good(0, other, 2));
    act(&mut g, "dilemma");
    // Two cards of one kind: the only possible payment resolves itself.
    assert!(matches!(g.pending(), Some(Step::DilemmaChoice)));
    act(&mut g, "rebel");
    let Some(Step::DilemmaKeep(ids)) = g.pending().cloned() else {
        panic!("a choice of two recruits");
    };
    assert!(g.view(Viewer::Seat(0)).drawn.is_some());
    assert!(g.view(Viewer::Seat(1)).drawn.is_none());
    act(&mut g, &format!("keep {}", ids[1]));
    assert_eq!(g.player(0).recruits.len(), 1);
    assert_eq!(g.player(0).recruits[0].id, ids[1]);
    assert!(!g.player(0).recruits[0].up);
    assert_eq!(g.recruit_discard(), vec![ids[0]]);
    assert_eq!(g.player(0).dilemma_state, DilemmaState::Rebelled);
    assert_eq!(g.player(0).hand_size(), 0);
}

#[test]
fn dilemma_needs_the_pictured_card_or_two() {
    let mut g = fresh(3);
    let (_, other) = dilemma_kinds(&g);
    edit(&mut g, |e| {
        e.morale(0, 3).good(0, other, 1).dice(0, &[ready(1)])
    });
    assert_refused!(&mut g, "dilemma", Refusal::DilemmaCost(_));
}

// --- trading (1.9, 5.10)

#[test]
fn trade_accepted_moves_goods_at_once() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.good(0, Good::Gold, 2)
            .good(2, Good::Water, 3)
            .dice(0, &[ready(2)])
    });
    offer(&mut g, "p3", &["give gold", "ask water", "ask water"]);
    assert_eq!(g.to_act(), Some(2));
    act(&mut g, "accept");
    assert_eq!(g.player(0).count(Good::Gold), 1);
    assert_eq!(g.player(0).count(Good::Water), 2);
    assert_eq!(g.player(2).count(Good::Gold), 1);
    assert_eq!(g.player(2).count(Good::Water), 1);
    assert_eq!(g.to_act(), Some(0));
    // One offer per turn.
    assert_refused!(&mut g, "trade", Refusal::OfferLimit(_));
    act(&mut g, "2@gen");
}

#[test]
fn trade_declined_changes_nothing() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.good(0, Good::Book, 1)
            .good(1, Good::Bat, 1)
            .morale(0, 2)
            .morale(1, 2)
            .dice(0, &[ready(2)])
    });
    offer(&mut g, "p2", &["give book", "ask bat"]);
    let before = (g.player(0).hand, g.player(1).hand);
    act(&mut g, "decline");
    assert_eq!((g.player(0).hand, g.player(1).hand), before);
    assert_eq!(g.to_act(), Some(0));
    // Asking for more than the partner holds is refused.
    let mut g = fresh(3);
    edit(&mut g, |e| e.good(0, Good::Gold, 1).dice(0, &[ready(2)]));
    act(&mut g, "trade");
    act(&mut g, "offer p2");
    assert_refused!(&mut g, "ask water", Refusal::PartnerLacks { .. });
    assert_refused!(&mut g, "ask book", Refusal::PartnerCards { .. });
}

// --- end of the game (1.10, 5.11)

fn set_placed(g: &mut Euphoria, seat: usize, market_stars: &[usize]) {
    // Nine stars: some on built markets, the rest on a conformed dilemma and territory
    // spots, so that the position is a possible one.
    let mut e = g.clone().edit().stars_left(seat, 10);
    for &m in market_stars {
        e = e.built(m, g.market(m).tile, &[seat]);
    }
    let mut left = 10 - market_stars.len();
    if g.player(seat).dilemma_state == DilemmaState::Unresolved {
        e = e.conform(seat);
        left -= 1;
    }
    // Territories first; a test must leave enough room.
    for f in Faction::ALL {
        let mut seats: Vec<usize> = g.territory()[f.index()]
            .iter()
            .map(|&s| s as usize)
            .collect();
        while left > 1 && seats.len() < players_of(g) {
            seats.push(seat);
            left -= 1;
        }
        e = e.territory(f, &seats);
    }
    *g = e.build().expect("a possible position");
}

#[test]
fn game_ends_at_the_tenth_star() {
    let mut g = fresh(3);
    set_placed(&mut g, 0, &[]);
    edit(&mut g, |e| {
        e.turn(0).dice(0, &[ready(1)]).good(0, Good::Gold, 3)
    });
    act(&mut g, "1@nimbus");
    assert!(g.over());
    assert_eq!(g.to_act(), None);
    let o = g.outcome().expect("over");
    assert_eq!(o.winners(), vec![0]);
    assert_eq!(o.scores[0], 10);
}

fn tie(g: &mut Euphoria) -> Vec<u8> {
    // Each places the last star in a territory with room, and the game ends.
    let mut territory = g.territory().map(<[u8]>::to_vec);
    let mut e = g.clone().edit();
    for s in [0, 1] {
        let f = Faction::ALL
            .into_iter()
            .find(|&f| territory[f.index()].len() < players_of(g))
            .expect("room");
        territory[f.index()].push(s as u8);
        let seats: Vec<usize> = territory[f.index()].iter().map(|&s| s as usize).collect();
        e = e.territory(f, &seats);
    }
    *g = e.end_game().build().expect("a possible position");
    g.outcome().expect("over").places
}

fn tied_pair() -> Euphoria {
    let mut g = fresh(6);
    set_placed(&mut g, 0, &[0]);
    set_placed(&mut g, 1, &[1]);
    for s in [0, 1] {
        edit(&mut g, |e| e.morale(s, 3).knowledge(s, 3));
    }
    g
}

#[test]
fn tie_break_morale_then_knowledge_then_market_stars() {
    let mut g = tied_pair();
    edit(&mut g, |e| e.morale(1, 4));
    assert_eq!(tie(&mut g)[..2], [1, 0]);
    let mut g = tied_pair();
    edit(&mut g, |e| e.knowledge(0, 2));
    assert_eq!(tie(&mut g)[..2], [0, 1]);
    let mut g = tied_pair();
    // Seat 1 moves a territory star onto another market.
    let tile = g.market(2).tile;
    let spot = g
        .territory()
        .iter()
        .position(|t| t.contains(&1))
        .expect("a star");
    let mut seats: Vec<usize> = g.territory()[spot].iter().map(|&s| s as usize).collect();
    let k = seats.iter().position(|&x| x == 1).expect("a star");
    seats.remove(k);
    edit(&mut g, |e| {
        e.territory(Faction::from_index(spot), &seats)
            .built(2, tile, &[1])
    });
    assert_eq!(tie(&mut g)[..2], [1, 0]);
}

#[test]
fn tie_break_roll_off_lower_total_wins() {
    let mut g = tied_pair();
    edit(&mut g, |e| {
        e.dice(0, &[ready(1), ready(1)]).dice(1, &[ready(2)])
    });
    let places = tie(&mut g);
    let (a, b) = (&g.rolloff()[0], &g.rolloff()[1]);
    assert!(!a.is_empty() && a.len() == b.len());
    let last = a.len() - 1;
    assert_ne!(a[last], b[last]);
    let winner = if a[last] < b[last] { 0 } else { 1 };
    assert_eq!(places[winner], 0);
    assert_eq!(places[1 - winner], 1);
    // Nobody with dice: a shared first place.
    let mut g = tied_pair();
    for s in [0, 1] {
        edit(&mut g, |e| {
            e.dice(s, &[DieLoc::Board(Space::area(Faction::Euphorian), 1)])
        });
    }
    let places = tie(&mut g);
    assert_eq!(places[..2], [0, 0]);
    assert!(g.rolloff()[0].is_empty());
}

#[test]
fn simultaneous_tenth_stars_from_a_market_completion() {
    let mut g = fresh(2);
    set_placed(&mut g, 0, &[0, 1, 3, 4, 5]);
    set_placed(&mut g, 1, &[0, 1, 3, 4, 5]);
    edit(&mut g, |e| {
        e.morale(0, 5)
            .dice(1, &[DieLoc::Board(Space::site(2, 1), 4)])
            .dice(0, &[ready(3)])
            .good(0, Good::Gold, 1)
    });
    act(&mut g, "3@sa1");
    assert!(g.over());
    let o = g.outcome().expect("over");
    assert_eq!(o.scores[..2], [10, 10]);
    assert_eq!(o.winners(), vec![0]);
    assert!(g.legal_actions_vec().is_empty());
}

trait LegalVec {
    fn legal_actions_vec(&self) -> Vec<Action>;
}

impl LegalVec for Euphoria {
    fn legal_actions_vec(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions(&mut v);
        v
    }
}

#[test]
fn views_hide_hands_decks_and_hidden_recruits() {
    let mut g = fresh(3);
    edit(&mut g, |e| {
        e.recruits(1, &[(Recruit::Ben, true), (Recruit::Andrew, false)])
            .morale(1, 3)
            .good(1, Good::Bat, 2)
    });
    let other = g.view(Viewer::Seat(0));
    assert_eq!(other.players[1].hand, None);
    assert_eq!(other.players[1].hand_size, 2);
    assert_eq!(other.players[1].recruits[0].id, Some(Recruit::Ben));
    assert_eq!(other.players[1].recruits[1].id, None);
    assert_eq!(other.players[1].dilemma, None);
    let own = g.view(Viewer::Seat(1));
    assert_eq!(own.players[1].hand, Some([0, 0, 0, 0, 0, 2]));
    assert_eq!(own.players[1].recruits[1].id, Some(Recruit::Andrew));
    let text = serde_json::to_string(&other).expect("serialize");
    assert!(!text.contains("rng"));
    assert!(other.to_string().contains("2 hidden"));
}
