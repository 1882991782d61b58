//! How keen a searching bot is on deals between seats.

/// How much better than leaving a deal (its mean reward) pursuing it must look before a
/// searching bot pursues it: 0.02 of a reward in [0, 1], in Euphoria's evaluation four
/// tenths of a star. Without it, a deal the search finds neither good nor bad (the
/// partner declines) is as likely as any other move, and bots at a table keep offering;
/// with 0.005, `medium` still spent 15% of its moves on trades at 4 seats, with 0.02 3%.
pub const DEAL_MARGIN: f64 = 0.02;

/// The bot's choice among `(action, score)` pairs ranked best first by `better`, less keen
/// on deals: when the best one pursues a deal and the best that does not is within
/// `margin` of it (by mean), the latter. Shared by the searching bots.
pub(crate) fn less_keen<A: Copy>(
    best: Option<(A, f64)>,
    best_other: Option<(A, f64)>,
    margin: f64,
) -> Option<A> {
    match (best, best_other) {
        (Some((_, mean)), Some((b, other))) if mean < other + margin => Some(b),
        (best, _) => best.map(|(a, _)| a),
    }
}
