//! Issue 56: each game's palette under the three common colour-vision deficiencies.
//!
//! The colours that carry a meaning on the pages are read from `web/style.css` (the seats,
//! Distop-IA's card types, Euphoria's factions, Drop Site's card values, what may be
//! played), simulated as a protanope, a deuteranope and a tritanope see them (the
//! matrices of Machado, Oliveira and Fernandes 2009 at severity 1, applied to linear
//! RGB), and compared in CIELAB by CIEDE2000. Every pair of meanings must be told apart
//! by colour, ΔE00 of at least [`THRESHOLD`] under normal vision and each simulation,
//! or by the cue that stands beside the colour (a letter, a shape, a number, an outline's
//! style), which this test finds in the pages' code and the browser test
//! `browser::a11y::axe_finds_no_serious_violation_on_any_page` finds on every table.
//! docs/accessibility.md gives the numbers.

use std::path::Path;

/// The ΔE00 from which two colours are told apart at a glance, as a piece's colour must
/// be (2.3 is a bare difference seen side by side; 10 is a clearly different colour).
const THRESHOLD: f64 = 10.0;

type Rgb = [f64; 3];
type Matrix = [[f64; 3]; 3];

/// Machado et al. (2009), severity 1.0, on linear RGB.
const PROTANOPIA: Matrix = [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
];
const DEUTERANOPIA: Matrix = [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.011820, 0.042940, 0.968881],
];
const TRITANOPIA: Matrix = [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.303900],
];
const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
const VISIONS: [(&str, Matrix); 4] = [
    ("normal vision", IDENTITY),
    ("protanopia", PROTANOPIA),
    ("deuteranopia", DEUTERANOPIA),
    ("tritanopia", TRITANOPIA),
];

fn to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// `#rrggbb` or `#rgb` as sRGB from 0 to 1.
fn hex(text: &str) -> Option<Rgb> {
    let t = text.trim().trim_start_matches('#');
    let digits: Vec<u8> = match t.len() {
        3 => t.chars().flat_map(|c| [c, c]).map(|c| c as u8).collect(),
        6 => t.bytes().collect(),
        _ => return None,
    };
    let byte = |i: usize| {
        u8::from_str_radix(std::str::from_utf8(&digits[i..i + 2]).ok()?, 16)
            .ok()
            .map(|b| f64::from(b) / 255.0)
    };
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// CSS `hsl(h, s%, l%)` as sRGB from 0 to 1.
fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let a = s * l.min(1.0 - l);
    let f = |n: f64| {
        let k = (n + h / 30.0) % 12.0;
        l - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0)
    };
    [f(0.0), f(8.0), f(4.0)]
}

