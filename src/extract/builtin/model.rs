//! The learned extractor's model (DESIGN §6, issue 12): a multinomial logistic regression over
//! the hashed [`features`](super::features) of a sentence, with five classes — not worth
//! remembering, or one of the four memory types. The weights are `model.bin`, compiled into the
//! binary and written by `cargo run --release --example train_extractor` from the labelled sets
//! in `fixtures/extraction/`; nothing is downloaded or read at run time. Scoring is a sum of
//! weights and a softmax: deterministic, and microseconds per sentence.

use std::sync::LazyLock;

use super::features::{DIM, Features, features};
use super::segmenter::statements_of;
use crate::extract::transcript::Turn;
use crate::memory::taxonomy::MemoryType;

/// The model's classes, in the order of its weights: none, then the four types.
pub const CLASSES: [Option<MemoryType>; 5] = [
    None,
    Some(MemoryType::User),
    Some(MemoryType::Feedback),
    Some(MemoryType::Project),
    Some(MemoryType::Reference),
];

const MAGIC: &[u8; 5] = b"MDXM1";

/// The model's weights: `DIM` rows of one weight per class.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    weights: Vec<f32>,
}

/// The model shipped in the binary; `None` only if `model.bin` is damaged (then the cues decide
/// alone).
pub static SHIPPED: LazyLock<Option<Weights>> =
    LazyLock::new(|| Weights::decode(include_bytes!("model.bin")));

impl Weights {
    /// All-zero weights (every class equally likely).
    pub fn zero() -> Weights {
        Weights {
            weights: vec![0.0; DIM * CLASSES.len()],
        }
    }

    /// Weights of slot `slot` for class `class`, for training.
    pub fn get_mut(&mut self, slot: u32, class: usize) -> Option<&mut f32> {
        self.weights.get_mut(slot as usize * CLASSES.len() + class)
    }

    /// The probability of each class for a sentence's features.
    pub fn probabilities(&self, features: &Features) -> [f32; 5] {
        let mut scores = [0f32; 5];
        for &(slot, value) in features {
            let at = slot as usize * CLASSES.len();
            if let Some(row) = self.weights.get(at..at + CLASSES.len()) {
                for (score, w) in scores.iter_mut().zip(row) {
                    *score += w * value;
                }
            }
        }
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for s in &mut scores {
            *s = (*s - max).exp();
            sum += *s;
        }
        scores.map(|s| s / sum)
    }

    /// The weights as `model.bin` holds them: a magic, a scale, then each weight as a
    /// little-endian i16 of `weight / scale` (quantised: a third of the size of f32, and the
    /// same bytes on every machine).
    pub fn encode(&self) -> Vec<u8> {
        let max = self.weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        let scale = if max > 0.0 {
            max / f32::from(i16::MAX)
        } else {
            1.0
        };
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + self.weights.len() * 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&scale.to_le_bytes());
        for w in &self.weights {
            // In range by the choice of scale.
            let q = (w / scale)
                .round()
                .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
            out.extend_from_slice(&q.to_le_bytes());
        }
        out
    }

    /// Read what [`Weights::encode`] wrote; `None` when it is not that.
    pub fn decode(bytes: &[u8]) -> Option<Weights> {
        let rest = bytes.strip_prefix(MAGIC.as_slice())?;
        let (scale, rest) = rest.split_first_chunk::<4>()?;
        let scale = f32::from_le_bytes(*scale);
        if rest.len() != DIM * CLASSES.len() * 2 || !scale.is_finite() {
            return None;
        }
        let weights = rest
            .chunks_exact(2)
            .map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])) * scale)
            .collect();
        Some(Weights { weights })
    }
}

/// A sentence of a prompt as the extractor reads it, with its features: what training learns
/// from.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub text: String,
    pub features: Features,
}

/// The sentences of a prompt (the segmenter's output, exactly as extraction sees them) with
/// their features.
pub fn candidates(turn: &Turn) -> Vec<Candidate> {
    let sentences = statements_of(turn).sentences;
    (0..sentences.len())
        .map(|i| Candidate {
            text: sentences[i].text.clone(),
            features: features(&sentences, i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_loads_and_round_trips() {
        assert!(SHIPPED.is_some(), "model.bin decodes");
        let zero = Weights::zero();
        assert_eq!(Weights::decode(&zero.encode()), Some(zero));
        assert_eq!(Weights::decode(b"MDXM1abc"), None);
    }
}
