//! How camelpy opens the files it reads: the one place that checks what a path names before opening it
//! and how long the file is before reading it (`docs/security.md`, "File loaders").
//!
//! A loader calls [`open_regular`], which refuses a directory, a FIFO, a device or a socket from the
//! path's metadata alone (opening a FIFO for reading waits for a writer forever, and `/dev/zero` never
//! ends), then reads the format's header with [`read_up_to`], checks that the file's length is the one
//! the header promises, and only then reads the rest with [`read_rest`], which never reads more than
//! that length. A file that changes while it is read is refused, not trusted.

use std::{
    fs::File,
    io::{self, Read},
    path::Path,
};

/// What `path` names, in words, when it is not a regular file (`None` for a regular file); the same
/// words as Python's `camelpy._args.file_kind`.
fn not_regular(file_type: std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a named pipe");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a plain file")
}

/// An [`io::Error`] of kind `InvalidInput` saying what is wrong with the file.
fn refused(reason: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, reason)
}

/// The refusal of a file of the kind `kind` ([`not_regular`]'s words): of kind `IsADirectory` for a
/// directory (Python's `IsADirectoryError`, as its `open` raises), `InvalidInput` otherwise.
fn refused_kind(kind: &str) -> io::Error {
    let reason = format!("it is not a regular file ({kind})");
    match kind {
        "a directory" => io::Error::new(io::ErrorKind::IsADirectory, reason),
        _ => refused(reason),
    }
}

/// Opens the regular file at `path` for reading and returns it with its length in bytes; anything
/// else (a directory, a FIFO, a device, a socket) is refused from its metadata, before it is opened.
///
/// ```
/// use camelpy_core::fsio::open_regular;
/// let error = open_regular("/dev/zero".as_ref()).unwrap_err();
/// assert_eq!(error.to_string(), "it is not a regular file (a character device)");
/// assert_eq!(open_regular("/".as_ref()).unwrap_err().to_string(), "it is not a regular file (a directory)");
/// ```
///
/// # Errors
/// The path names no regular file, or the system refuses to open it.
pub fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    let check = |file_type| match not_regular(file_type) {
        Some(kind) => Err(refused_kind(kind)),
        None => Ok(()),
    };
    check(std::fs::metadata(path)?.file_type())?;
    let file = File::open(path)?;
    // The path may have been replaced between the two looks: the open file is what counts.
    let metadata = file.metadata()?;
    check(metadata.file_type())?;
    Ok((file, metadata.len()))
}

/// Checks that `path` names a regular file or nothing yet: for a file that is created or resumed (a
/// data file, a book being built), which must not be a FIFO or a device either.
///
/// ```
/// use camelpy_core::fsio::check_regular_or_missing;
/// assert!(check_regular_or_missing("/nonexistent/new.bin".as_ref()).is_ok());
/// assert!(check_regular_or_missing("/dev/null".as_ref()).is_err());
/// ```
///
/// # Errors
/// The path names something other than a regular file, or its metadata cannot be read.
pub fn check_regular_or_missing(path: &Path) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(metadata) => match not_regular(metadata.file_type()) {
            Some(kind) => Err(refused_kind(kind)),
            None => Ok(()),
        },
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(error),
    }
}

/// The first `n` bytes of `file` (fewer when it is shorter): a format's header.
///
/// # Errors
/// A read error.
pub fn read_up_to(file: &mut File, n: usize) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(n);
    file.by_ref().take(n as u64).read_to_end(&mut out)?;
    Ok(out)
}

