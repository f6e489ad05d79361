//! The floor of one save (issue 16): a process that does only the work a crash-safe two-step
//! save cannot skip, to time `memdir save` against (`benches/save.sh`).
//!
//! It reads `MEMORY.md` and `.git/index` (a save must extend both), writes the topic file and
//! the new index beside their targets, writes four object files the sizes of a save's loose
//! objects (blob, index blob, tree, commit; uncompressed, unhashed: the floor leaves that CPU
//! out) under `.git/floor-objects/`, fsyncs all of them and their folders at once (and the
//! objects folder when a fanout folder was made for them; one thread each, as memdir does), renames the topic file into place and fsyncs the folder, renames the
//! index into place and fsyncs the folder (DESIGN §4's crash order: two more round trips),
//! moves a ref with a lock file and a reflog line, and writes `.git/index` again. Nothing is
//! parsed, compressed or hashed. Run it on its own copy of a store: it leaves the work tree
//! changed and the repository's index out of date.
//!
//! Usage: `cargo run --release --example save_floor -- DIR NAME`

#![allow(clippy::print_stderr)] // a command-line tool of its own

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), Some(name)) = (args.next(), args.next()) else {
        eprintln!("usage: save_floor DIR NAME");
        std::process::exit(2);
    };
    let dir = PathBuf::from(dir);
    let name = name.to_string_lossy().into_owned();
    let git = dir.join(".git");

    let topic = format!(
        "---\nname: {name}\ndescription: benchmark memory\ntype: project\n---\nBenchmark body.\n"
    );
    let mut index = fs::read(dir.join("MEMORY.md"))?;
    index.extend_from_slice(format!("- [Bench]({name}.md) — benchmark memory\n").as_bytes());
    let mut git_index = fs::read(git.join("index"))?;
    git_index.extend_from_slice(&[0; 80]); // one more entry

    let topic_tmp = write_new(&dir.join(format!(".{name}.md.tmp")), topic.as_bytes())?;
    let index_tmp = write_new(&dir.join(".MEMORY.md.tmp"), &index)?;
    let mut to_sync = vec![topic_tmp.clone(), index_tmp.clone()];
    let seed = std::process::id() as usize;
    let objects = git.join("floor-objects");
    let mut made_fanout = false;
    for (n, len) in [topic.len(), index.len(), 120, 400].into_iter().enumerate() {
        let fanout = objects.join(format!("{:02x}", (seed + n) % 256));
        made_fanout |= !fanout.is_dir();
        fs::create_dir_all(&fanout)?;
        let object = write_new(&fanout.join(format!("{seed:038x}{n:02}")), &vec![b'o'; len])?;
        to_sync.extend([object, fanout]);
    }
    // A fanout folder made now has its name in the objects folder, which must be durable too.
    if made_fanout {
        to_sync.push(objects);
    }
    std::thread::scope(|scope| {
        let syncs: Vec<_> = to_sync
            .iter()
            .map(|path| scope.spawn(move || File::open(path)?.sync_all()))
            .collect();
        syncs.into_iter().try_for_each(|t| {
            t.join()
                .unwrap_or_else(|_| Err(std::io::Error::other("panic")))
        })
    })?;

    fs::rename(&topic_tmp, dir.join(format!("{name}.md")))?;
    File::open(&dir)?.sync_all()?;
    fs::rename(&index_tmp, dir.join("MEMORY.md"))?;
    File::open(&dir)?.sync_all()?;

    let lock = write_new(&git.join("floor-ref.lock"), &[b'0'; 41])?;
    fs::rename(lock, git.join("floor-ref"))?;
    OpenOptions::new()
        .append(true)
        .create(true)
        .open(git.join("floor-reflog"))?
        .write_all(&[b'l'; 160])?;
    let index_lock = write_new(&git.join("floor-index.lock"), &git_index)?;
    fs::rename(index_lock, git.join("floor-index"))
}

fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    File::create(path)?.write_all(bytes)?;
    Ok(path.to_path_buf())
}
