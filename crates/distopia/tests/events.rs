//! Every kind of effect a move has produces its event: guards moved by a siren, won
//! cards, a collaborator used, a mission earned, the end of the game.
use crate::common;
use common::*;
use distopia::{Collaborator, Distopia, DistopiaEvent, GuardMove, Mission, Place};
use engine::prelude::*;
use engine::{Event, Names, Viewer};

/// Applies `text` and returns what `viewer` is told, as events and as texts.
fn told(game: &mut Distopia, text: &str, viewer: Viewer) -> (Vec<DistopiaEvent>, Vec<String>) {
    let before = game.clone();
    let action = text.parse().expect("notation");
    game.apply(action).expect("legal");
    let events = Distopia::events(&before, action, game, viewer);
    let names = Names::for_viewer(viewer);
    let texts = events.iter().map(|e| e.text(&names)).collect();
    (events, texts)
}

fn at(seat: usize, letter: char) -> Place {
    Place { seat, letter }
}

#[test]
fn a_siren_tells_each_guard_move_in_order() {
    let mut s = quiet();
    put(&mut s, 0, cards(&["atlas"]));
    put(&mut s, 1, cards(&["yo-yo"]));
    put(&mut s, 2, vec![card("notebook"), guard(0)]);
    put(&mut s, 3, vec![card("candles"), guard(1), guard(2)]);
    put(&mut s, 4, vec![card("guitar"), guard(3)]);
    put(&mut s, 7, vec![card("calculator"), guard(4)]);
    put_deck(&mut s, cards(&["music box"]));
    let mut g = game(s);
    act(&mut g, "pick A");
    let (events, texts) = told(&mut g, "play 15", Viewer::Seat(1));
    let siren = events
        .iter()
        .find_map(|e| match e {
            DistopiaEvent::Siren { at, moves } => Some((at, moves)),
            _ => None,
        })
        .expect("a siren event");
    assert_eq!(*siren.0, at(0, 'A'));
    assert_eq!(
        *siren.1,
        vec![
            GuardMove {
                from: at(0, 'C'),
                to: at(0, 'B')
            },
            GuardMove {
                from: at(0, 'D'),
                to: at(0, 'C')
            },
            GuardMove {
                from: at(1, 'A'),
                to: at(1, 'B')
            },
        ]
    );
    assert!(
        texts.contains(&"a siren came up in seat 1's district A: the guard in seat 1's district C moves to B, the guard in seat 1's district D moves to C and the guard in your district A moves to B".to_string()),
        "{texts:?}"
    );
    // The refill comes first, naming the siren card.
    let refill = texts
        .iter()
        .position(|t| t.starts_with("seat 1's district A was refilled from the deck: music box"));
    let siren_at = texts.iter().position(|t| t.starts_with("a siren"));
    assert!(refill < siren_at && refill.is_some(), "{texts:?}");
}

#[test]
fn won_cards_are_named_from_the_district_they_left() {
    let mut g = game(coast_win());
    let (_, texts) = told(&mut g, "pick D", Viewer::Spectator);
    assert_eq!(
        texts,
        ["seat 1 picked up their district D (2 cards): candles (23) and kite (4)"]
    );
    let (events, texts) = told(&mut g, "play 4", Viewer::Seat(1));
    assert!(matches!(&events[0], DistopiaEvent::Played { to, .. } if *to == at(1, 'A')));
    assert_eq!(texts, ["seat 1 played kite (4) into your district A"]);
    // The cards are won once the hand is played out.
    let (_, texts) = told(&mut g, "play 23", Viewer::Seat(1));
    assert!(
        texts
            .iter()
            .any(|t| t == "seat 1 won 1 card from your district A: kite (4)"),
        "{texts:?}"
    );
}

#[test]
fn collaborators_tell_what_they_did() {
    let mut g = raid();
    act(&mut g, "pick D");
    act(&mut g, "play 4");
    let (events, texts) = told(&mut g, "play 23", Viewer::Spectator);
    assert!(
        events.contains(&DistopiaEvent::RaidOffered { seat: 0 }),
        "{events:?}"
    );
    assert!(texts
        .iter()
        .any(|t| t == "seat 1 may take one more card with The Shelf Raider"));
    let (_, texts) = told(&mut g, "raid A", Viewer::Seat(1));
    assert_eq!(
        texts[0],
        "seat 1 used The Shelf Raider and won comic book (6) from your district A too"
    );

    // Each collaborator used after the first pick, as `viewer` is told it.
    for (collaborator, used, viewer, said) in [
        (
            Collaborator::SpyPets,
            "cross",
            Viewer::Seat(0),
            "you used Spy Pets: the next card goes across the border",
        ),
        (
            Collaborator::GrandmaTheHacker,
            "grandma",
            Viewer::Seat(1),
            "seat 1 used Grandma the Hacker: this turn goes clockwise",
        ),
        (
            Collaborator::RebelRobot,
            "robot A",
            Viewer::Spectator,
            "seat 1 used Rebel Robot and took atlas (15) from their district A into the hand",
        ),
    ] {
        let mut g = picked_b_with(collaborator);
        let (_, texts) = told(&mut g, used, viewer);
        assert_eq!(texts, [said]);
    }
}

#[test]
fn a_mission_earned_is_told_and_the_end_gives_the_scores() {
    let s = curfew_race(&[
        "music box",
        "electric keyboard",
        "radio-controlled car",
        "paint set",
        "board game",
    ]);
    let mut g = game(s);
    act(&mut g, "pick D");
    act(&mut g, "play 4");
    let (events, texts) = told(&mut g, "play 23", Viewer::Seat(1));
    assert!(
        events.contains(&DistopiaEvent::MissionEarned {
            seat: 0,
            mission: Mission::Curfew
        }),
        "{events:?}"
    );
    assert!(texts
        .iter()
        .any(|t| t == "seat 1 earned the mission Curfew: 5 points at the end"));

    // A random game ends with the final scores told to everyone.
    let mut g = Distopia::new(&distopia::Config::default(), 3).expect("a game");
    let mut legal = Vec::new();
    let mut last = Vec::new();
    while g.to_act().is_some() {
        g.legal_actions(&mut legal);
        let action = legal[0].to_string();
        last = told(&mut g, &action, Viewer::Spectator).1;
    }
    assert!(
        last.last()
            .is_some_and(|t| t.starts_with("the game is over")),
        "{last:?}"
    );
}
