//! Each rule where it applies and where it refuses.
use crate::common;

use common::*;
use distopia::{
    Border, Builder, Card, Collaborator, Config, Distopia, Mission, Phase, Refusal, Where,
};
use engine::prelude::*;
use engine::{Event, Viewer};

// ---- Setting Up the Game ----

#[test]
fn setup_deals_two_per_district_under_the_guard_rules() {
    let mut firsts = [0; 2];
    for seed in 0..300 {
        let g = Distopia::new(&Config::default(), seed).expect("standard");
        assert_eq!(g.validate(), Ok(()));
        let mut guards = [0; 2];
        let mut on_table = 0;
        for i in 0..8 {
            let d = g.stack(i);
            on_table += d.len();
            guards[i / 4] += d.iter().filter(|c| c.is_guard()).count();
            if d[0].is_guard() {
                assert_eq!(d.len(), 1, "a guard dealt first stays alone");
            } else {
                assert_eq!(d.len(), 2);
            }
        }
        assert!(
            guards[0] < 3 && guards[1] < 3,
            "3+ guards on a side are re-dealt"
        );
        assert_eq!(on_table + g.deck().len(), 35);
        let first = g.first_player();
        assert!(
            guards[first] <= guards[1 - first],
            "fewest guards goes first"
        );
        assert_eq!(g.to_act(), Some(first));
        assert_ne!(g.character(0), g.character(1));
        firsts[first] += 1;
    }
    assert!(firsts[0] > 0 && firsts[1] > 0, "either seat can start");
}

#[test]
fn config_errors_list_every_problem_and_names_select_cards() {
    let bad = Config {
        advanced: false,
        collaborator: Some("wizard".into()),
        mission: Some("curfew".into()),
        ..Config::default()
    };
    let err = Distopia::new(&bad, 1).expect_err("bad config");
    assert_eq!(err.problems.len(), 2, "{err}");
    let named = Config {
        border: Border::Mountain,
        advanced: true,
        collaborator: Some("Rebel Robot".into()),
        mission: Some("police sting".into()),
        limits: None,
        contraband: None,
    };
    let g = Distopia::new(&named, 3).expect("valid");
    assert_eq!(
        g.collaborator().map(|c| c.card),
        Some(Collaborator::RebelRobot)
    );
    assert_eq!(g.mission().map(|m| m.card), Some(Mission::PoliceSting));
    assert_eq!(g.limit(0), 5);
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40 {
        let g = Distopia::new(&Config::advanced(Border::Meadow), seed).expect("valid");
        seen.insert((
            g.collaborator().map(|c| c.card),
            g.mission().map(|m| m.card),
        ));
    }
    assert!(seen.len() > 4, "random picks vary");
    assert!(Distopia::new(&Config::default(), 1)
        .expect("valid")
        .collaborator()
        .is_none());
}

// ---- Turn Order, step 1: pick a district ----

#[test]
fn pick_an_own_district_with_cards() {
    let mut s = quiet();
    s.districts[0].clear();
    s.deck_top.push(card("atlas"));
    let mut g = game(s);
    assert_eq!(legal(&g), ["pick B", "pick C", "pick D"]);
    assert_refused!(
        &mut g,
        "pick A",
        Refusal::EmptyDistrict(Where {
            yours: true,
            letter: 0
        })
    );
    act(&mut g, "pick C");
    assert_eq!(g.phase(), Phase::Play);
    let reason = refuse(&mut g, "pick B");
    assert_eq!(reason, Refusal::AlreadyPicked);
}

#[test]
fn with_all_four_districts_empty_any_may_be_picked() {
    let mut s = quiet();
    for i in 0..4 {
        s.districts[i].clear();
    }
    put_deck(&mut s, cards(&["yo-yo"]));
    let mut g = game(s);
    assert_eq!(legal(&g), ["pick A", "pick B", "pick C", "pick D"]);
    act(&mut g, "pick C");
    // Nothing to play: straight to the refill, then the opponent's turn.
    assert_eq!(g.district(0, 2), cards(&["yo-yo"]));
    assert_eq!(g.to_act(), Some(1));
}

// ---- Turn Order, step 2: counterclockwise, one card per district ----

#[test]
fn play_runs_counterclockwise_across_the_border() {
    let mut s = quiet();
    put(&mut s, 3, cards(&["candles", "kite"]));
    put(&mut s, 1, cards(&["yo-yo"]));
    let mut g = game(s);
    act(&mut g, "pick D");
    // From seat 0's D the next district is seat 1's A, then B.
    assert_eq!(g.next_district(), 4);
    act(&mut g, "play 4");
    assert_eq!(g.district(1, 0), cards(&["guitar", "kite"]));
    assert_eq!(g.next_district(), 5);
    act(&mut g, "play 23");
    assert_eq!(g.district(1, 1), cards(&["comic book", "candles"]));
    // Seat 1's D leads back to seat 0's A.
    assert_eq!(distopia::step(7, false), 0);
}

#[test]
fn seat_one_plays_the_same_ring() {
    let mut s = quiet();
    s.to_act = 1;
    put(&mut s, 7, cards(&["calculator", "kite"]));
    let mut g = game(s);
    act(&mut g, "pick D");
    assert_eq!(g.next_district(), 0, "seat 1's D leads to seat 0's A");
    act(&mut g, "play 4");
    assert_eq!(g.district(0, 0), cards(&["atlas", "kite"]));
}

