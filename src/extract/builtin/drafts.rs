//! The builtin extractor's drafts (DESIGN §3, §6): which memory a statement becomes — the one it
//! is about when one is known (the same project choice, or enough words in common; a correction
//! needs fewer), or a new one named from its first significant words — and its topic file: a
//! description, and a body whose feedback and project memories say **Why:** and **How to
//! apply:**.

use chrono::NaiveDate;

use super::classifier::Statement;
use super::cues::{
    ASKS, BARE_OCCASION, DESCRIPTION_LEAD_IN, FIRST_PERSON, FIRST_PERSON_HAVE, FIRST_PERSON_I,
    FIRST_PERSON_LATER, MY, NOW_TIMING, STALE_VALUE, WHEN, WHY, slot_of,
};
use super::naming::{forbids, name_for};
use super::segmenter::capitalise;
use crate::extract::{Action, Draft, Existing};
use crate::memory::statement::{cjk_pairs, dropped_words, similarity, words};
use crate::memory::taxonomy::MemoryType;

/// A memory known to this run: in the dir before it, or drafted by it.
#[derive(Debug, Clone)]
pub(super) struct Known {
    pub(super) name: String,
    pub(super) memory_type: Option<MemoryType>,
    text: String,
    slot: Option<&'static str>,
}

impl Known {
    /// A memory in the dir before the run.
    pub(super) fn of(memory: &Existing) -> Known {
        let text = format!("{} {}", memory.description, memory.body);
        Known {
            slot: slot_of(&text),
            name: memory.name.clone(),
            memory_type: memory.memory_type,
            text,
        }
    }
}

/// Add a statement: as an update of the memory it is about, or as a new memory.
pub(super) fn record(
    known: &mut Vec<Known>,
    actions: &mut Vec<Action>,
    statement: Statement,
    text: String,
    context: &str,
    date: NaiveDate,
) {
    // A prohibition said beside a choice ("we use yarn" … "never npm in this repo") is a memory
    // of its own; only a correction replaces the choice it is about.
    let slot = slot_of(&text).filter(|_| statement.correction || !forbids(&text));
    let same_slot = slot.and_then(|s| {
        known.iter().rposition(|k| {
            k.slot == Some(s)
                && k.memory_type
                    .is_none_or(|t| compatible(t, statement.memory_type))
        })
    });
    // A correction is matched with what explains it too ("we went trunk-based. Staging now
    // deploys tags" corrects "staging deploys from develop").
    // "the bar is 0.88, not 0.85": the memory keeps the current value only.
    let text = if statement.correction {
        STALE_VALUE.replace_all(&text, "").into_owned()
    } else {
        text
    };
    let (threshold, about) = if statement.correction {
        (0.3, format!("{text} {context}"))
    } else {
        (0.6, text.clone())
    };
    let target = same_slot
        .or_else(|| best_match(known, &text, slot, Some(statement.memory_type), threshold))
        .or_else(|| best_match(known, &about, slot, Some(statement.memory_type), threshold))
        // A statement near a memory that is no correction of it, and would drop most of what it
        // says, is a different fact: a memory of its own (DESIGN §6).
        .filter(|&i| statement.correction || dropped_words(&known[i].text, &text).is_none());
    let (name, memory_type) = match target {
        Some(i) => (
            known[i].name.clone(),
            known[i].memory_type.unwrap_or(statement.memory_type),
        ),
        None => (
            unique_name(known, &name_for(&text, slot, statement.memory_type)),
            statement.memory_type,
        ),
    };
    let draft = draft(&name, memory_type, &text, context, date);
    let entry = Known {
        name: name.clone(),
        memory_type: Some(memory_type),
        text: format!("{} {}", draft.description, draft.body),
        slot,
    };
    match target {
        Some(i) => known[i] = entry,
        None => known.push(entry),
    }
    actions.retain(|a| !matches!(a, Action::Save(d) if d.name == name));
    actions.push(Action::Save(draft));
}

/// A feedback rule about a tool and a project fact about the same tool are the same memory.
fn compatible(a: MemoryType, b: MemoryType) -> bool {
    a == b
        || matches!(
            (a, b),
            (MemoryType::Feedback, MemoryType::Project)
                | (MemoryType::Project, MemoryType::Feedback)
        )
}

