//! `memdir pack` (issue 16): loose objects go into a pack, nothing is lost, nothing else moves.

use crate::common::*;

fn count_objects(dir: &std::path::Path) -> (usize, usize) {
    let text = git(dir, &["count-objects", "-v"]);
    let field = |name: &str| -> usize {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0)
    };
    (field("count"), field("in-pack"))
}

/// `count` project memories, `note-0`, `note-1`, …, one save each.
fn save_notes(env: &TestEnv, count: usize) {
    for n in 0..count {
        env.save(
            "project",
            &format!("note-{n}"),
            &format!("Note {n}"),
            "Body.",
        );
    }
}

#[test]
fn pack_moves_every_loose_object_into_a_pack_and_loses_none() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    save_notes(&env, 5);
    // An object nothing reaches (as a save interrupted before its ref moved leaves one) and
    // the reflog's history are kept too.
    let orphan = git_stdin(&dir, &["hash-object", "-w", "--stdin"], b"not reachable\n");
    env.ok(&["rollback", "HEAD~2"]);
    let (loose, packed) = count_objects(&dir);
    assert!(loose > 10 && packed == 0, "{loose} loose, {packed} packed");
    let log_before = env.ok(&["log", "--json"]).stdout;

    // What a packer that died mid-write left is cleared first.
    let staging = dir.join(".git/memdir/pack-staging");
    std::fs::create_dir_all(&staging).expect("staging");
    std::fs::write(staging.join("pack-dead.pack"), b"PACK torn").expect("torn pack");
    let run = env.ok(&["pack", "--json"]).json();
    assert!(!staging.exists(), "the staging folder was left");
    assert_eq!(run["objects"], loose);
    assert_eq!(run["loose_removed"], loose);
    assert_eq!(count_objects(&dir), (0, loose));
    assert_git_clean(&dir);
    git(&dir, &["cat-file", "-e", orphan.trim()]);
    assert_eq!(env.ok(&["log", "--json"]).stdout, log_before);
    env.ok(&["show", "note-4", "--at", "HEAD~1"]);

    // Saves go on as before, loose until the next pack.
    env.save("project", "after", "After the pack", "Body.");
    assert_git_clean(&dir);
    assert!(count_objects(&dir).0 > 0);
}

#[test]
fn pack_auto_leaves_a_small_store_alone_and_a_busy_one_waits() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("user", "role", "Backend engineer", "Backend.");
    let before = count_objects(&dir);
    let run = env.ok(&["pack", "--auto"]);
    assert!(run.stdout.contains("nothing to pack"), "{}", run.stdout);
    assert_eq!(count_objects(&dir), before);

    // Another packer holds the lock: this one says so and changes nothing.
    std::fs::create_dir_all(dir.join(".git/memdir")).expect("mkdir");
    let lock = std::fs::File::create(dir.join(".git/memdir/pack.lock")).expect("lock file");
    lock.lock().expect("lock");
    assert_eq!(env.ok(&["pack", "--json"]).json()["busy"], true);
    assert_eq!(count_objects(&dir), before);
    drop(lock);
    env.ok(&["pack"]);
    assert_eq!(count_objects(&dir).0, 0);
    assert_git_clean(&dir);
    // Nothing loose: nothing to do, and it says so.
    assert!(env.ok(&["pack"]).stdout.contains("no object is loose"));
    assert_eq!(env.ok(&["pack", "--json"]).json()["objects"], 0);
}

