//! The statistics of a match: the paired per-puzzle time ratio of two solvers as a geometric
//! mean with a 95% confidence interval, wins and losses, and a sequential probability ratio
//! test that says when the ratio is decided.
//!
//! Times are paired by puzzle: each ratio is solver B's time over solver A's on one puzzle,
//! so the puzzles' own difficulty cancels out. The ratios are averaged on a log scale (a
//! geometric mean), where a puzzle twice as fast and one twice as slow balance; the interval is
//! Student's t interval of the mean log ratio, turned back into a ratio.

use serde::Serialize;

/// The paired comparison of two solvers over the puzzles both finished.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairStats {
    /// The solver the ratio is over (the first one named).
    pub base: String,
    /// The solver compared with it.
    pub other: String,
    /// Puzzles both finished with a time.
    pub puzzles: usize,
    /// The geometric mean of `other`'s time over `base`'s; `None` without puzzles.
    pub ratio: Option<f64>,
    /// The 95% confidence interval of the ratio; `None` below two puzzles.
    pub interval: Option<(f64, f64)>,
    /// Puzzles `other` finished faster.
    pub wins: usize,
    /// Puzzles `other` finished slower.
    pub losses: usize,
    /// Puzzles both took the same time (to the microsecond).
    pub ties: usize,
}

/// Student's t quantile for a two-sided 95% interval with `df` degrees of freedom.
pub fn t_quantile_95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        // Past 30 degrees of freedom, a series in 1/df is within 0.001 of the exact value.
        _ => {
            let d = df as f64;
            1.959_964 + 2.372 / d + 2.8 / (d * d)
        }
    }
}

/// The mean and the sample standard deviation of `values` (0 below two values).
pub fn mean_and_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// The shortest time a ratio uses, in seconds: a run timed at zero would make its ratio
/// infinite.
const TIME_FLOOR: f64 = 1e-6;

/// The paired statistics of `other` against `base` over `pairs` of (base's, other's) times
/// in seconds, one pair per puzzle both finished.
pub fn pair_stats(base: &str, other: &str, pairs: &[(f64, f64)]) -> PairStats {
    let logs: Vec<f64> = pairs
        .iter()
        .map(|(a, b)| (b.max(TIME_FLOOR) / a.max(TIME_FLOOR)).ln())
        .collect();
    let (mean, sd) = mean_and_sd(&logs);
    let n = logs.len();
    let half = t_quantile_95(n.saturating_sub(1)) * sd / (n as f64).sqrt();
    let micros = |s: f64| (s * 1e6).round() as i64;
    PairStats {
        base: base.to_string(),
        other: other.to_string(),
        puzzles: n,
        ratio: (n > 0).then(|| mean.exp()),
        interval: (n > 1).then(|| ((mean - half).exp(), (mean + half).exp())),
        wins: pairs
            .iter()
            .filter(|(a, b)| micros(*b) < micros(*a))
            .count(),
        losses: pairs
            .iter()
            .filter(|(a, b)| micros(*b) > micros(*a))
            .count(),
        ties: pairs
            .iter()
            .filter(|(a, b)| micros(*b) == micros(*a))
            .count(),
    }
}

/// What the sequential test concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Not yet decided: more puzzles are needed.
    Open,
    /// The ratio differs from 1 by at least the margin: `other` is faster.
    Faster,
    /// The ratio differs from 1 by at least the margin: `other` is slower.
    Slower,
    /// The ratio is within the margin of 1: no difference worth the name.
    Same,
}

/// The sequential test's settings: the margin a ratio must differ from 1 by to count, the
/// error rates, and the fewest puzzles before a decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// How far from 1 a ratio counts as a difference (0.05: 5%).
    pub margin: f64,
    /// The chance of calling a difference where there is none.
    pub alpha: f64,
    /// The chance of missing a difference of the margin.
    pub beta: f64,
    /// No decision before this many puzzles: the spread is estimated from the data.
    pub min_puzzles: usize,
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            margin: 0.05,
            alpha: 0.05,
            beta: 0.05,
            min_puzzles: 20,
        }
    }
}

