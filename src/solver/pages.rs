//! How big search tables ask the system for memory pages: huge pages where they help, and a
//! report of how many the process got. Shared by the table-driven solvers (`fast`, `iddfs`).

use super::Pages;

/// The bytes of this process's anonymous memory backed by huge pages (`AnonHugePages` of
/// `/proc/self/smaps_rollup`), on Linux; `None` elsewhere.
pub fn anon_huge_page_bytes() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let text = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
        let line = text.lines().find(|l| l.starts_with("AnonHugePages:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// Asks the kernel to back a big table (`bytes` bytes from `start`, allocated but not yet
/// written) with 2 MiB pages before it is first written: lookups land at random places, and
/// with 4 KiB pages nearly every one would also miss the address translation cache. Only a
/// hint; where it is not available nothing changes.
pub fn advise_huge_pages(start: *const u8, bytes: usize) {
    advise_pages(start, bytes, Pages::Huge);
}

/// Asks the kernel for huge pages ([`advise_huge_pages`]) or, for [`Pages::Small`], for none
/// even where it would otherwise give them.
pub fn advise_pages(start: *const u8, bytes: usize, pages: Pages) {
    if bytes < 4 << 20 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        // madvise wants a page-aligned start: advise the whole pages inside the allocation.
        const PAGE: usize = 4096;
        let start = start as usize;
        let aligned = start.next_multiple_of(PAGE);
        let length = (start + bytes - aligned) / PAGE * PAGE;
        let advice = match pages {
            Pages::Huge => libc::MADV_HUGEPAGE,
            Pages::Small => libc::MADV_NOHUGEPAGE,
        };
        // SAFETY: the range lies inside the caller's allocation of `bytes` bytes; madvise only
        // changes how the kernel backs those pages, never their content.
        unsafe {
            libc::madvise(aligned as *mut libc::c_void, length, advice);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, pages);
}