/// The whole file, `len` bytes, of which `start` (its header, from [`read_up_to`]) were read already;
/// refuses a file that turns out shorter or longer than `len` (it changed since it was checked).
///
/// # Errors
/// A read error, or a file whose length is no longer `len`.
pub fn read_rest(file: &mut File, start: Vec<u8>, len: u64) -> io::Result<Vec<u8>> {
    let mut out = start;
    let rest = len.saturating_sub(out.len() as u64);
    let wanted = usize::try_from(len).map_err(|_| refused(format!("{len} bytes do not fit in memory")))?;
    out.try_reserve_exact(wanted.saturating_sub(out.len()))
        .map_err(|_| refused(format!("{len} bytes do not fit in memory")))?;
    file.by_ref().take(rest + 1).read_to_end(&mut out)?;
    if out.len() as u64 != len {
        return Err(refused(format!("it changed while it was read ({} bytes, not {len})", out.len())));
    }
    Ok(out)
}

/// The whole regular file at `path`, refused unread when it is longer than `max` bytes (`what` names
/// the format in the message): for formats whose header does not give the length.
///
/// ```
/// use camelpy_core::fsio::read_capped;
/// let path = std::env::temp_dir().join(format!("camelpy-fsio-doc-{}", std::process::id()));
/// std::fs::write(&path, b"12345").unwrap();
/// assert_eq!(read_capped(&path, 5, "note").unwrap(), b"12345");
/// let error = read_capped(&path, 4, "note").unwrap_err().to_string();
/// assert_eq!(error, "it is 5 bytes; a note has at most 4");
/// std::fs::remove_file(&path).unwrap();
/// ```
///
/// # Errors
/// As [`open_regular`], or a file longer than `max`.
pub fn read_capped(path: &Path, max: u64, what: &str) -> io::Result<Vec<u8>> {
    let (mut file, len) = open_regular(path)?;
    if len > max {
        return Err(refused(format!("it is {len} bytes; a {what} has at most {max}")));
    }
    read_rest(&mut file, Vec::new(), len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("camelpy-fsio-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn regular_files_are_read_and_everything_else_refused_unopened() {
        let path = temp("regular", b"header+body");
        let (mut file, len) = open_regular(&path).unwrap();
        assert_eq!(len, 11);
        let head = read_up_to(&mut file, 6).unwrap();
        assert_eq!(head, b"header");
        assert_eq!(read_rest(&mut file, head, len).unwrap(), b"header+body");
        // A header longer than the file gives what there is.
        let (mut file, _) = open_regular(&path).unwrap();
        assert_eq!(read_up_to(&mut file, 100).unwrap(), b"header+body");
        // The file is not what it was: refused, not half-read.
        let (mut file, _) = open_regular(&path).unwrap();
        let error = read_rest(&mut file, Vec::new(), 5).unwrap_err().to_string();
        assert_eq!(error, "it changed while it was read (6 bytes, not 5)");
        let (mut file, _) = open_regular(&path).unwrap();
        assert!(read_rest(&mut file, Vec::new(), 20).unwrap_err().to_string().contains("11 bytes, not 20"));
        std::fs::remove_file(&path).unwrap();

        assert_eq!(open_regular("/nonexistent/x".as_ref()).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert!(open_regular("/dev/null".as_ref()).unwrap_err().to_string().contains("character device"));
        let directory = open_regular(&std::env::temp_dir()).unwrap_err();
        assert_eq!(directory.kind(), io::ErrorKind::IsADirectory);
        assert_eq!(directory.to_string(), "it is not a regular file (a directory)");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let path = std::env::temp_dir().join(format!("camelpy-fsio-{}-fifo", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success());
        let error = open_regular(&path).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(error, "it is not a regular file (a named pipe)");
    }

    #[test]
    fn read_capped_refuses_a_long_file_before_reading_it() {
        let path = temp("capped", &[7u8; 100]);
        assert_eq!(read_capped(&path, 100, "thing").unwrap().len(), 100);
        assert_eq!(
            read_capped(&path, 99, "thing").unwrap_err().to_string(),
            "it is 100 bytes; a thing has at most 99"
        );
        std::fs::remove_file(&path).unwrap();
        assert!(read_capped("/dev/zero".as_ref(), 10, "thing")
            .unwrap_err()
            .to_string()
            .contains("character device"));
    }
}