/// The quiet position with the stacks `puts` names replaced, after seat 1 picked its
/// district B.
fn picked_b(puts: Vec<(usize, Vec<Card>)>) -> Distopia {
    let mut s = quiet();
    for (i, stack) in puts {
        put(&mut s, i, stack);
    }
    let mut g = game(s);
    act(&mut g, "pick B");
    g
}

#[test]
fn any_card_of_the_hand_may_be_played() {
    let mut g = picked_b(vec![]);
    assert_eq!(legal(&g), ["play 2", "play 4"]);
    assert_refused!(&mut g, "play 10", Refusal::NotInHand(_));
    let reason = refuse(&mut g, "play guard");
    assert_eq!(reason, Refusal::NoGuard);
    act(&mut g, "play 2");
    assert_eq!(g.district(0, 2), cards(&["notebook", "yo-yo"]));
}

#[test]
fn a_held_guard_must_go_on_a_guarded_district() {
    let mut g = picked_b(vec![
        (1, vec![card("kite"), guard(0)]),
        (2, vec![card("notebook"), guard(1)]),
    ]);
    assert_eq!(legal(&g), ["play guard"]);
    assert_refused!(
        &mut g,
        "play 4",
        Refusal::Guarded {
            holds_guard: true,
            ..
        }
    );
    assert_refused!(&mut g, "skip", Refusal::MustPlayGuard(_));
    act(&mut g, "play guard");
    assert_eq!(g.district(0, 2), vec![card("notebook"), guard(1), guard(0)]);
}

#[test]
fn without_a_guard_a_guarded_district_is_skipped() {
    let mut g = picked_b(vec![(2, vec![card("notebook"), guard(1)])]);
    assert_eq!(legal(&g), ["skip"]);
    assert_refused!(
        &mut g,
        "play 4",
        Refusal::Guarded {
            holds_guard: false,
            ..
        }
    );
    act(&mut g, "skip");
    assert_eq!(g.district(0, 2), vec![card("notebook"), guard(1)]);
    // Unguarded districts cannot be skipped.
    assert_refused!(&mut g, "skip", Refusal::NotGuarded(_));
}

#[test]
fn a_guard_may_be_played_on_a_free_district() {
    let mut g = picked_b(vec![(1, vec![card("kite"), guard(0)])]);
    assert_eq!(legal(&g), ["play 4", "play guard"]);
    act(&mut g, "play guard");
    assert!(g.guarded(2));
}

/// Eight cards: a hand that goes round the whole ring of districts.
const EIGHT: [&str; 8] = [
    "atlas",
    "yo-yo",
    "kite",
    "pencil case",
    "notebook",
    "dictionary",
    "box of chalk",
    "board game",
];

#[test]
fn a_big_hand_goes_round_the_ring_and_leaves_no_refill() {
    let mut s = quiet();
    put(&mut s, 0, cards(&EIGHT));
    put(&mut s, 1, cards(&["music box"]));
    put(&mut s, 2, cards(&["deck of cards"]));
    put_deck(&mut s, cards(&["candles"]));
    let mut g = game(s);
    let deck = g.deck().len();
    act(&mut g, "pick A");
    for _ in 0..8 {
        let first = legal(&g)[0].clone();
        act(&mut g, &first);
    }
    // The 8th card went back into the picked district A: it is not empty, no refill.
    assert_eq!(g.district(0, 0).len(), 1);
    assert_eq!(g.deck().len(), deck);
    assert_eq!(g.to_act(), Some(1));
}

// ---- Turn Order, step 3: winning ----

#[test]
fn winning_takes_from_the_top_down_to_the_border_number() {
    let mut s = coast_win();
    put(
        &mut s,
        5,
        cards(&[
            "music box",
            "electric keyboard",
            "radio-controlled car",
            "yo-yo",
        ]),
    );
    put(&mut s, 1, cards(&["notebook"]));
    put(&mut s, 2, cards(&["atlas"]));
    put(&mut s, 6, cards(&["blanket"]));
    let mut g = game(s);
    act(&mut g, "pick D");
    act(&mut g, "play 4"); // seat 1's A: 6 cards over 5
    act(&mut g, "play 23"); // seat 1's B: 5 cards over 4
    let mut won = g.won(0).to_vec();
    won.sort();
    assert_eq!(won, cards(&["kite", "candles"]));
    assert_eq!(g.district(1, 0).len(), 5);
    assert_eq!(g.district(1, 1).len(), 4);
}

#[test]
fn never_win_on_your_own_side() {
    let mut s = quiet();
    put(&mut s, 1, cards(&["kite"]));
    put(
        &mut s,
        2,
        cards(&["notebook", "atlas", "dictionary", "box of chalk"]),
    );
    put(&mut s, 0, cards(&["yo-yo"]));
    let mut g = game(s);
    act(&mut g, "pick B");
    act(&mut g, "play 4"); // own C: 5 contraband over 3
    assert!(g.won(0).is_empty());
    assert_eq!(g.district(0, 2).len(), 5);
}

