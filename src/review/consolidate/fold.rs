//! The index kept well under Claude Code's load limits (DESIGN §3, §7): once `MEMORY.md` passes
//! 80 % of either limit (200 lines, 25,000 characters; memdir's write-time warning), every
//! entry's hook is shortened to a clause, and, while it is still over 60 %, small memories
//! (topic files under 2 KB) are folded into one memory per group (the same type and the same
//! first word of their names, `steam-depot-…`; then the same type), each folded memory under
//! 4 KB, holding every member's title, description and body whole. Nothing is cut from a topic
//! file; a folded memory's text is its members' texts, and its index line names them.

use std::collections::BTreeMap;

use crate::memory::index::IndexLine;
use crate::memory::load::{MAX_INDEX_LINES, MAX_INDEX_UNITS, measure_index};
use crate::memory::taxonomy::MemoryType;
use crate::memory::topic::TopicFile;

/// Past this share of either limit the index is made smaller (memdir's warning at 80 %),
const ACT_PERCENT: usize = 80;
/// down to this share.
const TARGET_PERCENT: usize = 60;
/// An entry's hook, once shortened, is at most this many characters.
const SHORT_HOOK: usize = 80;
/// Memories at most this big are folded,
const SMALL_TOPIC_BYTES: usize = 2048;
/// into memories at most this big.
const FOLDED_TOPIC_BYTES: usize = 4096;

fn within(index: &str, percent: usize) -> bool {
    let size = measure_index(index);
    size.lines * 100 <= MAX_INDEX_LINES * percent && size.units * 100 <= MAX_INDEX_UNITS * percent
}

/// Whether the index needs making smaller.
pub fn over(index: &str) -> bool {
    !within(index, ACT_PERCENT)
}

/// One memory made of several small ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded {
    pub name: String,
    pub members: Vec<String>,
}

/// What fitting the index did: its new text, the topic files written (name and text) and
/// removed, the entries whose hook was shortened, and the memories folded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fitted {
    pub index: String,
    pub written: Vec<(String, String)>,
    pub removed: Vec<String>,
    pub shortened: Vec<String>,
    pub folded: Vec<Folded>,
}

/// A memory as folding sees it.
struct Small {
    name: String,
    /// Its index line's length in UTF-16 units, with its line end.
    line_units: usize,
    title: String,
    memory_type: MemoryType,
    description: String,
    body: String,
    size: usize,
}

/// `s` cut to `max` characters at a clause or word, with `…`.
fn shorten_hook(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max - 1).collect();
    let cut = head
        .rfind(['.', ';', '—', ','])
        .filter(|&i| head[..i].chars().count() > max / 2)
        .or_else(|| {
            head.rfind(' ')
                .filter(|&i| head[..i].chars().count() > max / 2)
        })
        .unwrap_or(head.len());
    format!("{}…", head[..cut].trim_end())
}

/// The first word of a memory's name, its group when folding.
fn stem_of(name: &str) -> &str {
    name.split('-').next().unwrap_or(name)
}

