//! A study as one self-contained HTML page: charts drawn here as inline SVG (plotters),
//! each followed by a table of the numbers it shows, and the command that reproduces it.
//!
//! Every chart is a `<figure data-chart="NAME">`; its bars are `<rect>`s filled with
//! [`BAR_FILL`] (one per seat, bin or component) and its table rows carry the same
//! numbers, so a test (or a script) can read the page back.
use crate::{two_proportion, GameResult, Part, Summary};
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::fmt::Write;

/// The fill of every data bar, as written in the SVG.
pub const BAR_FILL: &str = "#4C72B0";
const BAR: RGBColor = RGBColor(0x4C, 0x72, 0xB0);
const WHISKER: RGBColor = RGBColor(0x22, 0x22, 0x22);
const REFERENCE: RGBColor = RGBColor(0xC4, 0x4E, 0x52);

/// One bar: a label, a value and, for rates, its 95% interval.
struct Bar {
    label: String,
    value: f64,
    ci: Option<(f64, f64)>,
}

/// Escapes text for HTML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A bar chart with optional interval whiskers and a dashed reference line.
fn bar_chart(
    title: &str,
    y_desc: &str,
    bars: &[Bar],
    (lo, hi): (f64, f64),
    reference: Option<f64>,
) -> Result<String, String> {
    let mut svg = String::new();
    // Many bars (Euphoria's 48 recruits) get a wider chart and upright labels, one each.
    let many = bars.len() > 12;
    let width = if many {
        (18 * bars.len() as u32 + 120).max(640)
    } else {
        640
    };
    {
        let root = SVGBackend::with_string(&mut svg, (width, if many { 420 } else { 320 }))
            .into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let n = bars.len().max(1) as u32;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(if many { 140 } else { 40 })
            .y_label_area_size(56)
            .build_cartesian_2d((0..n).into_segmented(), lo..hi)
            .map_err(|e| e.to_string())?;
        let label = |x: &SegmentValue<u32>| match x {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => bars
                .get(*i as usize)
                .map(|b| b.label.clone())
                .unwrap_or_default(),
            SegmentValue::Last => String::new(),
        };
        let none = |_: &SegmentValue<u32>| String::new();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len())
            .x_label_formatter(if many { &none } else { &label })
            .y_desc(y_desc)
            .draw()
            .map_err(|e| e.to_string())?;
        if many {
            // Upright labels, each starting under its bar and reading downwards (the
            // mesh would centre them on the axis, over the bars).
            let style = TextStyle::from(
                ("sans-serif", 12)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
            .pos(Pos::new(HPos::Left, VPos::Center));
            for (i, b) in bars.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(SegmentValue::CenterOf(i as u32), lo));
                root.draw(&Text::new(b.label.clone(), (x, y + 6), style.clone()))
                    .map_err(|e| e.to_string())?;
            }
        }
        let gap = (100 / n).min(24);
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let i = i as u32;
                let mut r = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0_f64.clamp(lo, hi)),
                        (SegmentValue::Exact(i + 1), b.value.clamp(lo, hi)),
                    ],
                    BAR.filled(),
                );
                r.set_margin(0, 0, gap, gap);
                r
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(bars.iter().enumerate().filter_map(|(i, b)| {
                b.ci.map(|(l, h)| {
                    let x = SegmentValue::CenterOf(i as u32);
                    PathElement::new(
                        vec![(x.clone(), l.clamp(lo, hi)), (x, h.clamp(lo, hi))],
                        WHISKER,
                    )
                })
            }))
            .map_err(|e| e.to_string())?;
        if let Some(y) = reference {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(SegmentValue::Exact(0), y), (SegmentValue::Last, y)],
                    REFERENCE.stroke_width(2),
                )))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A figure: a chart and the table of its numbers.