/// A commit into a store with thousands of loose objects starts a pack in the background; the
/// save itself returns as usual, and the pack loses nothing.
#[test]
fn a_save_into_a_store_with_many_loose_objects_packs_it_in_the_background() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("user", "role", "Backend engineer", "Backend.");
    // 6,000 loose objects (what about 1,500 saves leave), none reachable.
    let blobs = tempfile::tempdir().expect("tempdir");
    let paths: Vec<String> = (0..6000)
        .map(|n| {
            let path = blobs.path().join(n.to_string());
            std::fs::write(&path, format!("blob {n}\n")).expect("write");
            path.display().to_string()
        })
        .collect();
    let mut args = vec!["hash-object", "-w"];
    args.extend(paths.iter().map(String::as_str));
    let ids = git(&dir, &args);
    let (loose, _) = count_objects(&dir);
    assert!(loose > 6000, "{loose}");

    env.save("feedback", "lint", "Lint first", "Lint.");
    wait_for(
        "the background pack",
        std::time::Duration::from_secs(60),
        || count_objects(&dir).0 < 100,
    );
    // Its lock is free again once it is done.
    wait_for("the pack lock", std::time::Duration::from_secs(10), || {
        std::fs::File::open(dir.join(".git/memdir/pack.lock")).is_ok_and(|f| f.try_lock().is_ok())
    });
    assert_git_clean(&dir);
    for id in ids.lines().step_by(500) {
        git(&dir, &["cat-file", "-e", id]);
    }
    assert_eq!(
        env.ok(&["list", "--json"]).json().as_array().map(Vec::len),
        Some(2)
    );
}

/// Symlinks planted where memdir keeps its cache and its lock (by an agent with a shell in the
/// memory dir) are never written through: the files they point to stay as they were.
#[test]
fn the_history_cache_and_the_pack_lock_are_never_written_through_a_symlink() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("user", "role", "Backend engineer", "Backend.");
    let outside = tempfile::tempdir().expect("tempdir");
    let victim = outside.path().join("bashrc");
    std::fs::write(&victim, "export PATH=$HOME/bin:$PATH\n").expect("write");
    let memdir_dir = dir.join(".git/memdir");
    std::fs::create_dir_all(&memdir_dir).expect("mkdir");
    let _ = std::fs::remove_file(memdir_dir.join("history"));
    std::os::unix::fs::symlink(&victim, memdir_dir.join("history")).expect("symlink");
    std::os::unix::fs::symlink(&victim, memdir_dir.join("pack.lock")).expect("symlink");

    env.save("feedback", "lint", "Lint first", "Lint.");
    let log = env.ok(&["log", "--json"]).json();
    assert_eq!(log.as_array().map(Vec::len), Some(2), "{log}");
    env.fails(&["pack"], 1, "pack.lock");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("read"),
        "export PATH=$HOME/bin:$PATH\n"
    );
    assert_git_clean(&dir);
}

/// A corrupt loose object (a file with an object's name and garbage in it): the pack run fails,
/// removes nothing, and no background run is started again for a day; `memdir pack` still
/// tries, and once the object is gone, succeeds.
#[test]
fn a_corrupt_loose_object_stops_the_pack_before_anything_is_removed() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("user", "role", "Backend engineer", "Backend.");
    let (loose, _) = count_objects(&dir);
    let bad_dir = dir.join(".git/objects/17");
    std::fs::create_dir_all(&bad_dir).expect("mkdir");
    let bad = bad_dir.join("0123456789abcdef0123456789abcdef012345");
    std::fs::write(&bad, b"not zlib at all").expect("write");

    env.fails(&["pack"], 1, "");
    assert_eq!(count_objects(&dir).0, loose + 1, "nothing removed");
    assert!(dir.join(".git/memdir/pack.failed").is_file());
    let auto = env.ok(&["pack", "--auto"]);
    assert!(auto.stdout.contains("a pack run failed"), "{}", auto.stdout);

    std::fs::remove_file(&bad).expect("remove");
    env.ok(&["pack"]);
    assert_eq!(count_objects(&dir).0, 0);
    assert!(!dir.join(".git/memdir/pack.failed").exists());
    assert_git_clean(&dir);
}