/// A name for a folded memory not taken in `files` (`steam-notes`, `steam-notes-2`, …).
fn free_name(base: &str, files: &BTreeMap<String, String>) -> String {
    let taken = |n: &str| files.contains_key(n);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|i| format!("{base}-{i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// Make the index fit: `files` maps each memory's name to its topic file's text. `None` when
/// the index is within 80 % of both limits already.
pub fn fit(index: &str, files: &BTreeMap<String, String>) -> Option<Fitted> {
    if !over(index) {
        return None;
    }
    let mut fitted = Fitted::default();
    let mut lines: Vec<String> = index.lines().map(str::to_string).collect();
    for line in &mut lines {
        let Some(mut entry) = IndexLine::parse(line) else {
            continue;
        };
        let Some(hook) = &entry.hook else {
            continue;
        };
        let short = shorten_hook(hook, SHORT_HOOK);
        if short != *hook {
            fitted
                .shortened
                .push(entry.file_name().trim_end_matches(".md").to_string());
            entry.hook = Some(short);
            *line = entry.render();
        }
    }
    let mut files = files.clone();
    // The index's size as folds change it: lines, and UTF-16 units with the line ends.
    let size = measure_index(&lines.join("\n"));
    let (mut line_count, mut units) = (size.lines, size.units);
    let fits = |lines: usize, units: usize| {
        lines * 100 <= MAX_INDEX_LINES * TARGET_PERCENT
            && units * 100 <= MAX_INDEX_UNITS * TARGET_PERCENT
    };
    // By type and first word of the name, then by type alone.
    for by_stem in [true, false] {
        if fits(line_count, units) {
            break;
        }
        let mut groups: BTreeMap<(String, String), Vec<Small>> = BTreeMap::new();
        for line in &lines {
            let Some(entry) = IndexLine::parse(line) else {
                continue;
            };
            let name = entry.file_name().trim_end_matches(".md").to_string();
            let Some(text) = files.get(&name) else {
                continue;
            };
            let Ok(topic) = TopicFile::parse(text) else {
                continue;
            };
            let Some(memory_type) = topic
                .memory_type
                .filter(|_| text.len() <= SMALL_TOPIC_BYTES)
            else {
                continue;
            };
            let key = (
                memory_type.as_str().to_string(),
                if by_stem {
                    stem_of(&name).to_string()
                } else {
                    String::new()
                },
            );
            groups.entry(key).or_default().push(Small {
                line_units: line.encode_utf16().count() + 1,
                title: entry.title.clone(),
                description: topic.description.clone().unwrap_or_default(),
                body: topic.body.trim().to_string(),
                size: text.len(),
                memory_type,
                name,
            });
        }
        // Each member's file, and the line that replaces its first member's (the others go).
        let mut replaced: BTreeMap<String, Option<String>> = BTreeMap::new();
        'groups: for ((type_name, stem), members) in groups {
            if members.len() < 2 {
                continue;
            }
            for chunk in chunks(members) {
                if fits(line_count, units) {
                    break 'groups;
                }
                let base = if stem.is_empty() {
                    format!("{type_name}-notes")
                } else {
                    format!("{stem}-notes")
                };
                let name = free_name(&base, &files);
                let (line, text) = folded_memory(&name, &chunk);
                let rendered = line.render();
                line_count -= chunk.len() - 1;
                units = units + rendered.encode_utf16().count() + 1
                    - chunk.iter().map(|m| m.line_units).sum::<usize>();
                let names: Vec<String> = chunk.iter().map(|m| m.name.clone()).collect();
                for (k, n) in names.iter().enumerate() {
                    replaced.insert(format!("{n}.md"), (k == 0).then(|| rendered.clone()));
                    files.remove(n);
                    fitted.removed.push(n.clone());
                }
                files.insert(name.clone(), text.clone());
                fitted.written.push((name.clone(), text));
                fitted.folded.push(Folded {
                    name,
                    members: names,
                });
            }
        }
        lines.retain_mut(|l| {
            let Some(entry) = IndexLine::parse(l) else {
                return true;
            };
            match replaced.get(entry.file_name()) {
                None => true,
                Some(None) => false,
                Some(Some(line)) => {
                    *l = line.clone();
                    true
                }
            }
        });
    }
    let mut text = lines.join("\n");
    text.push('\n');
    fitted.index = text;
    fitted.shortened.retain(|n| !fitted.removed.contains(n));
    Some(fitted)
}

/// Members in groups of at least two whose texts together stay under [`FOLDED_TOPIC_BYTES`].
fn chunks(members: Vec<Small>) -> Vec<Vec<Small>> {
    let mut out: Vec<Vec<Small>> = Vec::new();
    let mut size = 0;
    for member in members {
        match out.last_mut() {
            Some(last) if size + member.size <= FOLDED_TOPIC_BYTES => {
                size += member.size;
                last.push(member);
            }
            _ => {
                size = member.size;
                out.push(vec![member]);
            }
        }
    }
    out.retain(|c| c.len() >= 2);
    out
}

/// The folded memory's index line and topic file: each member under its title, with its
/// description and body.
fn folded_memory(name: &str, members: &[Small]) -> (IndexLine, String) {
    let titles: Vec<&str> = members.iter().map(|m| m.title.as_str()).collect();
    let description = shorten_hook(&titles.join("; "), SHORT_HOOK);
    let mut body = String::new();
    for m in members {
        body.push_str(&format!("## {}\n\n", m.title));
        if !m.description.is_empty() && !m.body.contains(&m.description) {
            body.push_str(&m.description);
            body.push_str("\n\n");
        }
        body.push_str(&m.body);
        body.push_str("\n\n");
    }
    let memory_type = members
        .first()
        .map_or(MemoryType::Project, |m| m.memory_type);
    let topic = TopicFile::new(name, &description, memory_type, &body);
    let title = crate::memory::store::title_from_name(name);
    let line = IndexLine {
        title,
        file: format!("{name}.md"),
        hook: Some(description),
    };
    (line, topic.render())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(n: usize) -> (String, BTreeMap<String, String>) {
        let mut index = String::new();
        let mut files = BTreeMap::new();
        for i in 0..n {
            let name = format!("component-c{i}");
            let description = format!(
                "Component c{i} talks to service s{i} over gRPC; its owner is team t{i}, and it is deployed from the main branch nightly"
            );
            index.push_str(&format!("- [Component c{i}]({name}.md) — {description}\n"));
            files.insert(
                name.clone(),
                TopicFile::new(
                    &name,
                    &description,
                    MemoryType::Project,
                    &format!("Component c{i} talks to service s{i}."),
                )
                .render(),
            );
        }
        (index, files)
    }

    #[test]
    fn an_index_over_its_limits_is_brought_well_under_them_and_nothing_is_lost() {
        let (index, files) = store(300);
        assert!(over(&index));
        let fitted = fit(&index, &files).expect("over the limits");
        let size = measure_index(&fitted.index);
        assert!(size.lines <= 120 && size.units <= 15_000, "{size:?}");
        // Only as many folded as it takes; every memory's text is in a file still.
        assert!(fitted.removed.len() < 300, "{}", fitted.removed.len());
        let all: String = files
            .iter()
            .filter(|(name, _)| !fitted.removed.contains(name))
            .map(|(_, t)| t.as_str())
            .chain(fitted.written.iter().map(|(_, t)| t.as_str()))
            .collect();
        for i in 0..300 {
            assert!(
                all.contains(&format!("Component c{i} talks to service s{i}.")),
                "{i}"
            );
        }
        for (_, text) in &fitted.written {
            assert!(text.len() <= 4096 + 512, "{}", text.len());
            TopicFile::parse(text).expect("a folded memory reads back");
        }
    }

    #[test]
    fn an_index_within_its_limits_is_left_alone() {
        let (index, files) = store(100);
        assert_eq!(fit(&index, &files), None);
    }
}
