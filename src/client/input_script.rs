//! The window's input scripts (`--input FILE`): each line what a player's hands do, a
//! click, a hover, a toggle or a command, parsed into `PlayerInput`; errors name the
//! file, line and column.

use super::controller::{PlayerInput, ReplayInput, UiScaleChange};
use crate::engine::hex::HexCoord;

/// Parses one line of an input script (`--input FILE`): what a player's hands do, for
/// demonstrations, screenshots and smoke tests of the real window. `click HEX`,
/// `hover HEX`, `cancel`, `undo`, `redo`, `save`, `handover`, `zoc`, `labels`,
/// `sight`, `threats`, `help`, `aids [N]`, `minimap`, `fit`, `ui-scale +/-/N`,
/// `player SIDE human|easy|normal|hard`, or any
/// command line (`end`, `move …`, `attack …`) as if from a button. `#` starts a comment.
pub fn parse_input_line(
    line: &str,
) -> Result<Option<PlayerInput>, crate::engine::command::ParseError> {
    use crate::engine::command::ParseError;
    use crate::rulesets::parse_line;
    let code = line.split('#').next().unwrap_or("");
    let trimmed = code.trim();
    let start = code.len() - code.trim_start().len() + 1;
    let mut parts = trimmed.split_whitespace();
    let Some(verb) = parts.next() else {
        return Ok(None);
    };
    let hex_arg = |parts: &mut std::str::SplitWhitespace| -> Result<HexCoord, ParseError> {
        let word = parts.next().unwrap_or("");
        let column = code
            .find(word)
            .filter(|_| !word.is_empty())
            .unwrap_or(code.len())
            + 1;
        HexCoord::parse(word).ok_or_else(|| ParseError {
            column,
            message: format!("`{verb}` needs a hex as CCRR, found `{word}`"),
        })
    };
    Ok(Some(match verb {
        "click" => PlayerInput::Click(hex_arg(&mut parts)?),
        "shift-click" => PlayerInput::GroupClick(hex_arg(&mut parts)?),
        "hover" => PlayerInput::Hover(Some(hex_arg(&mut parts)?)),
        "cancel" => PlayerInput::Cancel,
        "undo" => PlayerInput::Undo,
        "redo" => PlayerInput::Redo,
        "save" => PlayerInput::Save,
        "handover" => PlayerInput::HandOverDone,
        "zoc" => PlayerInput::ToggleZoc,
        "labels" => PlayerInput::ToggleLabels,
        "sight" => PlayerInput::ToggleSight,
        "threats" => PlayerInput::ToggleThreats,
        "help" => PlayerInput::ToggleHelp,
        "minimap" => PlayerInput::ToggleMinimap,
        "fit" => PlayerInput::FitMap,
        "player" => {
            let side = parts.next().unwrap_or("");
            let who = parts.next().unwrap_or("");
            let player = who.parse().map_err(|e: String| ParseError {
                column: code
                    .rfind(who)
                    .filter(|_| !who.is_empty())
                    .unwrap_or(code.len())
                    + 1,
                message: format!("`player SIDE WHO`: {e}"),
            })?;
            PlayerInput::SetPlayer(side.to_string(), player)
        }
        "aids" => match parts.next() {
            None => PlayerInput::ToggleAids,
            Some(word) => PlayerInput::AidPage(word.parse().map_err(|_| ParseError {
                column: code.rfind(word).unwrap_or(0) + 1,
                message: format!(
                    "`aids` takes a page number (0: the sequence of play), found `{word}`"
                ),
            })?),
        },
        "ui-scale" => {
            let word = parts.next().unwrap_or("");
            PlayerInput::UiScale(match word {
                "+" => UiScaleChange::Larger,
                "-" => UiScaleChange::Smaller,
                w => match w.parse::<f32>() {
                    Ok(v)
                        if (super::settings::UI_SCALE_MIN..=super::settings::UI_SCALE_MAX)
                            .contains(&v) =>
                    {
                        UiScaleChange::Set(v)
                    }
                    _ => {
                        return Err(ParseError {
                            column: code
                                .rfind(word)
                                .filter(|_| !word.is_empty())
                                .unwrap_or(code.len())
                                + 1,
                            message: format!(
                                "`ui-scale` takes +, - or a scale from {} to {}, found `{word}`",
                                super::settings::UI_SCALE_MIN,
                                super::settings::UI_SCALE_MAX
                            ),
                        });
                    }
                },
            })
        }
        "replay" => {
            let what = parts.next().unwrap_or("open");
            let number = |parts: &mut std::str::SplitWhitespace| -> Result<i64, ParseError> {
                let word = parts.next().unwrap_or("");
                word.parse().map_err(|_| ParseError {
                    column: code
                        .rfind(word)
                        .filter(|_| !word.is_empty())
                        .unwrap_or(code.len())
                        + 1,
                    message: format!("`replay {what}` needs a number, found `{word}`"),
                })
            };
            PlayerInput::Replay(match what {
                "open" => ReplayInput::Open,
                "step" => ReplayInput::Step(number(&mut parts)?),
                "seek" => ReplayInput::Seek(number(&mut parts)?.max(0) as usize),
                "here" => ReplayInput::PlayFromHere,
                "leave" => ReplayInput::Leave,
                _ => {
                    return Err(ParseError {
                        column: code.find(what).unwrap_or(0) + 1,
                        message: format!(
                            "`replay {what}`: replay is open, step N, seek N, here or leave"
                        ),
                    });
                }
            })
        }
        _ => match parse_line(line) {
            Ok(Some(command)) => PlayerInput::Submit(command),
            Ok(None) => return Ok(None),
            Err(e) => {
                return Err(ParseError {
                    column: e.column.max(start),
                    message: format!(
                        "{} (an input line is click/shift-click/hover HEX, cancel, undo, redo, save, handover, zoc, labels, replay open/step N/seek N/here/leave, sight, threats, help, aids [N], minimap, fit, ui-scale +/-/N, or a command)",
                        e.message
                    ),
                });
            }
        },
    }))
}

/// Parses a whole input script; the error names the file, line and column.
pub fn parse_input_script(path: &std::path::Path) -> Result<Vec<PlayerInput>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the input script: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_input_line(line) {
            Ok(Some(input)) => out.push(input),
            Ok(None) => {}
            Err(e) => {
                return Err(format!(
                    "{}:{}:{}: {}\n  {line}",
                    path.display(),
                    i + 1,
                    e.column,
                    e.message
                ));
            }
        }
    }
    Ok(out)
}