#[test]
fn only_districts_where_contraband_was_played_are_checked() {
    let mut s = quiet();
    put(&mut s, 3, vec![card("candles"), guard(0)]);
    // Seat 1's A is already over its limit, but only a guard is played there.
    put(
        &mut s,
        4,
        cards(&["guitar", "paint set", "comic book", "deck of cards"]),
    );
    let mut g = game(s);
    act(&mut g, "pick D");
    act(&mut g, "play guard"); // seat 1's A
    act(&mut g, "play 23"); // seat 1's B: 2 cards, within 3
    assert!(g.won(0).is_empty());
    assert_eq!(g.district(1, 0).len(), 5);
}

#[test]
fn never_win_guards_or_cards_under_a_guard() {
    let mut s = with_collaborator(quiet(), Collaborator::SpyPets);
    put(&mut s, 3, vec![card("candles"), card("kite"), guard(0)]);
    put(&mut s, 4, cards(&["guitar", "paint set", "comic book"]));
    let mut g = game(s);
    act(&mut g, "pick D");
    act(&mut g, "play 4"); // seat 1's A: 4 contraband over 3
    act(&mut g, "cross"); // back across to seat 0's D
    act(&mut g, "play 23");
    act(&mut g, "play guard"); // seat 1's A again: a guard on top
    assert!(g.won(0).is_empty(), "the cards are under a guard");
    assert_eq!(g.district(1, 0).len(), 5);
}

// ---- Setting Up the Next Turn ----

#[test]
fn the_picked_district_is_refilled_without_a_siren() {
    let mut s = quiet();
    put(&mut s, 3, vec![card("candles"), guard(0)]);
    let mut g = game(s);
    let deck = g.deck().len();
    act(&mut g, "pick B");
    act(&mut g, "play 4");
    act(&mut g, "skip");
    act(&mut g, "play 2");
    assert_eq!(g.district(0, 1), cards(&["box of chalk"]));
    assert_eq!(g.deck().len(), deck - 1);
    // No siren: the guard stays.
    assert!(g.guarded(3));
}

#[test]
fn the_siren_moves_top_guards_toward_it_nearest_first() {
    let mut s = quiet();
    // Seat 0's A (column 0) gets the siren.
    put(&mut s, 0, cards(&["atlas"]));
    put(&mut s, 1, cards(&["yo-yo"]));
    put(&mut s, 2, vec![card("notebook"), guard(0)]); // column 2
    put(&mut s, 3, vec![card("candles"), guard(1), guard(2)]); // column 3, two guards
    put(&mut s, 4, vec![card("guitar"), guard(3)]); // seat 1's A, column 3
    put(&mut s, 7, vec![card("calculator"), guard(4)]); // seat 1's D, across from A
    put_deck(&mut s, cards(&["music box"])); // a siren
    let mut g = game(s);
    act(&mut g, "pick A");
    act(&mut g, "play 15");
    assert_eq!(g.district(0, 0), cards(&["music box"]));
    // C's guard moved to B first, then D's top guard to C; D keeps its lower guard.
    assert_eq!(
        g.district(0, 1),
        vec![card("yo-yo"), card("atlas"), guard(0)]
    );
    assert_eq!(g.district(0, 2), vec![card("notebook"), guard(2)]);
    assert_eq!(g.district(0, 3), vec![card("candles"), guard(1)]);
    // Seat 1's A (column 3) moved along its own row to B (column 2), not across.
    assert_eq!(g.district(1, 1), vec![card("comic book"), guard(3)]);
    assert_eq!(g.district(1, 0), cards(&["guitar"]));
    // The guard across the border from the siren stays.
    assert_eq!(g.district(1, 3), vec![card("calculator"), guard(4)]);
}

// ---- End of the Game ----

/// Seat 0 plays two guards onto seat 1's A and B; seat 1's C and D are guarded already.
fn guard_ending() -> Builder {
    let mut s = Builder::empty();
    s.districts[0] = cards(&["pencil case"]);
    s.districts[3] = vec![guard(0), guard(1)];
    s.districts[4] = cards(&["board game"]);
    s.districts[5] = cards(&["yo-yo"]);
    s.districts[6] = vec![card("music box"), guard(2)];
    s.districts[7] = vec![card("kite"), guard(3)];
    s.won[0] = cards(&["library book", "guitar"]);
    s.won[1] = cards(&["first-aid kit"]);
    s.deck_top = vec![guard(4)];
    s
}

#[test]
fn a_side_guarded_everywhere_ends_the_game() {
    let mut g = game(guard_ending());
    act(&mut g, "pick D");
    act(&mut g, "play guard");
    assert_eq!(g.phase(), Phase::Play);
    act(&mut g, "play guard");
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.to_act(), None);
    assert!(legal(&g).is_empty());
    let reason = refuse(&mut g, "pick A");
    assert_eq!(reason, Refusal::GameOver);
}

