//! `ricochet-lab install-desktop`: the desktop entry, the puzzle file type and the icon, for
//! the current user, as freedesktop.org desktops (GNOME, KDE, Xfce, ...) look for them under
//! `$XDG_DATA_HOME` (`~/.local/share` when unset):
//!
//! - `applications/ricochet-lab.desktop`: the launcher entry, which runs this very program
//!   (its absolute path) with the file to open, and names the puzzle file type;
//! - `mime/packages/ricochet-lab.xml`: the types `application/x-ricochet-lab-puzzle` of `.ron`
//!   puzzle files and `application/x-ricochet-lab-trace` of `.rltrace` traces
//!   (shared-mime-info);
//! - `icons/hicolor/{16x16,...,512x512}/apps/ricochet-lab.png`: a small board with a robot
//!   and its target, drawn by the same renderer as `export`.
//!
//! The Debian package installs the same files system-wide, from `packaging/` (a test keeps
//! them the ones this command writes; `RICOCHET_LAB_WRITE_PACKAGING=1` writes them anew).
//!
//! Installing again replaces the files (each written atomically); `--uninstall` removes them.
//! The desktop's caches are refreshed afterwards with `update-mime-database` and
//! `update-desktop-database` where those tools are installed.

use super::output::outln;
use anyhow::Context;
use ricochet_lab::model::formats::{self, Overwrite};
use ricochet_lab::print::colors::RobotPalette;
use ricochet_lab::print::{self, PrintOptions, png};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of `install-desktop`.
#[derive(clap::Args, Debug)]
pub struct InstallDesktopArgs {
    /// Remove the files an install wrote instead.
    #[arg(long)]
    uninstall: bool,
}

/// The name of the desktop entry and of the icon.
const APP_ID: &str = "ricochet-lab";

/// The type of `.ron` puzzle files.
const PUZZLE_MIME_TYPE: &str = "application/x-ricochet-lab-puzzle";

/// The type of `.rltrace` trace files, which the app opens in its debugger.
const TRACE_MIME_TYPE: &str = "application/x-ricochet-lab-trace";

/// The icon's sizes in pixels, the usual sizes of the hicolor theme; each is drawn at its
/// size.
const ICON_SIZES: [u32; 7] = [16, 32, 48, 64, 128, 256, 512];

/// The icon's board: four cells square, one wall, the red robot and its target.
const ICON_BOARD: &str = "(
    format: 1,
    width: 4,
    height: 4,
    walls: [(1, 1, East), (2, 2, South), (0, 1, South)],
    closed: [],
    targets: [(x: 2, y: 2, color: Red, shape: Circle)],
    robots: [(color: Red, x: 0, y: 3)],
    goal: (x: 2, y: 2, color: Red),
    rules: (ricochet: false, no_rebound: false),
)";

/// Installs or uninstalls, then refreshes the desktop's caches and lists the files.
pub fn run(args: &InstallDesktopArgs) -> anyhow::Result<ExitCode> {
    let data = data_home()?;
    let files = Files::under(&data);
    if args.uninstall {
        for path in files.all() {
            match std::fs::remove_file(&path) {
                Ok(()) => outln!("removed {}", path.display())?,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => {
                    return Err(error).with_context(|| format!("cannot remove {}", path.display()));
                }
            }
        }
        remove_leftovers(&data, &files)?;
    } else {
        let program = std::env::current_exe()
            .and_then(|path| path.canonicalize())
            .context("cannot tell where this program is, for the entry to run it")?;
        let mut written = vec![
            (
                files.entry.clone(),
                desktop_entry(&exec_quoted(&program.to_string_lossy())).into_bytes(),
            ),
            (files.mime.clone(), mime_package().into_bytes()),
        ];
        for (size, path) in ICON_SIZES.iter().zip(&files.icons) {
            written.push((path.clone(), icon(*size)?));
        }
        for (path, bytes) in written {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            formats::save_bytes_atomic_with(&path, &bytes, Overwrite::Allow)?;
            outln!("wrote {}", path.display())?;
        }
    }
    refresh_caches(&data);
    Ok(ExitCode::SUCCESS)
}

/// Where the user's desktop data goes: `$XDG_DATA_HOME` when it is an absolute path (the
/// specification ignores a relative one), else `~/.local/share`, as `directories` reads them.
fn data_home() -> anyhow::Result<PathBuf> {
    let dirs = directories::BaseDirs::new()
        .context("no home folder is known to install into (HOME is not set)")?;
    Ok(dirs.data_dir().to_path_buf())
}

