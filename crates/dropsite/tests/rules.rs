//! Each rule of Drop Site, once where it allows and once where it refuses.
use crate::common;
use common::{act, config, no_debts, position_with, refused, round_end};
use dropsite::Refusal;
use dropsite::{Action, Config, DropSite, RoundEnd};
use engine::prelude::*;
use engine::{Coded, Viewer};

fn two() -> DropSite {
    // Seat 0 holds 1 3 3 8 12; sites: a 10, a sideways zero, a 5.
    common::two(&[1, 3, 3, 8, 12])
}

#[test]
fn legal_actions_counted_by_hand_one_per_value_and_target() {
    let game = two();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    // 1: debt, new, on 10, on the zero, on 5 = 5; 3: the same 5; 8: debt, new, 10, zero = 4;
    // 12: debt, new, zero = 3. The two 3s give one set of actions.
    assert_eq!(legal.len(), 17);
    let texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
    assert_eq!(
        &texts[..5],
        ["1 debt", "1 new", "1 on 1", "1 on 2", "1 on 3"]
    );
}

#[test]
fn drop_sites_a_lower_card_is_allowed() {
    let mut game = two();
    act(&mut game, "8 on 1");
    assert_eq!(game.piles()[0].cards, vec![10, 8]);
}

#[test]
fn drop_sites_an_equal_or_higher_card_is_refused() {
    let mut game = no_debts([&[5, 3, 3, 8, 12], &[2, 4, 6, 7, 9]], &[&[10], &[5]], &[11]);
    assert_eq!(
        refused(&mut game, "5 on 2"),
        Refusal::NotLower { card: 5, top: 5 }
    );
    assert_eq!(
        refused(&mut game, "12 on 1"),
        Refusal::NotLower { card: 12, top: 10 }
    );
}

/// `text` is refused in [`two`] for `why`, with its code and its words.
fn refused_in_two(text: &str, why: Refusal, (code, words): (&str, &str)) {
    let err = refused(&mut two(), text);
    assert_eq!(err, why);
    assert_eq!(err.code(), code);
    assert_eq!(err.to_string(), words);
}

#[test]
fn a_card_not_in_hand_is_refused() {
    // Seats are counted from 1 in the words.
    refused_in_two(
        "9 debt",
        Refusal::NotHeld { seat: 0, card: 9 },
        ("dropsite/card_not_in_hand", "seat 1 holds no 9"),
    );
}

#[test]
fn a_site_that_does_not_exist_is_refused() {
    refused_in_two(
        "1 on 4",
        Refusal::NoSuchSite { site: 3, sites: 3 },
        (
            "dropsite/no_such_site",
            "there is no drop site 4 (there are 3)",
        ),
    );
}

#[test]
fn starting_a_new_site_takes_any_number() {
    let mut game = two();
    act(&mut game, "12 new");
    assert_eq!(game.piles().len(), 4);
    assert_eq!(game.piles()[3].top(), 12);
}

#[test]
fn debt_takes_one_card_face_down_and_the_player_draws_back_to_five() {
    let mut game = two();
    act(&mut game, "12 debt");
    assert_eq!(game.debt(0), [12]);
    assert_eq!(game.hand(0), [1, 3, 3, 8, 11], "drew the 11");
    assert_eq!(game.to_act(), Some(1), "one card per turn: the turn passes");
}

#[test]
fn debt_is_secret_even_from_its_owner() {
    let mut game = two();
    act(&mut game, "12 debt");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let view = game.view(viewer);
        assert_eq!(view.debt_sizes, vec![1, 0]);
        assert_eq!(view.own_debt, None);
        let json = serde_json::to_string(&view).expect("view serializes");
        assert!(
            !json.contains("\"debts\""),
            "no debt cards during the round"
        );
    }
}

#[test]
fn open_debt_shows_the_owner_only() {
    let config = Config {
        open_debt: true,
        ..Config::default()
    };
    let mut game = position_with(
        config,
        0,
        &[&[1, 3, 3, 8, 12], &[2, 4, 6, 7, 9]],
        &[&[], &[]],
        &[&[10]],
        &[11],
    );
    act(&mut game, "12 debt");
    assert_eq!(game.view(Viewer::Seat(0)).own_debt, Some(vec![12]));
    assert_eq!(game.view(Viewer::Seat(1)).own_debt, Some(vec![]));
    assert_eq!(game.view(Viewer::Spectator).own_debt, None);
}

#[test]
fn a_zero_on_a_site_turns_it_sideways_and_a_new_site_goes_on_top() {
    let mut game = no_debts([&[0, 3, 3, 8, 12], &[2, 4, 6, 7, 9]], &[&[10]], &[11, 11]);
    act(&mut game, "0 on 1");
    assert!(game.piles()[0].sideways);
    act(&mut game, "9 on 1");
    assert_eq!(game.piles()[0].shows().collect::<Vec<_>>(), vec![0, 9]);
}