fn figure(out: &mut String, name: &str, svg: &str, header: &[&str], rows: &[Vec<String>]) {
    let _ = write!(out, "<figure data-chart=\"{}\">{svg}<table><tr>", esc(name));
    for h in header {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr>");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{}</td>", esc(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table></figure>\n");
}

fn pct(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn interval((lo, hi): (f64, f64)) -> String {
    format!("{} - {}", pct(lo), pct(hi))
}

/// One rate's row: label, games (or seats), wins, rate, 95% interval.
type RateRow = (String, u64, f64, f64, (f64, f64));

/// Rates with intervals: a chart with whiskers and a table.
fn rate_figure(
    out: &mut String,
    name: &str,
    title: &str,
    rows: &[RateRow],
    reference: Option<f64>,
) -> Result<(), String> {
    let bars: Vec<Bar> = rows
        .iter()
        .map(|(label, _, _, rate, ci)| Bar {
            label: label.clone(),
            value: *rate,
            ci: Some(*ci),
        })
        .collect();
    let top = rows
        .iter()
        .map(|r| r.4 .1)
        .fold(reference.unwrap_or(0.0), f64::max);
    let svg = bar_chart(
        title,
        "win rate",
        &bars,
        (0.0, (top * 1.1).min(1.0)),
        reference,
    )?;
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, n, wins, rate, ci)| {
            vec![
                label.clone(),
                n.to_string(),
                format!("{wins}"),
                format!("{rate:.4}"),
                interval(*ci),
            ]
        })
        .collect();
    figure(
        out,
        name,
        &svg,
        &["", "games", "wins", "win rate", "95% interval"],
        &table,
    );
    Ok(())
}

/// A histogram of integer-valued quantities: one bin per value when they span at most
/// 40, else 30 bins of equal width.
fn histogram(
    out: &mut String,
    name: &str,
    title: &str,
    values: &[f64],
    lo_hi: Option<(f64, f64)>,
) -> Result<(), String> {
    let (lo, hi) = lo_hi.unwrap_or_else(|| {
        values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            })
    });
    if !lo.is_finite() {
        return Ok(());
    }
    let span = hi - lo + 1.0;
    let bins = if span <= 40.0 { span as usize } else { 30 };
    let width = span / bins as f64;
    let mut counts = vec![0u64; bins];
    for &v in values {
        let b = (((v - lo) / width) as usize).min(bins - 1);
        counts[b] += 1;
    }
    let edge = |b: usize| (lo + b as f64 * width).floor();
    let labels: Vec<String> = (0..bins)
        .map(|b| {
            let (a, z) = (edge(b), edge(b + 1) - 1.0);
            if a >= z {
                format!("{a}")
            } else {
                format!("{a}-{z}")
            }
        })
        .collect();
    let bars: Vec<Bar> = labels
        .iter()
        .zip(&counts)
        .map(|(label, &c)| Bar {
            label: label.clone(),
            value: c as f64,
            ci: None,
        })
        .collect();
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let svg = bar_chart(title, "games", &bars, (0.0, top * 1.1), None)?;
    let rows: Vec<Vec<String>> = labels
        .into_iter()
        .zip(&counts)
        .map(|(l, c)| vec![l, c.to_string()])
        .collect();
    figure(out, name, &svg, &["value", "games"], &rows);
    Ok(())
}

fn variant_name(part: &Part) -> String {
    format!("{} {}", part.game, part.config)
}

