//! The worked examples of the Drop Site rulebook, one test each, named after its section.
use crate::common;
use common::{act, config, no_debts, pile, round_end};
use dropsite::{cards::DECK, score_round, RoundEnd};
use engine::prelude::*;

#[test]
fn scoring_figure_3_a_matched_12_and_2_score_11() {
    let piles = [pile(&[12]), pile(&[2])];
    assert_eq!(DECK.points(12), 7);
    assert_eq!(DECK.points(2), 4);
    assert_eq!(score_round(&DECK, &piles, &[vec![12, 2]]), vec![11]);
}

#[test]
fn scoring_figure_4_an_unmatched_10_brings_it_to_9() {
    let piles = [pile(&[12]), pile(&[2])];
    assert_eq!(score_round(&DECK, &piles, &[vec![12, 2, 10]]), vec![9]);
}

#[test]
fn zeros_figure_5_a_zero_turns_the_site_sideways_and_a_new_site_starts_on_top() {
    let mut game = no_debts([&[0, 3, 5, 8, 9], &[1, 2, 4, 6, 7]], &[&[10, 6]], &[11, 11]);
    act(&mut game, "0 on 1");
    let p = &game.piles()[0];
    assert!(p.sideways && !p.restarted && !p.closed);
    assert_eq!(p.shows().collect::<Vec<_>>(), vec![0]);
    // Any number may start the new site on top, even one higher than the old top.
    act(&mut game, "7 on 1");
    let p = &game.piles()[0];
    assert!(p.sideways && p.restarted);
    assert_eq!(
        p.shows().collect::<Vec<_>>(),
        vec![0, 7],
        "both the new top and the zero beneath count"
    );
    assert_eq!(
        game.piles().len(),
        1,
        "restarting on a zero makes no new drop site (S6)"
    );
    // Then the new site descends as usual.
    act(&mut game, "5 on 1");
    assert_eq!(game.piles()[0].top(), 5);
}

#[test]
fn zeros_a_zero_on_the_new_site_closes_the_pile_and_both_zeros_score() {
    let mut game = no_debts(
        [&[0, 3, 5, 8, 9], &[0, 2, 4, 6, 7]],
        &[&[10, 0, 6]],
        &[11, 11],
    );
    act(&mut game, "0 on 1");
    let p = &game.piles()[0];
    assert!(
        p.closed && p.sideways,
        "the pile is not turned again, and it is closed"
    );
    assert_eq!(p.shows().collect::<Vec<_>>(), vec![0, 0]);
    assert!(!game.is_legal("2 on 1".parse().expect("notation")));
    // A banked zero matches this pile twice (Note 1).
    assert_eq!(
        score_round(&DECK, &game.piles()[..1], &[vec![0]]),
        vec![2 * DECK.points(0)]
    );
}

#[test]
fn note_1_a_card_matching_two_sites_scores_twice_and_two_cards_may_match_one_site() {
    let piles = [pile(&[9]), pile(&[12, 9]), pile(&[4])];
    assert_eq!(
        score_round(&DECK, &piles, &[vec![9]]),
        vec![2 * DECK.points(9)]
    );
    assert_eq!(
        score_round(&DECK, &piles, &[vec![4, 4]]),
        vec![2 * DECK.points(4)]
    );
}

#[test]
fn note_2_a_sideways_site_counts_toward_the_round_end() {
    // Two players, four drop sites made; the fifth is made with a zero.
    let mut game = round_end(config(2), &[0, 2, 3, 5, 6], [&[12], &[]]);
    act(&mut game, "0 new");
    assert_eq!(game.history().len(), 1, "the round ended immediately");
    let round = &game.history()[0];
    assert_eq!(round.ended_by, RoundEnd::PileLimit);
    assert_eq!(
        round.shown,
        vec![vec![12], vec![11], vec![10], vec![9], vec![0]]
    );
    assert_eq!(round.scores, vec![DECK.points(12), 0]);
}

#[test]
fn note_3_drawing_the_last_card_ends_the_round() {
    let mut game = dropsite::DropSite::new(&dropsite::Config::default(), 3).expect("config");
    // Bank every card: no new sites, so only the deck can end the round.
    while game.deck_len() > 1 {
        let seat = game.to_act().expect("in play");
        let card = game.hand(seat)[0];
        act(&mut game, &format!("{card} debt"));
        assert!(game.history().is_empty());
    }
    let seat = game.to_act().expect("in play");
    let card = game.hand(seat)[0];
    act(&mut game, &format!("{card} debt"));
    assert_eq!(game.history().len(), 1);
    assert_eq!(game.history()[0].ended_by, RoundEnd::DeckEmpty);
}

#[test]
fn drop_sites_you_may_play_an_8_on_a_10_but_not_a_12() {
    let game = no_debts([&[1, 3, 8, 12, 12], &[1, 2, 4, 6, 7]], &[&[10]], &[]);
    assert!(game.is_legal("8 on 1".parse().expect("notation")));
    assert!(!game.is_legal("12 on 1".parse().expect("notation")));
}

#[test]
fn set_up_five_cards_each_and_one_face_up_drop_site() {
    for players in 2..=4 {
        let game = dropsite::DropSite::new(
            &dropsite::Config {
                players,
                ..Default::default()
            },
            9,
        )
        .expect("config");
        for s in 0..players {
            assert_eq!(game.hand(s).len(), 5);
            assert!(game.debt(s).is_empty());
        }
        assert_eq!(game.piles().len(), 1);
        assert_eq!(game.deck_len(), 52 - 5 * players - 1);
    }
}

#[test]
fn you_win_the_end_explains_figures_3_and_4_round_by_round() {
    // A game to 9 points; Player A (seat 1) banked the 12, the 2 and the 10 of figures 3
    // and 4; the fifth drop site ends the round with a 12 and a 2 showing and no 10.
    let config = dropsite::Config {
        players: 2,
        target: 9,
        ..dropsite::Config::default()
    };
    let mut game = common::position_with(
        config,
        0,
        &[&[1, 3, 4, 5, 6], &[1, 3, 4, 5, 6]],
        &[&[12, 2, 10], &[11]],
        &[&[12], &[2], &[9], &[8]],
        &[],
    );
    act(&mut game, "5 new");
    assert_eq!(game.to_act(), None, "seat 1 reached the target alone");
    let names = engine::Names::default().with_names(vec!["Ann".into(), "Bob".into()]);
    let ending = game.ending(&names).expect("the game is over");
    assert_eq!(
        ending.why,
        "round 1 ended when drop site 5 was started, and after its scoring Ann reached the target of 9 points with 9 points, more than anyone else"
    );
    let lines = |s: usize| engine::testkit::score_lines(&ending, s);
    // 7 + 4 - 2 = 9 (figures 3 and 4); Bob's unmatched 11 scores -2.
    assert_eq!(lines(0), vec![("round 1 (debt 12, 2, 10)", 9)]);
    assert_eq!(lines(1), vec![("round 1 (debt 11)", -2)]);
    let outcome = game.outcome().expect("over");
    assert_eq!(ending.check(&outcome), Ok(()));
    assert_eq!(ending.totals(), vec![9, -2]);
}
