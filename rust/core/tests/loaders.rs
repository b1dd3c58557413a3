//! Every file loader of the core checks what a path names before it opens it and the file's length
//! before it reads it (`fsio`): a device, a directory or a FIFO is refused at once, and a file far
//! longer than its header promises is refused unread. Each case runs on a thread with a deadline,
//! so a loader that waits (a FIFO) fails the test instead of hanging it.

use std::{
    fs::{self, File},
    io::Write,
    path::{Path, PathBuf},
    sync::{atomic::AtomicBool, mpsc},
    time::Duration,
};

use camelpy_core::{
    data::{export_text, Header, RecordReader, RecordWriter},
    nnue::Network,
    tablebase::{solve, Material, Table, TableSet},
};

/// Longer than any loader needs to refuse a file, far shorter than a hang.
const DEADLINE: Duration = Duration::from_secs(20);

/// A file of 1 GiB that takes no disk space (sparse): reading it whole would cost a gigabyte.
const HUGE: u64 = 1 << 30;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("camelpy-loaders-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// `load(path)`'s error message, or a failure if it succeeds or takes longer than [`DEADLINE`].
fn refused<T: 'static>(path: &Path, load: fn(&Path) -> Result<T, String>) -> String {
    let (tx, rx) = mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(load(&owned).err());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(Some(message)) => message,
        Ok(None) => panic!("{} was accepted", path.display()),
        Err(_) => panic!("loading {} did not return within {DEADLINE:?}", path.display()),
    }
}

fn fifo(dir: &Path) -> PathBuf {
    let path = dir.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
    path
}

fn huge_file(path: &Path, start: &[u8]) {
    let mut file = File::create(path).unwrap();
    file.write_all(start).unwrap();
    file.set_len(HUGE).unwrap();
}

fn load_net(path: &Path) -> Result<Network, String> {
    Network::load(path).map_err(|e| e.to_string())
}
fn load_table(path: &Path) -> Result<Table, String> {
    Table::read(path).map_err(|e| e.to_string())
}
fn open_data(path: &Path) -> Result<(), String> {
    RecordReader::open(path).map(|_| ()).map_err(|e| e.to_string())
}
fn export_to(path: &Path) -> Result<u64, String> {
    let source = path.with_file_name("source.bin");
    export_text(&source, path, &AtomicBool::new(false)).map_err(|e| e.to_string())
}

#[test]
fn devices_directories_and_fifos_are_refused_unopened() {
    let dir = temp_dir("kinds");
    let fifo = fifo(&dir);
    for (path, kind) in
        [(Path::new("/dev/zero"), "a character device"), (&dir, "a directory"), (&fifo, "a named pipe")]
    {
        for message in [refused(path, load_net), refused(path, load_table), refused(path, open_data)] {
            assert!(message.contains(&format!("it is not a regular file ({kind})")), "{message}");
            assert!(message.contains(&format!("'{}'", path.display())), "{message}");
        }
    }
    // Nor is a data file resumed from, or its text export written into, a FIFO (either would wait).
    let header = Header { seed: 1, settings_digest: 2 };
    assert!(RecordWriter::open(&fifo, header)
        .err()
        .unwrap()
        .to_string()
        .contains("it is not a regular file (a named pipe)"));
    drop(RecordWriter::open(&dir.join("source.bin"), header).unwrap());
    assert!(refused(&fifo, export_to).contains("it is not a regular file (a named pipe)"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_huge_file_is_refused_from_its_header_without_reading_it() {
    let dir = temp_dir("huge");
    // Junk: no header at all.
    let junk = dir.join("junk");
    huge_file(&junk, b"");
    assert!(refused(&junk, load_net).contains("is not a camelpy network file"));
    assert!(refused(&junk, load_table).contains("does not start with CAMELTB"));
    assert!(refused(&junk, open_data).contains("not a camelpy data file"));

    // A good header followed by far more than it promises.
    let net = dir.join("net.nnue");
    huge_file(&net, &Network::example(1).to_bytes());
    let message = refused(&net, load_net);
    assert!(message.contains("bytes of weights after the header, which declares"), "{message}");

    let material = Material::parse("KQvK").unwrap();
    assert!(material.successors().is_empty(), "KQvK needs no other table");
    let (table, _) = solve(material, &TableSet::new(), 1, &AtomicBool::new(false)).unwrap();
    let good = dir.join(Table::file_name(&material));
    table.write(&good).unwrap();
    assert_eq!(Table::read(&good).unwrap().size(), table.size());
    let header = fs::read(&good).unwrap()[..48].to_vec();
    let long = dir.join("long.cptb");
    huge_file(&long, &header);
    let message = refused(&long, load_table);
    assert!(message.contains("bytes of entries; KQvK needs"), "{message}");
    fs::remove_dir_all(&dir).unwrap();
}
