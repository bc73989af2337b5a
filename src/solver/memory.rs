//! Memory accounting of the breadth-first searches' tables: the bytes a node list and a hash
//! set hold, laid out as the standard library lays them out, and growth that is reported at
//! its new size before it happens, so a run stops at its memory limit first.

use super::probe::Probe;
use super::{Search, Stop};
use rustc_hash::FxHashSet;

/// The bytes a node list holds: its whole capacity.
pub(crate) fn nodes_bytes<T>(nodes: &Vec<T>) -> usize {
    nodes.capacity() * std::mem::size_of::<T>()
}

/// The capacity a node list grows to when `extra` more entries do not fit: doubled, at least
/// enough, and never below 1,024.
pub(crate) fn grown_capacity<T>(nodes: &Vec<T>, extra: usize) -> usize {
    (nodes.capacity() * 2).max(nodes.len() + extra).max(1024)
}

/// Makes room for `extra` more entries in a node list, reporting the bytes it will hold (with
/// `other` bytes held elsewhere) before it grows, so the run stops at its memory limit first.
pub(crate) fn reserve_nodes_within<T, P: Probe>(
    nodes: &mut Vec<T>,
    other: usize,
    extra: usize,
    search: &mut Search<'_, P>,
) -> Result<(), Stop> {
    if nodes.len() + extra <= nodes.capacity() {
        return Ok(());
    }
    let capacity = grown_capacity(nodes, extra);
    search.set_memory(capacity.saturating_mul(std::mem::size_of::<T>()) + other)?;
    nodes
        .try_reserve_exact(capacity - nodes.len())
        .map_err(|_| Stop::MemoryLimit)?;
    search.set_memory(nodes_bytes(nodes) + other)
}

/// The bytes a node list and a visited set hold: their whole capacity, and for the set its
/// buckets (a key and a control byte each) as the standard hash table lays them out.
pub(crate) fn table_bytes<T, K>(nodes: &Vec<T>, visited: &FxHashSet<K>) -> usize {
    nodes_bytes(nodes)
        + set_bytes(
            buckets_for_capacity(visited.capacity()),
            std::mem::size_of::<K>(),
        )
}

/// The buckets behind a hash set that reports this capacity (7/8 of the buckets from 8 on).
pub(crate) fn buckets_for_capacity(capacity: usize) -> usize {
    match capacity {
        0 => 0,
        1..7 => capacity + 1,
        _ => capacity / 7 * 8,
    }
}

/// The buckets a hash set allocates to hold `items` entries.
pub(crate) fn buckets_to_hold(items: usize) -> usize {
    match items {
        0 => 0,
        1..4 => 4,
        4..8 => 8,
        _ => (items.saturating_mul(8) / 7).next_power_of_two(),
    }
}

/// The bytes of a hash table with this many buckets of `key` bytes: one control byte per
/// bucket plus one group of 16 for the wrap-around.
pub(crate) fn set_bytes(buckets: usize, key: usize) -> usize {
    if buckets == 0 {
        return 0;
    }
    buckets * (key + 1) + 16
}

/// Makes room for `extra` more entries in a node list and its visited set. A table that must
/// grow (doubling) is first reported at the size it will have, so the run stops at its memory
/// limit before it holds more; the size it then has is recorded.
pub(crate) fn reserve_within<T, K: std::hash::Hash + Eq, P: Probe>(
    nodes: &mut Vec<T>,
    visited: &mut FxHashSet<K>,
    extra: usize,
    search: &mut Search<'_, P>,
) -> Result<(), Stop> {
    let grow_nodes = nodes.len() + extra > nodes.capacity();
    let grow_set = visited.len() + extra > visited.capacity();
    if !grow_nodes && !grow_set {
        return Ok(());
    }
    let node_capacity = if grow_nodes {
        grown_capacity(nodes, extra)
    } else {
        nodes.capacity()
    };
    // Asking for one more than the capacity makes the set double, as it does on its own.
    let set_items = if grow_set {
        (visited.len() + extra)
            .max(visited.capacity() + 1)
            .max(1024)
    } else {
        visited.capacity()
    };
    let buckets = if grow_set {
        buckets_to_hold(set_items)
    } else {
        buckets_for_capacity(visited.capacity())
    };
    let planned = node_capacity.saturating_mul(std::mem::size_of::<T>())
        + set_bytes(buckets, std::mem::size_of::<K>());
    search.set_memory(planned)?;
    if grow_nodes {
        nodes
            .try_reserve_exact(node_capacity - nodes.len())
            .map_err(|_| Stop::MemoryLimit)?;
    }
    if grow_set {
        visited
            .try_reserve(set_items - visited.len())
            .map_err(|_| Stop::MemoryLimit)?;
    }
    search.set_memory(table_bytes(nodes, visited))
}

/// The bytes a standard hash table holding up to `capacity` entries of `entry` bytes takes:
/// one slot of the entry and one control byte per bucket, with buckets at most 7/8 full.
pub(crate) fn hash_table_bytes(capacity: usize, entry: usize) -> usize {
    capacity.saturating_mul(8) / 7 * (entry + 1)
}
