//! How the studies write times, rates and sizes, so the tables of `bench`, `accuracy`,
//! `experiment` and the app's Experiments view read alike.

use std::time::Duration;

/// Milliseconds with a unit chosen by size: "1.23 s", "12.3 ms", "450 µs".
pub fn format_ms(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms >= 1.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.0} µs", ms * 1000.0)
    }
}

/// A duration as [`format_ms`] writes it.
pub fn format_time(time: Duration) -> String {
    format_ms(time.as_secs_f64() * 1e3)
}

/// A rate per second with a k or M prefix.
pub fn format_rate(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

/// Bytes as whole MiB, or KiB below one MiB.
pub fn format_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.0} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}

/// The median of some values; 0 for none.
pub fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_take_the_unit_that_fits() {
        assert_eq!(format_ms(0.45), "450 µs");
        assert_eq!(format_ms(12.34), "12.3 ms");
        assert_eq!(format_ms(1234.0), "1.23 s");
        assert_eq!(format_time(Duration::from_millis(40_000)), "40.00 s");
    }

    #[test]
    fn median_of_even_and_odd_counts() {
        assert_eq!(median(vec![]), 0.0);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