#[test]
fn the_guarded_ending_explains_itself_four_guards_four_cards_removed() {
    let mut g = game(guard_ending());
    for a in ["pick D", "play guard", "play guard"] {
        act(&mut g, a);
    }
    let ending = g
        .ending(&engine::Names::for_viewer(Viewer::Seat(0)))
        .expect("over");
    assert_eq!(
        ending.why,
        "the game ended because seat 2's side of the border has a guard in every district; you won: tied on 4 points, with fewer guards (1 to 4)"
    );
    let outcome = g.outcome().expect("over");
    assert_eq!(ending.check(&outcome), Ok(()));
    let seat2 = engine::testkit::score_lines(&ending, 1);
    assert_eq!(
        seat2,
        vec![
            ("won cards: 1 contraband card", 4),
            ("cards left in the districts: 4 contraband cards", 1 + 1 + 1 + 2),
            (
                "The Collector (Hobby + Survival) does not score Education: nothing discarded",
                0
            ),
            (
                "4 guards remove a scorable card each, the lowest first: removed board game (1), yo-yo (1), music box (1), kite (2)",
                -5
            ),
        ]
    );
}

#[test]
fn a_tie_goes_to_the_player_with_fewer_guards() {
    let mut g = game(guard_ending());
    for a in ["pick D", "play guard", "play guard"] {
        act(&mut g, a);
    }
    // Seat 0 (Teacher): library book 4 + pencil case 1, one guard (refilled into D)
    // removes the pencil case: 4. Seat 1 (Collector): four guards remove board game,
    // yo-yo, music box and kite; the first-aid kit leaves 4.
    let (a, b) = (g.score(0), g.score(1));
    assert_eq!((a.total, a.guards), (4, 1));
    assert_eq!((b.total, b.guards), (4, 4));
    assert_eq!(b.removed.len(), 4);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.scores, [4, 4]);
    assert_eq!(outcome.winners(), [0]);
    assert_eq!(outcome.places, [0, 1]);
    assert_eq!(g.evaluate(0), 1.0);
    assert_eq!(g.evaluate(1), 0.0);
}

#[test]
fn characters_score_only_their_types_and_guards_remove_the_lowest() {
    let mut s = quiet();
    put_won(
        &mut s,
        0,
        cards(&["library book", "guitar", "first-aid kit", "pencil case"]),
    );
    put(&mut s, 3, vec![card("candles"), guard(0)]);
    let g = game(s);
    // Teacher: Education + Survival. Her side: atlas, kite, yo-yo, notebook, candles.
    let sc = g.score(0);
    let mut discarded = sc.discarded.clone();
    discarded.sort();
    assert_eq!(discarded, cards(&["yo-yo", "kite", "guitar"]));
    assert_eq!(sc.removed.len(), 1);
    assert_eq!(g.contraband(sc.removed[0]).points, 1);
    // 4 + 4 + 2 (atlas) + 1 + 1 + 1 = 13 scorable, minus one 1-pointer.
    assert_eq!(sc.total, 12);
    let e = g.evaluate(0);
    assert!((0.0..=1.0).contains(&e));
}

#[test]
fn card_data_in_the_config_sets_the_values_scored_seen_and_checked() {
    // The same position with the library book worth 9 instead of 4.
    let mut values = distopia::Contraband::printed();
    let book = card("library book");
    values[usize::from(book.0)].points = 9;
    let mut s = quiet();
    s.config.contraband = Some(values.clone());
    put_won(
        &mut s,
        0,
        cards(&["library book", "guitar", "first-aid kit", "pencil case"]),
    );
    put(&mut s, 3, vec![card("candles"), guard(0)]);
    let g = game(s);
    assert_eq!(g.score(0).total, 12 + 5);
    assert_eq!(g.total(0), 12 + 5, "the bots' quick total agrees");
    let view = serde_json::to_value(g.view(engine::Viewer::Seat(0))).expect("json");
    assert!(
        view.to_string()
            .contains(r#""name":"library book","number":20,"points":9"#),
        "the view shows the card data: {view}"
    );
    // A record of it replays with its card data.
    let json = serde_json::to_string(&g).expect("state json");
    let back: Distopia = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back.score(0).total, 17);
    // Broken card data: every problem listed, and no game starts.
    values[0].points = 0;
    values[1].kind = distopia::Kind::Guard;
    values.truncate(25);
    let config = Config {
        contraband: Some(values),
        limits: Some([0, 3, 3, 11]),
        ..Config::default()
    };
    let err = Distopia::new(&config, 1).expect_err("broken card data");
    let text = err.to_string();
    for problem in [
        "25 cards listed",
        "card 1 is worth 0 points",
        "card 2 has type guard",
        "9 Hobby cards",
        "5 Survival cards",
        "district A's limit must be 1 to 10, not 0",
        "district D's limit must be 1 to 10, not 11",
    ] {
        assert!(text.contains(problem), "{problem} missing from {text}");
    }
    assert_eq!(err.problems.len(), 7, "{text}");
}

// ---- Collaborators ----

#[test]
fn collaborators_are_refused_when_not_in_play() {
    let mut g = game(quiet());
    act(&mut g, "pick B");
    for a in ["cross", "grandma", "robot A"] {
        let reason = refuse(&mut g, a);
        assert_eq!(reason, Refusal::NoCollaborator, "{a}");
    }
    let mut g = picked_b_with(Collaborator::GrandmaTheHacker);
    let reason = refuse(&mut g, "cross");
    assert_eq!(
        reason,
        Refusal::OtherCollaborator {
            in_play: Collaborator::GrandmaTheHacker,
            wanted: Collaborator::SpyPets
        }
    );
    assert_eq!(
        reason.to_string(),
        "the collaborator in play is Grandma the Hacker, not Spy Pets"
    );
}

