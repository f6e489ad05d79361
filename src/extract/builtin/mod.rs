//! The `builtin` extractor (DESIGN §6): offline and deterministic. It reads only what the person
//! typed (never tool output, sub-agents or summaries) and keeps statements that carry a cue:
//!
//! - feedback: instructions about how to work ("from now on…", "always/never…", "don't … use …
//!   instead", "I prefer…", "以后…", "不要再…");
//! - user: who the person is ("I'm a data engineer", "I've written Go for ten years", "我是…");
//! - reference: where things live outside the code (a URL or a channel, with a word saying what
//!   it is: dashboard, docs, tracker, runbook…);
//! - project: decisions with their reasons, deadlines and freezes, owners, outside constraints.
//!
//! Questions, hypotheticals, one-off task instructions ("for now", "this time"), statements about
//! the code itself (derivable from it), anything holding a secret, and what only the assistant
//! proposed are dropped. A proposal the person confirms ("Should I always…?" — "yes") is kept.
//! A correction ("actually…", "we switched to…") or a restatement updates the memory it is about
//! instead of adding a second one; "forget…" removes it. Relative dates become absolute.

use std::collections::BTreeSet;

use crate::extract::transcript::Turn;
use crate::extract::{Action, Existing, Unsaved};
use crate::memory::dates;
use crate::memory::statement::{DECISION, FEEDBACK};
use crate::memory::taxonomy::MemoryType;

mod classifier;
mod cues;
mod drafts;
mod features;
mod gate;
pub mod model;
mod naming;
mod segmenter;

use classifier::{
    Statement, classify, in_rules_list, in_scoped_list, is_context, judge, learned_statement, rule,
};
use cues::{
    ANAPHOR, BACK_REFERENCE, CONTINUES, CORRECTED_VALUE, CORRECTION, FORGET, FORGET_ZH, LEAD_IN,
    ME, POINTS_BACK, REQUEST, RETRACTION, SCOPE_LEAD, TASK, is_git_history, slot_of,
};
use drafts::{Known, best_match, forget, record, swap_value};
pub use gate::{GATE_THRESHOLD, gate, gate_with};
use segmenter::{Sentence, Statements, capitalise, clause_tails, statements_of};

/// How the model and the cues decide together.
#[derive(Debug, Clone, Copy)]
pub struct Policy {
    /// Where the cues are silent, a sentence the model gives a type with at least this
    /// probability is a memory of that type.
    pub accept: f32,
    /// Where the cues found a memory, the model drops it when it is at least this sure the
    /// sentence is worth nothing (above 1: never).
    pub veto: f32,
    /// Where the cues found a memory of a type, the model must give that type at least this
    /// (0: the model need not agree).
    pub agree: f32,
}

/// The policy `memdir extract` uses: the builtin extractor is the precise fallback (DESIGN §6),
/// so the policy is the most precise one leave-one-writer-out cross-validation found on the
/// training sets (`examples/train_extractor.rs`; the blind sets never read): the model must be
/// 0.7 sure of a memory the cues did not find, and a memory the cues found goes when the model
/// is 0.3 sure the sentence is worth nothing or gives its type under 0.5. Precision 0.854,
/// recall 0.483 over the eighteen held-out writers, against 0.759 and 0.606 with the earlier
/// policy (accept 0.5, no veto); no policy tried reached 0.9 (nor cues that keep a rule only when
/// said as a rule: 0.82 at most).
pub const POLICY: Policy = Policy {
    accept: 0.7,
    veto: 0.3,
    agree: 0.5,
};

/// What the builtin extractor made of a range.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Extraction {
    /// Saves, updates and removals, in order.
    pub actions: Vec<Action>,
    /// Per turn, the memories its sentences saved, updated or removed (a later correction in
    /// the range may have rewritten them since).
    pub touched: Vec<Vec<String>>,
    /// Per turn, the strongest reason one of its sentences was not kept.
    pub unsaved: Vec<Option<Unsaved>>,
}

