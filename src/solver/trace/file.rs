//! The trace file's frame: its header, its blocks with their checkpoints, and its footer
//! (see `docs/trace-format.md`).

use super::codec::Cursor;
use super::{TraceError, TraceHeader, TraceSummary};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The first eight bytes of every trace file.
pub const MAGIC: &[u8; 8] = b"RLTRACE\0";
/// The format version this program writes and the newest it reads.
pub const VERSION: u16 = 4;
/// The first format version whose header ends with a checksum.
pub(crate) const HEADER_CRC_VERSION: u16 = 4;
/// The four bytes that open each block.
pub(crate) const BLOCK_MAGIC: &[u8; 4] = b"RLB1";
/// The four bytes that open the footer.
pub(crate) const FOOTER_MAGIC: &[u8; 4] = b"RLF1";
/// The last eight bytes of a finished trace.
pub(crate) const END_MAGIC: &[u8; 8] = b"RLTREND!";
/// Events are gathered into blocks of about this many bytes; each block starts at a
/// checkpoint, so reaching any event decodes at most one block.
pub const BLOCK_BYTES: usize = 64 * 1024;
/// The largest header, block or footer a reader accepts, so a corrupt length cannot make it
/// allocate without bound.
pub(crate) const MAX_PART_BYTES: u32 = 64 * 1024 * 1024;
/// The size of a block's fixed header, before its checkpoint path.
pub(crate) const BLOCK_HEAD_BYTES: usize = 4 + 4 + 8 + 8 + 4 + 4 + 2 + 2 + 2 + 4 + 4 + 2;

/// What a block's header says: where its events start and what the index needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// The block's offset in the file.
    pub offset: u64,
    /// The index of its first event in the trace.
    pub first_event: u64,
    /// The number of node events before it.
    pub first_node: u64,
    /// Its events.
    pub events: u32,
    /// Its node events.
    pub nodes: u32,
    /// The shortest path the cursor had within the block (at its start or after a climb).
    pub low_water: u16,
    /// The longest.
    pub high_water: u16,
    /// Whether every node of the block is a child of the node before it or of one of its
    /// ancestors: the order of a depth-first search.
    pub depth_first: bool,
    /// The cursor at its start.
    pub checkpoint: Cursor,
    /// The length of its event bytes.
    pub payload_len: u32,
}

const NONE: u32 = u32::MAX;

/// Writes a block: header, checkpoint, events, CRC of all of them.
pub(crate) fn encode_block(info: &BlockInfo, payload: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(BLOCK_MAGIC);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&info.first_event.to_le_bytes());
    out.extend_from_slice(&info.first_node.to_le_bytes());
    out.extend_from_slice(&info.events.to_le_bytes());
    out.extend_from_slice(&info.nodes.to_le_bytes());
    out.extend_from_slice(&info.low_water.to_le_bytes());
    out.extend_from_slice(&info.high_water.to_le_bytes());
    out.extend_from_slice(&u16::from(info.depth_first).to_le_bytes());
    out.extend_from_slice(&info.checkpoint.iteration.unwrap_or(NONE).to_le_bytes());
    out.extend_from_slice(&info.checkpoint.node_depth.unwrap_or(NONE).to_le_bytes());
    out.extend_from_slice(&(info.checkpoint.path.len() as u16).to_le_bytes());
    out.extend_from_slice(&info.checkpoint.path);
    out.extend_from_slice(payload);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// Writes the file's header, ending with the CRC of every byte before it (version 4 on), so
