//! Sorting without a sort per element type.
//!
//! Each `sort_by` on a new element or comparator type compiles the whole
//! stable sort again (some 3,000 lines of LLVM IR before optimisation), and
//! code that is not generic is compiled into every build of the crate, the
//! default consumer's included. Sorting positions through a `dyn` comparator
//! compiles it once. For the short lists sorted here (a report's lines, a
//! store's totals) the indirect call costs nothing that shows.

use std::cmp::Ordering;

/// The positions `0..len` in the order `compare` gives them, equal ones in
/// their own order (a stable sort).
pub(crate) fn stable_order(
    len: usize,
    compare: &mut dyn FnMut(usize, usize) -> Ordering,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|a, b| compare(*a, *b));
    order
}

#[cfg(test)]
mod tests {
    use super::stable_order;

    #[test]
    fn orders_positions_and_keeps_equal_ones_in_their_order() {
        let keys = [3, 1, 2, 1, 3, 0];
        let order = stable_order(keys.len(), &mut |a, b| keys[a].cmp(&keys[b]));
        assert_eq!(order, [5, 1, 3, 2, 0, 4]);
        assert!(stable_order(0, &mut |_, _| unreachable!()).is_empty());
    }
}
