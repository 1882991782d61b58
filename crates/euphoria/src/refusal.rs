//! Why the rules refuse an action. The checks are generic over what a refusal carries: the
//! reason in words when a person's action is refused, nothing ([`Refused`]) when the
//! legal list is swept, so the bots' hot path formats and allocates no messages. (Drop
//! Site and Distop-IA name each refusal in an enum; Euphoria's 70 reasons are still
//! words, and become an enum of their own next: see docs/architecture.md.)
use std::fmt;

/// What a refused check gives back.
pub trait Why {
    /// The refusal, from its reason in words.
    fn because(reason: fmt::Arguments<'_>) -> Self;
}

impl Why for String {
    fn because(reason: fmt::Arguments<'_>) -> String {
        reason.to_string()
    }
}

/// A refusal without its reason: whoever only needs yes or no (the legal-action sweep)
/// does not pay for the words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused;

impl Why for Refused {
    fn because(_: fmt::Arguments<'_>) -> Refused {
        Refused
    }
}