/// that a header changed after it was written (another puzzle, another solver) is found.
pub(crate) fn encode_header(header: &TraceHeader) -> Vec<u8> {
    // Serialising a struct of strings and numbers cannot fail.
    let json = serde_json::to_vec(header).unwrap_or_default();
    let mut out = Vec::with_capacity(json.len() + 18);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Writes the footer: the summary, every block's offset, a CRC, and where the footer starts.
pub(crate) fn encode_footer(summary: &TraceSummary, offsets: &[u64], footer_at: u64) -> Vec<u8> {
    let json = serde_json::to_vec(summary).unwrap_or_default();
    let mut out = Vec::new();
    out.extend_from_slice(FOOTER_MAGIC);
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&(offsets.len() as u64).to_le_bytes());
    for offset in offsets {
        out.extend_from_slice(&offset.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&footer_at.to_le_bytes());
    out.extend_from_slice(END_MAGIC);
    out
}

/// Little-endian reads from a slice, failing past its end.
struct Bytes<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// Reads the header at the start of `file`: its version, its JSON (checked against its CRC
/// from version 4 on), and where the blocks start.
pub(crate) fn read_header(
    file: &mut (impl Read + Seek),
    path: &Path,
) -> Result<(TraceHeader, u16, u64), TraceError> {
    let bad = |why: String| TraceError::Corrupt {
        path: path.to_path_buf(),
        why,
    };
    let mut head = [0u8; 14];
    let read = read_up_to(file, &mut head).map_err(|e| TraceError::io(path, e))?;
    if read < 8 || &head[..8] != MAGIC {
        return Err(TraceError::NotATrace(path.to_path_buf()));
    }
    if read < 14 {
        return Err(bad("the file ends inside its header".into()));
    }
    let version = u16::from_le_bytes([head[8], head[9]]);
    if version > VERSION {
        return Err(TraceError::NewerVersion {
            path: path.to_path_buf(),
            version,
        });
    }
    if version == 0 {
        return Err(bad("its format version is 0".into()));
    }
    let len = u32::from_le_bytes([head[10], head[11], head[12], head[13]]);
    if len > MAX_PART_BYTES {
        return Err(bad(format!("its header claims {len} bytes")));
    }
    let mut json = vec![0; len as usize];
    if read_up_to(file, &mut json).map_err(|e| TraceError::io(path, e))? < json.len() {
        return Err(bad("the file ends inside its header".into()));
    }
    let mut blocks_at = 14 + u64::from(len);
    if version >= HEADER_CRC_VERSION {
        let mut crc = [0u8; 4];
        if read_up_to(file, &mut crc).map_err(|e| TraceError::io(path, e))? < 4 {
            return Err(bad("the file ends inside its header".into()));
        }
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(&json);
        if hasher.finalize().to_le_bytes() != crc {
            return Err(bad(
                "its header is damaged (its checksum does not match)".into()
            ));
        }
        blocks_at += 4;
    }
    let header: TraceHeader = serde_json::from_slice(&json)
        .map_err(|e| bad(format!("its header does not parse: {e}")))?;
    Ok((header, version, blocks_at))
}

/// What the end of a trace file holds.
pub(crate) enum Footer {
    /// No end marker: a recording that did not end (or is still going on).
    Missing,
    /// An end marker whose footer does not check out: damage, said in words with where.
    Damaged(String),
    /// The footer: the summary, every block's offset and where the footer starts.
    Found(TraceSummary, Vec<u64>, u64),
}

/// Reads the footer of a finished trace of `len` bytes.
pub(crate) fn read_footer(file: &mut (impl Read + Seek), len: u64) -> std::io::Result<Footer> {
    if len < 16 {
        return Ok(Footer::Missing);
    }
    file.seek(SeekFrom::Start(len - 16))?;
    let mut tail = [0u8; 16];
    file.read_exact(&mut tail)?;
    if &tail[8..] != END_MAGIC {
        return Ok(Footer::Missing);
    }
    let footer_at = u64::from_le_bytes(tail[..8].try_into().unwrap_or_default());
    let damaged = |why: &str| Ok(Footer::Damaged(format!("its footer {why}")));
    let Some(footer_len) = (len - 16).checked_sub(footer_at) else {
        return damaged(&format!("names byte {footer_at}, past the end of the file"));
    };
    if footer_len > u64::from(MAX_PART_BYTES) || footer_len < 16 {
        return damaged(&format!("at byte {footer_at} has an impossible length"));
    }
    file.seek(SeekFrom::Start(footer_at))?;
    let mut footer = vec![0; footer_len as usize];
    file.read_exact(&mut footer)?;
    let (body, crc) = footer.split_at(footer.len() - 4);
    if crc32fast::hash(body).to_le_bytes() != crc {
        return damaged(&format!(
            "at byte {footer_at} is damaged (its checksum does not match)"
        ));
    }
    let mut bytes = Bytes { bytes: body, at: 0 };
    let mut parse = || -> Option<(TraceSummary, Vec<u64>)> {
        if bytes.take(4)? != FOOTER_MAGIC {
            return None;
        }
        let json_len = bytes.u32()? as usize;
        let summary = serde_json::from_slice(bytes.take(json_len)?).ok()?;
        let count = bytes.u64()?;
        if count > (body.len() / 8) as u64 {
            return None;
        }
        let offsets = (0..count)
            .map(|_| bytes.u64())
            .collect::<Option<Vec<_>>>()?;
        Some((summary, offsets))
    };
    Ok(match parse() {
        Some((summary, offsets)) => Footer::Found(summary, offsets, footer_at),
        None => Footer::Damaged(format!("its footer at byte {footer_at} does not read")),
    })
}

/// What reading a block found.
pub(crate) enum BlockRead {
    /// A whole block whose CRC checks out, with its event bytes.
    Block(BlockInfo, Vec<u8>),
    /// The footer or the end of the file: no more blocks.
    End,
    /// The file ends inside a block: a recording cut off (said in words, with where).
    Cut(String),
    /// Bytes that are no block, or a block that fails its checksum: damage.
    Broken(String),
}

/// Reads the block at `offset`, its header and, when `with_payload`, its events (the CRC is
/// checked only then).
pub(crate) fn read_block(
    file: &mut (impl Read + Seek),
    offset: u64,
    with_payload: bool,
) -> std::io::Result<BlockRead> {
    file.seek(SeekFrom::Start(offset))?;
    let mut head = [0u8; BLOCK_HEAD_BYTES];
    let read = read_up_to(file, &mut head)?;
    if read == 0 || (read >= 4 && &head[..4] == FOOTER_MAGIC) {
        return Ok(BlockRead::End);
    }
    if read < BLOCK_HEAD_BYTES {
        return Ok(BlockRead::Cut(format!(
            "the file ends inside the header of the block at byte {offset}"
        )));
    }
    let mut bytes = Bytes {
        bytes: &head,
        at: 0,
    };
    let parsed = (|| {
        if bytes.take(4)? != BLOCK_MAGIC {
            return None;
        }
        let payload_len = bytes.u32()?;
        let first_event = bytes.u64()?;
        let first_node = bytes.u64()?;
        let events = bytes.u32()?;
        let nodes = bytes.u32()?;
        let low_water = bytes.u16()?;
        let high_water = bytes.u16()?;
        let flags = bytes.u16()?;
        let iteration = bytes.u32()?;
        let node_depth = bytes.u32()?;
        let path_len = bytes.u16()?;
        let info = BlockInfo {
            offset,
            first_event,
            first_node,
            events,
            nodes,
            low_water,
            high_water,
            depth_first: flags & 1 != 0,
            // The checkpoint's path follows the fixed header.
            checkpoint: Cursor {
                path: vec![0; usize::from(path_len)],
                node_depth: (node_depth != NONE).then_some(node_depth),
                iteration: (iteration != NONE).then_some(iteration),
            },
            payload_len,
        };
        Some((info, flags))
    })();
    let Some((mut info, flags)) = parsed else {
        return Ok(BlockRead::Broken(format!(
            "no block starts at byte {offset}"
        )));
    };
    if info.payload_len > MAX_PART_BYTES
        || info.nodes > info.events
        || info.low_water > info.high_water
        || flags > 1
    {
        return Ok(BlockRead::Broken(format!(
            "the block at byte {offset} has an impossible header"
        )));
    }
    if read_up_to(file, &mut info.checkpoint.path)? < info.checkpoint.path.len() {
        return Ok(BlockRead::Cut(format!(
            "the file ends inside the block at byte {offset}"
        )));
    }
    let payload_len = info.payload_len;
    let mut payload = Vec::new();
    let mut crc = [0u8; 4];
    if with_payload {
        payload = vec![0; payload_len as usize];
        if read_up_to(file, &mut payload)? < payload.len() || read_up_to(file, &mut crc)? < 4 {
            return Ok(BlockRead::Cut(format!(
                "the file ends inside the block at byte {offset}"
            )));
        }
        let mut whole = Vec::with_capacity(BLOCK_HEAD_BYTES + info.checkpoint.path.len());
        whole.extend_from_slice(&head);
        whole.extend_from_slice(&info.checkpoint.path);
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&whole);
        hasher.update(&payload);
        if hasher.finalize().to_le_bytes() != crc {
            return Ok(BlockRead::Broken(format!(
                "the block at byte {offset} is damaged (its checksum does not match)"
            )));
        }
    }
    Ok(BlockRead::Block(info, payload))
}

/// The length in the file of a block whose header was read.
pub(crate) fn block_len(info: &BlockInfo) -> u64 {
    BLOCK_HEAD_BYTES as u64 + info.checkpoint.path.len() as u64 + u64::from(info.payload_len) + 4
}

/// Reads as many bytes as there are, up to the buffer's length.
fn read_up_to(file: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
