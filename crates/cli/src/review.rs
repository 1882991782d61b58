//! `tabletop review`: a finished game's decisions against what the coach's search
//! preferred, each from the deciding seat's information at the time (docs/coach.md).
use crate::log::{game_and_seat, RecordFile};
use crate::user;
use bots::{Advice, CoachOptions, Review};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReviewArgs {
    /// A finished game's record from `play --record`, or the server's `/record` answer
    /// (`-` reads standard input).
    file: PathBuf,
    /// Review only this seat's decisions, counted from 1.
    #[arg(long)]
    seat: Option<usize>,
    /// Print the review as JSON (seats and moves counted from 0) instead of text.
    #[arg(long)]
    json: bool,
    /// Search iterations per decision (default: the `hard` level's).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    iterations: Option<u32>,
    /// The seed of the search's determinizations: the same seed, the same review.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: ReviewArgs) -> anyhow::Result<()> {
    let record = match RecordFile::read(&args.file)? {
        RecordFile::Published { record, .. } | RecordFile::Bare(record) => record,
    };
    let (_, only) = game_and_seat(&record, args.seat)?;
    let options = CoachOptions {
        iterations: args.iterations.unwrap_or_else(bots::hard_iterations),
        seed: args.seed,
    };
    let bar = indicatif::ProgressBar::new(0);
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} decisions · eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let reviewed = catalog::review(&record, &options, &progress);
    bar.finish_and_clear();
    let mut review = reviewed.map_err(user)?;
    if let Some(seat) = only {
        review.moves.retain(|m| m.seat == seat);
        for (s, series) in review.series.iter_mut().enumerate() {
            if s != seat {
                series.clear();
            }
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&review)?)?;
        return Ok(());
    }
    print(&review, only, &options)
}

/// A chance as a percentage.
fn pct(chance: f64) -> String {
    format!("{:.0}%", chance * 100.0)
}

/// A move in words, with its notation when the words differ.
fn words(advice: &Advice) -> String {
    if advice.label == advice.action {
        advice.label.clone()
    } else {
        format!("{} [{}]", advice.label, advice.action)
    }
}

/// The estimate of a move: its chance to win and, at 3+ seats, its expected place.
fn estimate(advice: &Advice) -> String {
    match advice.place {
        Some(place) => format!("{} to win, place {place:.1}", pct(advice.chance)),
        None => format!("{} to win", pct(advice.chance)),
    }
}

fn print(review: &Review, only: Option<usize>, options: &CoachOptions) -> anyhow::Result<()> {
    outln!(
        "{} · {} seats · {} decisions reviewed · {} search iterations a decision, seed {}",
        review.game,
        review.seats,
        review.moves.len(),
        options.iterations,
        options.seed
    )?;
    outln!(
        "(a move is marked when it lost at least {} of a chance to win, the {} worst a seat at most)",
        pct(bots::MARK_LOSS),
        bots::MARK_MOST
    )?;
    for seat in (0..review.seats).filter(|&s| only.is_none_or(|o| o == s)) {
        let marked: Vec<_> = review
            .moves
            .iter()
            .filter(|m| m.seat == seat && m.marked)
            .collect();
        outln!(
            "\nseat {}: {}",
            seat + 1,
            match marked.len() {
                0 => "no marked move".to_string(),
                1 => "1 marked move".to_string(),
                n => format!("{n} marked moves"),
            }
        )?;
        for m in marked {
            outln!(
                "  move {}: played {} ({})",
                m.ply + 1,
                words(&m.played),
                estimate(&m.played)
            )?;
            outln!(
                "           the search preferred {} ({})",
                words(&m.best),
                estimate(&m.best)
            )?;
        }
        let series = review.series.get(seat).map_or(&[][..], Vec::as_slice);
        outln!("  chance to win at each decision (move: chance):")?;
        for chunk in series.chunks(8) {
            let line: Vec<String> = chunk
                .iter()
                .map(|&(ply, chance)| format!("{:>4}: {:>4}", ply + 1, pct(chance)))
                .collect();
            outln!("   {}", line.join("  "))?;
        }
    }
    if let Some(ending) = &review.ending {
        outln!("\nwhy it ended: {}", ending.why)?;
        for (seat, score) in ending.seats.iter().enumerate() {
            outln!("seat {}: {}", seat + 1, engine::ending::points(score.total))?;
            crate::position::score_lines(Some(ending), seat)?;
        }
    }
    Ok(())
}
