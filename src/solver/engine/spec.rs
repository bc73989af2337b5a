//! How to start an engine: its name, its command line and the folder it runs in.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How to start an engine: its name, its command and the folder it runs in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EngineSpec {
    /// The name it is registered and shown under.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The folder it runs in; `None`: the current folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// The options it is given after its handshake (`setoption`, protocol version 2), as
    /// name and value, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// An engine for a command line given as one text (`"python3 bfs.py --fast"`), split at
    /// white space, with quotes (`'…'`, `"…"`) keeping spaces inside one argument; named after
    /// the text itself.
    pub fn ad_hoc(command_line: &str) -> Result<EngineSpec, String> {
        let command = split_command_line(command_line)?;
        if command.is_empty() {
            return Err("the engine command is empty".into());
        }
        Ok(EngineSpec {
            name: command_line.trim().to_string(),
            command,
            dir: None,
            options: Vec::new(),
        })
    }

    /// The spec with `options` set over its own: an option named again takes the new value.
    pub fn with_options(mut self, options: &[(String, String)]) -> EngineSpec {
        for (name, value) in options {
            match self.options.iter_mut().find(|(known, _)| known == name) {
                Some(slot) => slot.1 = value.clone(),
                None => self.options.push((name.clone(), value.clone())),
            }
        }
        self
    }

    /// The options as `NAME=VALUE` words, for lists and tables.
    pub fn options_text(&self) -> String {
        self.options
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The command as one line, arguments with spaces quoted.
    pub fn command_line(&self) -> String {
        self.command
            .iter()
            .map(|part| {
                if part.is_empty() || part.contains(char::is_whitespace) {
                    format!("'{part}'")
                } else {
                    part.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Splits a command line at white space outside quotes.
fn split_command_line(text: &str) -> Result<Vec<String>, String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_part = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_part = true;
            }
            None if c.is_whitespace() => {
                if in_part {
                    parts.push(std::mem::take(&mut current));
                    in_part = false;
                }
            }
            None => {
                current.push(c);
                in_part = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("the quote {q} in '{text}' is never closed"));
    }
    if in_part {
        parts.push(current);
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_at_spaces_outside_quotes() {
        assert_eq!(
            split_command_line("python3  'my engine.py' -x \"a b\"").unwrap(),
            vec!["python3", "my engine.py", "-x", "a b"]
        );
        assert!(split_command_line("python3 'open").is_err());
        assert_eq!(
            EngineSpec::ad_hoc("python3 'my engine.py'")
                .unwrap()
                .command_line(),
            "python3 'my engine.py'"
        );
    }
}
