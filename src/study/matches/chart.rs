//! A match as a picture (`match --plot`): each pair's time ratio and its 95% interval after
//! each puzzle, so that one sees the estimate settle and the interval close as the run goes.

use super::MatchReport;
use crate::print::Rgb;
use crate::print::chart::{Axis, Chart, Data, Series, Ticks, series_rgb};

/// The colour of the line at a ratio of 1.
const EVEN: Rgb = Rgb(128, 128, 128);

/// Each pair's ratio and interval as the match went, one point each time a pair gains a
/// puzzle; fed the running report after each puzzle ([`RatioHistory::record`]).
#[derive(Clone, Debug, Default)]
pub struct RatioHistory {
    tracks: Vec<Track>,
}

/// One pair's points: (puzzles both finished, value).
#[derive(Clone, Debug)]
struct Track {
    name: String,
    ratio: Vec<[f64; 2]>,
    low: Vec<[f64; 2]>,
    high: Vec<[f64; 2]>,
}

impl RatioHistory {
    /// Adds the pairs' figures of a running report, where a pair has a ratio over more puzzles
    /// than last time.
    pub fn record(&mut self, report: &MatchReport) {
        for pair in &report.pairs {
            let name = format!("{} / {}", pair.other, pair.base);
            let index = match self.tracks.iter().position(|t| t.name == name) {
                Some(index) => index,
                None => {
                    self.tracks.push(Track {
                        name,
                        ratio: Vec::new(),
                        low: Vec::new(),
                        high: Vec::new(),
                    });
                    self.tracks.len() - 1
                }
            };
            let track = &mut self.tracks[index];
            let x = pair.puzzles as f64;
            let Some(ratio) = pair.ratio else { continue };
            if track.ratio.last().is_some_and(|last| last[0] >= x) {
                continue;
            }
            track.ratio.push([x, ratio]);
            if let Some((low, high)) = pair.interval {
                track.low.push([x, low]);
                track.high.push([x, high]);
            }
        }
    }

    /// The chart: puzzles across, the ratio up, a line with points per pair and its interval's
    /// bounds dashed in the same colour, and a dashed line at 1 (as fast as the first solver).
    pub fn chart(&self) -> Chart {
        let mut series = Vec::new();
        for (index, track) in self.tracks.iter().enumerate() {
            let color = series_rgb(index);
            series.push(Series::new(
                track.name.clone(),
                color,
                Data::LinePoints(track.ratio.clone()),
            ));
            for bound in [&track.low, &track.high] {
                let points = bound.clone();
                series.push(
                    Series::new(
                        format!("{} 95% interval", track.name),
                        color,
                        Data::Line {
                            points,
                            dashed: true,
                        },
                    )
                    .unlisted(),
                );
            }
        }
        // Grey, so that it reads as the scale's mark rather than one more pair.
        series.push(Series::new("as fast", EVEN, Data::HLine(1.0)).unlisted());
        Chart {
            title: "Time ratio with its 95% interval, as the match went".into(),
            x: Axis::new("puzzles timed by both", Ticks::Whole).including([0.0]),
            y: Axis::new("time ratio", Ticks::Numbers).including([1.0]),
            series,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::matches::stats::PairStats;

    fn report(puzzles: usize, ratio: Option<f64>, interval: Option<(f64, f64)>) -> MatchReport {
        MatchReport {
            puzzles: 10,
            complete: puzzles,
            solvers: Vec::new(),
            pairs: vec![PairStats {
                base: "bfs".into(),
                other: "iddfs".into(),
                puzzles,
                ratio,
                interval,
                wins: 0,
                losses: 0,
                ties: 0,
            }],
            decision: None,
            problems: Vec::new(),
        }
    }

    #[test]
    fn a_pair_gains_a_point_per_new_puzzle_and_its_interval_once_it_has_one() {
        let mut history = RatioHistory::default();
        history.record(&report(0, None, None));
        history.record(&report(1, Some(2.0), None));
        history.record(&report(1, Some(2.0), None));
        history.record(&report(2, Some(1.5), Some((0.5, 4.0))));
        let chart = history.chart();
        assert_eq!(chart.series[0].name, "iddfs / bfs");
        assert_eq!(
            chart.series[0].data,
            Data::LinePoints(vec![[1.0, 2.0], [2.0, 1.5]])
        );
        let dashed = |points: Vec<[f64; 2]>| Data::Line {
            points,
            dashed: true,
        };
        assert_eq!(chart.series[1].data, dashed(vec![[2.0, 0.5]]));
        assert_eq!(chart.series[2].data, dashed(vec![[2.0, 4.0]]));
        assert_eq!(chart.series[3].data, Data::HLine(1.0));
        assert_eq!(chart.series.iter().filter(|s| s.in_legend).count(), 1);
    }
}