/// The files an install writes.
struct Files {
    entry: PathBuf,
    mime: PathBuf,
    icons: Vec<PathBuf>,
}

impl Files {
    fn under(data: &Path) -> Files {
        Files {
            entry: data.join(format!("applications/{APP_ID}.desktop")),
            mime: data.join(format!("mime/packages/{APP_ID}.xml")),
            icons: ICON_SIZES
                .iter()
                .map(|size| data.join(format!("icons/hicolor/{size}x{size}/apps/{APP_ID}.png")))
                .collect(),
        }
    }

    fn all(&self) -> Vec<PathBuf> {
        let mut all = vec![self.entry.clone(), self.mime.clone()];
        all.extend(self.icons.iter().cloned());
        all
    }
}

/// The desktop entry: the app by name, run on the file it is given; `exec` is the program as
/// the entry's `Exec` key names it (quoted by [`exec_quoted`] when it is a path).
fn desktop_entry(exec: &str) -> String {
    format!(
        "[Desktop Entry]\n\
         Type=Application\n\
         Version=1.5\n\
         Name=Ricochet Lab\n\
         GenericName=Ricochet Robots board editor\n\
         Comment={}\n\
         Exec={} %f\n\
         Icon={APP_ID}\n\
         Terminal=false\n\
         Categories=Game;BoardGame;Education;\n\
         Keywords=ricochet;robots;puzzle;solver;board;\n\
         MimeType={PUZZLE_MIME_TYPE};{TRACE_MIME_TYPE};\n",
        env!("CARGO_PKG_DESCRIPTION"),
        exec
    )
}

/// A program path as the desktop entry specification has it in `Exec`: in double quotes with
/// `"`, `` ` ``, `$` and `\` escaped by a backslash when it holds a space or one of the
/// characters the specification reserves, and every `%` doubled (a field code otherwise).
/// The key's value is a string, whose own escape turns each backslash into two.
fn exec_quoted(program: &str) -> String {
    let program = program.replace('%', "%%");
    let reserved = |c: char| {
        c.is_whitespace()
            || [
                '"', '\'', '\\', '>', '<', '~', '|', '&', ';', '$', '*', '?', '#', '(', ')', '`',
            ]
            .contains(&c)
    };
    if !program.chars().any(reserved) {
        return program;
    }
    let mut quoted = String::from("\"");
    for c in program.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted.replace('\\', "\\\\")
}

/// The shared-mime-info package of the file types: `.ron` puzzles, which are text, and
/// `.rltrace` traces.
fn mime_package() -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n  \
           <mime-type type=\"{PUZZLE_MIME_TYPE}\">\n    \
             <comment>Ricochet Robots puzzle</comment>\n    \
             <sub-class-of type=\"text/plain\"/>\n    \
             <icon name=\"{APP_ID}\"/>\n    \
             <glob pattern=\"*.ron\"/>\n  \
           </mime-type>\n  \
           <mime-type type=\"{TRACE_MIME_TYPE}\">\n    \
             <comment>Ricochet Lab search trace</comment>\n    \
             <icon name=\"{APP_ID}\"/>\n    \
             <glob pattern=\"*.rltrace\"/>\n  \
           </mime-type>\n\
         </mime-info>\n"
    )
}

/// The icon at `size` pixels square, as PNG, in the game's colours whatever palette is
/// chosen (an icon names the program, not a board).
fn icon(size: u32) -> anyhow::Result<Vec<u8>> {
    let board = formats::native::parse(ICON_BOARD).context("the icon's board")?;
    let drawing = print::drawing_in(&board, PrintOptions::default(), RobotPalette::Classic);
    let pixmap = png::rasterize(&drawing, size, size)?;
    Ok(png::encode_rgba(size, size, pixmap.data(), None)?)
}

/// The files `update-mime-database` derives from the packages in `mime/packages`.
const MIME_CACHES: [&str; 12] = [
    "aliases",
    "generic-icons",
    "globs",
    "globs2",
    "icons",
    "magic",
    "mime.cache",
    "subclasses",
    "treemagic",
    "types",
    "version",
    "XMLnamespaces",
];

