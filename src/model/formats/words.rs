//! Words for messages about puzzle files: the rules a format cannot hold, and the name a
//! misspelt one most likely stands for.

/// The rules a puzzle is played with, in words ("the ricochet rule and the no-rebound
/// rule"), or `None` when it is played without any: for the formats that cannot hold them.
pub(crate) fn rules_in_force(rules: &crate::model::Rules) -> Option<String> {
    let named: Vec<&str> = [
        (rules.ricochet, "the ricochet rule"),
        (rules.no_rebound, "the no-rebound rule"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    (!named.is_empty()).then(|| named.join(" and "))
}

/// The name among `expected` that `found` most likely misspells: one at most two letters
/// away (or differing only in case), when there is exactly one nearest such name.
pub(crate) fn likely_meant<'a>(found: &str, expected: &[&'a str]) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for &name in expected {
        let distance = if name.eq_ignore_ascii_case(found) {
            0
        } else {
            edit_distance(found, name)
        };
        match best {
            Some((nearest, _)) if distance > nearest => {}
            Some((nearest, _)) if distance == nearest => tied = true,
            _ => {
                best = Some((distance, name));
                tied = false;
            }
        }
    }
    best.filter(|&(distance, _)| distance <= 2 && !tied)
        .map(|(_, name)| name)
}

/// The Levenshtein distance between two texts, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}
