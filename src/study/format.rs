//! How the program writes times, rates and sizes for people: the tables of `bench`,
//! `accuracy` and `experiment`, and every figure of the app, so that one figure reads the same
//! wherever it is shown.

use std::time::Duration;

/// A duration with a unit chosen by size: "450 µs", "3.27 ms", "412 ms", "3.27 s",
/// "2 min 05 s".
pub fn format_time(time: Duration) -> String {
    let secs = time.as_secs_f64();
    if secs < 0.001 {
        format!("{:.0} µs", secs * 1e6)
    } else if secs < 0.01 {
        format!("{:.2} ms", secs * 1e3)
    } else if secs < 1.0 {
        format!("{:.0} ms", secs * 1e3)
    } else if secs < 60.0 {
        format!("{secs:.2} s")
    } else {
        let whole = time.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

/// Milliseconds as [`format_time`] writes them (a negative or unknown count as none).
pub fn format_ms(ms: f64) -> String {
    format_time(Duration::try_from_secs_f64(ms / 1e3).unwrap_or(Duration::ZERO))
}

/// A time still to wait, to the second or the minute: "12 s", "3 min 20 s", "1 h 05 min".
pub fn format_eta(eta: Duration) -> String {
    let secs = eta.as_secs();
    if secs >= 3600 {
        format!("{} h {:02} min", secs / 3600, (secs % 3600) / 60)
    } else if secs >= 60 {
        format!("{} min {:02} s", secs / 60, secs % 60)
    } else {
        format!("{secs} s")
    }
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

/// Bytes as KiB below one MiB, MiB with one decimal below ten, whole MiB above.
pub fn format_bytes(bytes: usize) -> String {
    let mib = bytes as f64 / f64::from(1 << 20);
    if bytes < 1 << 20 {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    } else if mib < 10.0 {
        format!("{mib:.1} MiB")
    } else {
        format!("{mib:.0} MiB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_take_the_unit_that_fits() {
        assert_eq!(format_ms(0.45), "450 µs");
        assert_eq!(format_ms(3.274), "3.27 ms");
        assert_eq!(format_ms(12.34), "12 ms");
        assert_eq!(format_ms(1234.0), "1.23 s");
        assert_eq!(format_ms(-1.0), "0 µs");
        assert_eq!(format_time(Duration::from_millis(412)), "412 ms");
        assert_eq!(format_time(Duration::from_millis(40_000)), "40.00 s");
        assert_eq!(format_time(Duration::from_secs(125)), "2 min 05 s");
        assert_eq!(format_eta(Duration::from_secs(12)), "12 s");
        assert_eq!(format_eta(Duration::from_secs(200)), "3 min 20 s");
        assert_eq!(format_eta(Duration::from_secs(3900)), "1 h 05 min");
    }

    #[test]
    fn sizes_take_the_unit_that_fits() {
        assert_eq!(format_bytes(512 << 10), "512 KiB");
        assert_eq!(format_bytes(3 << 19), "1.5 MiB");
        assert_eq!(format_bytes(64 << 20), "64 MiB");
    }
}