/// "sorry, 6543 not 5433", "Preeti not Priya", "48 kHz, not 44.1 kHz": a value said again, right.
/// The latest memory of the run (else of the dir) that holds the old value gets the new one in
/// its place, so that only the corrected value is ever saved. True when one did.
pub(super) fn swap_value(
    known: &mut [Known],
    actions: &mut Vec<Action>,
    existing: &[Existing],
    sentence: &str,
) -> bool {
    let Some((new, old)) = swapped(sentence, |old| {
        actions
            .iter()
            .any(|a| matches!(a, Action::Save(d) if holds(d, old)))
            || existing
                .iter()
                .any(|m| m.description.contains(old) || m.body.contains(old))
    }) else {
        return false;
    };
    let draft = match actions
        .iter()
        .rposition(|a| matches!(a, Action::Save(d) if holds(d, &old)))
    {
        Some(at) => match actions.remove(at) {
            Action::Save(draft) => draft,
            Action::Delete { .. } => return false,
        },
        None => {
            let Some(memory) = existing
                .iter()
                .rev()
                .find(|m| m.description.contains(&old) || m.body.contains(&old))
            else {
                return false;
            };
            let Some(memory_type) = memory.memory_type else {
                return false;
            };
            Draft {
                name: memory.name.clone(),
                memory_type,
                description: memory.description.clone(),
                title: None,
                body: memory.body.clone(),
            }
        }
    };
    let draft = Draft {
        description: draft.description.replace(&old, &new),
        body: draft.body.replace(&old, &new),
        ..draft
    };
    if let Some(entry) = known.iter_mut().find(|k| k.name == draft.name) {
        entry.text = format!("{} {}", draft.description, draft.body);
    }
    actions.push(Action::Save(draft));
    true
}

fn holds(draft: &Draft, value: &str) -> bool {
    draft.description.contains(value) || draft.body.contains(value)
}

/// The (new, old) values of "NEW not OLD" (also "NEW, not OLD"), one to three words each, the
/// longest that `known_old` recognises. An old value is a value: it holds a digit, a capital or
/// a sign (`44.1`, `Priya`, `#ops`), not a common word.
fn swapped(sentence: &str, known_old: impl Fn(&str) -> bool) -> Option<(String, String)> {
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let not = words.iter().position(|w| w.eq_ignore_ascii_case("not"))?;
    let (before, after) = (&words[..not], &words[not + 1..]);
    let clean = |ws: &[&str]| {
        ws.join(" ")
            .trim_matches(|c: char| c.is_whitespace() || ",.;:!?()—–\"'".contains(c))
            .to_string()
    };
    (1..=3).rev().find_map(|n| {
        if before.len() < n || after.len() < n {
            return None;
        }
        let old = clean(&after[..n]);
        let new = clean(&before[before.len() - n..]);
        let is_value = old
            .chars()
            .any(|c| c.is_ascii_digit() || c.is_uppercase() || "#.@/_-".contains(c));
        (is_value && !new.is_empty() && old != new && known_old(&old)).then_some((new, old))
    })
}

/// Remove the memory "forget …" is about, if one is.
pub(super) fn forget(
    known: &mut Vec<Known>,
    actions: &mut Vec<Action>,
    rest: &str,
    previous_reply: &str,
) {
    if let Some(target) = forget_target(known, rest, previous_reply) {
        let name = known.remove(target).name;
        actions.retain(|a| !matches!(a, Action::Save(d) if d.name == name));
        actions.push(Action::Delete { name });
    }
}

/// What "forget …" is about: what follows it, or, for "forget that", what was just discussed.
fn forget_target(known: &[Known], rest: &str, previous_reply: &str) -> Option<usize> {
    best_match(known, rest, slot_of(rest), None, 0.1).or_else(|| {
        let anaphoric = words(rest).len() + cjk_pairs(rest).len() <= 6;
        if anaphoric {
            best_match(known, previous_reply, slot_of(previous_reply), None, 0.3)
        } else {
            None
        }
    })
}

/// The known memory `text` is most about (`slot`: the choice it is about, if any), when its
/// similarity reaches `threshold`.
pub(super) fn best_match(
    known: &[Known],
    text: &str,
    slot: Option<&str>,
    memory_type: Option<MemoryType>,
    threshold: f64,
) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, k) in known.iter().enumerate() {
        if let (Some(want), Some(have)) = (memory_type, k.memory_type)
            && !compatible(want, have)
        {
            continue;
        }
        let mut score = similarity(text, &k.text);
        if slot.is_some() && slot == k.slot {
            score += 0.5;
        }
        if score >= threshold && best.is_none_or(|(_, s)| score > s) {
            best = Some((i, score));
        }
    }
    best.map(|(i, _)| i)
}