/// The memory an action is about.
fn action_name(action: &Action) -> &str {
    match action {
        Action::Save(draft) => &draft.name,
        Action::Delete { name } => name,
    }
}

/// Turn the person's prompts of a range into saves, updates and removals, with the model
/// compiled into memdir.
pub fn extract(turns: &[Turn], existing: &[Existing]) -> Extraction {
    extract_with(turns, existing, model::SHIPPED.as_ref(), POLICY)
}

/// [`extract`] with given weights (`None`: the cues alone) and policy: what training measures.
pub fn extract_with(
    turns: &[Turn],
    existing: &[Existing],
    weights: Option<&model::Weights>,
    policy: Policy,
) -> Extraction {
    let mut known: Vec<Known> = existing.iter().map(Known::of).collect();
    let mut actions: Vec<Action> = Vec::new();
    let mut touched = Vec::with_capacity(turns.len());
    let mut unsaved = Vec::with_capacity(turns.len());
    for turn in turns {
        let before = actions.clone();
        // "I'm a quant on the rates desk. I think in q/kdb": one person, one memory a turn.
        let mut about_them: Option<(String, String)> = None;
        let date = turn
            .timestamp
            .map_or_else(|| chrono::Utc::now().date_naive(), |t| t.date_naive());
        let Statements {
            sentences,
            holds_secret,
        } = statements_of(turn);
        // A line holding a secret is gone before the sentences are read: said here.
        let mut why = holds_secret.then_some(Unsaved::Secret);
        let verdicts: Vec<Option<[f32; 5]>> = (0..sentences.len())
            .map(|i| weights.map(|w| w.probabilities(&features::features(&sentences, i))))
            .collect();
        let mut used = vec![false; sentences.len()];
        // "That note is stale." makes what follows in the prompt a correction.
        let mut correcting = false;
        for (
            i,
            Sentence {
                text: sentence,
                asked,
                line,
            },
        ) in sentences.iter().enumerate()
        {
            // Nothing of a sentence that holds a secret is kept, not even a clause of it.
            if used[i] {
                continue;
            }
            if crate::secrets::find(sentence).is_some() {
                why = why.max(Some(Unsaved::Secret));
                continue;
            }
            if is_git_history(sentence) {
                why = why.max(Some(Unsaved::Derivable));
                continue;
            }
            let forget_rest = |text: &str| {
                FORGET
                    .find(text)
                    .map(|m| text[m.end()..].to_string())
                    .or_else(|| {
                        FORGET_ZH
                            .is_match(text)
                            .then(|| FORGET_ZH.replace(text, " ").into_owned())
                    })
            };
            // "Forget that note": what the prompt and the reply before it were about.
            let about = || {
                let mut about: Vec<&str> = sentences.iter().map(|s| s.text.as_str()).collect();
                about.push(&turn.previous_reply);
                about.join(" ")
            };
            if let Some(rest) = forget_rest(sentence) {
                forget(&mut known, &mut actions, &rest, &about());
                continue;
            }
            let scoped_line = sentences[..=i]
                .iter()
                .any(|s| s.line == *line && SCOPE_LEAD.is_match(&s.text));
            if scoped_line || in_scoped_list(&sentences, i) && FEEDBACK.is_match(sentence) {
                // "few things for today: - don't touch X": today's task, not a rule.
                why = why.max(Some(Unsaved::OneOff));
                continue;
            }
            // "scratch what I said about the board — we moved …": a correction of what follows.
            let (sentence, retracting) = match RETRACTION.find(sentence) {
                Some(m) if m.end() < sentence.len() => (&sentence[m.end()..], true),
                _ => (sentence.as_str(), false),
            };
            correcting |= retracting;
            let rules_item = in_rules_list(&sentences, i);
            let cued = rules_item
                .then(|| rule(sentence))
                .flatten()
                .or_else(|| classify(sentence, *asked).filter(|_| !rules_item))
                .or_else(|| {
                    // A statement mid-sentence: "…, so context: I mostly do infra, …".
                    clause_tails(sentence).find_map(|tail| classify(tail, *asked))
                });
            let verdict = verdicts[i];
            let cued = cued.filter(|statement| {
                verdict.is_none_or(|p| {
                    p[0] < policy.veto
                        && model::CLASSES
                            .iter()
                            .position(|c| *c == Some(statement.memory_type))
                            .is_none_or(|class| p[class] >= policy.agree)
                })
            });
            // Where the cues are silent, the model decides.
            let learned = || {
                let p = verdict?;
                let (best, &probability) = p
                    .iter()
                    .enumerate()
                    .skip(1)
                    .max_by(|a, b| a.1.total_cmp(b.1))?;
                let memory_type = model::CLASSES[best]?;
                (probability >= policy.accept && best_is_not_forget(sentence))
                    .then(|| learned_statement(sentence, memory_type))
                    .flatten()
            };
            let statement = match cued {
                Some(statement) => Some(statement),
                None => {
                    if swap_value(&mut known, &mut actions, existing, sentence) {
                        continue;
                    }
                    if let Some(rest) = clause_tails(sentence).find_map(forget_rest) {
                        forget(&mut known, &mut actions, &rest, &about());
                        continue;
                    }
                    if CORRECTED_VALUE.is_match(sentence)
                        && let Some(target) =
                            best_match(&known, sentence, slot_of(sentence), None, 0.3)
                    {
                        // "for credit-limit the bar is 0.88, not 0.85": a new value for a memory.
                        let statement = Statement {
                            memory_type: known[target].memory_type.unwrap_or(MemoryType::Project),
                            text: capitalise(sentence.trim_end_matches(['.', '。'])),
                            correction: true,
                        };
                        let text = dates::absolutize(&statement.text, date);
                        record(&mut known, &mut actions, statement, text, "", date);
                        continue;
                    }
                    learned()
                }
            };
            let Some(mut statement) = statement else {
                correcting |= CORRECTION.is_match(sentence);
                why = why.max(judge(sentence, *asked).err());
                continue;
            };
            statement.correction |= correcting;
            // "That note is stale: we moved triage to Linear. Bugs go to …": what follows a
            // correction corrects too.
            correcting |= statement.correction;
            used[i] = true;
            // "I'm the only tech writer here, so: we never write 'simply'": two memories.
            if let Some((at, other)) = clause_tails(sentence).find_map(|tail| {
                if statement.memory_type != MemoryType::User || BACK_REFERENCE.is_match(tail) {
                    return None;
                }
                let other = classify(tail, *asked)?;
                let at = statement.text.find(tail)?;
                let kept = matches!(
                    other.memory_type,
                    MemoryType::Feedback | MemoryType::Reference
                );
                (kept && at > 0).then_some((at, other))
            }) {
                statement.text = statement.text[..at]
                    .trim_end_matches([',', ':', ';', ' ', '—', '–', '-', '，', '：'])
                    .to_string();
                let text = dates::absolutize(&other.text, date);
                record(&mut known, &mut actions, other, text, "", date);
            }
            // "We picked it on purpose: …" is about the sentence before it.
            if ANAPHOR.is_match(sentence)
                || statement.memory_type == MemoryType::Feedback && POINTS_BACK.is_match(sentence)
            {
                let mut before = Vec::new();
                for j in (i.saturating_sub(2)..i).rev() {
                    let previous = &sentences[j].text;
                    if used[j] || !(is_context(previous) || REQUEST.is_match(previous)) {
                        break;
                    }
                    used[j] = true;
                    let previous = REQUEST.replace(previous, "");
                    let previous = LEAD_IN.replace(&previous, "");
                    before.insert(0, capitalise(previous.trim().trim_end_matches(['?', '？'])));
                }
                if !before.is_empty() {
                    statement.text = format!("{}. {}", before.join(". "), statement.text);
                }
            }
            // The sentences after a statement that explain it are its reason.
            let mut context = Vec::new();
            for j in i + 1..sentences.len() {
                let next = &sentences[j].text;
                let continues = CONTINUES.is_match(next)
                    || classify(next, sentences[j].asked).is_none_or(|other| {
                        other.memory_type == statement.memory_type
                            && (
                                // A second project fact right after the first explains it.
                                other.memory_type == MemoryType::Project && !DECISION.is_match(next)
                                // "…semicolons. please never add them": the same rule again.
                                || BACK_REFERENCE.is_match(next)
                            )
                    });
                // What the person says of themselves goes on about them, not the task.
                let about_them = statement.memory_type != MemoryType::User || ME.is_match(next);
                // Who the person is goes on over the prompt's next lines ("i'm a network eng.
                // mostly junos. i know python but not netmiko"), while it is about them and
                // asks for nothing.
                let more_about_them = statement.memory_type == MemoryType::User
                    && about_them
                    && !next.ends_with(['?', '？'])
                    && !TASK.is_match(next)
                    && !FEEDBACK.is_match(next);
                if context.len() == 2
                    || !more_about_them
                        && (sentences[j].line != *line || !is_context(next) || !continues)
                    || !about_them
                {
                    break;
                }
                used[j] = true;
                context.push(next.trim_end_matches(['.', '。']).to_string());
            }
            let mut text = dates::absolutize(&statement.text, date);
            let context = dates::absolutize(&context.join(". "), date);
            let user = statement.memory_type == MemoryType::User;
            if user && let Some((name, earlier)) = about_them.take() {
                actions.retain(|a| action_name(a) != name);
                known.retain(|k| k.name != name);
                text = format!("{earlier}. {text}");
            }
            record(
                &mut known,
                &mut actions,
                statement,
                text.clone(),
                &context,
                date,
            );
            if user
                && let Some(Action::Save(draft)) = actions.last()
                && !existing.iter().any(|m| m.name == draft.name)
            {
                about_them = Some((draft.name.clone(), text));
            }
        }
        touched.push(
            actions
                .iter()
                .filter(|a| !before.contains(a))
                .map(|a| action_name(a).to_string())
                .collect(),
        );
        unsaved.push(why);
    }
    // A memory saved and then removed in the same range never needs saving.
    let deleted: BTreeSet<String> = actions
        .iter()
        .filter_map(|a| match a {
            Action::Delete { name } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let existed: BTreeSet<&str> = existing.iter().map(|m| m.name.as_str()).collect();
    actions.retain(|a| match a {
        Action::Delete { name } => existed.contains(name.as_str()),
        Action::Save(d) => !deleted.contains(&d.name) || existed.contains(d.name.as_str()),
    });
    Extraction {
        actions,
        touched,
        unsaved,
    }
}

/// Whether a sentence corrects something said before ("actually…", "no longer…", "moved to…",
/// "48 kHz, not 44.1", "scratch that —"): what tells an update that corrects a memory from a
/// different fact said near it (`extract::apply`).
pub(crate) fn is_correction(sentence: &str) -> bool {
    CORRECTION.is_match(sentence)
        || CORRECTED_VALUE.is_match(sentence)
        || RETRACTION.is_match(sentence)
}

/// A new memory's name made of a statement's own words (`naming`).
pub(crate) fn name_for(text: &str, memory_type: MemoryType) -> String {
    naming::name_for(text, None, memory_type)
}

/// A "forget …" sentence is never a memory of its own.
fn best_is_not_forget(sentence: &str) -> bool {
    !FORGET.is_match(sentence) && !FORGET_ZH.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(prompt: &str, previous: &str) -> Turn {
        Turn {
            previous_reply: previous.into(),
            prompt: prompt.into(),
            timestamp: chrono::DateTime::parse_from_rfc3339("2026-03-05T10:00:00Z")
                .ok()
                .map(|t| t.with_timezone(&chrono::Utc)),
            end: 0,
        }
    }

    /// What the cues make of a range, the learned model aside: the drafts, names, corrections
    /// and accounting these tests are about. The shipped policy lets the model drop some of
    /// these plain rules (precision first, DESIGN §6); what it keeps is measured on the
    /// labelled sets (`tests/cli/quality.rs`).
    fn cues(turns: &[Turn], existing: &[Existing]) -> Extraction {
        extract_with(turns, existing, None, POLICY)
    }

    fn saves(actions: &[Action]) -> Vec<(MemoryType, String)> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Save(d) => Some((d.memory_type, d.body.clone())),
                Action::Delete { .. } => None,
            })
            .collect()
    }

    #[test]
    fn the_four_types() {
        let turns = [
            turn(
                "From now on, use pnpm instead of npm because the lockfile is pnpm's.",
                "",
            ),
            turn("I'm a data engineer and new to Rust.", ""),
            turn(
                "The on-call dashboard is https://grafana.example.com/d/payments",
                "",
            ),
            turn(
                "We decided to drop Python 3.8 support because of the audit.",
                "",
            ),
        ];
        let got = saves(&extract(&turns, &[]).actions);
        let types: Vec<_> = got.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            types,
            [
                MemoryType::Feedback,
                MemoryType::User,
                MemoryType::Reference,
                MemoryType::Project
            ]
        );
        assert!(
            got[0].1.contains("**Why:** The lockfile is pnpm's."),
            "{}",
            got[0].1
        );
        // The person said why, not when: no **How to apply:** made up for them.
        assert!(!got[0].1.contains("**How to apply:**"), "{}", got[0].1);
        assert!(got[1].1.starts_with("The user is a data engineer"));
    }

    #[test]
    fn a_value_corrected_in_the_session_is_saved_corrected() {
        let turns = [
            turn(
                "Remember that the distributor's ingestion spec requires 44.1 kHz, 16-bit WAV for every stem.",
                "",
            ),
            turn("Sorry — 48 kHz, not 44.1 kHz.", ""),
        ];
        let saved = saves(&extract(&turns, &[]).actions);
        assert_eq!(saved.len(), 1, "{saved:?}");
        assert!(
            saved[0].1.contains("48 kHz") && !saved[0].1.contains("44.1"),
            "{saved:?}"
        );
        // And a memory already saved: "Preeti not Priya".
        let existing = [Existing {
            name: "hl7-security-review".into(),
            memory_type: Some(MemoryType::Project),
            description: "Priya reviews anything touching the HL7 parser".into(),
            body: "Priya owns security review of the HL7 parser.\n".into(),
        }];
        let actions = extract(
            &[turn("sorry autocorrect, Preeti not Priya", "")],
            &existing,
        )
        .actions;
        assert_eq!(actions.len(), 1, "{actions:?}");
        let Action::Save(draft) = &actions[0] else {
            panic!("{actions:?}");
        };
        assert_eq!(draft.name, "hl7-security-review");
        assert_eq!(
            draft.description,
            "Preeti reviews anything touching the HL7 parser"
        );
        assert!(!draft.body.contains("Priya"), "{}", draft.body);
    }

    /// **How to apply:** is when the person said to do it, in their words, and nothing more.
    #[test]
    fn how_to_apply_is_what_the_person_said() {
        let got = saves(
            &extract(
                &[turn(
                    "From now on, always run the linter before each commit.",
                    "",
                )],
                &[],
            )
            .actions,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0]
                .1
                .ends_with("**How to apply:** Before each commit.\n"),
            "{}",
            got[0].1
        );
        // When to do the task at hand is no way to apply a rule.
        let got = saves(
            &extract(
                &[turn(
                    "New services target .NET 8 from now on, so please change it before you go further.",
                    "",
                )],
                &[],
            )
            .actions,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(!got[0].1.contains("**How to apply:**"), "{}", got[0].1);
    }

    /// **How to apply:** is a condition the person set: not the concession of an "even if",
    /// not a bare "every time please".
    #[test]
    fn how_to_apply_is_a_condition() {
        for (said, how) in [
            (
                "Never touch anything under src/legacy, even when the bug smells like it's in there.",
                None,
            ),
            (
                "Always run flutter pub get and analyze every time please.",
                None,
            ),
            (
                "Even if the change looks small, always run the linter before each commit.",
                Some("Before each commit."),
            ),
            (
                "Always rebase on main when a PR is older than a day, please.",
                Some("When a PR is older than a day."),
            ),
            // Not a word "even" before it (and no byte of a wide character taken for one).
            (
                "Always run make lint（重要）before each commit.",
                Some("Before each commit."),
            ),
        ] {
            let got = saves(&cues(&[turn(said, "")], &[]).actions);
            assert_eq!(got.len(), 1, "{said}: {got:?}");
            let line = got[0]
                .1
                .lines()
                .find_map(|l| l.strip_prefix("**How to apply:** "));
            assert_eq!(line, how, "{said}: {}", got[0].1);
        }
    }

    /// **Why:** is a reason the person gave, never a request that follows the rule.
    #[test]
    fn a_request_after_a_rule_is_no_reason_for_it() {
        let got = saves(
            &extract(
                &[turn(
                    "From now on, never use Lombok in the DTOs. Please rewrite this one by hand.",
                    "",
                )],
                &[],
            )
            .actions,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(!got[0].1.contains("**Why:**"), "{}", got[0].1);
        // Nor the statement itself again.
        let got = saves(
            &extract(
                &[turn(
                    "So from now on keep commits small and tidy, one thing per commit.",
                    "",
                )],
                &[],
            )
            .actions,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(!got[0].1.contains("**Why:**"), "{}", got[0].1);
    }

    /// Git history told in a prompt (a commit by its hash and what was done with it) is
    /// derivable: nothing of it is saved, in English or Chinese, reasons and all; a rule about
    /// reverting, with no commit named, still is.
    #[test]
    fn git_history_is_never_a_memory() {
        for prompt in [
            "Short history so you understand: in December my supervisor merged his branch, then Kasia reverted it in commit 4e1a9c0 because the references were in wrong order.",
            "背景是这样的：这段重试后来上线出了重复扣款又被 revert 了，三月份 commit 7c1e9a2 又加回来了，补了个幂等键",
        ] {
            let extraction = extract(&[turn(prompt, "")], &[]);
            assert!(saves(&extraction.actions).is_empty(), "{prompt}");
            assert_eq!(extraction.unsaved, [Some(Unsaved::Derivable)], "{prompt}");
        }
        let rule = extract(
            &[turn(
                "From now on, never revert a merge commit on main; fix forward.",
                "",
            )],
            &[],
        );
        assert_eq!(saves(&rule.actions).len(), 1);
    }

    /// A prohibition said beside a choice is a memory of its own, named with its negation; the
    /// choice is not overwritten by it.
    #[test]
    fn a_prohibition_beside_a_choice_keeps_both() {
        let turns = [
            turn(
                "From now on, we use yarn here (classic, v1) for every package.",
                "",
            ),
            turn("Never npm in this repo, it makes a package-lock.", ""),
        ];
        let saved: Vec<(String, String)> = extract(&turns, &[])
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::Save(d) => Some((d.name.clone(), d.description.clone())),
                Action::Delete { .. } => None,
            })
            .collect();
        assert_eq!(saved.len(), 2, "{saved:?}");
        assert!(saved[0].1.contains("yarn"), "{saved:?}");
        assert!(saved[1].0.starts_with("never-npm"), "{saved:?}");
    }

    #[test]
    fn every_turn_says_what_it_kept_or_why_nothing() {
        let turns = [
            turn("Should we always use tabs?", ""),
            turn("what if we never deployed on Fridays", ""),
            turn(
                "Remember my key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345",
                "",
            ),
            turn("The parser lives in src/parse.rs and calls lexer.rs.", ""),
            turn("Fix the failing test in src/parse.rs for now.", ""),
            turn("Never force-push to main.", ""),
        ];
        let extraction = cues(&turns, &[]);
        assert_eq!(
            extraction.unsaved,
            [
                Some(Unsaved::Question),
                Some(Unsaved::Hypothetical),
                Some(Unsaved::Secret),
                Some(Unsaved::Derivable),
                Some(Unsaved::OneOff),
                None
            ]
        );
        let touched: Vec<usize> = extraction.touched.iter().map(Vec::len).collect();
        assert_eq!(touched, [0, 0, 0, 0, 0, 1]);
        assert_eq!(extraction.touched[5], ["never-force-push-main"]);
    }

    #[test]
    fn asides_and_requests_not_to_remember_are_no_memories() {
        let turns = [
            turn("the old pipeline was a mess, don't ask", ""),
            turn("don't judge", ""),
            turn(
                "don't save anything about currency, I'll sort that out with finance first",
                "",
            ),
            turn("别记这个，我还没定", ""),
        ];
        assert_eq!(extract(&turns, &[]).actions, []);
    }

    #[test]
    fn questions_tasks_and_code_facts_are_not_memories() {
        let turns = [
            turn("Should we always use tabs?", ""),
            turn("Fix the failing test in src/parse.rs for now.", ""),
            turn("The parser lives in src/parse.rs and calls lexer.rs.", ""),
            turn("what if we never deployed on Fridays", ""),
            turn(
                "Remember my key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345",
                "",
            ),
        ];
        assert_eq!(extract(&turns, &[]).actions, []);
    }

    #[test]
    fn corrections_update_and_forget_removes() {
        let turns = [
            turn("Remember that we use npm for this repo.", ""),
            turn("Actually, we switched to pnpm last month.", ""),
        ];
        let actions = cues(&turns, &[]).actions;
        assert_eq!(actions.len(), 1, "{actions:?}");
        let Action::Save(d) = &actions[0] else {
            panic!("expected a save: {actions:?}")
        };
        assert!(
            d.body.contains("pnpm") && !d.body.contains(" npm "),
            "{}",
            d.body
        );
        let existing = [Existing {
            name: d.name.clone(),
            memory_type: Some(d.memory_type),
            description: d.description.clone(),
            body: d.body.clone(),
        }];
        let forget = extract(
            &[turn("Please forget what I said about pnpm.", "")],
            &existing,
        )
        .actions;
        assert_eq!(
            forget,
            [Action::Delete {
                name: d.name.clone()
            }]
        );
    }

    #[test]
    fn a_confirmed_proposal_is_kept_an_unconfirmed_one_is_not() {
        let asked = "Done. Should I always run the linter before committing?";
        assert_eq!(
            saves(&cues(&[turn("yes please", asked)], &[]).actions).len(),
            1
        );
        assert_eq!(cues(&[turn("no, just this once", asked)], &[]).actions, []);
        assert_eq!(
            cues(&[turn("now fix the login page", asked)], &[]).actions,
            []
        );
    }

    #[test]
    fn chinese_and_dates() {
        let got = saves(
            &extract(
                &[
                    turn("以后提交前都要先跑 cargo fmt。", ""),
                    turn("我们下周五冻结代码，因为要发版。", ""),
                    turn("我是后端工程师，前端不太熟。", ""),
                ],
                &[],
            )
            .actions,
        );
        let types: Vec<_> = got.iter().map(|(t, _)| *t).collect();
        assert_eq!(
            types,
            [MemoryType::Feedback, MemoryType::Project, MemoryType::User]
        );
        assert!(got[1].1.contains("2026-03-13"), "{}", got[1].1);
    }
}
