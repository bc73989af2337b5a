//! The options an engine declares (protocol version 2), as a form built from its declarations:
//! a number field for a `spin`, a checkbox for a `check`, a list for a `combo`, a text field for
//! a `string`. Only values that differ from the engine's defaults are kept, so an engine whose
//! defaults change later is not held to old ones.

use crate::solver::engine::protocol::{OptionDecl, OptionKind};

/// The value set for `option`, or its default.
fn current(values: &[(String, String)], option: &OptionDecl) -> String {
    values
        .iter()
        .find(|(name, _)| *name == option.name)
        .map_or_else(|| option.default_value(), |(_, value)| value.clone())
}

/// Keeps `value` for `option` when it differs from the default, drops it otherwise; values the
/// declaration refuses are not kept.
fn set(values: &mut Vec<(String, String)>, option: &OptionDecl, value: String) {
    values.retain(|(name, _)| *name != option.name);
    if let Ok(value) = option.check_value(&value)
        && value != option.default_value()
    {
        values.push((option.name.clone(), value));
    }
}

/// The form: one row per declared option, labelled with its name and what it takes.
pub(super) fn options_ui(
    ui: &mut egui::Ui,
    declared: &[OptionDecl],
    values: &mut Vec<(String, String)>,
) {
    egui::Grid::new("engine-options")
        .num_columns(3)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            for option in declared {
                let label = ui.label(option.name.as_str());
                let value = current(values, option);
                match &option.kind {
                    OptionKind::Spin { min, max, .. } => {
                        let mut number: i64 = value.parse().unwrap_or(*min);
                        let changed = ui
                            .add(egui::DragValue::new(&mut number).range(*min..=*max))
                            .labelled_by(label.id)
                            .changed();
                        if changed {
                            set(values, option, number.to_string());
                        }
                    }
                    OptionKind::Check { .. } => {
                        let mut on = value == "true";
                        if ui.checkbox(&mut on, "").labelled_by(label.id).changed() {
                            set(values, option, on.to_string());
                        }
                    }
                    OptionKind::Combo { choices, .. } => {
                        let mut chosen = value.clone();
                        egui::ComboBox::from_id_salt(("engine-option", &option.name))
                            .selected_text(chosen.as_str())
                            .show_ui(ui, |ui| {
                                for choice in choices {
                                    ui.selectable_value(
                                        &mut chosen,
                                        choice.clone(),
                                        choice.as_str(),
                                    );
                                }
                            });
                        if chosen != value {
                            set(values, option, chosen);
                        }
                    }
                    OptionKind::Text { .. } => {
                        let mut text = value.clone();
                        let edited = ui
                            .add(egui::TextEdit::singleline(&mut text).desired_width(160.0))
                            .labelled_by(label.id)
                            .changed();
                        if edited && !text.contains(char::is_whitespace) && !text.is_empty() {
                            set(values, option, text);
                        }
                    }
                }
                ui.label(format!(
                    "{}, default {}",
                    option.range_text(),
                    option.default_value()
                ));
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_values_other_than_the_default_are_kept() {
        let option = OptionDecl {
            name: "depth".into(),
            kind: OptionKind::Spin {
                default: 3,
                min: 0,
                max: 9,
            },
        };
        let mut values = Vec::new();
        set(&mut values, &option, "5".into());
        assert_eq!(values, vec![("depth".to_string(), "5".to_string())]);
        assert_eq!(current(&values, &option), "5");
        set(&mut values, &option, "3".into());
        assert!(values.is_empty());
        set(&mut values, &option, "12".into());
        assert!(values.is_empty(), "a value out of range is not kept");
    }
}
