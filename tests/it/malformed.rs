//! The malformed scenario corpus (`tests/malformed/scenarios`, see its README): every
//! file is rejected, by the loader and by `bataille check`, with the message and the
//! place its `.expect` file gives.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bataille::rulesets::load_scenario;

use crate::common::{root, scratch, write};

/// What a fixture's `.expect` file says of its error.
#[derive(Debug)]
struct Expect {
    /// 0 when the error is about the whole file.
    line: usize,
    column: Option<usize>,
    /// A part of the message.
    message: String,
}

fn corpus_dir() -> PathBuf {
    root().join("tests/malformed/scenarios")
}

fn parse_expect(path: &Path) -> Expect {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut line, mut column, mut message) = (None, None, None);
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (key, value) = l
            .split_once(':')
            .unwrap_or_else(|| panic!("{}:{}: expected `key: value`", path.display(), i + 1));
        let value = value.trim();
        let number = || {
            value.parse::<usize>().unwrap_or_else(|_| {
                panic!("{}:{}: `{value}` is not a number", path.display(), i + 1)
            })
        };
        match key.trim() {
            "line" => line = Some(number()),
            "column" => column = Some(number()),
            "message" => message = Some(value.to_string()),
            other => panic!("{}:{}: unknown key `{other}`", path.display(), i + 1),
        }
    }
    let expect = Expect {
        line: line.unwrap_or_else(|| panic!("{}: no `line:`", path.display())),
        column,
        message: message.unwrap_or_else(|| panic!("{}: no `message:`", path.display())),
    };
    assert!(
        !expect.message.is_empty(),
        "{}: empty message",
        path.display()
    );
    assert!(
        expect.line > 0 || expect.column.is_none(),
        "{}: a column without a line",
        path.display()
    );
    expect
}

/// Every fixture with its expectation, sorted by name; each `.ron` has a `.expect`
/// and each `.expect` a `.ron`.
fn corpus() -> Vec<(PathBuf, Expect)> {
    let dir = corpus_dir();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    names.sort();
    for p in names
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
    {
        assert!(
            p.with_extension("ron").is_file(),
            "{} has no fixture",
            p.display()
        );
    }
    let corpus: Vec<_> = names
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| {
            let expect_path = p.with_extension("expect");
            assert!(expect_path.is_file(), "{} has no .expect file", p.display());
            let e = parse_expect(&expect_path);
            (p, e)
        })
        .collect();
    assert!(
        corpus.len() >= 16,
        "the corpus has only {} fixtures",
        corpus.len()
    );
    corpus
}

/// The `file:line:col: error: ` head of an error's display, or `file: error: `.
fn head(file: &str, line: usize, column: usize) -> String {
    if line == 0 {
        format!("{file}: error: ")
    } else {
        format!("{file}:{line}:{column}: error: ")
    }
}

