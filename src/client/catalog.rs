//! The scenarios the menu offers: every `.ron` under a `scenarios/` folder (beside the
//! working directory, the program, or the source tree), read and checked, grouped by
//! ruleset; a file that fails its check is listed with its located error.

use std::path::{Path, PathBuf};

use crate::rulesets::load_scenario;

/// One scenario file, with what the menu shows of it or why it cannot be played.
#[derive(Clone, Debug)]
pub struct CatalogEntry {
    pub path: PathBuf,
    pub summary: Result<ScenarioSummary, String>,
}

#[derive(Clone, Debug)]
pub struct ScenarioSummary {
    pub ruleset: String,
    pub name: String,
    pub date: String,
    pub sides: Vec<String>,
    pub turns: u32,
    pub history: String,
}

/// The `scenarios/` folder to list: the working directory's, else one beside or above
/// the program, else the source tree's.
pub fn scenarios_dir() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("scenarios")];
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).map(|d| d.join("scenarios")));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"));
    candidates.into_iter().find(|d| d.is_dir())
}

/// Every scenario under `dir`, sorted by ruleset then path.
pub fn catalog(dir: &Path) -> Vec<CatalogEntry> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in read.flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "ron") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut entries: Vec<CatalogEntry> = files
        .into_iter()
        .map(|path| {
            let summary = load_scenario(&path)
                .map(|(s, ruleset)| ScenarioSummary {
                    ruleset: ruleset.name().to_string(),
                    name: s.file.name.clone(),
                    date: s.file.date.clone(),
                    sides: s.file.sides.iter().map(|x| x.name.clone()).collect(),
                    turns: s.file.turns,
                    history: s.file.history.clone(),
                })
                .map_err(|e| e.to_string());
            CatalogEntry { path, summary }
        })
        .collect();
    entries.sort_by_key(|e| {
        (
            e.summary
                .as_ref()
                .map(|s| s.ruleset.clone())
                .unwrap_or_default(),
            e.path.clone(),
        )
    });
    entries
}