impl Sprt {
    /// The test over the log ratios so far: H0, the mean log ratio is 0, against H1, it is
    /// ±ln(1 + margin) on the side the data lean to, with the spread estimated from the data
    /// (Wald's test for a normal mean). Decided when the log-likelihood ratio leaves
    /// (ln(β/(1−α)), ln((1−β)/α)).
    pub fn decide(&self, log_ratios: &[f64]) -> (Decision, f64) {
        let n = log_ratios.len();
        let (mean, sd) = mean_and_sd(log_ratios);
        if n < self.min_puzzles.max(2) || sd <= 0.0 {
            return (Decision::Open, 0.0);
        }
        let delta = (1.0 + self.margin).ln() * if mean < 0.0 { -1.0 } else { 1.0 };
        let llr = n as f64 * (mean * delta - delta * delta / 2.0) / (sd * sd);
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let decision = if llr >= upper {
            if mean < 0.0 {
                Decision::Faster
            } else {
                Decision::Slower
            }
        } else if llr <= lower {
            Decision::Same
        } else {
            Decision::Open
        };
        (decision, llr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_ratio_is_its_own_geometric_mean() {
        let pairs: Vec<(f64, f64)> = (1..=10).map(|i| (i as f64, 2.0 * i as f64)).collect();
        let stats = pair_stats("a", "b", &pairs);
        assert!((stats.ratio.unwrap() - 2.0).abs() < 1e-9);
        let (low, high) = stats.interval.unwrap();
        assert!((low - 2.0).abs() < 1e-9 && (high - 2.0).abs() < 1e-9);
        assert_eq!((stats.wins, stats.losses, stats.ties), (0, 10, 0));
    }

    #[test]
    fn twice_as_fast_and_twice_as_slow_balance() {
        let stats = pair_stats("a", "b", &[(1.0, 2.0), (2.0, 1.0)]);
        assert!((stats.ratio.unwrap() - 1.0).abs() < 1e-9);
        let (low, high) = stats.interval.unwrap();
        assert!(low < 1.0 && high > 1.0);
        assert_eq!((stats.wins, stats.losses), (1, 1));
    }

    #[test]
    fn the_interval_narrows_with_more_puzzles_and_covers_the_true_ratio() {
        // Ratios 1.5 × e^(±0.2), alternating: the true geometric mean is 1.5.
        let pairs = |n: usize| -> Vec<(f64, f64)> {
            (0..n)
                .map(|i| {
                    let noise = if i % 2 == 0 { 0.2 } else { -0.2 };
                    (1.0, 1.5 * f64::exp(noise))
                })
                .collect()
        };
        let small = pair_stats("a", "b", &pairs(4)).interval.unwrap();
        let large = pair_stats("a", "b", &pairs(400)).interval.unwrap();
        assert!(large.1 - large.0 < small.1 - small.0);
        assert!(large.0 < 1.5 && 1.5 < large.1);
    }

    #[test]
    fn the_sequential_test_decides_a_clear_difference_and_a_clear_sameness() {
        let sprt = Sprt::default();
        let noisy = |center: f64, n: usize| -> Vec<f64> {
            (0..n)
                .map(|i| center + if i % 2 == 0 { 0.1 } else { -0.1 })
                .collect()
        };
        assert_eq!(sprt.decide(&noisy(0.5_f64.ln(), 40)).0, Decision::Faster);
        assert_eq!(sprt.decide(&noisy(2.0_f64.ln(), 40)).0, Decision::Slower);
        assert_eq!(sprt.decide(&noisy(0.0, 400)).0, Decision::Same);
        // Too few puzzles decide nothing.
        assert_eq!(sprt.decide(&noisy(0.5_f64.ln(), 5)).0, Decision::Open);
    }

    #[test]
    fn t_quantiles_fall_towards_the_normal_one() {
        assert!((t_quantile_95(1) - 12.706).abs() < 1e-9);
        assert!((t_quantile_95(30) - 2.042).abs() < 1e-9);
        assert!((t_quantile_95(60) - 2.000).abs() < 0.002);
        assert!((t_quantile_95(10_000) - 1.96).abs() < 0.001);
    }
}