#[test]
fn every_malformed_scenario_is_rejected_at_its_place() {
    let mut failures = Vec::new();
    let corpus = corpus();
    for (path, exp) in &corpus {
        let shown = path.display().to_string();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let e = match load_scenario(path) {
            Ok(_) => {
                failures.push(format!("{name}: accepted"));
                continue;
            }
            Err(e) => e,
        };
        let mut fail = |what: String| failures.push(format!("{name}: {what}\n    got: {e}"));
        if e.file != shown {
            fail(format!(
                "the error names the file `{}`, not `{shown}`",
                e.file
            ));
        }
        if !e.message.contains(&exp.message) {
            fail(format!("the message lacks `{}`", exp.message));
        }
        if e.line != exp.line {
            fail(format!("line {}, expected {}", e.line, exp.line));
        }
        if exp.line > 0 && e.column == 0 {
            fail("no column".into());
        }
        if let Some(c) = exp.column
            && e.column != c
        {
            fail(format!("column {}, expected {c}", e.column));
        }
        // The line shown under the message is the file's line (when the file is text).
        let bytes = std::fs::read(path).expect("fixture readable");
        if e.line > 0
            && let Ok(text) = std::str::from_utf8(&bytes)
            && e.source_line.as_deref() != text.lines().nth(e.line - 1)
        {
            fail(format!("the source line shown is {:?}", e.source_line));
        }
        let shown_error = e.to_string();
        let want_head = head(&shown, exp.line, e.column);
        if !shown_error.starts_with(&want_head) {
            fail(format!("the display does not start with `{want_head}`"));
        }
        if !shown_error.contains(&exp.message) {
            fail("the display lacks the message".into());
        }
        if e.line > 0 && e.source_line.is_some() {
            // The caret sits under column `column` of the quoted line.
            let caret = format!("| {}^", " ".repeat(e.column - 1));
            if !shown_error
                .lines()
                .last()
                .is_some_and(|l| l.ends_with(&caret))
            {
                fail("the caret is not under the column".into());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s) among {} fixtures:\n{}",
        failures.len(),
        corpus.len(),
        failures.join("\n")
    );
}

fn check(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bataille"))
        .arg("check")
        .arg(path)
        .output()
        .expect("the bataille binary runs")
}

#[test]
fn check_exits_1_on_every_malformed_scenario() {
    let mut failures = Vec::new();
    let corpus = corpus();
    for (path, exp) in &corpus {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let out = check(path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let mut fail = |what: &str| {
            failures.push(format!(
                "{name}: {what}\n    status {:?}, stderr: {stderr}",
                out.status.code()
            ))
        };
        if out.status.code() != Some(1) {
            fail("exit status is not 1");
        }
        if stderr.contains("panicked") {
            fail("panicked");
        }
        if !stderr.contains(&exp.message) {
            fail("stderr lacks the message");
        }
        let shown = path.display().to_string();
        let located = if exp.line == 0 {
            head(&shown, 0, 0)
        } else {
            format!("{shown}:{}:", exp.line)
        };
        if !stderr.starts_with(&located) {
            fail(&format!("stderr does not start with `{located}`"));
        }
        if !stdout.is_empty() {
            fail("printed a report on stdout");
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s) among {} fixtures:\n{}",
        failures.len(),
        corpus.len(),
        failures.join("\n")
    );
}

#[test]
fn check_accepts_the_shipped_scenarios() {
    // Every scenario the game ships, by ruleset folder, with the name `check` prints.
    let shipped = [
        ("a_la_charge/civitate_1053.ron", "Civitate"),
        ("a_la_charge/kalavryai_1078.ron", "Kalavryai"),
        ("champs_de_bataille/soissons_486.ron", "Soissons"),
        ("champs_de_bataille/poitiers_732.ron", "Poitiers"),
        ("champs_de_bataille/daras_530.ron", "Daras"),
        ("champs_de_bataille/casilinum_554.ron", "Casilinum"),
        ("morne_plaine/quatre_bras_1815.ron", "Quatre-Bras"),
        ("morne_plaine/waterloo_1815.ron", "Waterloo"),
        ("charles_the_bold/falkirk_1298.ron", "Falkirk"),
        ("charles_the_bold/grandson_1476.ron", "Grandson"),
        ("charge_and_melee/maldon_991.ron", "Maldon"),
        ("charge_and_melee/hastings_1066.ron", "Hastings"),
    ];
    // A scenario added under scenarios/*/ must be added here too, so none goes unchecked.
    let mut on_disk: Vec<String> = Vec::new();
    for folder in std::fs::read_dir(root().join("scenarios")).unwrap() {
        let folder = folder.unwrap();
        if !folder.path().is_dir() {
            continue;
        }
        for file in std::fs::read_dir(folder.path()).unwrap() {
            let file = file.unwrap().file_name().to_string_lossy().to_string();
            if file.ends_with(".ron") {
                on_disk.push(format!("{}/{file}", folder.file_name().to_string_lossy()));
            }
        }
    }
    on_disk.sort();
    let mut listed: Vec<String> = shipped.iter().map(|(p, _)| p.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk, "the list covers every shipped scenario");
    for (file, name) in shipped {
        let path = root().join("scenarios").join(file);
        let out = check(&path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{}: {stderr}", path.display());
        assert!(stderr.is_empty(), "{}: {stderr}", path.display());
        assert!(stdout.starts_with(name), "{}: {stdout}", path.display());
        assert!(
            stdout.contains("scenario hash: "),
            "{}: {stdout}",
            path.display()
        );
    }
}

#[test]
fn literal_civitate_is_rejected_for_two_units_on_0909() {
    let path = root().join("tests/fixtures/a_la_charge/civitate_1053_literal.ron");
    let Err(e) = load_scenario(&path) else {
        panic!("the literal Civitate, Archers and infantry both on 0909, was accepted");
    };
    assert!(e.message.contains("two combat units on 0909"), "{e}");
    assert!(e.message.contains("AlC 7"), "{e}");
    assert!(
        e.message.contains("`archers`") && e.message.contains("`inf_norm_2`"),
        "{e}"
    );
    // At the second unit's hex, on the line that places it.
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("(id: \"inf_norm_2\""))
        .unwrap()
        + 1;
    assert_eq!(e.line, line, "{e}");
    let src = e.source_line.as_deref().expect("the line is shown");
    assert!(src[e.column - 1..].starts_with("\"0909\""), "{e}");
    assert!(
        e.to_string().starts_with(&format!(
            "{}:{line}:{}: error: two combat units on 0909",
            path.display(),
            e.column
        )),
        "{e}"
    );

    let out = check(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("two combat units on 0909") && stderr.contains("AlC 7"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn binary_written_at_run_time_is_rejected() {
    let dir = scratch("malformed-binary");
    // Every byte value: NUL first, then bytes that are not UTF-8 from 0x80.
    let all: Vec<u8> = (0..=255u8).collect();
    let path = dir.join("all_bytes.ron");
    std::fs::write(&path, &all).unwrap();
    let Err(e) = load_scenario(&path) else {
        panic!("a binary file was accepted")
    };
    assert!(e.message.contains("binary"), "{e}");
    assert_eq!(e.file, path.display().to_string());
    // Bytes 0..=127 hold one newline (10): the first invalid byte, 0x80, is on line 2.
    assert_eq!((e.line, e.column), (2, 128 - 11 + 1), "{e}");

    // NUL bytes in otherwise ASCII text: about the whole file.
    let path = write(&dir, "nul.ron", "(\n  name: \"x\0y\",\n)\n");
    let Err(e) = load_scenario(&path) else {
        panic!("a file with NUL bytes was accepted")
    };
    assert!(e.message.contains("NUL"), "{e}");
    assert_eq!(e.line, 0, "{e}");
    assert_eq!(
        e.to_string(),
        format!("{}: error: {}", path.display(), e.message)
    );
}

/// Every `.expect` of a corpus folder with its input file (`ext`), paired both ways.
fn corpus_of(dir: &str, ext: &str) -> Vec<(PathBuf, Expect)> {
    let dir = root().join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    paths.sort();
    for p in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "expect"))
    {
        assert!(
            p.with_extension(ext).is_file(),
            "{} has no fixture",
            p.display()
        );
    }
    paths
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| {
            let e = p.with_extension("expect");
            assert!(e.is_file(), "{} has no .expect file", p.display());
            let exp = parse_expect(&e);
            (p, exp)
        })
        .collect()
}

/// Runs the binary and checks: exit status 1, no panic, the first line of the error
/// names `shown` with the expected line and column, and holds the expected message.
fn expect_cli_error(name: &str, shown: &str, args: &[&str], exp: &Expect) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the bataille binary runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let first = err.lines().next().unwrap_or("");
    let mut problems = Vec::new();
    if out.status.code() != Some(1) {
        problems.push(format!("exit status {:?}, not 1", out.status.code()));
    }
    if err.contains("panicked") {
        problems.push("it panicked".into());
    }
    let want = if exp.line == 0 {
        format!("{shown}: ")
    } else {
        match exp.column {
            Some(c) => format!("{shown}:{}:{c}: ", exp.line),
            None => format!("{shown}:{}:", exp.line),
        }
    };
    if !first.starts_with(&want) {
        problems.push(format!("the error does not start with `{want}`"));
    }
    if !first.contains(&exp.message) {
        problems.push(format!("the message lacks `{}`", exp.message));
    }
    (!problems.is_empty()).then(|| format!("{name}: {}\n    got: {err}", problems.join("; ")))
}

#[test]
fn every_malformed_save_is_refused_at_its_place_with_exit_1() {
    // `@CIVITATE_HASH@` stands for the shipped scenario's hash, so that only the
    // fixture's own fault is wrong whatever the scenario's current content.
    let hash = crate::common::civitate(1).save().scenario_hash;
    let dir = scratch("malformed-saves");
    let corpus = corpus_of("tests/malformed/saves", "ron");
    assert!(corpus.len() >= 15, "only {} saves", corpus.len());
    let mut failures = Vec::new();
    for (path, exp) in &corpus {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Substituted byte by byte: a fixture that is not UTF-8 stays so.
        let mut bytes = std::fs::read(path).unwrap();
        let token = b"@CIVITATE_HASH@";
        if let Some(at) = bytes.windows(token.len()).position(|w| w == token) {
            bytes.splice(at..at + token.len(), hash.bytes());
        }
        let copy = dir.join(&name);
        std::fs::write(&copy, &bytes).unwrap();
        let shown = copy.display().to_string();
        failures.extend(expect_cli_error(
            &name,
            &shown,
            &["play", "-", "--load", &shown],
            exp,
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_malformed_script_is_refused_at_its_line_with_exit_1() {
    let corpus = corpus_of("tests/malformed/scripts", "txt");
    assert!(corpus.len() >= 12, "only {} scripts", corpus.len());
    let mut failures = Vec::new();
    for (path, exp) in &corpus {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let shown = format!("tests/malformed/scripts/{name}");
        let args = [
            "play",
            "scenarios/a_la_charge/civitate_1053.ron",
            "--seed",
            "1",
            "--script",
            shown.as_str(),
        ];
        failures.extend(expect_cli_error(&name, &shown, &args, exp));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
