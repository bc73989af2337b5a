//! One result row of an experiment, and the CSV file rows are streamed to.

use super::description::StudyDescription;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How one run of one solver on one configuration ended, judged against the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Found a solution with the baseline's (optimal) move count.
    Optimal,
    /// Found a valid solution with more moves than the baseline.
    Suboptimal,
    /// Claimed a solution that failed its replay, or one shorter than the baseline's optimum
    /// (which means one of the two solvers is wrong).
    Invalid,
    /// Ran out of time.
    Timeout,
    /// Ran out of memory budget.
    Memory,
    /// Was cancelled (such rows are not written, so a resumed run repeats them).
    Cancelled,
    /// Finished without finding a solution although one exists (or proved none exists).
    Unsolved,
    /// Found a solution, but the baseline did not finish, so optimality is unknown.
    Unknown,
}

impl Status {
    /// The name written in CSV files: serde's own spelling of the variant, so the two cannot
    /// drift apart.
    pub fn name(self) -> &'static str {
        // A unit variant serializes as its kebab-case name; the names are few and fixed, so
        // they are made once and looked up rather than allocated on every call.
        const ALL: [Status; 8] = [
            Status::Optimal,
            Status::Suboptimal,
            Status::Invalid,
            Status::Timeout,
            Status::Memory,
            Status::Cancelled,
            Status::Unsolved,
            Status::Unknown,
        ];
        static NAMES: std::sync::OnceLock<Vec<(Status, String)>> = std::sync::OnceLock::new();
        let names = NAMES.get_or_init(|| {
            ALL.iter()
                .map(|&status| {
                    let json = serde_json::to_string(&status).unwrap_or_default();
                    (status, json.trim_matches('"').to_string())
                })
                .collect()
        });
        names
            .iter()
            .find(|(status, _)| *status == self)
            .map_or("", |(_, name)| name.as_str())
    }
}

/// One solver's run on one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The configuration's index in the experiment (0-based).
    pub config: u64,
    /// The seed its robots and target (and, on standard boards, its tiles) were dealt from.
    pub config_seed: u64,
    /// Its game id when it has one (standard boards), so it can be opened directly.
    pub puzzle: String,
    /// The solver's command-line name.
    pub solver: String,
    /// The baseline's move count, when the baseline finished.
    pub required_moves: Option<u32>,
    /// The solver's move count, when it found (or claimed) a solution.
    pub found_moves: Option<u32>,
    /// The judgement.
    pub status: Status,
    /// Wall-clock time of the run in milliseconds.
    pub millis: f64,
    /// Nodes the solver counted.
    pub nodes: u64,
    /// The solver's peak memory estimate in bytes.
    pub peak_memory_bytes: u64,
}

/// Why a results file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// Reading or writing failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A row that does not parse.
    #[error("{}: row {row}: {message}", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based data row.
        row: usize,
        /// What is wrong.
        message: String,
    },
    /// Another run holds the file.
    #[error(
        "{}: {holder} is writing this file; wait for it to end or choose another --out",
        path.display()
    )]
    Busy {
        /// The file.
        path: PathBuf,
        /// The process that holds it, in words.
        holder: String,
    },
}

/// A results file as read: the description of the study its rows come from, when the file
/// has one (files written before descriptions were kept, and exports of some rows, have none),
/// and its rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// The study the rows come from.
    pub description: Option<StudyDescription>,
    /// The rows, in file order.
    pub records: Vec<Record>,
}

/// Reads every complete row of a results file. A last line cut off by an interrupted write
/// (no final newline) is ignored; it is removed when the file is opened for appending.
pub fn read_records(path: &Path) -> Result<Vec<Record>, ResultsError> {
    read_results(path).map(|results| results.records)
}

/// Reads a results file: its study description, if any, and every complete row (see
/// [`read_records`]).
pub fn read_results(path: &Path) -> Result<Results, ResultsError> {
    let io = |error| ResultsError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut text = String::new();
    File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(io)?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let row_error = |(row, message)| ResultsError::Row {
        path: path.to_path_buf(),
        row,
        message,
    };
    let description = match complete
        .lines()
        .next()
        .and_then(StudyDescription::parse_line)
    {
        None => None,
        Some(parsed) => Some(parsed.map_err(|error| row_error((0, error.to_string())))?),
    };
    let records = parse_records(complete).map_err(row_error)?;
    Ok(Results {
        description,
        records,
    })
}

/// Parses CSV text with a header row into records; errors carry the 1-based data row. Lines
/// that start with `#` (the study description) are not rows.
pub fn parse_records(text: &str) -> Result<Vec<Record>, (usize, String)> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut records = Vec::new();
    for (i, row) in reader.deserialize().enumerate() {
        records.push(row.map_err(|e: csv::Error| (i + 1, e.to_string()))?);
    }
    Ok(records)
}

/// Writes a results file's text: the study's description line, when there is one, then the
/// records as CSV with a header row.
pub fn results_to_csv(description: Option<&StudyDescription>, records: &[Record]) -> String {
    let line = description.map(StudyDescription::line).unwrap_or_default();
    line + &records_to_csv(records)
}

