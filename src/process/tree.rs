//! Every process a supervised program started, found and killed (DESIGN §6, §10): its time limit
//! holds for all of them, however they detached.
//!
//! The program runs in a process group of its own, but a child that calls `setsid` leaves the
//! group, and one whose parent exits is handed to init. So on Linux memdir can make itself a
//! *child subreaper* ([`adopt_orphans`]): orphans below it are handed to memdir instead of init.
//! The program's tree is then the program and every process whose parent chain leads to it, plus
//! the orphans memdir was handed since it started, and their descendants; `/proc` lists them.
//! [`ProcessTree::kill`] sends SIGKILL to the group and to all of them, reaps the orphans, and
//! repeats until none is left (a process forking while it is killed is caught by the next round).
//! Elsewhere only the process group is killed.

use std::collections::HashSet;
use std::time::Duration;

use rustix::process::{Pid, Signal, WaitOptions};

/// Make this process the reaper of orphans below it (Linux; elsewhere nothing). Process-wide, so
/// the binary calls it before it runs agent commands; without it only the process group and
/// what stays attached to the program are killed.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    }
}

/// A supervised program, its process group and, through `/proc`, what it started.
#[derive(Debug, Clone, Copy)]
pub struct ProcessTree {
    /// The process group, led by the program's watchdog (the caller's to reap).
    group: u32,
    /// The program (its `Child`'s to reap).
    root: u32,
    /// The program's start time (clock ticks since boot): a pid reused later is not the
    /// program, and an orphan older than it is not its.
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

/// SIGKILL a process group.
pub fn kill_group(group: u32) {
    if let Some(group) = pid(group) {
        let _ = rustix::process::kill_process_group(group, Signal::KILL);
    }
}

fn pid(pid: u32) -> Option<Pid> {
    Pid::from_raw(i32::try_from(pid).ok()?)
}

impl ProcessTree {
    /// The tree of the child `root` (just spawned, in process group `group`).
    pub fn of(group: u32, root: u32) -> ProcessTree {
        let started = std::fs::read_to_string(format!("/proc/{root}/stat"))
            .ok()
            .and_then(|stat| parse_stat(root, &stat))
            .map(|p| p.started);
        ProcessTree {
            group,
            root,
            started,
        }
    }

    /// SIGKILL the process group and every process of the tree, until none is left. The program
    /// and the group's leader are left for their `Child`s to reap; orphans handed to memdir are
    /// reaped here.
    pub fn kill(&self) {
        kill_group(self.group);
        // Without the subreaper flag, memdir's children are not orphans of the command's (a test
        // harness runs several commands at once): only what hangs below the shell is killed.
        let me = subreaper().then(std::process::id);
        for _ in 0..ROUNDS {
            let alive = self.members(&processes(), me);
            if alive.is_empty() {
                return;
            }
            for process in alive {
                let Some(pid) = pid(process.pid) else {
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

    /// The processes of the tree in `table` still to kill or reap (the program once it is a
    /// zombie is its `Child`'s to reap, not ours, and the group's leader is never one);
    /// `me` is memdir when orphans come to it.
    fn members(&self, table: &[Process], me: Option<u32>) -> Vec<Process> {
        let Some(started) = self.started else {
            return Vec::new();
        };
        let mut inside: HashSet<u32> = table
            .iter()
            .filter(|p| {
                (p.pid == self.root && p.started == started)
                    || (Some(p.parent) == me
                        && p.pid != self.root
                        && p.pid != self.group
                        && p.started >= started)
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
    fn the_tree_is_the_program_its_descendants_and_younger_orphans() {
        let p = |pid, parent, started, zombie| Process {
            pid,
            parent,
            started,
            zombie,
        };
        let me = 10;
        let tree = ProcessTree {
            group: 19,
            root: 20,
            started: Some(100),
        };
        let table = [
            p(10, 1, 50, false),   // memdir
            p(19, 10, 100, false), // the watchdog leading the group: the caller's
            p(20, 10, 100, true),  // the program, exited: its Child reaps it
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
        // A pid reused after the program was reaped is not the program.
        let reused = [
            p(10, 1, 50, false),
            p(20, 1, 300, false),
            p(23, 20, 301, false),
        ];
        assert_eq!(tree.members(&reused, Some(me)), []);
    }
}
