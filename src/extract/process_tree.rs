//! Every process an agent command started, found and killed when its turn ends (DESIGN §6, §10):
//! the time limit holds for all of them, however they detached.
//!
//! The command runs in its own process group, but a child that calls `setsid` leaves the group,
//! and one whose parent exits is handed to init. So on Linux memdir makes itself a *child
//! subreaper* ([`adopt_orphans`]): orphans below it are handed to memdir instead of init. The
//! command's tree is then the shell and every process whose parent chain leads to it, plus the
//! orphans memdir was handed since the shell started, and their descendants; `/proc` lists them.
//! [`ProcessTree::kill`] sends SIGKILL to all of them (and to the group), reaps the orphans, and
//! repeats until none is left (a process forking while it is killed is caught by the next round).
//! Elsewhere only the process group is killed.

use std::collections::HashSet;
use std::time::Duration;

use rustix::process::{Pid, Signal, WaitOptions};

/// Make this process the reaper of orphans below it (Linux; elsewhere nothing). Process-wide, so
/// the binary calls it before it runs agent commands; without it only the process group and
/// what stays attached to the shell are killed.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    }
}

/// An agent command's shell (its process group's leader) and, through `/proc`, what it started.
#[derive(Debug, Clone, Copy)]
pub struct ProcessTree {
    root: u32,
    /// The shell's start time (clock ticks since boot): a pid reused later is not the shell,
    /// and an orphan older than the shell is not the command's.
    started: Option<u64>,
}

/// One line of the process table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Process {
    pid: u32,
    parent: u32,
    started: u64,
    zombie: bool,
}

/// How many rounds of killing before giving up, and the pause between them.
const ROUNDS: usize = 200;
const PAUSE: Duration = Duration::from_millis(10);

impl ProcessTree {
    /// The tree of the child `root` (just spawned, in a process group of its own).
    pub fn of(root: u32) -> ProcessTree {
        let started = processes()
            .into_iter()
            .find(|p| p.pid == root)
            .map(|p| p.started);
        ProcessTree { root, started }
    }

    /// SIGKILL the shell's process group and every process of the tree, until none is left. The
    /// shell itself is left for its `Child` to reap; orphans handed to memdir are reaped here.
    pub fn kill(&self) {
        if let Some(group) = Pid::from_raw(self.root as i32) {
            let _ = rustix::process::kill_process_group(group, Signal::KILL);
        }
        // Without the subreaper flag, memdir's children are not orphans of the command's (a test
        // harness runs several commands at once): only what hangs below the shell is killed.
        let me = subreaper().then(std::process::id);
        for _ in 0..ROUNDS {
            let alive = self.members(&processes(), me);
            if alive.is_empty() {
                return;
            }
            for process in alive {
                let Some(pid) = Pid::from_raw(process.pid as i32) else {
                    continue;
                };
                if !process.zombie {
                    let _ = rustix::process::kill_process(pid, Signal::KILL);
                }
                if Some(process.parent) == me && process.pid != self.root {
                    let _ = rustix::process::waitpid(Some(pid), WaitOptions::NOHANG);
                }
            }
            std::thread::sleep(PAUSE);
        }
    }

    /// The processes of the tree in `table` still to kill or reap (the shell once it is a
    /// zombie is its `Child`'s to reap, not ours); `me` is memdir when orphans come to it.
    fn members(&self, table: &[Process], me: Option<u32>) -> Vec<Process> {
        let Some(started) = self.started else {
            return Vec::new();
        };
        let mut inside: HashSet<u32> = table
            .iter()
            .filter(|p| {
                (p.pid == self.root && p.started == started)
                    || (Some(p.parent) == me && p.pid != self.root && p.started >= started)
            })
            .map(|p| p.pid)
            .collect();
        loop {
            let below: Vec<u32> = table
                .iter()
                .filter(|p| inside.contains(&p.parent) && !inside.contains(&p.pid))
                .map(|p| p.pid)
                .collect();
            if below.is_empty() {
                break;
            }
            inside.extend(below);
        }
        table
            .iter()
            .filter(|p| inside.contains(&p.pid) && !(p.pid == self.root && p.zombie))
            .copied()
            .collect()
    }
}

/// Whether orphans below this process come to it ([`adopt_orphans`] was called).
fn subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        matches!(rustix::process::child_subreaper(), Ok(Some(_)))
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// The process table from `/proc` (empty where there is none).
fn processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            parse_stat(pid, &stat)
        })
        .collect()
}

/// `/proc/<pid>/stat`: `pid (comm) state ppid … starttime …`; the command name may hold spaces
/// and parentheses, so the fields are counted from the last `)`.
fn parse_stat(pid: u32, stat: &str) -> Option<Process> {
    let (_, rest) = stat.rsplit_once(") ")?;
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    Some(Process {
        pid,
        parent: fields.get(1)?.parse().ok()?,
        // Field 22 of the line, the 20th after the command name.
        started: fields.get(19)?.parse().ok()?,
        zombie: matches!(*fields.first()?, "Z" | "X"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_with_odd_command_names() {
        let stat =
            "4242 (a) b (c) S 17 4242 4242 0 -1 4194560 95 0 0 0 0 0 0 0 20 0 1 0 987654 2 3";
        assert_eq!(
            parse_stat(4242, stat),
            Some(Process {
                pid: 4242,
                parent: 17,
                started: 987654,
                zombie: false
            })
        );
        assert_eq!(parse_stat(1, "1 (x) Z"), None);
    }

    #[test]
    fn the_tree_is_the_shell_its_descendants_and_younger_orphans() {
        let p = |pid, parent, started, zombie| Process {
            pid,
            parent,
            started,
            zombie,
        };
        let me = 10;
        let tree = ProcessTree {
            root: 20,
            started: Some(100),
        };
        let table = [
            p(10, 1, 50, false),   // memdir
            p(20, 10, 100, true),  // the shell, exited: its Child reaps it
            p(21, 20, 101, false), // its child
            p(22, 21, 102, false), // a grandchild
            p(30, 10, 105, false), // an orphan handed to memdir after the shell started
            p(31, 30, 106, false), // its child
            p(40, 10, 90, false),  // a child of memdir older than the shell: not the agent's
            p(50, 1, 110, false),  // someone else's
        ];
        let mut pids: Vec<u32> = tree
            .members(&table, Some(me))
            .iter()
            .map(|p| p.pid)
            .collect();
        pids.sort();
        assert_eq!(pids, [21, 22, 30, 31]);
        // Not a subreaper: memdir's other children are not the command's.
        let mut pids: Vec<u32> = tree.members(&table, None).iter().map(|p| p.pid).collect();
        pids.sort();
        assert_eq!(pids, [21, 22]);
        // A pid reused after the shell was reaped is not the shell.
        let reused = [
            p(10, 1, 50, false),
            p(20, 1, 300, false),
            p(23, 20, 301, false),
        ];
        assert_eq!(tree.members(&reused, Some(me)), []);
    }
}
