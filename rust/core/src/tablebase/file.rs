//! The table file format (`<ENDING>.cptb`, e.g. `KQvKR.cptb`), all integers little-endian:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `CAMELTB` and a zero byte |
//! | 8 | 2 | format version ([`TB_VERSION`]) |
//! | 10 | 1 | bytes an entry: 1, or 2 for mates longer than 126 moves |
//! | 11 | 1 | pieces, kings included |
//! | 12 | 16 | the ending's name (`KQvKR`), ASCII, zero-padded |
//! | 28 | 4 | zero |
//! | 32 | 8 | slots per side to move |
//! | 40 | 8 | FNV-1a 64 of the entries |
//! | 48 | … | the entries: White to move for every slot, then Black to move |
//!
//! An entry is a position's value (see `table.rs`: 0 unused, 1 draw, then wins and losses by moves);
//! slots are numbered as `index.rs` says, for the ending's canonical colouring (the stronger side
//! White).

use std::{fs, io::Write, path::Path};

use super::{
    index::Layout,
    material::Material,
    table::{Table, TableSet},
    TablebaseError,
};
use crate::{fsio, hash::fnv1a};

/// The format version this build reads and writes.
pub const TB_VERSION: u16 = 1;
/// The files' extension.
pub const TB_EXTENSION: &str = "cptb";
const MAGIC: &[u8; 8] = b"CAMELTB\0";
const HEADER: usize = 48;

fn io<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(std::io::Error) -> TablebaseError + 'a {
    move |error| TablebaseError::Io { path: path.display().to_string(), action, error }
}

impl Table {
    /// The file name of `material`'s table.
    pub fn file_name(material: &Material) -> String {
        format!("{}.{TB_EXTENSION}", material.canonical())
    }

    /// Writes the table to `path` (through a temporary file renamed over it, so a reader never sees
    /// half a table).
    pub fn write(&self, path: &Path) -> Result<(), TablebaseError> {
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8..10].copy_from_slice(&TB_VERSION.to_le_bytes());
        header[10] = self.width as u8;
        header[11] = self.material.pieces() as u8;
        let name = self.material.to_string();
        header[12..12 + name.len()].copy_from_slice(name.as_bytes());
        header[32..40].copy_from_slice(&(self.layout.size as u64).to_le_bytes());
        header[40..48].copy_from_slice(&fnv1a(&self.entries).to_le_bytes());
        let tmp = path.with_extension(format!("{TB_EXTENSION}.tmp"));
        let mut file = fs::File::create(&tmp).map_err(io(&tmp, "create"))?;
        file.write_all(&header).and_then(|()| file.write_all(&self.entries)).map_err(io(&tmp, "write"))?;
        file.sync_all().map_err(io(&tmp, "write"))?;
        fs::rename(&tmp, path).map_err(io(path, "write"))
    }

    /// Reads a table file: a regular file whose header names an ending and whose length is the one
    /// that ending's table has, both checked before the entries are read ([`crate::fsio`]); then its
    /// checksum (which finds damage, not tampering: `camelpy tb check` verifies a table's values).
    pub fn read(path: &Path) -> Result<Table, TablebaseError> {
        let (mut file, len) = fsio::open_regular(path).map_err(io(path, "read"))?;
        let header = fsio::read_up_to(&mut file, HEADER).map_err(io(path, "read"))?;
        let (material, layout, width, checksum) = parse_header(&header, len, path)?;
        let mut bytes = fsio::read_rest(&mut file, header, len).map_err(io(path, "read"))?;
        if fnv1a(&bytes[HEADER..]) != checksum {
            return Err(bad_file(path, "the checksum does not match: the file is damaged".into()));
        }
        bytes.drain(..HEADER);
        Ok(Table { material, layout, width, entries: bytes })
    }
}

fn bad_file(path: &Path, reason: String) -> TablebaseError {
    TablebaseError::BadFile { path: path.display().to_string(), reason }
}

