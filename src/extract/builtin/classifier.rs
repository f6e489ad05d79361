//! The builtin extractor's classifier (DESIGN §6): whether a statement is worth remembering, and
//! as which type — user, feedback, project or reference — from its cues; questions,
//! hypotheticals, one-off instructions, facts derivable from the code and secrets are not. Items
//! of a "rules:" list are rules; items of a "for today:" list are not.

use super::cues::{
    AFFIRMATIVE, ASIDE, BARE_OBJECT, CHANNEL, CLAUSE_START, CORRECTION, CREDENTIAL, DATE_ABSOLUTE,
    DATE_PHRASE, EPHEMERAL, EXPLICIT, HYPOTHETICAL, LOG_OR_CODE, NAMED_PLACE, NOT_TO_REMEMBER,
    PLAN, POLITE, PROJECT, QUESTION_START, REFERENCE_CUE, REFERENCE_PLACE, RULES_HEADER,
    SCOPE_LEAD, SCOPED_HEADER, SUBJECT, TASK, TASK_ANYWHERE, URL, USER, USER_BACKGROUND,
    USER_EXCLUDE, slot_of,
};
use super::segmenter::{Sentence, capitalise, clause_tails};
use crate::extract::Unsaved;
use crate::memory::statement::{
    DECISION, DERIVABLE, FEEDBACK, FEEDBACK_ANYWHERE, REASON, cjk_pairs, words,
};
use crate::memory::taxonomy::MemoryType;

/// A statement worth keeping.
#[derive(Debug)]
pub(super) struct Statement {
    pub(super) memory_type: MemoryType,
    pub(super) text: String,
    pub(super) correction: bool,
}

/// Decide whether a sentence is a memory, and of which type.
pub(super) fn classify(sentence: &str, asked: bool) -> Option<Statement> {
    judge(sentence, asked).ok()
}