#[test]
fn spy_pets_crosses_one_border_card_then_passes_to_the_opponent() {
    let mut g = picked_b_with(Collaborator::SpyPets);
    assert!(legal(&g).contains(&"cross".to_string()));
    act(&mut g, "cross");
    // Across from seat 0's B is seat 1's C.
    assert_eq!(g.next_district(), 6);
    assert_eq!(g.collaborator().and_then(|c| c.holder), Some(1));
    let reason = refuse(&mut g, "cross");
    assert_eq!(reason, Refusal::CollaboratorUsed(Collaborator::SpyPets));
    act(&mut g, "play 4");
    assert_eq!(g.district(1, 2), cards(&["blanket", "kite"]));
    // Then counterclockwise again: seat 1's D.
    assert_eq!(g.next_district(), 7);
    act(&mut g, "play 2");
    // Seat 1 may use it now.
    assert_eq!(g.to_act(), Some(1));
    act(&mut g, "pick A");
    assert!(legal(&g).contains(&"cross".to_string()));
}

#[test]
fn grandma_the_hacker_plays_clockwise_for_one_turn() {
    let mut g = picked_b_with(Collaborator::GrandmaTheHacker);
    assert!(legal(&g).contains(&"grandma".to_string()));
    act(&mut g, "grandma");
    assert_eq!(g.next_district(), 0, "to the left: seat 0's A");
    act(&mut g, "play 4");
    assert_eq!(g.next_district(), 7, "then seat 1's D");
    act(&mut g, "play 2");
    assert_eq!(g.district(1, 3), cards(&["calculator", "yo-yo"]));
    // Seat 1's turn runs counterclockwise again.
    act(&mut g, "pick A");
    assert_eq!(g.next_district(), 5);
}

#[test]
fn grandma_and_robot_only_before_the_first_card() {
    for c in [Collaborator::GrandmaTheHacker, Collaborator::RebelRobot] {
        let mut g = picked_b_with(c);
        act(&mut g, "play 4");
        let text = if c == Collaborator::RebelRobot {
            "robot A"
        } else {
            "grandma"
        };
        assert_refused!(
            &mut g,
            text,
            Refusal::GrandmaTooLate | Refusal::RobotTooLate
        );
    }
}

#[test]
fn rebel_robot_takes_a_neighbours_top_card_which_is_not_refilled() {
    let mut g = picked_b_with(Collaborator::RebelRobot);
    let l = legal(&g);
    assert!(l.contains(&"robot A".to_string()) && l.contains(&"robot C".to_string()));
    let reason = refuse(&mut g, "robot D");
    assert_eq!(
        reason,
        Refusal::RobotNotNext {
            picked: 1,
            letter: 3
        }
    );
    act(&mut g, "robot A");
    assert!(g.district(0, 0).is_empty());
    assert_eq!(g.turn().hand.len(), 3);
    for a in ["play 15", "play 4", "play 2"] {
        act(&mut g, a);
    }
    // B was refilled; A, emptied by the robot, was not.
    assert_eq!(g.district(0, 1), cards(&["box of chalk"]));
    assert!(g.district(0, 0).is_empty());
    assert_eq!(g.collaborator().and_then(|c| c.holder), Some(1));
}

#[test]
fn rebel_robot_refuses_an_empty_neighbour() {
    let mut s = with_collaborator(quiet(), Collaborator::RebelRobot);
    s.districts[0].clear();
    s.deck_top.push(card("atlas"));
    let mut g = game(s);
    act(&mut g, "pick B");
    let reason = refuse(&mut g, "robot A");
    assert_eq!(reason, Refusal::RobotEmpty(0));
}

#[test]
fn the_shelf_raider_takes_one_more_card_after_a_win() {
    let mut g = raid();
    act(&mut g, "pick D");
    act(&mut g, "play 4"); // seat 1's A: 4 over 3
    act(&mut g, "play 23"); // seat 1's B: 2, no win
    assert_eq!(g.won(0), cards(&["kite"]));
    assert_eq!(g.phase(), Phase::Raid);
    assert_eq!(legal(&g), ["raid A", "pass"]);
    let reason = refuse(&mut g, "raid B");
    assert_eq!(reason, Refusal::NotRaidable(1));
    assert!(reason
        .to_string()
        .ends_with("your opponent's district B is not one"));
    let reason = refuse(&mut g, "pick A");
    assert_eq!(reason, Refusal::RaidFirst);
    act(&mut g, "raid A");
    assert_eq!(g.won(0), cards(&["kite", "comic book"]));
    assert_eq!(g.collaborator().and_then(|c| c.holder), Some(1));
    assert_eq!(g.to_act(), Some(1));
}

