//! The depth table's doubling.

use super::*;

#[test]
fn doubling_keeps_every_entry_and_gives_up_when_the_poll_says_stop() {
    let mut table = DepthTable::<PackedSlot>::new();
    for key in 1..1500u64 {
        let index = table.find(key * 7919);
        table.slots[index] = PackedSlot::new(key * 7919, 3, 1);
        table.len += 1;
    }
    let mut polls = 0;
    let doubled = table
        .doubled(|| {
            polls += 1;
            Ok::<(), ()>(())
        })
        .unwrap_or_else(|()| unreachable!());
    assert!(polls >= 1);
    assert_eq!(doubled.slots.len(), 2 * table.slots.len());
    for key in 1..1500u64 {
        let slot = doubled.slots[doubled.find(key * 7919)];
        assert_eq!((slot.key(), slot.height()), (key * 7919, 3));
    }
    assert!(table.doubled(|| Err(())).is_err());
}
