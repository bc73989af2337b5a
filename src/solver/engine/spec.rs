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

/// Why a command line gives no engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandLineError {
    /// It holds no word.
    #[error("the engine command is empty")]
    Empty,
    /// A quote is never closed, or the line ends in a backslash that escapes nothing.
    #[error("a quote in '{0}' is never closed, or the line ends in a lone backslash")]
    Unbalanced(String),
}

impl EngineSpec {
    /// An engine for a command line given as one text (`"python3 bfs.py --fast"`), split as a
    /// POSIX shell splits words: at white space, with quotes (`'…'`, `"…"`) and backslashes
    /// keeping spaces inside one argument; named after the text itself.
    pub fn ad_hoc(command_line: &str) -> Result<EngineSpec, CommandLineError> {
        let command = split_command_line(command_line)?;
        if command.is_empty() {
            return Err(CommandLineError::Empty);
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

    /// The command as one line, quoted as a POSIX shell reads it, so that [`EngineSpec::ad_hoc`]
    /// gives the same words back.
    pub fn command_line(&self) -> String {
        // Quoting refuses only a nul byte, which no program argument can hold (the operating
        // system ends an argument at it), so no engine that can start is shown the plain way.
        shlex::try_join(self.command.iter().map(String::as_str))
            .unwrap_or_else(|_| self.command.join(" "))
    }
}

/// Splits a command line into words as a POSIX shell does.
fn split_command_line(text: &str) -> Result<Vec<String>, CommandLineError> {
    shlex::split(text).ok_or_else(|| CommandLineError::Unbalanced(text.trim().to_string()))
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
        assert_eq!(
            split_command_line("python3 'open").unwrap_err().to_string(),
            "a quote in 'python3 'open' is never closed, or the line ends in a lone backslash"
        );
        assert_eq!(
            EngineSpec::ad_hoc("  ").unwrap_err(),
            CommandLineError::Empty
        );
        assert_eq!(
            EngineSpec::ad_hoc("python3 'my engine.py'")
                .unwrap()
                .command_line(),
            "python3 'my engine.py'"
        );
    }

    proptest::proptest! {
        /// Any words a command can hold (printable, not empty) come back from their command
        /// line as they were: spaces, quotes of both kinds and backslashes included.
        #[test]
        fn command_lines_give_their_words_back(
            words in proptest::collection::vec("\\PC{1,12}", 1..6)
        ) {
            let spec = EngineSpec {
                name: "p".into(),
                command: words.clone(),
                dir: None,
                options: Vec::new(),
            };
            let again = EngineSpec::ad_hoc(&spec.command_line()).unwrap();
            proptest::prop_assert_eq!(again.command, words);
        }
    }
}
