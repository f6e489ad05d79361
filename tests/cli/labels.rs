//! The schema of a labelled extraction case's `expected.json` (fixtures/extraction/README.md),
//! shared by the quality test and the model's trainer (`examples/train_extractor.rs` includes
//! this file).

/// What must be true of the memory dir after extraction.
#[derive(serde::Deserialize)]
pub struct Expected {
    #[serde(default)]
    pub before: Vec<Before>,
    pub memories: Vec<ExpectedMemory>,
    #[serde(default)]
    pub forbidden: Vec<String>,
}

/// A memory in the dir when extraction starts.
#[derive(serde::Deserialize)]
pub struct Before {
    pub name: String,
    pub r#type: String,
    pub description: String,
    pub body: String,
}

/// A memory that must exist afterwards.
#[derive(serde::Deserialize)]
pub struct ExpectedMemory {
    pub r#type: String,
    pub contains: Vec<String>,
    #[serde(default)]
    pub absent: Vec<String>,
}
