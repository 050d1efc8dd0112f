//! A piece's card: what a player wants to know about a kind under a rule set (names, movement
//! in Betza and in words, promotion, how it captures, what the sources say, a move diagram), as
//! data. The command line prints it and the terminal game draws it; neither composes it.

use crate::catalogue::KindId;
use crate::explain::Movement;
use crate::rules::Rules;
use std::cell::OnceCell;

/// Another kind, as a card names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindName {
    pub kind: KindId,
    pub kanji: String,
    pub name: String,
    pub code: String,
}

impl KindName {
    fn of(rules: &Rules, kind: KindId) -> KindName {
        let k = rules.catalogue().kind(kind);
        KindName {
            kind,
            kanji: k.kanji.clone(),
            name: k.name.clone(),
            code: k.code.clone(),
        }
    }
}

/// How another rule set reads the piece, where it differs from this one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherReading {
    pub rule_set: String,
    pub betza: String,
    /// Set when the promotion differs: the code it promotes to there, or `None`.
    pub promotes_to: Option<Option<String>>,
}

/// Everything a card shows about one kind under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceCard {
    pub kind: KindId,
    pub name: String,
    pub kanji: String,
    pub code: String,
    pub aliases: Vec<String>,
    /// Pieces per side at the start (0: only by promotion).
    pub count: u32,
    pub royal: bool,
    /// Range-capture rank, 1 highest.
    pub rank: Option<u8>,
    pub rule_set: String,
    pub betza: String,
    pub promotes_to: Option<KindName>,
    pub promoted_from: Vec<KindName>,
    /// This rule set's note on the piece.
    pub note: Option<String>,
    pub sources: Option<String>,
    pub other_readings: Vec<OtherReading>,
    /// Movement in words and as a diagram, and how it captures, read off the generator.
    pub movement: Movement,
}

impl PieceCard {
    pub fn new(rules: &Rules, k: KindId) -> PieceCard {
        let cat = rules.catalogue();
        let kind = cat.kind(k);
        let reading = &rules.readings[k as usize];
        let promoted_from = (0..cat.len() as KindId)
            .filter(|&o| rules.readings[o as usize].promotes_to == Some(k))
            .map(|o| KindName::of(rules, o))
            .collect();
        let other_readings = rules
            .game
            .rule_sets
            .iter()
            .filter(|r| r.name != rules.rule_set.name)
            .filter_map(|r| {
                let other = rules.game.reading(kind, r);
                let promo = (other.promotes_to != reading.promotes_to)
                    .then(|| other.promotes_to.map(|p| cat.kind(p).code.clone()));
                (other.betza != reading.betza || promo.is_some()).then(|| OtherReading {
                    rule_set: r.name.clone(),
                    betza: other.betza.clone(),
                    promotes_to: promo,
                })
            })
            .collect();
        PieceCard {
            kind: k,
            name: kind.name.clone(),
            kanji: kind.kanji.clone(),
            code: kind.code.clone(),
            aliases: kind.aliases.clone(),
            count: kind.count as u32,
            royal: kind.royal,
            rank: kind.rank,
            rule_set: rules.rule_set.name.clone(),
            betza: reading.betza.clone(),
            promotes_to: reading.promotes_to.map(|p| KindName::of(rules, p)),
            promoted_from,
            note: reading.note.clone(),
            sources: kind.sources.clone(),
            other_readings,
            movement: Movement::of(rules, k),
        }
    }

    /// "2 per side at the start", "royal", "range-capture rank 3".
    pub fn facts(&self) -> Vec<String> {
        let mut facts = vec![if self.count > 0 {
            format!("{} per side at the start", self.count)
        } else {
            "only by promotion".into()
        }];
        if self.royal {
            facts.push("royal".into());
        }
        if let Some(r) = self.rank {
            facts.push(format!("range-capture rank {r}"));
        }
        facts
    }
}

/// Cards built once each, when first asked for (a card watches the generator for a while).
#[derive(Debug, Default)]
pub struct Cards {
    cards: Vec<OnceCell<PieceCard>>,
}

impl Cards {
    pub fn new(rules: &Rules) -> Cards {
        Cards {
            cards: (0..rules.catalogue().len())
                .map(|_| OnceCell::new())
                .collect(),
        }
    }

    /// The card of kind `k` under `rules` (the rules these cards were made for).
    pub fn get(&self, rules: &Rules, k: KindId) -> &PieceCard {
        self.cards[k as usize].get_or_init(|| PieceCard::new(rules, k))
    }
}