#[test]
fn below_a_zero_nothing_may_be_played_only_a_new_site_started() {
    // The sideways pile takes any card as a new site, but once restarted it descends.
    let mut game = no_debts([&[4, 3, 3, 8, 12], &[2, 5, 6, 7, 9]], &[&[10, 0, 7]], &[11]);
    assert_eq!(
        refused(&mut game, "8 on 1"),
        Refusal::NotLower { card: 8, top: 7 }
    );
    act(&mut game, "4 on 1");
}

#[test]
fn a_closed_pile_refuses_every_card() {
    let mut game = no_debts(
        [&[1, 3, 3, 8, 12], &[2, 4, 6, 7, 9]],
        &[&[10, 0, 5, 0]],
        &[11],
    );
    assert_eq!(
        refused(&mut game, "1 on 1"),
        Refusal::SiteClosed { site: 0 }
    );
}

#[test]
fn a_site_made_with_a_zero_is_sideways_at_once() {
    let mut game = no_debts([&[0, 3, 3, 8, 12], &[2, 4, 6, 7, 9]], &[&[10]], &[11]);
    act(&mut game, "0 new");
    let p = &game.piles()[1];
    assert!(p.sideways && !p.restarted);
}

fn round_end_at(players: usize) {
    let hands: Vec<Vec<u8>> = (0..players)
        .map(|s| {
            vec![1, 2, 3, 4, 5]
                .into_iter()
                .map(|c| if s == 0 && c == 5 { 6 } else { c })
                .collect()
        })
        .collect();
    let hands: Vec<&[u8]> = hands.iter().map(|h| h.as_slice()).collect();
    let debts = vec![&[][..]; players];
    let limit = players + 3;
    let piles: Vec<Vec<u8>> = (0..limit - 2).map(|i| vec![12 - i as u8]).collect();
    let piles: Vec<&[u8]> = piles.iter().map(|p| p.as_slice()).collect();
    let mut game = position_with(config(players), 0, &hands, &debts, &piles, &[]);
    // Restarting on a sideways zero is no new pile (S6): build one and restart it first.
    act(&mut game, "6 new");
    assert_eq!(game.piles().len(), limit - 1);
    assert!(
        game.history().is_empty(),
        "{} piles of {limit}: the round goes on",
        limit - 1
    );
    for s in 1..players {
        assert_eq!(game.to_act(), Some(s));
        act(&mut game, "1 debt");
    }
    act(&mut game, "1 new");
    assert_eq!(game.history().len(), 1, "pile {limit} ends the round");
    assert_eq!(game.history()[0].ended_by, RoundEnd::PileLimit);
}

#[test]
fn round_end_two_players_at_the_fifth_site() {
    round_end_at(2);
}

#[test]
fn round_end_three_players_at_the_sixth_site() {
    round_end_at(3);
}

#[test]
fn round_end_four_players_at_the_seventh_site() {
    round_end_at(4);
}

#[test]
fn restarting_a_sideways_pile_does_not_count_toward_the_round_end() {
    let mut game = no_debts(
        [&[7, 3, 3, 8, 12], &[2, 4, 6, 7, 9]],
        &[&[12], &[11], &[10], &[0]],
        &[5, 5],
    );
    act(&mut game, "7 on 4");
    assert_eq!(game.piles().len(), 4);
    assert!(game.history().is_empty());
}

#[test]
fn the_player_who_ends_the_round_does_not_draw_and_a_new_round_is_dealt() {
    let mut game = round_end(config(2), &[2, 3, 5, 6, 7], [&[12], &[]]);
    let deck_before = game.deck_len();
    act(&mut game, "7 new");
    assert_eq!(game.history().len(), 1);
    assert_eq!(game.round(), 2);
    assert_eq!(
        game.deck_len(),
        52 - 11,
        "all cards reshuffled and dealt anew (S16), not {deck_before} - 1"
    );
    assert!(game.debt(0).is_empty() && game.debt(1).is_empty());
    assert_eq!(game.piles().len(), 1);
}

#[test]
fn the_first_player_rotates_each_round() {
    let mut game = DropSite::new(
        &Config {
            players: 3,
            ..Config::default()
        },
        5,
    )
    .expect("config");
    let mut legal = Vec::new();
    let mut firsts = vec![game.round_first()];
    while game.rounds() < 4 {
        game.legal_actions(&mut legal);
        let new = legal
            .iter()
            .copied()
            .find(|a| a.target == dropsite::Target::New)
            .expect("new is always legal");
        game.apply(new).expect("legal");
        if game.round() as usize > firsts.len() {
            firsts.push(game.round_first());
        }
    }
    assert_eq!(firsts, vec![0, 1, 2, 0, 1]);
    assert_eq!(game.to_act(), Some(1));
}

