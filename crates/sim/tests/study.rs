//! Sharded studies merge into the unsharded one, to the last digit, for every game; the
//! HTML report holds each chart's bars and numbers.
use bots::BotSpec;
use engine::prelude::*;
use sim::{html, merge, run, Part, Report, Shard, ShardFile, SimOptions};

fn options(games: u64, seats: usize, shard: Option<Shard>) -> SimOptions {
    SimOptions {
        games,
        seed: 9,
        threads: Some(2),
        seats: vec![BotSpec::Random; seats],
        shard,
    }
}

fn study<G: Game>(config: &G::Config, games: u64, shard: Option<Shard>) -> Report {
    let seats = G::new(config, 0).expect("valid").seats();
    run::<G>(config, &options(games, seats, shard), &|| {}).expect("runs")
}

/// Shards 1..=n of the study, written to JSON and read back as a shard file would be.
fn shards<G: Game>(config: &G::Config, games: u64, n: u64) -> Vec<ShardFile> {
    (1..=n)
        .map(|index| {
            let shard = Shard { index, count: n };
            let report = study::<G>(config, games, Some(shard));
            let file = ShardFile {
                shard,
                parts: vec![report.part],
            };
            let text = serde_json::to_string(&file).expect("serializes");
            serde_json::from_str(&text).expect("reads back")
        })
        .collect()
}

fn merged_equals_unsharded<G: Game>(config: &G::Config, games: u64, n: u64) {
    let whole = study::<G>(config, games, None);
    let parts = merge(shards::<G>(config, games, n)).expect("the shards make one study");
    let merged = Report::of(&parts[0]);
    assert_eq!(merged.summary, whole.summary);
    assert_eq!(
        serde_json::to_string(&merged.summary).expect("json"),
        serde_json::to_string(&whole.summary).expect("json"),
        "{} summaries differ in print",
        G::NAME
    );
}

#[test]
fn dropsite_shards_merge_into_the_unsharded_study() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    merged_equals_unsharded::<dropsite::DropSite>(&config, 23, 4);
}

#[test]
fn distopia_shards_merge_into_the_unsharded_study() {
    merged_equals_unsharded::<distopia::Distopia>(&distopia::Config::default(), 17, 3);
}

#[test]
fn euphoria_shards_merge_into_the_unsharded_study() {
    let config = <euphoria::Euphoria as GameRules>::Config::default();
    merged_equals_unsharded::<euphoria::Euphoria>(&config, 5, 2);
}

#[test]
fn shards_that_do_not_make_one_study_are_refused_with_every_problem() {
    let config = distopia::Config::default();
    let mut files = shards::<distopia::Distopia>(&config, 9, 3);
    let other =
        shards::<distopia::Distopia>(&distopia::Config::advanced(distopia::Border::City), 9, 3);
    files.remove(1); // shard 2 missing
    files.push(files[0].clone()); // shard 1 twice
    files.push(other[2].clone()); // shard 3 of another study
    let err = merge(files).expect_err("broken set");
    let text = err.to_string();
    assert!(text.contains("shard 2/3 is missing"), "{text}");
    assert!(text.contains("shard 1/3 is given 2 times"), "{text}");
    assert!(text.contains("differs"), "{text}");
    assert_eq!(merge(Vec::new()).expect_err("none").problems.len(), 1);
    assert!("0/3".parse::<Shard>().is_err());
    assert!("4/3".parse::<Shard>().is_err());
    assert!("two".parse::<Shard>().is_err());
    let covered: u64 = (1..=7)
        .map(|index| {
            let r = Shard { index, count: 7 }.range(100);
            r.end - r.start
        })
        .sum();
    assert_eq!(covered, 100);
}

/// The `<figure data-chart="NAME">` of a page.
fn figure<'a>(page: &'a str, name: &str) -> &'a str {
    let start = page
        .find(&format!("<figure data-chart=\"{name}\">"))
        .unwrap_or_else(|| panic!("no chart {name}"));
    let end = start + page[start..].find("</figure>").expect("closed");
    &page[start..end]
}

fn bars(figure: &str) -> usize {
    figure
        .matches(&format!("fill=\"{}\"", html::BAR_FILL))
        .count()
}

fn page(parts: &[Part]) -> String {
    html::render(parts, "tabletop report test --games 40").expect("renders")
}

