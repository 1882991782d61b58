//! Seat specs parse, print back, and make the bots they name.
use bots::{make_bot, make_dyn_bot, BotError, BotSpec, Budget, Level};

#[test]
fn specs_round_trip() {
    for text in [
        "human",
        "random",
        "heuristic",
        "pimc",
        "ismcts",
        "ismcts:5000",
        "ismcts:250ms",
        "easy",
        "medium",
        "hard",
    ] {
        let spec: BotSpec = text.parse().expect(text);
        assert_eq!(spec.to_string(), text);
        assert_eq!(spec.to_string().parse::<BotSpec>(), Ok(spec));
    }
    assert_eq!(
        " ISMCTS:5000 ".parse::<BotSpec>(),
        Ok(BotSpec::Ismcts(Some(Budget::Iterations(5000))))
    );
    assert_eq!("Hard".parse::<BotSpec>(), Ok(BotSpec::Level(Level::Hard)));
}

#[test]
fn bad_specs_list_the_choices() {
    for text in ["", "ismcts:", "ismcts:0", "ismcts:x", "expert", "random:3"] {
        let err = text.parse::<BotSpec>().expect_err(text);
        let message = err.to_string();
        assert!(
            message.contains("heuristic") && message.contains("ismcts:"),
            "{message}"
        );
    }
}

#[test]
fn every_bot_spec_makes_a_bot() {
    for text in [
        "random",
        "heuristic",
        "pimc",
        "ismcts",
        "ismcts:10",
        "easy",
        "medium",
        "hard",
    ] {
        let spec: BotSpec = text.parse().expect(text);
        let bot = make_bot::<distopia::Distopia>(&spec, 1).expect(text);
        assert_eq!(bot.name(), text);
        assert!(make_dyn_bot::<dropsite::DropSite>(&spec, 1).is_ok());
    }
    assert!(matches!(
        make_bot::<distopia::Distopia>(&BotSpec::Human, 1),
        Err(BotError::NotABot(_))
    ));
}

#[test]
fn the_one_list_of_names_parses_prints_and_is_told() {
    for (name, spec) in BotSpec::NAMED {
        assert_eq!(name.parse::<BotSpec>(), Ok(spec.clone()), "{name}");
        assert_eq!(spec.to_string(), name);
    }
    let choices = BotSpec::bot_choices();
    for name in BotSpec::bot_names() {
        assert!(choices.contains(name), "{choices}");
    }
    assert!(!BotSpec::bot_names().any(|n| n == "human"));
    let err = "expert"
        .parse::<BotSpec>()
        .expect_err("no such bot")
        .to_string();
    assert!(err.contains(&choices) && err.contains("pimc"), "{err}");
}
