//! The computer player: [`eval`] derives every kind's value from its movement and scores
//! positions; [`search`] looks ahead.

pub mod eval;
pub mod search;
