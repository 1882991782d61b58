//! The engine's own pieces: outcomes, seeds, errors.
use engine::{derive_seed, is_code, EngineError, IllegalAction, Outcome, Refused};

#[test]
fn ranked_outcomes_share_places_on_equal_keys_and_order_by_tie_breaks() {
    // Seats 0 and 2 tie on score; the tie-break (second key) puts seat 2 ahead.
    let o = Outcome::ranked(vec![10, 7, 10], &[(10, 1), (7, 5), (10, 3)]);
    assert_eq!(o.places, vec![1, 2, 0]);
    assert_eq!(o.winners(), vec![2]);
    assert_eq!(o.reward(2), 1.0);
    assert!(o.check(3).is_ok());

    let shared = Outcome::ranked(vec![5, 5, 1], &[5, 5, 1]);
    assert_eq!(shared.places, vec![0, 0, 2]);
    assert_eq!(shared.reward(0), 0.5);
    assert_eq!(shared.reward(2), 0.0);
    assert!(shared.check(3).is_ok());
}

#[test]
fn malformed_outcomes_are_caught() {
    assert!(Outcome {
        scores: vec![1, 2],
        places: vec![0, 0, 1]
    }
    .check(2)
    .is_err());
    assert!(Outcome {
        scores: vec![1, 2],
        places: vec![1, 1]
    }
    .check(2)
    .is_err());
    assert!(Outcome {
        scores: vec![1, 2, 3],
        places: vec![0, 2, 2]
    }
    .check(3)
    .is_err());
}

#[test]
fn derived_seeds_differ_per_index_and_are_stable() {
    let seeds: std::collections::HashSet<u64> = (0..10_000).map(|i| derive_seed(1, i)).collect();
    assert_eq!(seeds.len(), 10_000);
    assert_eq!(derive_seed(1, 5), derive_seed(1, 5));
    assert_ne!(derive_seed(1, 5), derive_seed(2, 5));
}

#[test]
fn errors_have_stable_codes_and_readable_messages() {
    let reason = Refused {
        code: "dropsite/not_lower",
        words: "7 is not lower than 5".into(),
    };
    let e = EngineError::from(IllegalAction::new("7 on 2", reason));
    assert_eq!(e.code(), "action/illegal");
    assert_eq!(e.refusal(), Some("dropsite/not_lower"));
    assert_eq!(
        e.to_string(),
        "illegal action `7 on 2`: 7 is not lower than 5"
    );
    assert_eq!(EngineError::GameOver.code(), "action/game_over");
}

#[test]
fn a_code_is_a_namespace_and_a_snake_case_rule() {
    assert!(is_code("dropsite/not_lower", "dropsite"));
    assert!(is_code("table/no_such_seat", "table"));
    for bad in [
        "dropsite/Not_lower",
        "dropsite/not-lower",
        "dropsite/not__lower",
        "dropsite/_lower",
        "dropsite/",
        "dropsite",
        "distopia/not_lower",
    ] {
        assert!(!is_code(bad, "dropsite"), "{bad}");
    }
}
