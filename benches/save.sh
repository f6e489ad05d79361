#!/usr/bin/env bash
# Benchmark: one `memdir save` as a whole process into a store that already holds N memories,
# side by side with the same two-step save done with the git program (write both files,
# `git add`, `git commit`), fsync on for both, and with the floor: a process that does only the
# writes and fsync round trips a crash-safe save needs (examples/save_floor.rs). Needs
# hyperfine (apt-get install hyperfine).
#
# Usage: benches/save.sh [N...]   (default: 1000 10000); results go to benches/results/.
# BENCH_DIR=DIR puts the stores there (default: a temp dir). Both tools create and delete many
# small files; ext4's inode allocator slows down after many recent deletions (its
# `recently_deleted` scan), so for figures that compare the tools rather than the state of the
# disk, use a fresh filesystem, e.g. a new ext4 image mounted on a loop device.
source "$(dirname "$0")/common.sh"
cargo build --release --quiet --example save_floor --manifest-path "$root/Cargo.toml"
floor=$root/target/release/examples/save_floor
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$work
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost
# git with fsync on, as memdir always does: objects, refs and the index.
gitc=(git -c core.fsync=committed,index -c core.fsyncMethod=fsync)

seed() { # seed DIR N: a memory dir with N memories, committed once
  local dir=$1 n=$2
  mkdir -p "$dir"
  for ((i = 0; i < n; i++)); do
    printf -- '---\nname: seed-%d\ndescription: seeded memory number %d\ntype: project\n---\nSeeded body %d.\n' "$i" "$i" "$i" >"$dir/seed-$i.md"
    printf -- '- [Seed %d](seed-%d.md) — seeded memory number %d\n' "$i" "$i" "$i"
  done >"$dir/MEMORY.md"
  git -C "$dir" init -q
  git -C "$dir" add -A
  git -C "$dir" -c gc.auto=0 -c maintenance.auto=false commit -q -m seed
  git -C "$dir" gc -q # a long-lived store is packed; and no auto-gc runs during the timing
}

for n in "${@:-1000 10000}"; do
  for n in $n; do
    a=$work/memdir-$n b=$work/git-$n c=$work/floor-$n
    seed "$a" "$n"
    cp -a "$a" "$b"
    cp -a "$a" "$c"
    "$memdir" --memory-dir "$a" snapshot -q # creates memdir's excludes; nothing to adopt
    # The three stores were just written: their writeback would otherwise land in the first
    # command's runs (memdir's), and its journal commits with them.
    sync
    hyperfine --warmup 3 --runs "${RUNS:-40}" --export-json "$out/save-$n.json" --export-markdown "$out/save-$n.md" \
      -n "memdir save ($n memories)" \
      "$memdir --memory-dir $a save -q --type project --name bench-\$\$ --description 'benchmark memory' --body 'Benchmark body.'" \
      -n "git: write, add, commit ($n memories)" \
      "n=\$\$; printf -- '---\nname: bench-%s\ndescription: benchmark memory\ntype: project\n---\nBenchmark body.\n' \$n > $b/bench-\$n.md; printf -- '- [Bench](bench-%s.md) — benchmark memory\n' \$n >> $b/MEMORY.md; ${gitc[*]} -C $b add bench-\$n.md MEMORY.md && ${gitc[*]} -C $b commit -q -m \"save(project): bench-\$n\"" \
      -n "floor: the writes and fsyncs alone ($n memories)" \
      "$floor $c bench-\$\$"
    git -C "$a" fsck --strict --no-progress
    test -z "$(git -C "$a" status --porcelain)"
    printf '%s memories: index %s bytes, .git/index %s bytes\n' "$n" "$(wc -c <"$a/MEMORY.md")" "$(wc -c <"$a/.git/index")"
  done
done