#[test]
fn a_distopia_report_charts_every_seat_and_component_with_the_study_numbers() {
    let report = study::<distopia::Distopia>(
        &distopia::Config::advanced(distopia::Border::Coast),
        40,
        None,
    );
    let page = page(std::slice::from_ref(&report.part));
    assert!(page.contains("tabletop report test --games 40"));
    for outside in ["<link", "<script", "src=", "href=", "url("] {
        assert!(
            !page.contains(outside),
            "self-contained, yet holds {outside}"
        );
    }
    let win = figure(&page, "win-rate");
    assert_eq!(bars(win), 2, "one bar per seat");
    for s in &report.summary.seats {
        assert!(win.contains(&format!("{:.4}", s.win_rate)), "{win}");
    }
    for aspect in ["character", "border", "collaborator", "mission"] {
        let fig = figure(&page, &format!("held-{aspect}"));
        let rows: Vec<_> = report.summary.holdings_of(aspect).collect();
        assert!(!rows.is_empty());
        assert_eq!(bars(fig), rows.len(), "one bar per {aspect}");
        for h in rows {
            assert!(fig.contains(&format!("<td>{}</td>", h.value)));
            assert!(fig.contains(&format!("{:.4}", h.win_rate)));
        }
    }
    assert_eq!(bars(figure(&page, "first-player")), 1);
    for s in 1..=2 {
        let fig = figure(&page, &format!("score-seat-{s}"));
        let total: u64 = fig
            .split("<tr>")
            .skip(2)
            .filter_map(|row| {
                row.split("<td>")
                    .nth(2)?
                    .split('<')
                    .next()?
                    .parse::<u64>()
                    .ok()
            })
            .sum();
        assert_eq!(total, 40, "every game in seat {s}'s score histogram");
    }
    for name in ["moves", "rounds", "turns"] {
        assert!(bars(figure(&page, name)) >= 1, "{name}");
    }
}

#[test]
fn a_dropsite_report_charts_first_hand_quintiles_and_a_variant() {
    let config = dropsite::Config {
        target: 30,
        ..dropsite::Config::default()
    };
    let short = dropsite::Config {
        target: 20,
        ..dropsite::Config::default()
    };
    let a = study::<dropsite::DropSite>(&config, 60, None);
    let b = study::<dropsite::DropSite>(&short, 60, None);
    let page = page(&[a.part.clone(), b.part.clone()]);
    let win = figure(&page, "win-rate");
    assert_eq!(bars(win), 2, "one bar per seat");
    for s in &a.summary.seats {
        assert!(win.contains(&format!("{:.4}", s.win_rate)), "{win}");
    }
    let quintiles = holdings_charted(&page, &a.summary, "first hand points");
    assert!((3..=5).contains(&quintiles.len()));
    assert!(quintiles.iter().all(|h| h.value.starts_with('Q')));
    assert_eq!(quintiles.iter().map(|h| h.seats).sum::<u64>(), 120);
    let vs = figure(&page, "vs-difference");
    assert_eq!(bars(vs), 2, "one difference per seat");
    for (sa, sb) in a.summary.seats.iter().zip(&b.summary.seats) {
        let c = sim::two_proportion(sa.wins, 60.0, sb.wins, 60.0);
        assert!(vs.contains(&format!("{:+.4}", c.difference)), "{vs}");
    }
    assert_eq!(bars(figure(&page, "vs-win-rate")), 2);
}

/// Each holding of `aspect` has its bar and its row (name and win rate) in its figure.
fn holdings_charted(page: &str, summary: &sim::Summary, aspect: &str) -> Vec<sim::HoldingRate> {
    let fig = figure(page, &format!("held-{}", aspect.replace(' ', "-")));
    let rows: Vec<_> = summary.holdings_of(aspect).cloned().collect();
    assert!(!rows.is_empty(), "no {aspect}");
    assert_eq!(bars(fig), rows.len(), "one bar per {aspect}");
    for h in &rows {
        assert!(
            fig.contains(&format!("<td>{}</td>", h.value)),
            "{}",
            h.value
        );
        assert!(
            fig.contains(&format!(
                "<td>{}</td><td>{}</td><td>{:.4}</td>",
                h.seats, h.wins, h.win_rate
            )),
            "{aspect} {}: {fig}",
            h.value
        );
    }
    rows
}

#[test]
fn a_euphoria_report_charts_every_seat_recruit_faction_and_dilemma() {
    let config = euphoria::Config {
        players: 3,
        ..euphoria::Config::default()
    };
    let games = 6;
    let report = study::<euphoria::Euphoria>(&config, games, None);
    let page = page(std::slice::from_ref(&report.part));
    let win = figure(&page, "win-rate");
    assert_eq!(bars(win), 3, "one bar per seat");
    for s in &report.summary.seats {
        assert!(win.contains(&format!("{:.4}", s.win_rate)), "{win}");
    }
    // Every seat ends with at least its two recruits, of one or two factions, and one
    // dilemma outcome.
    let seats = games * 3;
    let recruits = holdings_charted(&page, &report.summary, "recruit");
    assert!(recruits.iter().map(|h| h.seats).sum::<u64>() >= 2 * seats);
    assert!(recruits.iter().all(|h| h.seats >= 1 && h.value.len() > 1));
    let factions = holdings_charted(&page, &report.summary, "faction");
    let faction_seats: u64 = factions.iter().map(|h| h.seats).sum();
    assert!((seats..=4 * seats).contains(&faction_seats));
    assert!(factions.iter().all(|h| {
        ["Euphorian", "Subterran", "Wastelander", "Icarite"].contains(&h.value.as_str())
    }));
    let dilemmas = holdings_charted(&page, &report.summary, "dilemma");
    assert_eq!(dilemmas.iter().map(|h| h.seats).sum::<u64>(), seats);
    let wins: f64 = dilemmas.iter().map(|h| h.wins).sum();
    assert!((wins - games as f64).abs() < 1e-9, "one win a game: {wins}");
}
