//! The bar a memory must clear to be added to a prompt unasked (DESIGN §12, issue 29), in two
//! tiers: with its body, for a memory the prompt clearly needs; as one line, for one that
//! plausibly helps, so that a wrong guess costs the agent a line.
//!
//! The bar is read on the shape of the scores, not their size (which grows with the number of
//! memories): a hit's fit (its score as a share of the most the query allows,
//! [`super::rank::Scored::fit`]), a bonus when it has two of the query's words side by side
//! ([`super::rank::Phrases`]), and its score as a share of the top hit's. Tuned on the
//! development set only (`fixtures/recall/dev/`; `fixtures/recall/README.md` has the figures).

/// What a memory is added to a prompt as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Its whole text.
    Body,
    /// One line: name, type, whose, age, description, and the path to read it.
    Line,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Body => "body",
            Tier::Line => "line",
        }
    }
}

/// The confidence a body needs, and a line, at the default sensitivity.
const BODY_BAR: f32 = 0.40;
const LINE_BAR: f32 = 0.18;
/// What having two of the query's words side by side adds to a hit's confidence.
const PHRASE_BONUS: f32 = 0.06;
/// A hit scoring under this share of the top hit's is not added: the top one says it better.
const MIN_SHARE_OF_TOP: f32 = 0.5;
/// Only this many of the best hits are weighed for a tier (reading a memory's words for pairs
/// costs time, and a prompt gets at most a few memories).
pub const MAX_WEIGHED: usize = 30;

/// The sensitivity the bar is set at when settings name none (`memdir.recall.sensitivity`, 0
/// to 1: higher adds more).
pub const DEFAULT_SENSITIVITY: f32 = 0.5;

/// The confidence each tier needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    pub body: f32,
    pub line: f32,
}

impl Default for Bar {
    fn default() -> Bar {
        Bar::new(DEFAULT_SENSITIVITY)
    }
}

/// Why a hit clears no tier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Short {
    /// It scores under half of the top hit's score.
    UnderTop,
    /// Its confidence is under the bar for a line.
    UnderLine,
    /// It is not among the [`MAX_WEIGHED`] best hits.
    NotWeighed,
}

/// How a hit stands against the bar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grade {
    /// Its score as a share of the top hit's, 0 to 1.
    pub share_of_top: f32,
    /// Whether it has two of the query's words side by side; `None` when that was not looked
    /// for (the hit could not clear a tier either way).
    pub phrase: Option<bool>,
    /// Its fit, and the bonus for a phrase.
    pub confidence: f32,
    /// The tier it clears, or why it clears none.
    pub tier: Result<Tier, Short>,
}

impl Bar {
    /// The bar at `sensitivity` (0 to 1; [`DEFAULT_SENSITIVITY`] is the bar as tuned): 0 asks
    /// half as much again, 1 half as much (a value out of range counts as the nearest end, and
    /// NaN as the default).
    pub fn new(sensitivity: f32) -> Bar {
        let sensitivity = if sensitivity.is_nan() {
            DEFAULT_SENSITIVITY
        } else {
            sensitivity.clamp(0.0, 1.0)
        };
        let scale = 1.5 - sensitivity;
        Bar {
            body: BODY_BAR * scale,
            line: LINE_BAR * scale,
        }
    }

    /// Grade the `place`-th hit (from 0), of `fit` and a `share_of_top`; `phrase` says whether
    /// it has a pair of the query's words side by side, and is asked only when that could
    /// change the tier.
    pub fn grade(
        &self,
        place: usize,
        fit: f32,
        share_of_top: f32,
        phrase: impl FnOnce() -> bool,
    ) -> Grade {
        let short = |short| Grade {
            share_of_top,
            phrase: None,
            confidence: fit,
            tier: Err(short),
        };
        if place >= MAX_WEIGHED {
            return short(Short::NotWeighed);
        }
        if share_of_top < MIN_SHARE_OF_TOP {
            return short(Short::UnderTop);
        }
        if fit + PHRASE_BONUS < self.line {
            return short(Short::UnderLine);
        }
        let phrase = phrase();
        let confidence = fit + if phrase { PHRASE_BONUS } else { 0.0 };
        let tier = if confidence >= self.body {
            Ok(Tier::Body)
        } else if confidence >= self.line {
            Ok(Tier::Line)
        } else {
            Err(Short::UnderLine)
        };
        Grade {
            share_of_top,
            phrase: Some(phrase),
            confidence,
            tier,
        }
    }

    /// Why a hit that is `short` clears no tier, in a few words.
    pub fn explain(&self, short: Short, grade: &Grade) -> String {
        match short {
            Short::UnderTop => format!(
                "its score is under {:.0}% of the best hit's ({:.1}%)",
                MIN_SHARE_OF_TOP * 100.0,
                grade.share_of_top * 100.0
            ),
            Short::UnderLine => format!(
                "confidence {:.2} is under the bar for a line ({:.2})",
                grade.confidence, self.line
            ),
            Short::NotWeighed => format!("not among the {MAX_WEIGHED} best hits"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_follow_confidence_and_the_phrase_is_read_only_when_it_counts() {
        let bar = Bar::default();
        let never = || -> bool { panic!("the phrase was not needed") };
        assert_eq!(bar.grade(0, 0.5, 1.0, || false).tier, Ok(Tier::Body));
        assert_eq!(bar.grade(0, 0.2, 1.0, || false).tier, Ok(Tier::Line));
        assert_eq!(bar.grade(0, 0.36, 1.0, || true).tier, Ok(Tier::Body));
        assert_eq!(bar.grade(0, 0.14, 1.0, || true).tier, Ok(Tier::Line));
        assert_eq!(
            bar.grade(0, 0.14, 1.0, || false).tier,
            Err(Short::UnderLine)
        );
        assert_eq!(bar.grade(0, 0.05, 1.0, never).tier, Err(Short::UnderLine));
        assert_eq!(bar.grade(1, 0.9, 0.4, never).tier, Err(Short::UnderTop));
        assert_eq!(
            bar.grade(MAX_WEIGHED, 0.9, 1.0, never).tier,
            Err(Short::NotWeighed)
        );
    }

    #[test]
    fn sensitivity_moves_the_bar_and_is_held_to_its_range() {
        assert_eq!(Bar::new(DEFAULT_SENSITIVITY), Bar::default());
        let eager = Bar::new(1.0);
        let quiet = Bar::new(0.0);
        assert!(eager.line < Bar::default().line && Bar::default().line < quiet.line);
        assert_eq!(Bar::new(7.0), eager);
        assert_eq!(Bar::new(-1.0), quiet);
        assert_eq!(Bar::new(f32::NAN), Bar::default());
    }
}