#[test]
fn random_first_player_follows_the_seed() {
    let starts: Vec<usize> = (0..40)
        .map(|seed| {
            DropSite::new(
                &Config {
                    players: 4,
                    random_first: true,
                    ..Config::default()
                },
                seed,
            )
            .expect("config")
            .to_act()
            .expect("in play")
        })
        .collect();
    for seat in 0..4 {
        assert!(
            starts.contains(&seat),
            "seat {seat} never starts: {starts:?}"
        );
    }
}

#[test]
fn the_game_ends_when_someone_reaches_the_target_and_goes_on_below_it() {
    // Seat 0 banks two 12s against a 12 site: +14 this round.
    let config = Config {
        target: 14,
        ..Config::default()
    };
    let mut game = round_end(config.clone(), &[2, 3, 5, 6, 7], [&[12, 12], &[]]);
    act(&mut game, "7 new");
    assert_eq!(game.totals(), [14, 0]);
    assert_eq!(game.to_act(), None, "14 reaches the target of 14");
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winners(), vec![0]);
    assert_eq!(refused(&mut game, "1 debt"), Refusal::GameOver);

    let config = Config {
        target: 15,
        ..Config::default()
    };
    let mut game = round_end(config, &[2, 3, 5, 6, 7], [&[12, 12], &[]]);
    act(&mut game, "7 new");
    assert!(game.to_act().is_some(), "14 of 15: another round");
    assert!(game.outcome().is_none());
}

#[test]
fn a_tie_at_the_top_plays_on() {
    let config = Config {
        target: 7,
        ..Config::default()
    };
    let mut game = round_end(config, &[2, 3, 5, 6, 7], [&[12], &[11]]);
    act(&mut game, "7 new");
    assert_eq!(game.totals(), [7, 7]);
    assert!(game.to_act().is_some(), "tied at 7: play more rounds (S14)");
}

#[test]
fn negative_totals_are_allowed() {
    let mut game = round_end(config(2), &[2, 3, 5, 6, 7], [&[4, 4], &[]]);
    act(&mut game, "7 new");
    assert_eq!(game.totals(), [-4, 0]);
}

#[test]
fn after_max_rounds_the_leader_wins_below_the_target() {
    let config = Config {
        max_rounds: 1,
        ..Config::default()
    };
    let mut game = round_end(config, &[2, 3, 5, 6, 7], [&[12], &[]]);
    act(&mut game, "7 new");
    assert_eq!(game.to_act(), None);
    assert_eq!(game.outcome().expect("over").winners(), vec![0]);
}

#[test]
fn bad_options_are_all_reported() {
    let err = DropSite::new(
        &Config {
            players: 5,
            target: 0,
            ..Config::default()
        },
        1,
    )
    .expect_err("two problems");
    assert_eq!(err.problems.len(), 2, "{err}");
    assert!(err.to_string().contains("players must be 2 to 4"));
}

#[test]
fn notation_round_trips_and_rejects_nonsense() {
    for text in ["0 debt", "12 new", "7 on 3"] {
        let a: Action = text.parse().expect("parses");
        assert_eq!(a.to_string(), text);
    }
    assert_eq!(
        "  7   ON 2 "
            .parse::<Action>()
            .expect("loose spacing and case"),
        Action::on(7, 1)
    );
    for bad in [
        "",
        "13 debt",
        "7 on 0",
        "7 on",
        "debt 7",
        "7 discard",
        "-1 new",
    ] {
        assert!(bad.parse::<Action>().is_err(), "`{bad}` should not parse");
    }
}

#[test]
fn a_broken_state_reports_every_problem() {
    let game = two();
    let mut json = serde_json::to_value(&game).expect("serializes");
    json["hands"][0][0] = serde_json::json!(12);
    json["totals"][1] = serde_json::json!(5);
    let err = engine::load_state::<DropSite>(&json).expect_err("broken");
    let text = err.to_string();
    assert!(
        text.contains("value 1 instead of 4") && text.contains("value 12 instead of 4"),
        "{text}"
    );
    assert!(text.contains("not the sum of its round scores"), "{text}");
}

