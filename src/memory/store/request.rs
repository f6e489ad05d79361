//! A save or update as a user or an agent asks for it, checked before anything is read,
//! locked or written: the name, one-line fields, the caps, and the secrets in every field.

use crate::input::MAX_BODY_BYTES;
use crate::memory::index::IndexLine;
use crate::memory::taxonomy::{MemoryType, validate_name};
use crate::memory::topic::TopicFile;

use super::*;

/// A description is one line that says what the memory is (the index line shows its start).
pub const MAX_DESCRIPTION_CHARS: usize = 1000;
/// An index line's title.
pub const MAX_TITLE_CHARS: usize = 200;

/// A save or update as a user or an agent asks for it.
#[derive(Debug, Clone)]
pub struct SaveRequest<'a> {
    pub name: &'a str,
    pub memory_type: MemoryType,
    pub description: &'a str,
    pub title: Option<&'a str>,
    pub body: &'a str,
    pub session: Option<&'a str>,
}

impl SaveRequest<'_> {
    /// Every check that needs no file: bad input changes nothing.
    pub fn validate(&self) -> Result<(), StoreError> {
        validate_name(self.name)?;
        if self.description.contains(['\n', '\r']) {
            return Err(StoreError::InvalidInput(
                "the description holds a newline; it must be one line".into(),
            ));
        }
        if self.description.chars().any(char::is_control)
            || self.title.is_some_and(|t| t.chars().any(char::is_control))
        {
            return Err(StoreError::InvalidInput(
                "the description and title must not hold control characters".into(),
            ));
        }
        if self.description.trim().is_empty() {
            return Err(StoreError::InvalidInput("the description is empty".into()));
        }
        let too_long = |what: &str, len: usize, cap: usize| {
            StoreError::InvalidInput(format!(
                "the {what} is {len} characters; at most {cap} (the rest belongs in the body)"
            ))
        };
        let description_len = self.description.chars().count();
        if description_len > MAX_DESCRIPTION_CHARS {
            return Err(too_long(
                "description",
                description_len,
                MAX_DESCRIPTION_CHARS,
            ));
        }
        if let Some(title) = self.title
            && title.chars().count() > MAX_TITLE_CHARS
        {
            return Err(too_long("title", title.chars().count(), MAX_TITLE_CHARS));
        }
        if self.body.len() as u64 > MAX_BODY_BYTES {
            return Err(StoreError::Input(crate::input::InputError::TooLarge {
                what: format!("the body ({} bytes)", self.body.len()),
                cap: MAX_BODY_BYTES,
            }));
        }
        if self.body.trim().is_empty() {
            return Err(StoreError::InvalidInput("the body is empty".into()));
        }
        if let Some(title) = self.title
            && title.trim().is_empty()
        {
            return Err(StoreError::InvalidInput("the title is empty".into()));
        }
        IndexLine::for_memory(
            &self.title(),
            &format!("{}.md", self.name),
            self.description,
        )?;
        Ok(())
    }

    /// Every field this save writes somewhere (the file name, the index line, the frontmatter,
    /// the body), by name.
    pub(super) fn written_fields(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("name", Some(self.name)),
            ("title", self.title),
            ("description", Some(self.description)),
            ("body", Some(self.body)),
        ]
        .into_iter()
        .filter_map(|(field, text)| Some((field, text?)))
    }

    /// Every secret in a field this save writes, as people read it: `a GitHub token in the
    /// title (ghp_****)`, `… on line 3 of the body (…)`. Never the value itself.
    pub fn secret_findings(&self) -> Vec<String> {
        self.secret_findings_not_in("")
    }

    /// [`SaveRequest::secret_findings`] but the secrets `before` holds already (the memory as
    /// it was: an edit that keeps a secret is not the one that adds it).
    pub fn secret_findings_not_in(&self, before: &str) -> Vec<String> {
        let known: Vec<(&str, String)> = crate::secrets::scan(before)
            .into_iter()
            .map(|f| (f.kind, f.excerpt))
            .collect();
        let mut found = Vec::new();
        for (field, text) in self.written_fields() {
            for finding in crate::secrets::scan(text) {
                if known.contains(&(finding.kind, finding.excerpt.clone())) {
                    continue;
                }
                found.push(if field == "body" {
                    format!(
                        "{} on line {} of the body ({})",
                        finding.kind, finding.line, finding.excerpt
                    )
                } else {
                    format!("{} in the {field} ({})", finding.kind, finding.excerpt)
                });
            }
        }
        found
    }

    /// The first kind of secret in any field this save writes.
    pub fn secret_kind(&self) -> Option<&'static str> {
        self.written_fields()
            .find_map(|(_, text)| crate::secrets::find(text))
    }

    /// The title given, else one made from the name (`pre-commit-lint` → `Pre commit lint`).
    pub(super) fn title(&self) -> String {
        match self.title {
            Some(title) => title.trim().to_string(),
            None => title_from_name(self.name),
        }
    }
}

/// A topic file as a person wrote it (in an editor), with the fields a save needs.
#[derive(Debug, Clone)]
pub struct EditedTopic {
    pub topic: TopicFile,
    pub memory_type: MemoryType,
    pub description: String,
}

impl EditedTopic {
    /// The save it asks for.
    pub fn request<'a>(
        &'a self,
        name: &'a str,
        title: Option<&'a str>,
        session: Option<&'a str>,
    ) -> SaveRequest<'a> {
        SaveRequest {
            name,
            memory_type: self.memory_type,
            description: &self.description,
            title,
            body: &self.topic.body,
            session,
        }
    }
}

/// A topic file as a person wrote it for the memory `name` (in an editor), checked: its
/// frontmatter must name `name` and give a type and a description.
pub fn read_edited(name: &str, text: &str) -> Result<EditedTopic, StoreError> {
    let invalid = |why: String| StoreError::InvalidInput(format!("the edited file: {why}"));
    let topic = TopicFile::parse(text).map_err(|e| invalid(e.to_string()))?;
    if !topic.has_frontmatter() {
        return Err(invalid(
            "it has no frontmatter: it must start with a `---` line, then name, description and type, then `---`".into(),
        ));
    }
    match topic.name.as_deref() {
        Some(found) if found == name => {}
        Some(other) => {
            return Err(invalid(format!(
                "its name is {other:?}, not {name:?} (to rename a memory, save it under the new name and remove the old one)"
            )));
        }
        None => return Err(invalid(format!("it has no `name: {name}` line"))),
    }
    let Some(memory_type) = topic.memory_type else {
        return Err(invalid(
            "it has no type: user, feedback, project or reference".into(),
        ));
    };
    let description = match topic.description.as_deref().map(str::trim) {
        Some(description) if !description.is_empty() => description.to_string(),
        _ => return Err(invalid("its description is empty".into())),
    };
    Ok(EditedTopic {
        topic,
        memory_type,
        description,
    })
}

/// `pre-commit-lint` → `Pre commit lint`: the title of a memory saved without one.
pub(crate) fn title_from_name(name: &str) -> String {
    let spaced = name.replace('-', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_from_names() {
        assert_eq!(title_from_name("pre-commit-lint"), "Pre commit lint");
        assert_eq!(title_from_name("x"), "X");
    }
}