/// The charts of one study.
fn study(out: &mut String, part: &Part, summary: &Summary, tag: &str) -> Result<(), String> {
    let results: &[GameResult] = &part.results;
    let seats = summary.seats.len();
    let _ = writeln!(
        out,
        "<h2>{}</h2><p>{} games; seats: {}</p>",
        esc(&variant_name(part)),
        summary.games,
        esc(&part.seats.join(", "))
    );
    let rows: Vec<_> = summary
        .seats
        .iter()
        .map(|s| {
            (
                format!("seat {}", s.seat + 1),
                summary.games,
                s.wins,
                s.win_rate,
                s.win_rate_ci95,
            )
        })
        .collect();
    out.push_str("<h3>Win rate per seat</h3>");
    rate_figure(
        out,
        &format!("{tag}win-rate"),
        "Win rate per seat (95% Wilson interval; line: a fair share)",
        &rows,
        Some(1.0 / seats.max(1) as f64),
    )?;
    out.push_str("<h3>The first player's advantage</h3>");
    let fp = &summary.first_player;
    rate_figure(
        out,
        &format!("{tag}first-player"),
        "Win rate of the seat that acted first (line: a fair share)",
        &[(
            "first player".into(),
            summary.games,
            fp.wins,
            fp.win_rate,
            fp.win_rate_ci95,
        )],
        Some(fp.fair_share),
    )?;
    out.push_str("<h3>Score distributions</h3>");
    let (lo, hi) = results
        .iter()
        .flat_map(|r| r.scores.iter())
        .fold((i64::MAX, i64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    for s in 0..seats {
        let scores: Vec<f64> = results.iter().map(|r| r.scores[s] as f64).collect();
        histogram(
            out,
            &format!("{tag}score-seat-{}", s + 1),
            &format!("Scores of seat {}", s + 1),
            &scores,
            (lo <= hi).then_some((lo as f64, hi as f64)),
        )?;
    }
    out.push_str("<h3>Game length</h3>");
    type Length = fn(&GameResult) -> u32;
    let lengths: [(&str, &str, Length); 3] = [
        ("moves", "Moves per game", |r| r.moves),
        ("rounds", "Rounds per game", |r| r.rounds),
        ("turns", "Turns per game", |r| r.turns),
    ];
    for (name, title, get) in lengths {
        let values: Vec<f64> = results.iter().map(|r| f64::from(get(r))).collect();
        histogram(out, &format!("{tag}{name}"), title, &values, None)?;
    }
    let mut aspects: Vec<&str> = Vec::new();
    for h in &summary.holdings {
        if !aspects.contains(&h.aspect.as_str()) {
            aspects.push(&h.aspect);
        }
    }
    if !aspects.is_empty() {
        out.push_str("<h3>Win rate by what a seat held</h3>");
    }
    for aspect in aspects {
        let rows: Vec<_> = summary
            .holdings_of(aspect)
            .map(|h| {
                (
                    h.value.clone(),
                    h.seats,
                    h.wins,
                    h.win_rate,
                    h.win_rate_ci95,
                )
            })
            .collect();
        rate_figure(
            out,
            &format!("{tag}held-{}", aspect.replace(' ', "-")),
            &format!("Win rate by {aspect} (95% Wilson interval; line: a fair share)"),
            &rows,
            Some(1.0 / seats.max(1) as f64),
        )?;
    }
    Ok(())
}

/// Variant B against A, seat by seat.
fn comparison(out: &mut String, a: (&Part, &Summary), b: (&Part, &Summary)) -> Result<(), String> {
    let _ = writeln!(
        out,
        "<h2>Variant against variant</h2><p>A: {}<br>B: {}</p>",
        esc(&variant_name(a.0)),
        esc(&variant_name(b.0))
    );
    let mut bars = Vec::new();
    let mut rows = Vec::new();
    for (sa, sb) in a.1.seats.iter().zip(&b.1.seats) {
        let c = two_proportion(sa.wins, a.1.games as f64, sb.wins, b.1.games as f64);
        let label = format!("seat {}", sa.seat + 1);
        bars.push(Bar {
            label: label.clone(),
            value: c.difference,
            ci: Some(c.difference_ci95),
        });
        rows.push(vec![
            label,
            format!("{:.4}", sa.win_rate),
            format!("{:.4}", sb.win_rate),
            format!("{:+.4}", c.difference),
            interval(c.difference_ci95),
            format!("{:.3}", c.z),
            format!("{:.4}", c.p_value),
            if c.significant { "yes" } else { "no" }.into(),
        ]);
    }
    let reach = bars
        .iter()
        .flat_map(|b| {
            let (l, h) = b.ci.unwrap_or((0.0, 0.0));
            [l.abs(), h.abs()]
        })
        .fold(0.01, f64::max)
        * 1.1;
    let svg = bar_chart(
        "Win rate B - A per seat (95% interval)",
        "difference",
        &bars,
        (-reach, reach),
        Some(0.0),
    )?;
    figure(
        out,
        "vs-difference",
        &svg,
        &[
            "",
            "A win rate",
            "B win rate",
            "B - A",
            "95% interval",
            "z",
            "p",
            "significant at 95%",
        ],
        &rows,
    );
    Ok(())
}

/// The whole page for one study, or two (`parts[1]` is the `--vs` variant), with the
/// command that reproduces it.
///
/// # Errors
/// A chart that cannot be drawn (text formatting failed).
pub fn render(parts: &[Part], command: &str) -> Result<String, String> {
    let summaries: Vec<Summary> = parts
        .iter()
        .map(|p| Summary::of(&p.results, p.seats.clone()))
        .collect();
    let mut out = String::new();
    let title = parts
        .first()
        .map_or_else(|| "study".to_string(), |p| format!("{} study", p.game));
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <style>body{{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}}\
         figure{{margin:1rem 0;overflow-x:auto}}table{{border-collapse:collapse;font-size:.85rem}}\
         td,th{{border:1px solid #ccc;padding:.15rem .5rem;text-align:right}}\
         pre{{background:#f4f4f4;padding:.5rem;white-space:pre-wrap}}</style></head><body>\n\
         <h1>{}</h1>\n<p>Reproduce it with:</p><pre id=\"command\">{}</pre>\n<p>Seed {}.</p>\n",
        esc(&title),
        esc(&title),
        esc(command),
        parts.first().map_or(0, |p| p.seed)
    );
    for (i, (part, summary)) in parts.iter().zip(&summaries).enumerate() {
        let tag = if i == 0 { "" } else { "vs-" };
        study(&mut out, part, summary, tag)?;
    }
    if let [a, b, ..] = parts {
        comparison(&mut out, (a, &summaries[0]), (b, &summaries[1]))?;
    }
    out.push_str("</body></html>\n");
    Ok(out)
}