#[test]
fn a_state_whose_scored_rounds_leave_out_a_seat_is_refused() {
    // A round scored at this table of two, then edited: the views show each seat's debt
    // and score of the last round, so a round without one for every seat cannot load.
    let mut game = two();
    let mut legal = Vec::new();
    while game.history().is_empty() {
        game.legal_actions(&mut legal);
        game.apply(legal[0]).expect("a legal action");
    }
    let json = serde_json::to_value(&game).expect("serializes");
    assert!(
        engine::load_state::<DropSite>(&json).is_ok(),
        "the game as played loads"
    );
    for (field, value) in [
        ("debts", serde_json::json!([[]])),
        ("scores", serde_json::json!([0, 0, 0])),
        ("shown", serde_json::json!([[13]])),
    ] {
        let mut edited = json.clone();
        edited["history"][0][field] = value;
        if field == "scores" {
            edited["totals"] = serde_json::json!([0, 0]);
        }
        let err = engine::load_state::<DropSite>(&edited).expect_err(field);
        let text = err.to_string();
        let expected = match field {
            "shown" => "round 1 shows card value 13",
            "debts" => "round 1 scored debts for 1 seats at a table of 2",
            _ => "round 1 scored scores for 3 seats at a table of 2",
        };
        assert!(text.contains(expected), "{field}: {text}");
    }
}

#[test]
fn a_state_with_a_hand_out_of_order_is_refused() {
    // Hands are kept in order, and the legal actions list each value once on that
    // ground: a file holding 1 3 1 … would offer `1 debt` twice.
    let json = serde_json::to_value(two()).expect("serializes");
    let mut edited = json.clone();
    edited["hands"][0] = serde_json::json!([3, 1, 3, 8, 12]);
    let err = engine::load_state::<DropSite>(&edited).expect_err("a hand out of order");
    assert!(
        err.to_string()
            .contains("seat 1's hand [3, 1, 3, 8, 12] is not in ascending order"),
        "{err}"
    );
    let game: DropSite = engine::load_state(&json).expect("the hand in order loads");
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let debts = legal.iter().filter(|a| a.to_string() == "3 debt").count();
    assert_eq!(debts, 1, "{legal:?}");
}

#[test]
fn determinize_keeps_what_the_seat_sees_and_reshuffles_the_rest() {
    let mut game = two();
    act(&mut game, "12 debt");
    let mut rng = engine::rng_from_seed(3);
    let mut changed_other_hand = false;
    for _ in 0..20 {
        let d = game.determinize(1, &mut rng);
        assert_eq!(d.hand(1), game.hand(1));
        assert_eq!(d.piles(), game.piles());
        assert_eq!(d.debt(0).len(), 1);
        changed_other_hand |= d.hand(0) != game.hand(0);
        assert!(engine::Formats::validate(&d).is_ok());
    }
    assert!(changed_other_hand, "the other hand is resampled");
}

#[test]
fn a_deck_in_the_config_changes_the_game_and_a_broken_one_lists_every_problem() {
    use dropsite::cards::DECK;
    let play = |config: &Config, seed: u64| {
        let mut game = DropSite::new(config, seed).expect("valid");
        let mut legal = Vec::new();
        let mut turn = 0usize;
        while game.to_act().is_some() {
            game.legal_actions(&mut legal);
            turn += 1;
            game.apply(legal[(turn * 7) % legal.len()]).expect("legal");
        }
        game.outcome().expect("over").scores
    };
    let printed = Config::default();
    let mut richer = Config::default();
    richer.deck.kinds[12].points = 40;
    assert!(
        (0..8).any(|seed| play(&printed, seed) != play(&richer, seed)),
        "a 12 worth 40 changes the scores"
    );
    let json = serde_json::to_value(&richer).expect("json");
    let back: Config = serde_json::from_value(json).expect("reads back");
    assert_eq!(back.deck.points(12), 40, "the deck travels with the config");
    assert!(
        serde_json::to_value(&printed)
            .expect("json")
            .get("deck")
            .is_none(),
        "the printed deck is not written out"
    );
    let mut broken = Config::default();
    broken.deck.kinds = DECK.kinds.clone();
    broken.deck.kinds.retain(|k| k.value != 3);
    broken.deck.kinds[0].points = 99;
    broken.deck.kinds[1].copies = 40;
    let err = broken.validate().expect_err("three problems");
    let text = err.to_string();
    assert!(text.contains("value 3 is missing"), "{text}");
    assert!(text.contains("scores 99 points"), "{text}");
    assert!(text.contains("40 copies of value 1"), "{text}");
    assert_eq!(err.problems.len(), 3, "{text}");
}

#[test]
fn the_builder_refuses_a_seat_the_table_does_not_have() {
    let problems = dropsite::Builder::new(2)
        .hand(2, &[1, 2, 3, 4, 5])
        .build()
        .expect_err("seat 3 at a table of 2");
    assert!(
        problems.contains(&"a hand for seat 3, at a table of 2".to_string()),
        "{problems:?}"
    );
}
