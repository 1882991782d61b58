//! Every kind of effect a move has produces its event, told to each viewer as it may know it.
use crate::common;
use common::{config, position_with};
use dropsite::{Config, DebtMatch, DropSite, DropSiteEvent, Landing, RoundEnd};
use engine::prelude::*;
use engine::{Event, Names, Viewer};

/// Applies `text` and returns what `viewer` is told, as events and as texts.
fn told(game: &mut DropSite, text: &str, viewer: Viewer) -> (Vec<DropSiteEvent>, Vec<String>) {
    let before = game.clone();
    game.apply(text.parse().expect("notation")).expect("legal");
    let events = DropSite::events(&before, text.parse().expect("notation"), game, viewer);
    let names = Names::for_viewer(viewer);
    let texts = events.iter().map(|e| e.text(&names)).collect();
    (events, texts)
}

fn two() -> DropSite {
    common::two(&[1, 3, 0, 8, 12])
}

#[test]
fn a_banked_card_stays_face_down_to_everyone_its_owner_included() {
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        let mut game = two();
        let (events, texts) = told(&mut game, "8 debt", viewer);
        assert_eq!(
            events,
            vec![DropSiteEvent::Banked {
                seat: 0,
                card: None
            }]
        );
        assert!(!texts[0].contains('8'), "{texts:?}");
    }
    let mut game = two();
    assert_eq!(
        told(&mut game, "8 debt", Viewer::Spectator).1,
        ["seat 1 played a card face down on their debt"]
    );
}

#[test]
fn with_open_debt_the_owner_alone_is_told_the_banked_card() {
    let open = || {
        position_with(
            Config {
                open_debt: true,
                ..Config::default()
            },
            0,
            &[&[1, 3, 0, 8, 12], &[2, 4, 6, 7, 9]],
            &[&[], &[]],
            &[&[10]],
            &[11],
        )
    };
    let (_, texts) = told(&mut open(), "8 debt", Viewer::Seat(0));
    assert_eq!(texts, ["you played an 8 on your debt"]);
    let (events, _) = told(&mut open(), "8 debt", Viewer::Seat(1));
    assert_eq!(
        events,
        vec![DropSiteEvent::Banked {
            seat: 0,
            card: None
        }]
    );
}

#[test]
fn a_played_card_says_where_it_went_and_what_a_zero_did() {
    let cases = [
        ("8 on 1", Landing::Top, "seat 1 played an 8 on drop site 1"),
        (
            "12 on 2",
            Landing::Restarted,
            "seat 1 started a new drop site with a 12 on the sideways zero of drop site 2",
        ),
        (
            "0 on 3",
            Landing::Sideways,
            "seat 1 played a zero on drop site 3, turning it sideways",
        ),
    ];
    for (action, landing, text) in cases {
        let mut game = two();
        let (events, texts) = told(&mut game, action, Viewer::Spectator);
        match &events[0] {
            DropSiteEvent::Played { landing: l, .. } => assert_eq!(*l, landing, "{action}"),
            other => panic!("{action}: {other:?}"),
        }
        assert_eq!(texts, [text]);
    }
    // A second zero closes a restarted sideways site.
    let mut game = position_with(
        config(2),
        1,
        &[&[1, 3, 5, 8, 12], &[0, 4, 6, 7, 9]],
        &[&[], &[]],
        &[&[10], &[0, 3]],
        &[11],
    );
    let (_, texts) = told(&mut game, "0 on 2", Viewer::Seat(0));
    assert_eq!(
        texts,
        ["seat 2 closed drop site 2 with a second zero: nothing more goes on it"]
    );
    let mut game = two();
    let (_, texts) = told(&mut game, "0 new", Viewer::Seat(0));
    assert_eq!(
        texts,
        ["you started drop site 4 with a zero, lying sideways"]
    );
}

#[test]
fn a_round_end_reveals_each_debt_with_its_matches_and_the_scores() {
    // Two players: the fifth site ends the round. Sites show 10, 0, 5, 7 and the new 9.
    let start = position_with(
        config(2),
        0,
        &[&[1, 3, 4, 9, 12], &[2, 4, 6, 8, 9]],
        &[&[5, 7, 11], &[10, 10]],
        &[&[10], &[0], &[5], &[7]],
        &[11],
    );
    let mut game = start.clone();
    let (events, texts) = told(&mut game, "9 new", Viewer::Spectator);
    assert_eq!(
        events[1],
        DropSiteEvent::RoundOver {
            round: 1,
            ended_by: RoundEnd::PileLimit,
            shown: vec![vec![10], vec![0], vec![5], vec![7], vec![9]],
        }
    );
    let DropSiteEvent::DebtScored {
        seat,
        matches,
        score,
        ..
    } = &events[2]
    else {
        panic!("{events:?}")
    };
    assert_eq!(*seat, 0);
    assert_eq!(
        matches[2],
        DebtMatch {
            card: 11,
            matched: 0,
            points: -2
        }
    );
    assert_eq!(*score, game.history()[0].scores[0]);
    assert_eq!(
        texts[1],
        "round 1 is over (drop site 5 was started): the drop sites showed 10, 0, 5, 7 and 9"
    );
    assert!(
        texts[2].starts_with("seat 1's debt held 5, 7 and 11: the 5 matched once (+5), the 7 matched once (+5), the 11 matched no drop site (-2)"),
        "{}",
        texts[2]
    );
    assert!(
        texts[3].starts_with("seat 2's debt held 10 and 10: the 10 matched once"),
        "{}",
        texts[3]
    );
    assert!(
        matches!(
            events[4],
            DropSiteEvent::RoundStarted {
                round: 2,
                first: 1,
                ..
            }
        ),
        "{events:?}"
    );
    assert!(texts[4].starts_with("round 2 begins: seat 2 plays first; drop site 1 is"));
    // Seats see the same round end, named from their side.
    let mut again = start;
    let (_, texts) = told(&mut again, "9 new", Viewer::Seat(1));
    assert!(
        texts[3].starts_with("your debt held 10 and 10"),
        "{texts:?}"
    );
}

#[test]
fn the_last_card_of_the_deck_ends_the_round_and_a_target_ends_the_game() {
    let mut game = position_with(
        Config {
            target: 1,
            ..Config::default()
        },
        0,
        &[&[1, 3, 4, 9, 12], &[2, 4, 6, 8, 9]],
        &[&[10], &[]],
        &[&[10], &[0]],
        &[],
    );
    // Draw the deck down to its last card, then bank and draw it.
    while game.deck_len() > 1 {
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let on_site = legal
            .iter()
            .find(|a| a.to_string().contains(" on "))
            .or_else(|| legal.iter().find(|a| a.to_string().ends_with("debt")))
            .copied()
            .expect("an action");
        game.apply(on_site).expect("legal");
    }
    let card = game.hand(game.to_act().expect("in play"))[0];
    let (events, texts) = told(&mut game, &format!("{card} debt"), Viewer::Spectator);
    assert!(
        matches!(
            events[1],
            DropSiteEvent::RoundOver {
                ended_by: RoundEnd::DeckEmpty,
                ..
            }
        ),
        "{events:?}"
    );
    assert!(
        texts[1].contains("the last card of the deck was drawn"),
        "{texts:?}"
    );
    if game.to_act().is_none() {
        assert!(texts
            .last()
            .is_some_and(|t| t.starts_with("the game is over")));
    }
}