#[test]
fn the_shelf_raider_may_be_declined_and_is_not_offered_without_a_win() {
    let mut s = with_collaborator(quiet(), Collaborator::ShelfRaider);
    put(&mut s, 3, cards(&["candles", "kite"]));
    put(&mut s, 4, cards(&["guitar", "paint set", "comic book"]));
    let mut g = game(s.clone());
    for a in ["pick D", "play 4", "play 23"] {
        act(&mut g, a);
    }
    act(&mut g, "pass");
    assert_eq!(g.won(0).len(), 1);
    assert_eq!(g.collaborator().and_then(|c| c.holder), None, "unused");
    // No win: no Shelf Raider decision.
    put(&mut s, 4, cards(&["guitar"]));
    let mut g = game(s);
    for a in ["pick D", "play 4", "play 23"] {
        act(&mut g, a);
    }
    assert_eq!(g.phase(), Phase::Pick);
    let reason = refuse(&mut g, "raid A");
    assert_eq!(reason, Refusal::PickFirst);
}

// ---- Missions ----

#[test]
fn catastrophe_rewards_the_most_survival_cards_but_not_a_tie() {
    let mut s = with_mission(quiet(), Mission::Catastrophe);
    put_won(&mut s, 1, cards(&["water flask"]));
    let g = game(s.clone());
    // Seat 0 has candles, seat 1 blanket + water flask.
    assert_eq!(g.score(1).mission_points, 5);
    assert_eq!(g.score(0).mission_points, 0);
    s.won[1].clear();
    let g = game(s);
    assert_eq!(g.score(0).mission_points, 0);
    assert_eq!(g.score(1).mission_points, 0);
}

#[test]
fn police_sting_makes_survival_cost_a_point() {
    let mut s = with_mission(quiet(), Mission::PoliceSting);
    put_won(&mut s, 0, cards(&["first-aid kit", "library book"]));
    let g = game(s.clone());
    // Teacher: atlas 2 + notebook 1 + library book 4; first-aid kit and candles cost 1 each.
    let sc = g.score(0);
    assert_eq!(sc.card_points, 7);
    assert_eq!(sc.mission_points, -2);
    assert_eq!(sc.total, 5);
    // Without the mission they would score.
    s.mission = None;
    assert_eq!(game(s).score(0).total, 12);
}

#[test]
fn curfew_goes_to_the_first_player_with_six_won_cards() {
    let mut s = curfew_race(&[
        "music box",
        "electric keyboard",
        "radio-controlled car",
        "paint set",
    ]);
    let mut g = game(s.clone());
    act(&mut g, "pick D");
    act(&mut g, "play 4");
    act(&mut g, "play 23");
    // Five won cards: not yet.
    assert_eq!(g.won(0).len(), 5);
    assert_eq!(g.mission().and_then(|m| m.claimed_by), None);
    s.won[0].push(card("board game"));
    let mut g = game(s);
    for a in ["pick D", "play 4", "play 23"] {
        act(&mut g, a);
    }
    assert_eq!(g.mission().and_then(|m| m.claimed_by), Some(0));
    assert_eq!(g.score(0).mission_points, 5);
    assert_eq!(g.score(1).mission_points, 0);
}

#[test]
fn save_a_sibling_needs_all_eight_districts_in_one_turn() {
    let base = || {
        let mut s = with_mission(quiet(), Mission::SaveASibling);
        put(&mut s, 1, cards(&["music box"]));
        put(&mut s, 2, cards(&["deck of cards"]));
        s
    };
    // Seven cards reach seat 1's D but not back to A.
    let mut s = base();
    put(&mut s, 0, cards(&EIGHT[..7]));
    s.deck_top.push(card("board game"));
    let mut g = game(s);
    act(&mut g, "pick A");
    while g.phase() == Phase::Play {
        let first = legal(&g)[0].clone();
        act(&mut g, &first);
    }
    assert_eq!(g.mission().and_then(|m| m.claimed_by), None);
    // Eight cards come back to A: the mission is earned.
    let mut s = base();
    put(&mut s, 0, cards(&EIGHT));
    let mut g = game(s);
    act(&mut g, "pick A");
    while g.phase() == Phase::Play {
        let first = legal(&g)[0].clone();
        act(&mut g, &first);
    }
    assert_eq!(g.mission().and_then(|m| m.claimed_by), Some(0));
    assert_eq!(g.score(0).mission_points, 5);
}

// ---- State checks and views ----

#[test]
fn a_position_with_a_lost_or_doubled_card_is_refused() {
    let mut s = quiet();
    s.won[0] = cards(&["kite"]); // kite is also in seat 0's B
    let err = Distopia::from_setup(s, 1).expect_err("kite twice");
    assert!(err.iter().any(|p| p.contains("kite")), "{err:?}");
    let mut s = quiet();
    s.districts[2] = vec![guard(0), card("notebook")];
    let err = Distopia::from_setup(s, 1).expect_err("contraband on a guard");
    assert!(
        err.iter().any(|p| p.contains("on top of a guard")),
        "{err:?}"
    );
    // A state file with a card missing reports it.
    let g = game(quiet());
    let mut json = serde_json::to_value(&g).expect("serializes");
    json["deck"] = serde_json::json!([]);
    let broken: Distopia = serde_json::from_value(json).expect("still parses");
    let problems = broken.validate().expect_err("cards missing");
    assert!(problems.len() > 10, "every missing card is reported");
    assert!(Card::by_name("no such card").is_none());
}

