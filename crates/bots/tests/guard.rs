//! The guard every bot plays behind (`bots::Guarded`): within its own turn a bot does not
//! choose at a position it chose at before the action it chose there, it proposes a deal
//! to each seat at most once a turn, and a seat answering an offer answers on the merits.
//! Shown on Euphoria, whose trades are the only deals of the three games, with bots that
//! would loop or flood without the guard.
use bots::{Bot, Guarded, Observer};
use engine::prelude::*;
use engine::{Deal, Seat};
use euphoria::{Config, Euphoria};
use std::collections::HashSet;

/// A bot that plays by a rule: the rule's choice among the legal actions.
struct ByRule {
    name: &'static str,
    rule: fn(&Observer<'_, Euphoria>, &[euphoria::Action]) -> Option<euphoria::Action>,
}

impl Bot<Euphoria> for ByRule {
    fn name(&self) -> String {
        self.name.into()
    }
    fn choose(&mut self, observer: &Observer<'_, Euphoria>) -> Option<euphoria::Action> {
        let mut legal = Vec::new();
        observer.legal_actions(&mut legal);
        (self.rule)(observer, &legal)
    }
}

/// Opens a trade whenever it may and cancels it at once; otherwise the first legal action
/// (declining any offer). Without the guard it opens and cancels for ever.
fn fickle() -> ByRule {
    ByRule {
        name: "fickle",
        rule: |_, legal| {
            let named = |word: &str| legal.iter().copied().find(|a| a.to_string() == word);
            named("trade")
                .or_else(|| named("cancel"))
                .or_else(|| named("decline"))
                .or_else(|| legal.first().copied())
        },
    }
}

/// Pursues any deal it can (opens, offers to the first seat it may, gives, asks,
/// proposes, accepts); otherwise the first legal action. Without the guard it offers trade
/// after trade.
fn eager() -> ByRule {
    ByRule {
        name: "eager",
        rule: |observer, legal| {
            let pursue = legal.iter().copied().find(|&a| {
                // Builds an offer of one good at most, so that it comes to proposing.
                observer.deal(a) == Deal::Pursue && !a.to_string().starts_with("give")
            });
            pursue.or_else(|| legal.first().copied())
        },
    }
}

fn game() -> Euphoria {
    Euphoria::new(&Config::default(), 3).expect("the default table")
}

/// Plays `moves` moves with `bots` by seat; returns the actions with the position key
/// (as the seat to act saw it) and the number of legal actions at each.
fn play(
    game: &mut Euphoria,
    bots: &mut [Box<dyn Bot<Euphoria>>],
    moves: usize,
) -> Vec<(engine::PositionKey, Seat, euphoria::Action, usize)> {
    let mut played = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..moves {
        let Some(observer) = Observer::new(&*game) else {
            break;
        };
        let seat = observer.seat();
        let key = game.position_key().expect("a running game has a key");
        let action = bots[seat].choose(&observer).expect("a legal action");
        game.legal_actions(&mut legal);
        assert!(legal.contains(&action), "{action} is not legal");
        played.push((key, seat, action, legal.len()));
        game.apply(action).expect("legal");
    }
    played
}

fn guarded<B: Bot<Euphoria> + 'static>(make: impl Fn() -> B) -> Vec<Box<dyn Bot<Euphoria>>> {
    (0..4)
        .map(|_| Box::new(Guarded::new(Box::new(make()))) as Box<dyn Bot<Euphoria>>)
        .collect()
}

fn unguarded<B: Bot<Euphoria> + 'static>(make: impl Fn() -> B) -> Vec<Box<dyn Bot<Euphoria>>> {
    (0..4)
        .map(|_| Box::new(make()) as Box<dyn Bot<Euphoria>>)
        .collect()
}

fn is_trade(game: &Euphoria, action: euphoria::Action) -> bool {
    game.deal(action).is_trade()
}

#[test]
fn without_the_guard_a_fickle_bot_opens_and_cancels_for_ever() {
    let mut g = game();
    let played = play(&mut g, &mut unguarded(fickle), 2_000);
    let tail: Vec<String> = played[1_000..].iter().map(|p| p.2.to_string()).collect();
    assert!(
        tail.iter().all(|a| a == "trade" || a == "cancel"),
        "{tail:?}"
    );
}

