//! The few statistics the studies report: mean, median and quantiles of times and move counts,
//! written once so that every table computes them the same way.

/// The mean of some values; `None` for none.
pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, count) = values
        .into_iter()
        .fold((0.0, 0u64), |(sum, count), value| (sum + value, count + 1));
    (count > 0).then(|| sum / count as f64)
}

/// The median of some values (the mean of the middle two for an even count); 0 for none.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    quantile(&values, 0.5)
}

/// The `q` quantile of sorted values by linear interpolation; 0 for none.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0],
        n => {
            let at = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let low = at.floor() as usize;
            let high = at.ceil() as usize;
            sorted[low] + (sorted[high] - sorted[low]) * (at - low as f64)
        }
    }
}

/// The `q` quantile of sorted values by nearest rank: the smallest value with at least `q` of
/// the values at or below it, so always one that was measured; 0 for none.
pub fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_count_every_value_and_none_for_nothing() {
        assert_eq!(mean([]), None);
        assert_eq!(mean([2.0, 4.0, 9.0]), Some(5.0));
    }

    #[test]
    fn medians_of_even_and_odd_counts() {
        assert_eq!(median(vec![]), 0.0);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn quantiles_interpolate() {
        assert_eq!(quantile(&[], 0.5), 0.0);
        assert_eq!(quantile(&[4.0], 0.9), 4.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 1.0), 4.0);
    }

    #[test]
    fn nearest_ranks_are_measured_values() {
        assert_eq!(nearest_rank(&[], 0.5), 0.0);
        assert_eq!(nearest_rank(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.0);
        assert_eq!(nearest_rank(&[1.0, 2.0, 3.0, 4.0], 0.99), 4.0);
        assert_eq!(nearest_rank(&[1.0, 2.0, 3.0, 4.0], 0.0), 1.0);
    }
}