fn unique_name(known: &[Known], base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while known.iter().any(|k| k.name == name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// The topic file for a statement (§3): a description in the person's words, and for feedback
/// and project memories **Why:** and **How to apply:** lines when the person said why or when
/// (never a reason they did not give).
fn draft(name: &str, memory_type: MemoryType, text: &str, context: &str, date: NaiveDate) -> Draft {
    let statement = match memory_type {
        MemoryType::User => third_person(text),
        _ => text.to_string(),
    };
    let day = date.format("%Y-%m-%d");
    let context = (!context.is_empty()).then(|| format!("{}.", capitalise(context)));
    let mut body = format!("{statement}.\n");
    match memory_type {
        MemoryType::Feedback | MemoryType::Project => {
            // A reason, or what follows a rule, says why, unless it asks for something or is
            // the statement itself again ("Ok so v2.0 goes to review …" read as "so …").
            let said = text.to_lowercase();
            let why = reason(text).or(context).filter(|why| {
                let why = why.trim_end_matches(['.', '。']);
                let again = why.len() * 5 >= said.len() * 4 && said.ends_with(&why.to_lowercase());
                !ASKS.is_match(why) && !why.ends_with(['?', '？']) && !again
            });
            let how = when_to_apply(text).map(|w| format!("{}.", capitalise(w)));
            if why.is_some() || how.is_some() {
                body.push('\n');
            }
            if let Some(why) = why {
                body.push_str(&format!("**Why:** {why}\n"));
            }
            if let Some(how) = how {
                body.push_str(&format!("**How to apply:** {how}\n"));
            }
        }
        MemoryType::User => {
            if let Some(more) = context {
                body = format!("{statement}. {}\n", capitalise(&of_the_user(&more)));
            }
            body.push_str(&format!("\n(Said by the user on {day}.)\n"));
        }
        MemoryType::Reference => {
            if let Some(more) = context {
                body.push_str(&format!("\n{more}\n"));
            }
        }
    }
    Draft {
        name: name.to_string(),
        memory_type,
        description: describe(text),
        title: None,
        body,
    }
}

/// When the person said to apply a rule, in their words: the first "before …", "if …", "every
/// time …" clause that is a condition. Not the task at hand ("before you start"), not the
/// concession of an "even if" or "even when", and not a bare "every time (please)" that names
/// no occasion.
fn when_to_apply(text: &str) -> Option<&str> {
    WHEN.captures_iter(text)
        .filter_map(|c| c.name("when"))
        .filter(|w| {
            let word_before = text[..w.start()]
                .trim_end()
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '\''))
                .next();
            !word_before.is_some_and(|word| word.eq_ignore_ascii_case("even"))
        })
        .map(|w| {
            let mut clause = w.as_str().trim();
            while let Some((rest, last)) = clause.rsplit_once(char::is_whitespace)
                && ["please", "pls", "plz", "thanks", "thx"]
                    .contains(&last.trim_end_matches(['!', '.']).to_lowercase().as_str())
            {
                clause = rest.trim_end();
            }
            clause
        })
        .find(|w| !NOW_TIMING.is_match(w) && !BARE_OCCASION.is_match(w))
}

/// What separates clauses or marks a list item: never a description's first character, nor
/// (but `)`, which may close a parenthesis) its last.
const SEPARATORS: &str = "),;:-，、；：）";

/// The longest description: the index line must stay readable.
const MAX_DESCRIPTION: usize = 150;

/// A description in the person's words: the statement when it is short, else cut at its last
/// clause boundary (or word) that fits, never in a word and without a dangling "and"; no list
/// marker or line break.
fn describe(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    // A description never starts or ends with a separator.
    let text = text
        .trim_start_matches(|c: char| c.is_whitespace() || SEPARATORS.contains(c))
        .trim_end_matches(|c: char| c.is_whitespace() || SEPARATORS[1..].contains(c));
    // "Sorry: the board approved …" is described from "The board approved …".
    let text = match DESCRIPTION_LEAD_IN.find(text) {
        Some(lead) if text[lead.end()..].chars().count() >= 12 => capitalise(&text[lead.end()..]),
        _ => text.to_string(),
    };
    let text = text.as_str();
    if text.chars().count() <= MAX_DESCRIPTION {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_DESCRIPTION).collect();
    let clause = [", ", "; ", " — ", " - ", "，", "；"]
        .iter()
        .filter_map(|sep| head.rfind(sep))
        .max()
        .filter(|&at| at >= 40);
    let cut = clause.or_else(|| head.rfind(' ')).unwrap_or(head.len());
    let mut description = head[..cut].trim_end().to_string();
    loop {
        let trimmed = description
            .trim_end_matches(|c: char| c.is_whitespace() || SEPARATORS[1..].contains(c));
        let last = trimmed
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let dangling = matches!(
            last.as_str(),
            "and"
                | "or"
                | "but"
                | "so"
                | "because"
                | "the"
                | "a"
                | "an"
                | "to"
                | "of"
                | "in"
                | "for"
                | "with"
                | "on"
                | "that"
        );
        let new_len = if dangling {
            trimmed.len() - last.len()
        } else {
            trimmed.len()
        };
        if new_len == description.len() || new_len == 0 {
            break;
        }
        description.truncate(new_len);
    }
    description
}

