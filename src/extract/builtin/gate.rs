//! The gate (DESIGN §6): which prompts of a range could hold something worth remembering, so
//! that a model is asked only about those, and a session with nothing worth remembering usually
//! costs no call. It is the builtin extractor's own reading of a prompt, set for recall: its cues
//! and its learned model at a low threshold.

use super::classifier::{classify, in_rules_list, rule};
use super::cues::{FORGET, FORGET_ZH};
use super::segmenter::{Sentence, Statements, clause_tails, statements_of};
use super::{features, is_correction, model};
use crate::extract::transcript::Turn;

/// How sure the model must be that a sentence is a memory of some type for the gate to let its
/// prompt through: low, as a prompt the gate stops is lost for good. Chosen by leave-one-writer-
/// out on the training sets (`examples/train_extractor.rs`; the blind sets never read): with
/// prompts holding a secret passed too, 0.15 kept the words of 603 of 648 memories for the model
/// (0.93) and let no prompt through in 97 of 168 sessions with nothing to remember (0.58); 0.1
/// kept 0.95 but 0.50, 0.2 kept 0.92 with 0.62.
pub const GATE_THRESHOLD: f32 = 0.15;

/// The gate (DESIGN §6): which prompts of a range could hold something worth remembering, for a
/// model to read. Tuned for recall, not precision: a prompt passes when any of its sentences
/// carries a cue of a memory, a correction or a "forget", or the model gives one a memory type
/// with at least `threshold`; or when a line of it holds a secret (the segmenter drops such a
/// line, and what else it says is for the model to judge: the secret itself is never saved).
/// Chat, tasks and questions with no such sign do not pass, so a session with nothing worth
/// remembering usually costs no model call.
pub fn gate(turns: &[Turn]) -> Vec<bool> {
    gate_with(turns, model::SHIPPED.as_ref(), GATE_THRESHOLD)
}

/// [`gate`] with given weights and threshold: what tuning measures.
pub fn gate_with(turns: &[Turn], weights: Option<&model::Weights>, threshold: f32) -> Vec<bool> {
    turns
        .iter()
        .map(|turn| {
            let Statements {
                sentences,
                holds_secret,
            } = statements_of(turn);
            holds_secret
                || (0..sentences.len()).any(|i| {
                    let Sentence { text, asked, .. } = &sentences[i];
                    let cued = classify(text, *asked).is_some()
                        || in_rules_list(&sentences, i) && rule(text).is_some()
                        || clause_tails(text).any(|tail| classify(tail, *asked).is_some())
                        || FORGET.is_match(text)
                        || FORGET_ZH.is_match(text)
                        || is_correction(text);
                    cued || weights.is_some_and(|w| {
                        let p = w.probabilities(&features::features(&sentences, i));
                        p[1..].iter().any(|&q| q >= threshold)
                    })
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(prompt: &str) -> Turn {
        Turn {
            previous_reply: String::new(),
            prompt: prompt.into(),
            timestamp: None,
            end: 0,
        }
    }

    /// The gate lets through what could be a memory, a correction, a "forget" and a line with
    /// a secret, and stops chat, tasks and questions.
    #[test]
    fn the_gate_passes_what_could_be_a_memory() {
        let turns = [
            turn("From now on, use pnpm instead of npm."),
            turn("Actually, the standup moved to 10:30."),
            turn("Please forget what I said about the staging db."),
            turn("deploy with this key: sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345"),
            turn("thanks!"),
            turn("What does parse_header return on an empty line?"),
            turn("Fix the failing test in src/parse.rs."),
        ];
        assert_eq!(gate(&turns), [true, true, true, true, false, false, false]);
    }
}