/// A table file's header (its first [`HEADER`] bytes, or all of a shorter file), checked against
/// the file's length `file_len`: the ending, its layout, the entries' width and their checksum.
fn parse_header(
    bytes: &[u8],
    file_len: u64,
    path: &Path,
) -> Result<(Material, Layout, usize, u64), TablebaseError> {
    let bad = |reason: String| bad_file(path, reason);
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(bad("it does not start with CAMELTB and a 48-byte header".into()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != TB_VERSION {
        return Err(bad(format!("format version {version}; this camelpy reads version {TB_VERSION}")));
    }
    let width = usize::from(bytes[10]);
    if width != 1 && width != 2 {
        return Err(bad(format!("entries of {width} bytes")));
    }
    let name_bytes: Vec<u8> = bytes[12..28].iter().copied().take_while(|&b| b != 0).collect();
    let name = String::from_utf8_lossy(&name_bytes).into_owned();
    let material = Material::parse(&name).map_err(|e| bad(e.to_string()))?;
    if material.canonical() != material || usize::from(bytes[11]) != material.pieces() {
        return Err(bad(format!("the ending {name} does not match its header")));
    }
    let layout = Layout::new(&material);
    let size = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes"));
    if size != layout.size as u64 {
        return Err(bad(format!("{size} slots per side; {name} has {}", layout.size)));
    }
    let entries = file_len - HEADER as u64;
    let needed = 2 * layout.size as u64 * width as u64;
    if entries != needed {
        return Err(bad(format!("{entries} bytes of entries; {name} needs {needed}")));
    }
    let checksum = u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes"));
    Ok((material, layout, width, checksum))
}

impl TableSet {
    /// Every table file (`*.cptb`) in `dir`. A file that cannot be read is an error naming it; the
    /// set is built only when every file reads.
    pub fn open_dir(dir: &Path) -> Result<TableSet, TablebaseError> {
        let mut set = TableSet::new();
        let entries = fs::read_dir(dir).map_err(io(dir, "read the folder"))?;
        let mut paths: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == TB_EXTENSION))
            .collect();
        paths.sort();
        for path in paths {
            set.insert(std::sync::Arc::new(Table::read(&path)?));
        }
        Ok(set)
    }
}

/// What [`generate`] did for one ending.
#[derive(Clone, Debug)]
pub struct GenerateReport {
    /// The ending.
    pub material: Material,
    /// False if its file was there already and was read instead.
    pub solved: bool,
    /// Seconds spent (solving and writing, or reading).
    pub seconds: f64,
    /// The solver's measurements (default when read).
    pub stats: super::SolveStats,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// Solves `materials` and every ending they lead to, in order, into `dir` (one file each), on
/// `threads` threads; an ending whose file is already there is read, not solved again, so a
/// generation stopped part-way resumes. `report` hears of each ending as it is done. Returns the set
/// of every table used.
pub fn generate(
    dir: &Path,
    materials: &[Material],
    threads: usize,
    stop: &std::sync::atomic::AtomicBool,
    mut report: impl FnMut(&GenerateReport),
) -> Result<TableSet, TablebaseError> {
    fs::create_dir_all(dir).map_err(io(dir, "create the folder"))?;
    let mut needed: Vec<Material> = materials.iter().map(Material::canonical).collect();
    let mut i = 0;
    while i < needed.len() {
        for s in needed[i].successors() {
            if !needed.contains(&s) {
                needed.push(s);
            }
        }
        i += 1;
    }
    needed.sort_by_key(|m| m.generation_key());
    let mut set = TableSet::new();
    for material in needed {
        let path = dir.join(Table::file_name(&material));
        let began = std::time::Instant::now();
        let (table, solved, stats) = if path.exists() {
            (Table::read(&path)?, false, super::SolveStats::default())
        } else {
            let (table, stats) = super::solve(material, &set, threads, stop)?;
            table.write(&path)?;
            (table, true, stats)
        };
        let bytes = fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        set.insert(std::sync::Arc::new(table));
        report(&GenerateReport { material, solved, seconds: began.elapsed().as_secs_f64(), stats, bytes });
    }
    Ok(set)
}