/// After an uninstall: the caches the desktop's tools made that now describe nothing (the
/// MIME caches once no package is left, the entries' cache once no entry is left), and the
/// folders the install made that are now empty. Anything else is left as it is.
fn remove_leftovers(data: &Path, files: &Files) -> anyhow::Result<()> {
    let is_empty =
        |dir: &Path| std::fs::read_dir(dir).map_or(true, |mut entries| entries.next().is_none());
    let mime = data.join("mime");
    let mut derived = Vec::new();
    if is_empty(&mime.join("packages")) {
        derived.extend(MIME_CACHES.iter().map(|name| mime.join(name)));
        // The types' own descriptions, derived from our package.
        derived.push(mime.join(format!("{PUZZLE_MIME_TYPE}.xml")));
        derived.push(mime.join(format!("{TRACE_MIME_TYPE}.xml")));
    }
    let applications = data.join("applications");
    let other_entries = std::fs::read_dir(&applications).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|entry| entry.path().extension().is_some_and(|e| e == "desktop"))
    });
    if !other_entries {
        derived.push(applications.join("mimeinfo.cache"));
    }
    for path in derived {
        match std::fs::remove_file(&path) {
            Ok(()) => outln!("removed {}", path.display())?,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                return Err(error).with_context(|| format!("cannot remove {}", path.display()));
            }
        }
    }
    // The folders below `data` the install's files stand in, deepest first; a folder that
    // still holds anything stays.
    let mut folders: Vec<PathBuf> = files
        .all()
        .iter()
        .flat_map(|path| {
            path.ancestors()
                .skip(1)
                .map(Path::to_path_buf)
                .collect::<Vec<_>>()
        })
        .filter(|dir| dir.starts_with(data) && dir.as_path() != data)
        .collect();
    folders.push(mime.join(PUZZLE_MIME_TYPE.split('/').next().unwrap_or_default()));
    folders.sort_by_key(|dir| std::cmp::Reverse(dir.components().count()));
    folders.dedup();
    for dir in folders {
        if dir.is_dir() && is_empty(&dir) {
            std::fs::remove_dir(&dir)
                .with_context(|| format!("cannot remove the empty folder {}", dir.display()))?;
        }
    }
    Ok(())
}

/// Runs the tools that rebuild the desktop's caches of file types and entries, where they
/// are installed; a desktop without them reads the files themselves.
fn refresh_caches(data: &Path) {
    for (tool, dir) in [
        ("update-mime-database", data.join("mime")),
        ("update-desktop-database", data.join("applications")),
    ] {
        if !dir.is_dir() {
            continue;
        }
        match std::process::Command::new(tool)
            .arg(&dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
        {
            Ok(status) if !status.success() => {
                eprintln!("note: {tool} {} ended with {status}", dir.display());
            }
            // Absent, the tool is not needed: the desktop reads the files.
            Ok(_) | Err(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_paths_are_quoted_only_when_the_specification_asks() {
        assert_eq!(
            exec_quoted("/usr/bin/ricochet-lab"),
            "/usr/bin/ricochet-lab"
        );
        assert_eq!(exec_quoted("/opt/100%/lab"), "/opt/100%%/lab");
        assert_eq!(
            exec_quoted("/home/a b/lab"),
            "\"/home/a b/lab\"".to_string()
        );
        // `$` is escaped for the Exec rules, and the backslash once more for the string.
        assert_eq!(exec_quoted("/x/$y"), "\"/x/\\\\$y\"");
    }

    // The package installs `packaging/`'s files: they are what this command writes, with the
    // program found on the PATH, so the two installs never drift apart.
    #[test]
    fn the_packaged_files_are_the_ones_install_desktop_writes() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging");
        let mut files = vec![
            (
                root.join(format!("{APP_ID}.desktop")),
                desktop_entry(APP_ID).into_bytes(),
            ),
            (
                root.join(format!("{APP_ID}.xml")),
                mime_package().into_bytes(),
            ),
        ];
        for size in ICON_SIZES {
            let path = root.join(format!("icons/{size}x{size}/{APP_ID}.png"));
            files.push((path, icon(size).unwrap()));
        }
        let write = std::env::var("RICOCHET_LAB_WRITE_PACKAGING").is_ok_and(|v| v == "1");
        for (path, bytes) in files {
            if write {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &bytes).unwrap();
            }
            let kept = std::fs::read(&path).unwrap_or_default();
            assert!(
                kept == bytes,
                "{} is not what install-desktop writes; RICOCHET_LAB_WRITE_PACKAGING=1 \
                 writes it anew",
                path.display()
            );
        }
    }

    #[test]
    fn the_icon_is_a_png_of_each_size() {
        for size in ICON_SIZES {
            let bytes = icon(size).unwrap();
            let image = image::load_from_memory(&bytes).unwrap();
            assert_eq!((image.width(), image.height()), (size, size));
        }
    }
}
