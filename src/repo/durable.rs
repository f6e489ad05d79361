//! Durability: fsync of files and folders, batched so that the filesystem's journal commits
//! them together (DESIGN §4's crash order rests on it).
//!
//! ext4 (and other journalling filesystems) coalesce only fsyncs that are under way at the same
//! time into one journal commit; issued one after another, each later one adds a device flush.
//! So a batch's fsyncs run at once, each on a thread of its own. The threads are kept for the
//! process's next batches (a save runs three): starting one costs more than its fsync's CPU.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::repo::RepoError;

/// fsync `files` (or folders) all at once, one on this thread and the others on the fsync
/// threads: the filesystem's journal then commits them together, so durability costs about one
/// flush instead of one per file. A file that does not exist (an object that was already
/// packed) is skipped.
pub fn sync_files(files: &[PathBuf]) -> Result<(), RepoError> {
    WORKERS.sync_files(files)
}

/// Start the fsyncs of `files` on the fsync threads and return at once: the caller does other
/// work, then waits with [`Syncing::wait`]. Skips a file that does not exist, as
/// [`sync_files`] does.
pub fn start_sync(files: &[PathBuf]) -> Result<Syncing, RepoError> {
    Ok(WORKERS.submit(open_all(files)?))
}

/// fsyncs under way on the fsync threads.
#[must_use = "the files are durable only once `wait` returns"]
pub struct Syncing {
    done: mpsc::Receiver<Result<(), RepoError>>,
    count: usize,
}

impl Syncing {
    /// Wait for every fsync of the batch; the first error, if any.
    pub fn wait(self) -> Result<(), RepoError> {
        let mut result = Ok(());
        for _ in 0..self.count {
            // Every job answers (on a thread, or here when none started) before its sender goes.
            let outcome = self.done.recv().unwrap_or_else(|_| {
                Err(RepoError::Io {
                    path: PathBuf::new(),
                    source: std::io::Error::other("an fsync ended without an answer"),
                })
            });
            result = result.and(outcome);
        }
        result
    }
}

/// fsync a folder, so that the names created or renamed in it are durable.
pub fn sync_dir(dir: &Path) -> Result<(), RepoError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| RepoError::Io {
            path: dir.to_path_buf(),
            source,
        })
}

/// Open each of `files` (on this thread: a file that is not there costs no fsync thread).
fn open_all(files: &[PathBuf]) -> Result<Vec<(File, PathBuf)>, RepoError> {
    let mut opened = Vec::with_capacity(files.len());
    for path in files {
        match File::open(path) {
            Ok(file) => opened.push((file, path.clone())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(RepoError::Io {
                    path: path.clone(),
                    source,
                });
            }
        }
    }
    Ok(opened)
}

