//! The learned extractor's features (DESIGN §6, issue 12): what the model sees of one sentence
//! the person typed, as hashed indices — word unigrams and bigrams, character 2–5-grams (which
//! read Chinese as well as English), every cue pattern that matches, what the hand-written
//! classifier decides for the sentence and for the one before it, and its place in the prompt
//! (an item of a "rules:" list, a confirmed proposal, asked to be remembered). Training
//! (`examples/train_extractor.rs`) and extraction compute them with this same code, so the two
//! can never disagree.

use regex::Regex;

use super::classifier::{classify, in_rules_list, in_scoped_list};
use super::cues::{
    AFFIRMATIVE, ANAPHOR, BACK_REFERENCE, BARE_OBJECT, CHANNEL, CONTINUES, CORRECTED_VALUE,
    CORRECTION, DATE_ABSOLUTE, DATE_PHRASE, EPHEMERAL, EXPLICIT, FORGET, FORGET_ZH, HYPOTHETICAL,
    LOG_OR_CODE, ME, NAMED_PLACE, PLAN, POINTS_BACK, POLITE, PROJECT, QUESTION_START,
    REFERENCE_CUE, REFERENCE_PLACE, REQUEST, RETRACTION, SCOPE_LEAD, SUBJECT, TASK, TASK_ANYWHERE,
    URL, USER, USER_BACKGROUND, USER_EXCLUDE,
};
use super::segmenter::Sentence;
use crate::memory::statement::{DECISION, DERIVABLE, FEEDBACK, FEEDBACK_ANYWHERE, REASON};
use crate::memory::taxonomy::MemoryType;

/// The number of hashed feature slots (a power of two).
pub const DIM: usize = 1 << 15;

/// One sentence as the model sees it: slots and their values (a slot may repeat; values add).
pub type Features = Vec<(u32, f32)>;

/// The cue patterns, each one feature when it matches.
fn cues() -> [(&'static str, &'static Regex); 40] {
    [
        ("explicit", &EXPLICIT),
        ("anaphor", &ANAPHOR),
        ("bare_object", &BARE_OBJECT),
        ("polite", &POLITE),
        ("subject", &SUBJECT),
        ("request", &REQUEST),
        ("log_or_code", &LOG_OR_CODE),
        ("task_anywhere", &TASK_ANYWHERE),
        ("continues", &CONTINUES),
        ("task", &TASK),
        ("named_place", &NAMED_PLACE),
        ("back_reference", &BACK_REFERENCE),
        ("corrected_value", &CORRECTED_VALUE),
        ("retraction", &RETRACTION),
        ("plan", &PLAN),
        ("points_back", &POINTS_BACK),
        ("scope_lead", &SCOPE_LEAD),
        ("forget", &FORGET),
        ("forget_zh", &FORGET_ZH),
        ("correction", &CORRECTION),
        ("question_start", &QUESTION_START),
        ("hypothetical", &HYPOTHETICAL),
        ("ephemeral", &EPHEMERAL),
        ("user", &USER),
        ("user_background", &USER_BACKGROUND),
        ("user_exclude", &USER_EXCLUDE),
        ("url", &URL),
        ("channel", &CHANNEL),
        ("reference_cue", &REFERENCE_CUE),
        ("reference_place", &REFERENCE_PLACE),
        ("project", &PROJECT),
        ("date_phrase", &DATE_PHRASE),
        ("date_absolute", &DATE_ABSOLUTE),
        ("affirmative", &AFFIRMATIVE),
        ("me", &ME),
        ("decision", &DECISION),
        ("derivable", &DERIVABLE),
        ("feedback", &FEEDBACK),
        ("feedback_anywhere", &FEEDBACK_ANYWHERE),
        ("reason", &REASON),
    ]
}

/// FNV-1a over a namespace and the parts of a feature's name, folded into [`DIM`] slots.
fn slot(namespace: &str, parts: &[&str]) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in namespace
        .bytes()
        .chain(parts.iter().flat_map(|p| p.bytes().chain([0x1f])))
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    // DIM is 2^15: the fold keeps the slot well under u32::MAX.
    ((hash ^ (hash >> 32)) % DIM as u64) as u32
}

fn type_name(t: Option<MemoryType>) -> &'static str {
    t.map_or("none", MemoryType::as_str)
}

/// Add a group of features with a total weight of about one, whatever the sentence's length.
fn add_group(out: &mut Features, slots: Vec<u32>) {
    if slots.is_empty() {
        return;
    }
    let value = 1.0 / (slots.len() as f32).sqrt();
    out.extend(slots.into_iter().map(|s| (s, value)));
}

/// The features of sentence `i` of a prompt's sentences.
pub(super) fn features(sentences: &[Sentence], i: usize) -> Features {
    let sentence = &sentences[i];
    let text = sentence.text.as_str();
    let lower = text.to_lowercase();
    let mut out: Features = vec![(slot("bias", &[]), 1.0)];

    // Words: ASCII-ish runs; Chinese is read by the character n-grams below.
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'') || !c.is_ascii())
        .filter(|w| !w.is_empty())
        .collect();
    let mut word_slots: Vec<u32> = words.iter().map(|w| slot("w", &[w])).collect();
    word_slots.extend(words.windows(2).map(|p| slot("w2", &[p[0], p[1]])));
    if let Some(first) = words.first() {
        word_slots.push(slot("first", &[first]));
    }
    add_group(&mut out, word_slots);

    let chars: Vec<char> = std::iter::once(' ')
        .chain(lower.chars())
        .chain(std::iter::once(' '))
        .collect();
    let mut char_slots = Vec::new();
    let mut gram = String::new();
    for n in 2..=5 {
        for window in chars.windows(n) {
            // Pairs only for Chinese, where two characters are often a word.
            if n == 2 && window.iter().all(char::is_ascii) {
                continue;
            }
            gram.clear();
            gram.extend(window);
            char_slots.push(slot("c", &[&gram]));
        }
    }
    add_group(&mut out, char_slots);

    let mut flags = Vec::new();
    for (name, pattern) in cues() {
        if pattern.is_match(text) {
            flags.push(slot("cue", &[name]));
        }
    }
    let decided = classify(text, sentence.asked).map(|s| s.memory_type);
    flags.push(slot("cls", &[type_name(decided)]));
    if let Some(before) = i.checked_sub(1).map(|j| &sentences[j]) {
        let previous = classify(&before.text, before.asked).map(|s| s.memory_type);
        flags.push(slot("prev", &[type_name(previous)]));
        if before.line != sentence.line {
            flags.push(slot("new_line", &[]));
        }
    } else {
        flags.push(slot("first_sentence", &[]));
    }
    let ends = |c: &[char]| text.ends_with(c);
    for (name, on) in [
        ("asked", sentence.asked),
        ("proposal", sentence.line == usize::MAX),
        ("rules_item", in_rules_list(sentences, i)),
        ("scoped_item", in_scoped_list(sentences, i)),
        ("question", ends(&['?', '？'])),
        ("header", ends(&[':', '：'])),
        ("secret", crate::secrets::find(text).is_some()),
    ] {
        if on {
            flags.push(slot("flag", &[name]));
        }
    }
    let length = match text.chars().count() {
        0..=15 => "xs",
        16..=40 => "s",
        41..=100 => "m",
        101..=200 => "l",
        _ => "xl",
    };
    flags.push(slot("len", &[length]));
    out.extend(flags.into_iter().map(|s| (s, 1.0)));
    out
}