#[test]
fn behind_the_guard_no_choice_is_repeated_at_a_position_within_a_turn() {
    let mut g = game();
    let played = play(&mut g, &mut guarded(fickle), 2_000);
    let mut seen = HashSet::new();
    for &(key, seat, action, legal) in &played {
        if key.owner != seat || legal == 1 {
            continue;
        }
        assert!(
            seen.insert((key.turn, key.owner, key.position, action.to_string())),
            "seat {} chose {action} twice at one position of turn {}",
            seat + 1,
            key.turn
        );
    }
    let trades = played.iter().filter(|p| p.2.to_string() == "trade").count();
    let placed = played
        .iter()
        .filter(|p| p.2.to_string().contains('@'))
        .count();
    assert!(trades > 0, "the fickle bot still trades when it may");
    assert!(placed > 50, "the game goes on: {placed} workers placed");
}

#[test]
fn behind_the_guard_a_bot_offers_each_seat_at_most_one_trade_a_turn() {
    // Without the guard the eager bot makes trade after trade in one turn.
    let mut g = game();
    let played = play(&mut g, &mut unguarded(eager), 400);
    assert!(played.iter().all(|p| p.0.turn == played[0].0.turn));

    let mut g = game();
    let mut offers = HashSet::new();
    let mut proposals = 0;
    let mut legal = Vec::new();
    let mut bots = guarded(eager);
    for _ in 0..3_000 {
        let Some(observer) = Observer::new(&g) else {
            break;
        };
        let seat = observer.seat();
        let key = g.position_key().expect("a key");
        let action = bots[seat].choose(&observer).expect("a legal action");
        if let Some(to) = g.proposal_to(action) {
            proposals += 1;
            assert!(
                offers.insert((key.turn, key.owner, to)),
                "seat {} offered seat {} a second trade in turn {}",
                seat + 1,
                to + 1,
                key.turn
            );
        }
        g.legal_actions(&mut legal);
        assert!(legal.contains(&action));
        g.apply(action).expect("legal");
    }
    assert!(
        proposals > 10,
        "the eager bot still trades: {proposals} offers"
    );
}

#[test]
fn a_seat_answering_an_offer_answers_on_the_merits_every_time() {
    // The first player offers a trade; the seat asked, behind the guard, declines it, and
    // declines the very same offer again: answering is not its turn, and nothing is avoided.
    let mut g = game();
    let mut bots = guarded(fickle);
    let mut legal = Vec::new();
    // Some moves without trading first, so that the seats hold goods to trade.
    for _ in 0..80 {
        g.legal_actions(&mut legal);
        let pick = (legal.iter().copied())
            .find(|&a| !is_trade(&g, a))
            .unwrap_or(legal[0]);
        g.apply(pick).expect("legal");
    }
    let mut found = None;
    let mut attempts = 0;
    for _ in 0..500 {
        let observer = Observer::new(&g).expect("running");
        let seat = observer.seat();
        g.legal_actions(&mut legal);
        let owner = g.position_key().expect("a key").owner;
        if owner != seat && legal.iter().any(|a| a.to_string() == "decline") {
            found = Some((g.clone(), seat));
            break;
        }
        // Open a trade with another seat (each in turn), ask for one good and propose.
        let named = |w: &str| -> Vec<_> {
            (legal.iter().copied())
                .filter(|a| a.to_string().starts_with(w))
                .collect()
        };
        let offers = named("offer");
        let pick = if !offers.is_empty() {
            attempts += 1;
            offers[attempts % offers.len()]
        } else {
            ["trade", "propose", "ask"]
                .iter()
                .find_map(|w| named(w).first().copied())
                .unwrap_or(legal[0])
        };
        g.apply(pick).expect("legal");
    }
    let (answer, answerer) = found.expect("an offer to answer within 500 moves");
    let observer = Observer::new(&answer).expect("running");
    let first = bots[answerer].choose(&observer).expect("an answer");
    let again = bots[answerer].choose(&observer).expect("an answer");
    assert_eq!(first.to_string(), "decline");
    assert_eq!(again.to_string(), "decline");
    assert!(is_trade(&answer, first));
}