#[test]
fn a_loaded_state_saves_back_as_it_was_whatever_its_repetition_record_holds() {
    // A repetition record with counts but no position yet (a hand-edited file): it is
    // written out again, so saving and loading gives the very same state.
    let g = game(quiet());
    let mut json = serde_json::to_value(&g).expect("serializes");
    json["repeats"] = serde_json::json!({"progress": [17, 1, 0], "first": null, "more": []});
    let loaded: Distopia = engine::load_state(&json).expect("a valid state");
    let saved = serde_json::to_value(&loaded).expect("serializes");
    let again: Distopia = serde_json::from_value(saved.clone()).expect("reads back");
    assert_eq!(again, loaded, "saved as {saved}");
    // A game with no record at all still leaves it out of the file.
    assert!(serde_json::to_value(&g)
        .expect("serializes")
        .get("repeats")
        .is_none());
}

#[test]
fn the_text_board_shows_the_table() {
    let g = picked_b_with(Collaborator::SpyPets);
    let text = g.view(Viewer::Seat(0)).to_string();
    for needle in [
        "meadow",
        "border",
        "Seat 1 (you)",
        "Spy Pets",
        "hand",
        "4:H2",
        "Legend:",
    ] {
        assert!(text.contains(needle), "{needle} missing in\n{text}");
    }
    // The two rows face each other: seat 2's D above seat 1's A, its A above seat 1's D.
    let lines: Vec<&str> = text.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.trim_start().starts_with("D ["))
        .expect("seat 2's row");
    let bottom = lines
        .iter()
        .position(|l| l.trim_start().starts_with("A ["))
        .expect("seat 1's row");
    assert!(top < bottom, "{text}");
    assert!(lines[top].find("A [") > lines[top].find("D ["), "{text}");
    assert!(
        lines[bottom].find("D [") > lines[bottom].find("A ["),
        "{text}"
    );
    assert!(!text.contains("Pick)") && !text.contains("Play)"), "{text}");
}

// ---- The bots' evaluation ----

/// Seat 0 (the Teacher) has piled five cards into its district A, two over the limit of 3:
/// guitar (Hobby 4) and library book (Education 4) are on top.
fn over_the_limit() -> Builder {
    let mut s = quiet();
    put(
        &mut s,
        0,
        cards(&["atlas", "notebook", "candles", "guitar", "library book"]),
    );
    s.to_act = 1;
    s
}

#[test]
fn cards_above_the_limit_of_an_unguarded_district_are_exposed() {
    let g = game(over_the_limit());
    // Worth 4 to the Teacher (library book) and 4 to the Collector (guitar).
    assert_eq!(g.exposed(0), [4, 4]);
    assert_eq!(g.exposed(1), [0, 0]);
    // The evaluation counts half of it as already moved.
    let plain = 0.5 + (g.total(0) - g.total(1)) as f64 / 60.0;
    assert!((g.evaluate(0) - (plain - 4.0 / 60.0)).abs() < 1e-9);
    assert!((g.evaluate(0) + g.evaluate(1) - 1.0).abs() < 1e-9);
    // And it is so: the Collector picks up D, plays into seat 0's A and takes three
    // cards, its own and the two above the limit.
    let mut g = g;
    act(&mut g, "pick D");
    let calculator = legal(&g)
        .into_iter()
        .find(|a| a.starts_with("play"))
        .expect("a card to play");
    act(&mut g, &calculator);
    assert!(g.won(1).contains(&card("guitar")));
    assert!(g.won(1).contains(&card("library book")));
    assert_eq!(g.won(1).len(), 3);
}

#[test]
fn cards_under_a_guard_or_within_the_limit_are_not_exposed() {
    let mut s = over_the_limit();
    s.districts[0].push(guard(0));
    assert_eq!(game(s).exposed(0), [0, 0]);
    let mut s = quiet();
    put(&mut s, 0, cards(&["atlas", "notebook", "candles"]));
    let g = game(s);
    assert_eq!(g.exposed(0), [0, 0]);
    assert!((g.evaluate(0) - (0.5 + (g.total(0) - g.total(1)) as f64 / 60.0)).abs() < 1e-9);
}

#[test]
fn limits_in_the_config_change_the_game_and_bad_ones_are_all_listed() {
    let play = |config: &Config, seed: u64| {
        let mut game = Distopia::new(config, seed).expect("valid");
        let mut legal = Vec::new();
        while game.to_act().is_some() {
            game.legal_actions(&mut legal);
            game.apply(legal[legal.len() / 3]).expect("legal");
        }
        game.outcome().expect("over").scores
    };
    let printed = Config::default();
    let loose = Config {
        limits: Some([9, 9, 9, 9]),
        ..Config::default()
    };
    assert!(
        (0..8).any(|seed| play(&printed, seed) != play(&loose, seed)),
        "limits of 9 change the game"
    );
    let json = serde_json::to_value(&loose).expect("json");
    assert_eq!(json["limits"], serde_json::json!([9, 9, 9, 9]));
    assert!(serde_json::to_value(&printed)
        .expect("json")
        .get("limits")
        .is_none());
    let bad = Config {
        limits: Some([0, 3, 11, 3]),
        ..Config::default()
    };
    let err = Distopia::new(&bad, 1).expect_err("two bad limits");
    assert_eq!(err.problems.len(), 2, "{err}");
    assert!(err.to_string().contains("district A") && err.to_string().contains("district C"));
}