/// CIELAB (D65) of an sRGB colour seen through `m` (the simulation, on linear RGB).
fn lab(c: Rgb, m: &Matrix) -> Rgb {
    let lin = c.map(to_linear);
    let s: Vec<f64> = m
        .iter()
        .map(|row| (row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2]).clamp(0.0, 1.0))
        .collect();
    let x = 0.4124564 * s[0] + 0.3575761 * s[1] + 0.1804375 * s[2];
    let y = 0.2126729 * s[0] + 0.7151522 * s[1] + 0.0721750 * s[2];
    let z = 0.0193339 * s[0] + 0.1191920 * s[1] + 0.9503041 * s[2];
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation, kL = kC = kH = 1).
fn delta_e00(a: Rgb, b: Rgb) -> f64 {
    let (l1, a1, b1) = (a[0], a[1], a[2]);
    let (l2, a2, b2) = (b[0], b[1], b[2]);
    let c1 = a1.hypot(b1);
    let c2 = a2.hypot(b2);
    let cm = (c1 + c2) / 2.0;
    let g = 0.5 * (1.0 - (cm.powi(7) / (cm.powi(7) + 25f64.powi(7))).sqrt());
    let (a1p, a2p) = (a1 * (1.0 + g), a2 * (1.0 + g));
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |bb: f64, aa: f64| {
        if bb == 0.0 && aa == 0.0 {
            0.0
        } else {
            bb.atan2(aa).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1, h2) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let dh = if c1p * c2p == 0.0 {
        0.0
    } else if (h2 - h1).abs() <= 180.0 {
        h2 - h1
    } else if h2 - h1 > 180.0 {
        h2 - h1 - 360.0
    } else {
        h2 - h1 + 360.0
    };
    let dhh = 2.0 * (c1p * c2p).sqrt() * (dh.to_radians() / 2.0).sin();
    let lm = (l1 + l2) / 2.0;
    let cmp = (c1p + c2p) / 2.0;
    let hm = if c1p * c2p == 0.0 {
        h1 + h2
    } else if (h1 - h2).abs() <= 180.0 {
        (h1 + h2) / 2.0
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    let t = 1.0 - 0.17 * (hm - 30.0).to_radians().cos()
        + 0.24 * (2.0 * hm).to_radians().cos()
        + 0.32 * (3.0 * hm + 6.0).to_radians().cos()
        - 0.20 * (4.0 * hm - 63.0).to_radians().cos();
    let dtheta = 30.0 * (-((hm - 275.0) / 25.0).powi(2)).exp();
    let rc = 2.0 * (cmp.powi(7) / (cmp.powi(7) + 25f64.powi(7))).sqrt();
    let sl = 1.0 + 0.015 * (lm - 50.0).powi(2) / (20.0 + (lm - 50.0).powi(2)).sqrt();
    let sc = 1.0 + 0.045 * cmp;
    let sh = 1.0 + 0.015 * cmp * t;
    let rt = -(2.0 * dtheta).to_radians().sin() * rc;
    ((dl / sl).powi(2) + (dc / sc).powi(2) + (dhh / sh).powi(2) + rt * (dc / sc) * (dhh / sh))
        .sqrt()
}

#[test]
fn ciede2000_matches_sharmas_published_pairs() {
    // Sharma, Wu and Dalal (2005), table 1: pairs 1, 7 and 17.
    let pairs = [
        ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
        ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
        ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
    ];
    for (a, b, want) in pairs {
        let got = delta_e00(a, b);
        assert!((got - want).abs() < 1e-3, "{a:?} {b:?}: {got} not {want}");
    }
    // White stays white under each simulation (each matrix's rows add up to 1).
    for (name, m) in VISIONS {
        let w = lab([1.0, 1.0, 1.0], &m);
        assert!(
            (w[0] - 100.0).abs() < 0.01 && w[1].abs() < 0.05,
            "{name}: {w:?}"
        );
    }
}

/// The text of `web/` file `name`.
fn web(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The colour that follows `after` in the style sheet (`--seat0: #c62f2f`, or
/// `.dcard.hobby { background: #6f3bb0`).
fn colour_after(css: &str, after: &str) -> Rgb {
    let at = css
        .find(after)
        .unwrap_or_else(|| panic!("style.css has no `{after}`"));
    let rest = &css[at + after.len()..];
    let start = rest.find('#').expect("a colour");
    let end = rest[start + 1..]
        .find(|c: char| !c.is_ascii_hexdigit())
        .map_or(rest.len(), |e| start + 1 + e);
    hex(&rest[start..end]).unwrap_or_else(|| panic!("`{after}`: not a colour"))
}

/// A set of meanings told apart by colour on a page, and the cue beside the colour, if
/// any, with whether the pages' code draws it.
struct Group {
    name: &'static str,
    colours: Vec<(String, Rgb)>,
    cue: Option<(&'static str, bool)>,
}

fn groups() -> Vec<Group> {
    let css = web("style.css");
    let ui = web("ui.js");
    let distopia = web("distopia.js");
    let euphoria = web("euphoria.js");
    let dropsite = web("dropsite.js");
    let shapes = ui
        .split("SEAT_SHAPES = [")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let pips = (1..6).all(|s| css.contains(&format!(".die.seat-{s} .pip {{")));
    vec![
        Group {
            name: "seats (dice, stars, player panels)",
            colours: (0..6)
                .map(|s| (format!("seat {}", s + 1), colour_after(&css, &format!("--seat{s}:"))))
                .collect(),
            cue: Some((
                "a shape of its own (● ■ ◆ ▲ ○ ✚) before its name, after its stars and as its dice's pips",
                shapes == 6 && pips && css.contains(".seat-mark"),
            )),
        },
        Group {
            name: "Distop-IA's card types",
            colours: ["hobby", "education", "survival", "guard"]
                .iter()
                .map(|k| (k.to_string(), colour_after(&css, &format!(".dcard.{k} {{ background:"))))
                .collect(),
            cue: Some((
                "the type's letter on every card",
                distopia.contains("'klet'") && css.contains(".dcard .klet"),
            )),
        },
        Group {
            name: "Euphoria's factions",
            colours: ["euphorian", "subterran", "wastelander", "icarite"]
                .iter()
                .map(|f| (f.to_string(), colour_after(&css, &format!(".r-{f} {{ --fc:"))))
                .collect(),
            cue: Some((
                "the faction's letter on every recruit, the region's name on the board",
                euphoria.contains("factionMark(") && css.contains(".fmark"),
            )),
        },
        Group {
            name: "Drop Site's card values",
            colours: (0..13)
                .map(|v| {
                    let c = if v == 0 {
                        hex("#ececec").expect("colour")
                    } else {
                        hsl(f64::from(v * 28 % 360), 0.65, 0.26)
                    };
                    (format!("value {v}"), c)
                })
                .collect(),
            cue: Some((
                "the value printed on every card",
                dropsite.contains("'pip' }, value"),
            )),
        },
        Group {
            name: "what may be played (picked, a target)",
            colours: vec![
                ("may be picked".into(), colour_after(&css, "--pick:")),
                ("a target of the picked".into(), colour_after(&css, "--drop:")),
                ("picked".into(), [1.0, 1.0, 1.0]),
            ],
            cue: Some((
                "a solid outline, a dashed one, a raised card",
                css.contains("[data-key].drop { outline: 3px dashed")
                    && css.contains("[data-key].pick { outline: 3px solid"),
            )),
        },
    ]
}

#[test]
fn every_pair_of_meanings_is_told_apart_by_colour_or_by_its_cue_under_each_vision() {
    let mut failures = Vec::new();
    for g in groups() {
        if let Some((cue, drawn)) = g.cue {
            if !drawn {
                failures.push(format!("{}: the cue ({cue}) is not drawn", g.name));
            }
        }
        let mut report = Vec::new();
        for (vision, m) in VISIONS {
            let labs: Vec<(String, Rgb)> = g
                .colours
                .iter()
                .map(|(n, c)| (n.clone(), lab(*c, &m)))
                .collect();
            let mut worst = (f64::INFINITY, String::new());
            let mut close = 0;
            for (i, (a, la)) in labs.iter().enumerate() {
                for (b, lb) in &labs[i + 1..] {
                    let d = delta_e00(*la, *lb);
                    if d < worst.0 {
                        worst = (d, format!("{a} / {b}"));
                    }
                    if d < THRESHOLD {
                        close += 1;
                        if g.cue.is_none() {
                            failures.push(format!(
                                "{}, {vision}: {a} and {b} differ by ΔE00 {d:.1} and have no other cue",
                                g.name
                            ));
                        }
                    }
                }
            }
            report.push(format!(
                "{vision}: least ΔE00 {:.1} ({}), {close} pair(s) under {THRESHOLD}",
                worst.0, worst.1
            ));
        }
        eprintln!(
            "{}:\n  {}\n  cue: {}",
            g.name,
            report.join("\n  "),
            g.cue.map_or("none", |c| c.0)
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
