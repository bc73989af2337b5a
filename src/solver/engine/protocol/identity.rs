//! What an engine says about itself in its handshake: its `id` lines and, from version 2, the
//! options it declares.

use super::RowKind;
use super::v2::{MAX_OPTIONS, OptionDecl};

/// What an engine says about itself in its handshake's `id` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// `name=`, with `_` read as a space.
    pub name: Option<String>,
    /// `author=`, with `_` read as a space.
    pub author: Option<String>,
    /// `version=`.
    pub version: Option<String>,
    /// `rows=`: what its rows count.
    pub rows: RowKind,
    /// `optimal=yes`: its solutions are claimed shortest.
    pub optimal: bool,
    /// `events=yes`: it can send node and prune events.
    pub events: bool,
    /// `rules=`: the rule options it supports.
    pub ricochet: bool,
    /// `rules=`: whether it supports no-rebound.
    pub no_rebound: bool,
    /// The options it declared (version 2), in the order declared, each name once.
    pub options: Vec<OptionDecl>,
}

impl Identity {
    /// Adds the facts of one `id` line; unknown keys and values are skipped.
    pub fn add(&mut self, pairs: &[(String, String)]) {
        for (key, value) in pairs {
            match key.as_str() {
                "name" => self.name = Some(value.replace('_', " ")),
                "author" => self.author = Some(value.replace('_', " ")),
                "version" => self.version = Some(value.clone()),
                "rows" => self.rows = RowKind::from_key(value).unwrap_or(self.rows),
                "optimal" => self.optimal = value == "yes",
                "events" => self.events = value == "yes",
                "rules" => {
                    for option in value.split(',') {
                        match option {
                            "ricochet" => self.ricochet = true,
                            "no-rebound" => self.no_rebound = true,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Adds an option declaration; a second one of a name replaces the first, and past
    /// [`MAX_OPTIONS`] declarations are ignored.
    pub fn declare(&mut self, option: OptionDecl) {
        if let Some(known) = self
            .options
            .iter_mut()
            .find(|known| known.name == option.name)
        {
            *known = option;
        } else if self.options.len() < MAX_OPTIONS {
            self.options.push(option);
        }
    }

    /// The option declared under `name`.
    pub fn option(&self, name: &str) -> Option<&OptionDecl> {
        self.options.iter().find(|option| option.name == name)
    }

    /// The `id` lines that say these facts, in the page's order, then the `option` lines.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let spaced = |text: &str| text.replace([' ', '\t'], "_");
        if let Some(name) = &self.name {
            lines.push(format!("id name={}", spaced(name)));
        }
        if let Some(author) = &self.author {
            lines.push(format!("id author={}", spaced(author)));
        }
        if let Some(version) = &self.version {
            lines.push(format!("id version={}", spaced(version)));
        }
        lines.push(format!("id rows={}", self.rows.key()));
        lines.push(format!(
            "id optimal={}",
            if self.optimal { "yes" } else { "no" }
        ));
        if self.events {
            lines.push("id events=yes".to_string());
        }
        let mut rules = Vec::new();
        if self.ricochet {
            rules.push("ricochet");
        }
        if self.no_rebound {
            rules.push("no-rebound");
        }
        if !rules.is_empty() {
            lines.push(format!("id rules={}", rules.join(",")));
        }
        lines.extend(self.options.iter().map(OptionDecl::to_string));
        lines
    }
}