/// Writes records as CSV text with a header row (the header alone when there are none).
pub fn records_to_csv(records: &[Record]) -> String {
    if records.is_empty() {
        return HEADER.to_string();
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    for record in records {
        // Serialising plain records into memory cannot fail.
        writer.serialize(record).expect("records serialise");
    }
    let bytes = writer.into_inner().expect("an in-memory writer flushes");
    String::from_utf8(bytes).expect("CSV of records is UTF-8")
}

/// The header row, the field names of [`Record`] in order. (The csv crate writes headers only
/// together with a first record, and a new file needs one before any record exists.)
const HEADER: &str = "config,config_seed,puzzle,solver,required_moves,found_moves,status,millis,nodes,peak_memory_bytes\n";

/// Appends rows to a results file as they are produced, flushing each so that an interrupted
/// run keeps every finished row. The writer holds an exclusive lock on the file for as long as
/// it lives, so a second run on the same file (a fresh one, a `--resume`) is refused instead of
/// splicing its rows into the first one's.
pub struct ResultsWriter {
    path: PathBuf,
    file: File,
}

impl ResultsWriter {
    /// Creates a new file (with the study's description line and a header) or, when `append`
    /// is set, opens an existing one and cuts off a trailing incomplete line. Fails with
    /// [`ResultsError::Busy`] when another writer holds the file.
    pub fn open(
        path: &Path,
        append: bool,
        description: &StudyDescription,
    ) -> Result<ResultsWriter, ResultsError> {
        let io = |error| ResultsError::Io {
            path: path.to_path_buf(),
            error,
        };
        let existed = path.exists();
        // A new file is made whole with its first lines, written to a temporary file that is
        // renamed into place: the name never holds an empty or cut file, which a retry would
        // refuse as existing or take for a run to resume (a write past the file-size limit, a
        // full disk, a kill). A file another run made meanwhile is then opened as any other.
        if !existed {
            use crate::model::formats::{FormatError, Overwrite, save_atomic_with};
            match save_atomic_with(path, &(description.line() + HEADER), Overwrite::Refuse) {
                Ok(()) | Err(FormatError::Exists { .. }) => {}
                Err(FormatError::Io { error, .. }) => return Err(io(error)),
                Err(other) => return Err(io(std::io::Error::other(other.to_string()))),
            }
        }
        // The first lines of a file made above are kept as a resumed run's are.
        let append = append || !existed;
        // Opened without truncating: nothing is cut until the lock is held, or a second run
        // would empty the file of the run that holds it.
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        if let Err(holder) = crate::study::held_file::try_hold(&file).map_err(io)? {
            return Err(ResultsError::Busy {
                path: path.to_path_buf(),
                holder,
            });
        }
        let mut text = String::new();
        if !append {
            file.set_len(0).map_err(io)?;
        } else {
            file.read_to_string(&mut text).map_err(io)?;
            let keep = text.rfind('\n').map_or(0, |i| i + 1);
            file.set_len(keep as u64).map_err(io)?;
            text.truncate(keep);
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        let mut writer = ResultsWriter {
            path: path.to_path_buf(),
            file,
        };
        // An existing empty file (an earlier version could leave one) gets its first lines.
        if text.is_empty() {
            writer.write_raw(&(description.line() + HEADER))?;
        }
        Ok(writer)
    }

    /// Appends one row and flushes it to disk.
    pub fn append(&mut self, record: &Record) -> Result<(), ResultsError> {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        writer.serialize(record).map_err(|e| ResultsError::Row {
            path: self.path.clone(),
            row: 0,
            message: e.to_string(),
        })?;
        let bytes = writer.into_inner().map_err(|e| ResultsError::Io {
            path: self.path.clone(),
            error: e.into_error(),
        })?;
        self.write_raw(&String::from_utf8_lossy(&bytes))
    }

    fn write_raw(&mut self, text: &str) -> Result<(), ResultsError> {
        // One write per row: a crash cuts at most the row being written, which the next open
        // in append mode removes.
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| ResultsError::Io {
                path: self.path.clone(),
                error,
            })
    }
}

/// The rows already in a file, keyed by configuration and solver.
pub fn done_runs(records: &[Record]) -> BTreeMap<(u64, String), Record> {
    records
        .iter()
        .map(|r| ((r.config, r.solver.clone()), r.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(config: u64, solver: &str, status: Status, millis: f64) -> Record {
        Record {
            config,
            config_seed: 100 + config,
            puzzle: "7650+42+E2302B12+C9".into(),
            solver: solver.into(),
            required_moves: Some(7),
            found_moves: Some(7),
            status,
            millis,
            nodes: 42,
            peak_memory_bytes: 1024,
        }
    }

    #[test]
    fn header_names_the_record_fields() {
        let text = records_to_csv(&[record(0, "iddfs", Status::Optimal, 1.0)]);
        assert_eq!(text.lines().next().unwrap(), HEADER.trim_end());
    }

    #[test]
    fn csv_round_trip_keeps_every_field() {
        let mut records = vec![
            record(0, "iddfs", Status::Optimal, 1.5),
            record(1, "stateless", Status::Suboptimal, 0.25),
        ];
        records[1].found_moves = None;
        records[1].required_moves = None;
        records[1].puzzle = String::new();
        let text = records_to_csv(&records);
        assert_eq!(parse_records(&text).unwrap(), records);
    }

    #[test]
    fn appending_survives_a_cut_off_last_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.csv");
        let mut writer = ResultsWriter::open(&path, false, &StudyDescription::for_tests()).unwrap();
        writer
            .append(&record(0, "iddfs", Status::Optimal, 1.0))
            .unwrap();
        writer
            .append(&record(1, "iddfs", Status::Optimal, 2.0))
            .unwrap();
        drop(writer);
        // An interrupted write leaves half a row.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"2,102,,iddfs,7").unwrap();
        drop(file);
        assert_eq!(read_records(&path).unwrap().len(), 2);
        let mut writer = ResultsWriter::open(&path, true, &StudyDescription::for_tests()).unwrap();
        writer
            .append(&record(2, "iddfs", Status::Optimal, 3.0))
            .unwrap();
        let rows = read_records(&path).unwrap();
        assert_eq!(
            rows.iter().map(|r| r.config).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
    }
}