/// [`classify`], saying why a sentence is no memory.
pub(super) fn judge(sentence: &str, asked: bool) -> Result<Statement, Unsaved> {
    if crate::secrets::find(sentence).is_some() {
        return Err(Unsaved::Secret);
    }
    let (explicit, body) = match EXPLICIT.find(sentence) {
        Some(m) if m.end() < sentence.len() => (true, sentence[m.end()..].trim()),
        _ => (asked, sentence.trim()),
    };
    // "Remember this", "stop it": nothing to remember by itself.
    if words(body).len() + cjk_pairs(body).len() < 1
        || BARE_OBJECT.is_match(body)
        || ASIDE.is_match(body)
        || NOT_TO_REMEMBER.is_match(body)
        || body.ends_with([':', '：'])
    {
        return Err(Unsaved::NothingToRemember);
    }
    if body.chars().count() < 4 || body.chars().count() > 400 {
        return Err(Unsaved::NothingToRemember);
    }
    let is_question = body.ends_with('?')
        || body.ends_with('？')
        || QUESTION_START.is_match(body) && !POLITE.is_match(body);
    if HYPOTHETICAL.is_match(body) {
        return Err(Unsaved::Hypothetical);
    }
    if is_question {
        return Err(Unsaved::Question);
    }
    // "Our staging db gets wiped every sunday, so right now I click them by hand": the
    // one-off marker is about the second clause, not the fact.
    let first_clause = CLAUSE_START.find(body).map_or(body, |m| &body[..m.start()]);
    if EPHEMERAL.is_match(first_clause) && !FEEDBACK_ANYWHERE.is_match(body) {
        return Err(Unsaved::OneOff);
    }
    // A rule must not be scoped anywhere in it ("…, this view is throwaway").
    let scoped_rule = EPHEMERAL.is_match(body) && !FEEDBACK_ANYWHERE.is_match(body);
    let correction = CORRECTION.is_match(body);
    let body_clean = CORRECTION
        .find(body)
        .filter(|m| m.start() == 0)
        .map_or(body, |m| body[m.end()..].trim());
    let text = capitalise(body_clean.trim_end_matches(['.', '!', '。', '！']));
    let project_cue = PROJECT.is_match(body_clean)
        || REASON.is_match(body_clean) && (SUBJECT.is_match(body_clean) || correction);
    let has_date = DATE_PHRASE.is_match(body_clean) || DATE_ABSOLUTE.is_match(body_clean);
    let memory_type = if (USER.is_match(body_clean) || USER_BACKGROUND.is_match(body_clean))
        && !USER_EXCLUDE.is_match(body_clean)
    {
        MemoryType::User
    } else if is_reference(body_clean) {
        MemoryType::Reference
    } else if has_date && project_cue && !TASK.is_match(body_clean) && !PLAN.is_match(body_clean) {
        // "the deadline is the day after tomorrow; new features 一律 wait": a dated fact.
        MemoryType::Project
    } else if FEEDBACK.is_match(body_clean) || FEEDBACK_ANYWHERE.is_match(body_clean) {
        if scoped_rule {
            return Err(Unsaved::OneOff);
        }
        MemoryType::Feedback
    } else if DECISION.is_match(body_clean)
        || project_cue
            && (explicit || !DERIVABLE.is_match(body_clean) || DATE_ABSOLUTE.is_match(body_clean))
            && (explicit
                || !TASK.is_match(body_clean)
                    && !clause_tails(body_clean).any(|t| TASK.is_match(t)))
            && project_is_not_task_talk(body_clean)
    {
        MemoryType::Project
    } else if explicit && !DERIVABLE.is_match(body_clean) {
        // "Remember that …" with no other cue: a fact about the project, or a rule.
        if body_clean.split_whitespace().next().is_some_and(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "use"
                    | "run"
                    | "write"
                    | "keep"
                    | "put"
                    | "add"
                    | "check"
                    | "ask"
                    | "prefer"
                    | "avoid"
                    | "name"
                    | "call"
                    | "test"
                    | "commit"
                    | "push"
                    | "deploy"
            )
        }) {
            MemoryType::Feedback
        } else {
            MemoryType::Project
        }
    } else if correction && slot_of(body_clean).is_some() && !DERIVABLE.is_match(body_clean) {
        MemoryType::Project
    } else if DERIVABLE.is_match(body_clean) {
        return Err(Unsaved::Derivable);
    } else if TASK.is_match(body_clean) {
        return Err(Unsaved::OneOff);
    } else {
        return Err(Unsaved::NothingToRemember);
    };
    if memory_type == MemoryType::Feedback
        && DERIVABLE.is_match(body_clean)
        && !explicit
        && !FEEDBACK_ANYWHERE.is_match(body_clean)
        && !body_clean.to_lowercase().starts_with("always")
        && !body_clean.to_lowercase().starts_with("never")
    {
        return Err(Unsaved::Derivable);
    }
    Ok(Statement {
        memory_type,
        text,
        correction,
    })
}

/// Whether sentence `i` follows a "Rules whenever you touch it:" header in its prompt.
pub(super) fn in_rules_list(sentences: &[Sentence], i: usize) -> bool {
    // The list runs on the lines right after the header, to the first blank line.
    let mut line = sentences[i].line;
    for s in sentences[..i].iter().rev() {
        if s.text.ends_with(':') || s.text.ends_with('：') {
            // One blank line may follow the header.
            return s.line.saturating_add(2) >= line && RULES_HEADER.is_match(&s.text);
        }
        if s.line.saturating_add(1) < line {
            return false;
        }
        line = s.line;
    }
    false
}

/// An item of a rules list, as a rule: unless it is a question, a one-off or holds nothing.
pub(super) fn rule(sentence: &str) -> Option<Statement> {
    let first_clause = CLAUSE_START
        .find(sentence)
        .map_or(sentence, |m| &sentence[..m.start()]);
    let one_off = EPHEMERAL.is_match(first_clause) || SCOPE_LEAD.is_match(sentence);
    let empty = words(sentence).len() + cjk_pairs(sentence).len() < 2;
    (!one_off && !empty && !sentence.ends_with('?') && !TASK.is_match(sentence)).then(|| {
        Statement {
            memory_type: MemoryType::Feedback,
            text: capitalise(sentence.trim_end_matches(['.', '。'])),
            correction: false,
        }
    })
}

/// Whether sentence `i` is an item of a list headed "few things for today:".
pub(super) fn in_scoped_list(sentences: &[Sentence], i: usize) -> bool {
    sentences[..i]
        .iter()
        .rev()
        .find(|s| s.text.ends_with(':') || s.text.ends_with('：'))
        .is_some_and(|s| SCOPED_HEADER.is_match(&s.text))
}

