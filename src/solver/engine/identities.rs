//! What each engine said about itself in its last handshake, kept for the life of the program,
//! so that a study which ran an engine through [`solver::run`](crate::solver::run) can ask
//! afterwards whether it claimed its answers shortest (`id optimal=yes`) without starting it
//! again.

use super::EngineSpec;
use super::protocol::Identity;
use crate::solver::SolverChoice;
use std::collections::HashMap;
use std::sync::Mutex;

/// The identities by the command that started the engine (name, command and folder).
static KNOWN: Mutex<Option<HashMap<EngineSpec, Identity>>> = Mutex::new(None);

/// Keeps what `spec`'s engine said in a handshake that has just ended.
pub(super) fn remember(spec: &EngineSpec, identity: &Identity) {
    // The map only changes by whole entries: consistent after any panic that left it locked.
    let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    known
        .get_or_insert_with(HashMap::new)
        .insert(spec.clone(), identity.clone());
}

/// What `spec`'s engine said about itself in its last handshake in this program; `None` when
/// it has not been started.
pub fn known_identity(spec: &EngineSpec) -> Option<Identity> {
    let known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
    known.as_ref().and_then(|map| map.get(spec).cloned())
}

/// Whether `choice` is an engine whose last handshake claimed its solutions shortest
/// (`id optimal=yes`). The claim is the engine's word: a caller that compares its answers with
/// an optimal solver's reports a difference as the engine's.
pub fn claims_optimal(choice: &SolverChoice) -> bool {
    match choice {
        SolverChoice::Engine(spec) => known_identity(spec).is_some_and(|i| i.optimal),
        SolverChoice::BuiltIn(_) => false,
    }
}