fn reason(text: &str) -> Option<String> {
    let captures = WHY.captures(text)?;
    let why = captures
        .name("why")
        .or(captures.name("zh"))?
        .as_str()
        .trim();
    (why.chars().count() >= 6).then(|| {
        let mut why = capitalise(why);
        if !why.ends_with(['.', '。']) {
            why.push('.');
        }
        why
    })
}

/// "I'm a data engineer" → "The user is a data engineer".
fn third_person(text: &str) -> String {
    let replaced = if let Some(m) = FIRST_PERSON.find(text) {
        format!("The user is{}", &text[m.end()..])
    } else if let Some(m) = FIRST_PERSON_HAVE.find(text) {
        format!("The user has{}", &text[m.end()..])
    } else if let Some(m) = FIRST_PERSON_I.find(text) {
        format!("The user{}", &text[m.end()..])
    } else {
        return format!("The user said: {text}");
    };
    of_the_user(&replaced)
}

/// What the person said of themselves, said of the user: "my" is "their", and "I'm", "I", "me"
/// … after its start are "they're", "they", "them" …
fn of_the_user(text: &str) -> String {
    let text = MY.replace_all(text, "their");
    FIRST_PERSON_LATER
        .replace_all(&text, |c: &regex::Captures<'_>| {
            let forms = [
                ("am", "they're"),
                ("have", "they've"),
                ("would", "they'd"),
                ("will", "they'll"),
                ("was", "they were"),
                ("myself", "themselves"),
                ("me", "them"),
                ("i", "they"),
            ];
            let whole = c.get(0).map_or("", |m| m.as_str());
            forms
                .iter()
                .find_map(|(group, form)| {
                    let said = c.name(group)?;
                    Some(format!("{form}{}", &whole[said.len()..]))
                })
                .unwrap_or_else(|| whole.to_string())
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_memory_speaks_of_the_user_throughout() {
        for (said, kept) in [
            (
                "I have been writing COBOL for twenty-six years but I'm fairly new to Java, so explain it to me",
                "The user has been writing COBOL for twenty-six years but they're fairly new to Java, so explain it to them",
            ),
            (
                "i'm colorblind and i use a screen reader myself; my I/O board is an Arduino",
                "The user is colorblind and they use a screen reader themselves; their I/O board is an Arduino",
            ),
            (
                "I was on the data team, I'd rather not touch CSS",
                "The user was on the data team, they'd rather not touch CSS",
            ),
        ] {
            assert_eq!(third_person(said), kept);
        }
    }

    #[test]
    fn descriptions_are_whole_clauses_without_separators_at_their_ends() {
        assert_eq!(describe("，别用 float 算金额；"), "别用 float 算金额");
        assert_eq!(
            describe("Sorry: the architecture board moved all new services to .NET 8"),
            "The architecture board moved all new services to .NET 8"
        );
        assert_eq!(
            describe("For what it's worth, every change record lives in Cherwell"),
            "Every change record lives in Cherwell"
        );
        assert_eq!(describe("So, ok"), "So, ok", "nothing is left to describe");
        assert_eq!(
            describe(", so if a fix is urgent it must be merged before the 25th"),
            "If a fix is urgent it must be merged before the 25th"
        );
        assert_eq!(
            describe(", and the SOP lives in Confluence,"),
            "and the SOP lives in Confluence"
        );
        let long = "S&OP pushed the Q3 forecast deadline to July 24 because the promo calendar is late (again), so we actually have time to try the hierarchical model before then";
        assert_eq!(
            describe(long),
            "S&OP pushed the Q3 forecast deadline to July 24 because the promo calendar is late (again)"
        );
        let no_clause = "word ".repeat(40);
        let cut = describe(&no_clause);
        assert!(
            cut.len() <= MAX_DESCRIPTION && cut.ends_with("word"),
            "{cut}"
        );
    }
}