/// A sentence that explains the statement before it, rather than asking for work.
pub(super) fn is_context(sentence: &str) -> bool {
    let n = sentence.chars().count();
    (8..=300).contains(&n)
        && !TASK.is_match(sentence)
        && !AFFIRMATIVE.is_match(sentence)
        && !sentence.ends_with('?')
        && !sentence.ends_with('？')
        && !QUESTION_START.is_match(sentence)
        && !LOG_OR_CODE.is_match(sentence)
        && !TASK_ANYWHERE.is_match(sentence)
        && crate::secrets::find(sentence).is_none()
}

/// A word that mixes three of lower case, upper case, digits and symbols, like a password.
fn password_like(word: &str) -> bool {
    let word = word.trim_matches(|c: char| matches!(c, '.' | ',' | ';' | ')' | '(' | '"' | '\''));
    word.chars().count() >= 8
        && !word.contains("://")
        && [
            word.chars().any(|c| c.is_ascii_lowercase()),
            word.chars().any(|c| c.is_ascii_uppercase()),
            word.chars().any(|c| c.is_ascii_digit()),
            word.chars()
                .any(|c| c.is_ascii_punctuation() && !matches!(c, '-' | '_' | '/' | '.')),
        ]
        .iter()
        .filter(|&&on| on)
        .count()
            >= 3
}

/// "because the test fails" is debugging talk, not a decision.
fn project_is_not_task_talk(text: &str) -> bool {
    let lower = text.to_lowercase();
    ![
        "the test",
        "the build",
        "this error",
        "the error",
        "the bug",
        "it fails",
        "it crashes",
        "the output",
        "this function",
        "this file",
        "the stack",
    ]
    .iter()
    .any(|t| lower.contains(t))
}

fn is_reference(text: &str) -> bool {
    if TASK.is_match(text) || TASK_ANYWHERE.is_match(text) {
        return false;
    }
    let has_place = URL.is_match(text) || CHANNEL.is_match(text);
    let cue = REFERENCE_CUE.is_match(text);
    if has_place {
        return cue
            || REFERENCE_PLACE.is_match(text)
                && !text.to_lowercase().starts_with("open ")
                && !text.to_lowercase().starts_with("fetch ")
                && !text.to_lowercase().starts_with("read ")
                && !text.to_lowercase().starts_with("look at ")
                && !text.to_lowercase().starts_with("summari");
    }
    // "Bugs are tracked in Linear (project INGEST)": a named tool that is a place.
    cue && NAMED_PLACE.is_match(text) && !DERIVABLE.is_match(text)
}

/// A sentence the model found worth remembering where no cue did, as a statement of
/// `memory_type`: its text cleaned as [`classify`] cleans it; nothing when it holds a secret,
/// is empty once cleaned, or is a header or a question.
pub(super) fn learned_statement(sentence: &str, memory_type: MemoryType) -> Option<Statement> {
    // The scanner knows token shapes; a password typed in passing ("login is svc / Rb7#qLm2!v")
    // has none, so what the cues never vouched for is not kept near a credential either.
    if crate::secrets::find(sentence).is_some()
        || CREDENTIAL.is_match(sentence)
        || sentence.split_whitespace().any(password_like)
    {
        return None;
    }
    let body = match EXPLICIT.find(sentence) {
        Some(m) if m.end() < sentence.len() => sentence[m.end()..].trim(),
        _ => sentence.trim(),
    };
    let correction = CORRECTION.is_match(body);
    let body = CORRECTION
        .find(body)
        .filter(|m| m.start() == 0)
        .map_or(body, |m| body[m.end()..].trim());
    let length = body.chars().count();
    if !(8..=400).contains(&length)
        || words(body).len() + cjk_pairs(body).len() < 2
        || body.ends_with([':', '：', '?', '？'])
        || BARE_OBJECT.is_match(body)
        || ASIDE.is_match(body)
        || NOT_TO_REMEMBER.is_match(body)
    {
        return None;
    }
    Some(Statement {
        memory_type,
        text: capitalise(body.trim_end_matches(['.', '!', '。', '！'])),
        correction,
    })
}