/// What an agent with a shell can plant among the objects: a FIFO named like an object (a
/// reader would wait on it forever) and a fanout folder that is a symlink to a folder of its
/// own. The pack run neither hangs nor reads or removes anything through them.
#[test]
fn a_fifo_or_a_symlinked_folder_among_the_objects_is_left_alone() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("user", "role", "Backend engineer", "Backend.");
    let objects = dir.join(".git/objects");
    std::fs::create_dir_all(objects.join("17")).expect("mkdir");
    let fifo = objects.join("17/0123456789abcdef0123456789abcdef012345");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let kept = elsewhere
        .path()
        .join("00112233445566778899aabbccddeeff001122");
    std::fs::write(&kept, b"a file that is not memdir's").expect("write");
    std::os::unix::fs::symlink(elsewhere.path(), objects.join("ee")).expect("symlink");

    let mut pack = env.command();
    pack.args(["pack", "--json"]);
    let run = run_with_deadline(pack, b"", std::time::Duration::from_secs(60))
        .expect("memdir pack returns");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(fifo.exists(), "the FIFO is left where it was");
    assert_eq!(
        std::fs::read(&kept).expect("read"),
        b"a file that is not memdir's"
    );
    std::fs::remove_file(&fifo).expect("remove");
    std::fs::remove_file(objects.join("ee")).expect("remove");
    assert_eq!(count_objects(&dir).0, 0);
    assert_git_clean(&dir);
}

/// A history cache over its cap (planted, or a history of hundreds of thousands of commits) is
/// not read: the history is walked, and the cache rewritten, right.
#[test]
fn a_history_cache_over_its_cap_is_not_read_and_is_rebuilt() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("user", "role", "Backend engineer", "Backend.");
    env.save("feedback", "lint", "Lint first", "Lint.");
    let cache = dir.join(".git/memdir/history");
    std::fs::create_dir_all(cache.parent().expect("parent")).expect("mkdir");
    let huge = std::fs::File::create(&cache).expect("create");
    huge.set_len(65 << 20).expect("a sparse 65 MiB file");
    drop(huge);
    let log = env.ok(&["log", "--json"]).json();
    assert_eq!(log.as_array().map(Vec::len), Some(2), "{log}");
    assert!(std::fs::metadata(&cache).expect("cache").len() < 4096);
    assert_git_clean(&dir);
}

/// Packing runs beside saves (the background packer holds its own lock, not the store's):
/// saves made while packs run one after another all succeed, and nothing is lost.
#[test]
fn saves_made_while_packing_all_go_through() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    env.save("project", "first", "First note", "Body.");
    let packer = {
        let mut command = env.command();
        command.args(["pack", "--quiet"]);
        std::thread::spawn(move || {
            (0..15)
                .map(|_| command.output().expect("pack runs").status.success())
                .filter(|ok| !ok)
                .count()
        })
    };
    save_notes(&env, 15);
    assert_eq!(packer.join().expect("packer"), 0, "every pack succeeded");
    assert_git_clean(&dir);
    assert_eq!(subjects(&dir).len(), 16);
}

/// A packer that dies with its pack written (a crash, a power cut) leaves no pack in the pack
/// folder, where git would read it, and no object lost; the next pack clears what it left.
#[test]
fn a_packer_that_dies_leaves_no_pack_for_git_to_read() {
    let env = TestEnv::new();
    let dir = env.memory_dir();
    save_notes(&env, 3);
    let (loose, _) = count_objects(&dir);
    let run = env
        .command()
        .env("MEMDIR_FAULT", "pack-before-naming")
        .args(["pack"])
        .output()
        .expect("memdir runs");
    assert!(!run.status.success(), "the fault point must abort");
    let packs: Vec<_> = std::fs::read_dir(dir.join(".git/objects/pack"))
        .expect("pack folder")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(packs, Vec::<std::ffi::OsString>::new());
    assert_eq!(count_objects(&dir), (loose, 0));
    assert_git_clean(&dir);

    // A file (or a link) where the staging folder goes is no folder to write into: it goes too.
    let staging = dir.join(".git/memdir/pack-staging");
    std::fs::remove_dir_all(&staging).expect("left by the packer that died");
    std::fs::write(&staging, b"not a folder").expect("plant");
    env.ok(&["pack"]);
    assert_eq!(count_objects(&dir), (0, loose));
    assert!(!staging.exists());
    assert_git_clean(&dir);
}
