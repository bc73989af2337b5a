//! The byte code round-trips events, a depth-first walk takes a byte an event, and bytes that
//! are no events are refused.

use super::*;
use crate::model::parse_moves;

fn round_trip(events: &[Event]) -> (Vec<u8>, Vec<Decoded>) {
    let mut encoder = Encoder::default();
    let mut bytes = Vec::new();
    let board = Board::new(4, 4).unwrap();
    for event in events {
        encoder.event(&mut bytes, event, &board);
    }
    let mut decoder = Decoder::new(bytes.clone(), Cursor::default());
    let mut decoded = Vec::new();
    while let Some(event) = decoder.next_event().unwrap() {
        decoded.push(event);
    }
    assert_eq!(decoder.cursor, encoder.cursor);
    (bytes, decoded)
}

fn node(path: &str) -> Event {
    let path = if path.is_empty() {
        Vec::new()
    } else {
        parse_moves(path).unwrap()
    };
    Event::Node {
        depth: path.len() as u32,
        cells: crate::solver::RobotCells::new(&[]),
        path,
    }
}

#[test]
fn a_depth_first_walk_takes_one_byte_a_node_and_one_a_prune() {
    let events = vec![
        Event::IterationStarted { depth: 2 },
        node(""),
        node("RN"),
        node("RN GE"),
        Event::Pruned {
            depth: 2,
            reason: PruneReason::DepthLimit,
        },
        node("RN GW"),
        Event::Pruned {
            depth: 2,
            reason: PruneReason::LowerBound {
                bound: 3,
                remaining: 0,
            },
        },
        node("KS"),
        Event::Pruned {
            depth: 1,
            reason: PruneReason::TableHit { stored: 4 },
        },
    ];
    let (bytes, decoded) = round_trip(&events);
    // Two bytes start the iteration, then one byte per event.
    assert_eq!(bytes.len(), 2 + 8);
    assert_eq!(decoded.len(), events.len());
    assert_eq!(
        decoded[7],
        Decoded::Node {
            depth: 1,
            pushed: 1
        }
    );
    assert_eq!(
        decoded[6],
        Decoded::Pruned {
            depth: 2,
            reason: PruneReason::LowerBound {
                bound: 3,
                remaining: 0
            }
        }
    );
}

#[test]
fn a_breadth_first_level_takes_a_byte_for_each_visited_successor() {
    let visited = |depth| Event::Pruned {
        depth,
        reason: PruneReason::Visited,
    };
    // A level as breadth-first searches send it: each node dequeued, then the successors it
    // drops because they were visited before, one level below it.
    let events = vec![
        node("RN"),
        visited(2),
        visited(2),
        node("RE"),
        visited(2),
        node("RE"),
        visited(1),
        visited(3),
    ];
    let (bytes, decoded) = round_trip(&events);
    // Each event is a byte, but the last prune: two levels below its node, it is written in
    // full (the prune byte, its depth, its reason).
    assert_eq!(bytes.len(), 7 + 3);
    let depths: Vec<u32> = decoded
        .iter()
        .filter_map(|event| match event {
            Decoded::Pruned { depth, .. } => Some(*depth),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [2, 2, 2, 1, 3]);
    // A visited successor needs a node above it.
    let mut decoder = Decoder::new(vec![PRUNE_VISITED_BELOW], Cursor::default());
    assert!(decoder.next_event().is_err());
}

#[test]
fn paths_that_jump_and_rows_round_trip() {
    let events = vec![
        node("RN GE BS"),
        node("YW"),
        node("YW KN GE BS"),
        node("YW"),
        Event::Pruned {
            depth: 7,
            reason: PruneReason::Other("the target cannot be reached from here"),
        },
        Event::IterationFinished(DepthStats {
            depth: 3,
            nodes: 1 << 40,
            inner: 5,
            hits: 6,
            extra: vec![("stored", 9)],
        }),
        Event::Solution {
            moves: parse_moves("RN, GS").unwrap(),
        },
    ];
    let (_, decoded) = round_trip(&events);
    assert_eq!(
        decoded[2],
        Decoded::Node {
            depth: 4,
            pushed: 3
        }
    );
    assert_eq!(
        decoded[3],
        Decoded::Node {
            depth: 1,
            pushed: 0
        }
    );
    assert!(matches!(
        decoded[4],
        Decoded::Pruned {
            reason: PruneReason::Other(_),
            ..
        }
    ));
    assert!(matches!(&decoded[5], Decoded::IterationFinished(row) if row.nodes == 1 << 40));
    assert_eq!(
        decoded[6],
        Decoded::Solution(parse_moves("RN, GS").unwrap())
    );
}

#[test]
fn bytes_that_are_no_events_are_refused_not_panicked_on() {
    for bytes in [
        vec![0xFF],
        vec![0x60],
        vec![POP, 0x05],
        vec![0xE2],
        vec![SOLVER, 0x09, b'a'],
        vec![ITERATION_STARTED, 0x80, 0x80],
        vec![0x14],
    ] {
        let mut decoder = Decoder::new(bytes.clone(), Cursor::default());
        let mut result = Ok(None);
        for _ in 0..4 {
            result = decoder.next_event();
            if result.is_err() || matches!(result, Ok(None)) {
                break;
            }
        }
        assert!(result.is_err(), "{bytes:?} decoded as {result:?}");
    }
}

#[test]
fn generated_successors_take_two_or_three_bytes_and_round_trip() {
    let generated = |path: &str, h: Option<u32>| {
        let path = parse_moves(path).unwrap();
        Event::Generated {
            depth: path.len() as u32,
            cells: crate::solver::RobotCells::new(&[]),
            path,
            h,
        }
    };
    let events = vec![
        node("RN"),
        generated("RN,GE", Some(3)),
        generated("RN,RS", None),
        // Not below the last node: written in full.
        generated("GW", Some(1)),
    ];
    let (bytes, decoded) = round_trip(&events);
    // A node (one byte), two successors of three bytes each (the byte, the move, h + 1), and
    // one in full (the byte, depth, length, one move code, h + 1).
    assert_eq!(bytes.len(), 1 + 3 + 3 + 5);
    let code = |mv: &str| move_code(parse_moves(mv).unwrap()[0]);
    assert_eq!(
        decoded[1..],
        [
            Decoded::Generated {
                depth: 2,
                path: vec![code("RN"), code("GE")],
                h: Some(3),
            },
            Decoded::Generated {
                depth: 2,
                path: vec![code("RN"), code("RS")],
                h: None,
            },
            Decoded::Generated {
                depth: 1,
                path: vec![code("GW")],
                h: Some(1),
            },
        ]
    );
    // A successor needs a node above it.
    let mut decoder = Decoder::new(vec![GENERATED, 0, 0], Cursor::default());
    assert!(decoder.next_event().is_err());
}