// ---- A position that comes up a third time (ruling X15) ----

/// Seat 0's A holds atlas under a guard, seat 1's D (across from it) calculator; Spy Pets
/// is in play. Each player in turn picks that district up, sends the guard across and
/// plays the card back into the district it came from: nothing is drawn, nothing is won,
/// and the table comes back round every two turns.
fn spy_pets_loop() -> Distopia {
    let mut s = with_collaborator(quiet(), Collaborator::SpyPets);
    put(&mut s, 0, vec![card("atlas"), guard(0)]);
    put(&mut s, 7, cards(&["calculator"]));
    game(s)
}

/// One turn of the loop for the seat to act.
fn loop_turn(g: &mut Distopia) {
    let number = |name: &str| card(name).number().expect("contraband");
    if g.to_act() == Some(0) {
        for a in ["pick A", "cross", "play guard"] {
            act(g, a);
        }
        act(g, &format!("play {}", number("atlas")));
    } else {
        for a in ["pick D", "play guard", "cross"] {
            act(g, a);
        }
        act(g, &format!("play {}", number("calculator")));
    }
}

#[test]
fn a_position_that_comes_up_a_third_time_ends_the_game() {
    let mut g = spy_pets_loop();
    let deck = g.deck().len();
    // Turn 1 leaves seat 1 to pick with the collaborator held by seat 1; turn 2 leaves
    // seat 0 to pick with it held by seat 0 (not the opening position, where either
    // player could use it). Turns 3 and 4 bring both back a second time.
    for turn in 1..=4 {
        loop_turn(&mut g);
        assert_eq!(
            g.repetitions(),
            if turn <= 2 { 1 } else { 2 },
            "turn {turn}"
        );
        assert_eq!(g.phase(), Phase::Pick, "turn {turn}: the game goes on");
    }
    assert!(g
        .view(Viewer::Spectator)
        .to_string()
        .contains("This position has come up 2 times"));
    // Turn 5 brings seat 1's position back a third time: the game ends as it stands.
    let before = g.clone();
    loop_turn(&mut g);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.to_act(), None);
    assert!(g.ended_by_repetition());
    let why = g.ending(&engine::Names::default()).expect("over").why;
    assert!(
        why.starts_with("the game ended because the same position came up for the third time with no card drawn or won in between; "),
        "{why}"
    );
    assert_eq!(g.deck().len(), deck, "nothing was drawn");
    let outcome = g.outcome().expect("scored");
    assert_eq!(outcome.scores, vec![g.total(0), g.total(1)]);
    assert_eq!(g.current(), 0, "the last player is the one who moved last");
    // The log tells why, just before the final scores.
    let mut mid = before;
    for a in ["pick A", "cross", "play guard"] {
        act(&mut mid, a);
    }
    let last = format!("play {}", card("atlas").number().expect("contraband"));
    let events = Distopia::events(&mid, last.parse().expect("notation"), &g, Viewer::Seat(1));
    let n = events.len();
    assert!(n >= 2, "{events:?}");
    assert_eq!(
        events[n - 2],
        distopia::DistopiaEvent::Repeated,
        "{events:?}"
    );
    assert!(
        matches!(events[n - 1], distopia::DistopiaEvent::GameOver { .. }),
        "{events:?}"
    );
    let text = events[n - 2].text(&engine::Names::for_viewer(Viewer::Seat(1)));
    assert!(text.contains("came up a third time"), "{text}");
}

#[test]
fn twice_is_not_enough_and_a_drawn_card_starts_the_count_again() {
    let mut g = spy_pets_loop();
    for _ in 0..4 {
        loop_turn(&mut g);
    }
    assert_eq!(g.repetitions(), 2);
    assert!(!g.ended_by_repetition());
    // Seat 0 breaks the loop: picking up B empties it and a card is drawn into it.
    let deck = g.deck().len();
    act(&mut g, "pick B");
    while g.to_act() == Some(0) {
        let next = legal(&g).into_iter().find(|a| a.starts_with("play"));
        act(&mut g, &next.expect("a card to play"));
    }
    assert_eq!(g.deck().len(), deck - 1, "B was refilled");
    assert_eq!(g.repetitions(), 1, "a new stretch begins");
    assert_eq!(g.to_act(), Some(1), "and the game goes on");
}

#[test]
fn a_saved_game_from_before_the_count_loads_and_plays_on() {
    let mut g = spy_pets_loop();
    loop_turn(&mut g);
    let mut saved = serde_json::to_value(&g).expect("serialize");
    assert!(saved.get("repeats").is_some());
    saved.as_object_mut().expect("an object").remove("repeats");
    let mut old: Distopia = serde_json::from_value(saved).expect("an older save loads");
    assert_eq!(old.repetitions(), 1);
    for _ in 0..3 {
        loop_turn(&mut old);
    }
    assert_ne!(
        old.phase(),
        Phase::Over,
        "it counts from where it was loaded"
    );
}
