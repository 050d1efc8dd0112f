//! Games as played and as written down, above the rules core: [`history::History`] is a game
//! as it is played (undo, redo, branches, its result); [`record::Record`] is how a game is
//! written down; [`store`] writes records safely and finds autosaves; [`timecontrol`] is
//! `BASE+INC` and the clocks a host keeps.

pub mod history;
pub mod record;
pub mod store;
pub mod timecontrol;