fn fsync(file: &File, path: &Path) -> Result<(), RepoError> {
    file.sync_all().map_err(|source| RepoError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// One fsync for a worker, and where its outcome goes.
struct Job {
    file: File,
    path: PathBuf,
    done: mpsc::SyncSender<Result<(), RepoError>>,
}

impl Job {
    /// fsync, then `before_answer`, then the outcome to the batch's waiter (who may have given
    /// up after an earlier error; the fsync ran all the same).
    fn run(self, before_answer: impl FnOnce()) {
        let outcome = fsync(&self.file, &self.path);
        before_answer();
        let _ = self.done.send(outcome);
    }
}

/// fsync threads, started as batches need them and kept idle between batches.
struct Workers {
    /// What the threads are called (`ps -L`, `/proc/PID/task`).
    name: &'static str,
    /// Each thread's stack, in bytes.
    stack: usize,
    /// How many threads wait between batches at most; a big batch's others end after it (a
    /// long-lived process, `memdir mcp`, keeps no more than this).
    keep: usize,
    /// The threads waiting for a job, each by the sender of its own queue.
    idle: Mutex<Vec<mpsc::SyncSender<Job>>>,
}

/// The process's fsync threads. An fsync needs little stack: 64 KB each instead of the 2 MB
/// default leaves the address space (and a tight `ulimit -v`) to the rest of the process. A
/// save's batches need five at most.
static WORKERS: Workers = Workers::new("memdir-fsync", 64 * 1024, 16);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Workers {
    const fn new(name: &'static str, stack: usize, keep: usize) -> Self {
        Workers {
            name,
            stack,
            keep,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Hand each file to an idle thread, or to a new one when none is idle; should a thread
    /// not start, its fsync runs on this one (slower, never unsafe).
    fn submit(&'static self, files: Vec<(File, PathBuf)>) -> Syncing {
        let count = files.len();
        // Room for every answer: a thread's send never waits.
        let (done, answers) = mpsc::sync_channel(count);
        for (file, path) in files {
            let job = Job {
                file,
                path,
                done: done.clone(),
            };
            let idle = lock(&self.idle).pop();
            let unsent = match idle.or_else(|| self.start_worker()) {
                Some(worker) => worker.send(job).err().map(|mpsc::SendError(job)| job),
                None => Some(job),
            };
            if let Some(job) = unsent {
                job.run(|| {});
            }
        }
        Syncing {
            done: answers,
            count,
        }
    }

    /// A new thread, waiting on its queue; `None` when it cannot start. The queue holds one
    /// job: a thread is given one only while idle.
    fn start_worker(&'static self) -> Option<mpsc::SyncSender<Job>> {
        let (queue, jobs) = mpsc::sync_channel::<Job>(1);
        let own = queue.clone();
        std::thread::Builder::new()
            .name(self.name.into())
            .stack_size(self.stack)
            .spawn(move || {
                for job in jobs.iter() {
                    // Idle again before answering, so that the waiter's next batch finds it;
                    // or, with enough idle already, ended after answering.
                    let mut kept = false;
                    job.run(|| {
                        let mut idle = lock(&self.idle);
                        kept = idle.len() < self.keep;
                        if kept {
                            idle.push(own.clone());
                        }
                    });
                    if !kept {
                        return;
                    }
                }
            })
            .ok()
            .map(|_| queue)
    }

    /// [`sync_files`] on these threads.
    fn sync_files(&'static self, files: &[PathBuf]) -> Result<(), RepoError> {
        let mut opened = open_all(files)?;
        let Some((first, path)) = opened.pop() else {
            return Ok(());
        };
        let others = self.submit(opened);
        let result = fsync(&first, &path);
        others.wait().and(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threads of this process called `name`.
    #[cfg(target_os = "linux")]
    fn threads_named(name: &str) -> usize {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter(|task| {
                std::fs::read_to_string(task.as_ref().unwrap().path().join("comm"))
                    .is_ok_and(|comm| comm.trim_end() == name)
            })
            .count()
    }

    fn files(dir: &Path, n: usize) -> Vec<PathBuf> {
        (0..n)
            .map(|i| {
                let path = dir.join(format!("f{i}"));
                std::fs::write(&path, b"x").unwrap();
                path
            })
            .collect()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn batches_reuse_the_threads_of_the_batches_before() {
        static POOL: Workers = Workers::new("fsync-reuse", 64 * 1024, 16);
        let dir = tempfile::tempdir().unwrap();
        let files = files(dir.path(), 4);
        for _ in 0..5 {
            POOL.sync_files(&files).unwrap();
            POOL.submit(open_all(&files).unwrap()).wait().unwrap();
        }
        // Ten batches of at most four fsyncs under way: never more than four threads, where a
        // thread per fsync would have started 35.
        let started = threads_named("fsync-reuse");
        assert!((1..=4).contains(&started), "{started} threads");
    }

    /// A batch bigger than the threads kept idle leaves only those: the others end once they
    /// have answered.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_big_batch_leaves_no_more_threads_than_are_kept() {
        static POOL: Workers = Workers::new("fsync-keep", 64 * 1024, 3);
        let dir = tempfile::tempdir().unwrap();
        let files = files(dir.path(), 30);
        for _ in 0..2 {
            POOL.sync_files(&files).unwrap();
            assert!((1..=3).contains(&lock(&POOL.idle).len()));
            // A thread that ended leaves /proc/self/task a moment after its answer.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while threads_named("fsync-keep") > 3 && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            let left = threads_named("fsync-keep");
            assert!((1..=3).contains(&left), "{left} threads");
        }
    }

    /// When no thread can start (a stack no address space holds, as under a tight `ulimit -v`),
    /// every fsync runs on the caller and the batch still succeeds.
    #[cfg(target_os = "linux")]
    #[test]
    fn without_threads_the_fsyncs_run_on_the_caller() {
        static POOL: Workers = Workers::new("fsync-none", usize::MAX / 4, 16);
        let dir = tempfile::tempdir().unwrap();
        let files = files(dir.path(), 4);
        POOL.sync_files(&files).unwrap();
        POOL.submit(open_all(&files).unwrap()).wait().unwrap();
        assert_eq!(threads_named("fsync-none"), 0);
        assert!(lock(&POOL.idle).is_empty());
    }

    #[test]
    fn every_file_and_folder_is_synced_and_a_missing_one_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = files(dir.path(), 12);
        paths.push(dir.path().to_path_buf());
        paths.push(dir.path().join("not-there"));
        sync_files(&paths).unwrap();
        start_sync(&paths).unwrap().wait().unwrap();
        sync_files(&[]).unwrap();
        start_sync(&[]).unwrap().wait().unwrap();
    }

    #[test]
    fn a_file_that_cannot_be_opened_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = files(dir.path(), 3);
        // Under a regular file: not "not found", but "not a directory".
        let bad = paths[0].join("below-a-file");
        paths.push(bad.clone());
        for result in [sync_files(&paths), start_sync(&paths).map(|_| ())] {
            match result {
                Err(RepoError::Io { path, .. }) => assert_eq!(path, bad),
                other => panic!("{other:?}"),
            }
        }
    }
}
