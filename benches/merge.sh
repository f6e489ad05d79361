#!/usr/bin/env bash
# Benchmark: merging two histories of a team MEMORY.md of N entries (DESIGN §8).
#
# The base index holds N entries; ours rewords the hooks of N/5 of them and adds 3N/10;
# theirs rewords another N/5 and N/10 of ours' (both changed: ours wins), deletes N/20 and adds
# 3N/10. Timed: `memdir merge-index` alone (git's merge-driver call; target under 100 ms for
# N = 1000), `git merge-file --union` on the same files for scale (a text union that knows
# nothing of entries), and a whole `git merge` of the two branches with memdir registered as
# MEMORY.md's merge driver. Needs hyperfine (apt-get install hyperfine).
#
# Usage: benches/merge.sh [N...]   (default: 1000); results go to benches/results/.
source "$(dirname "$0")/common.sh"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$work
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost

index() { # index N SIDE: the index as SIDE (base, ours or theirs) has it
  local n=$1 side=$2
  printf '# Team memory\n\n'
  for ((i = 0; i < n; i++)); do
    local hook="what memory number $i says"
    case $side in
      ours) ((i % 5 == 0)) && hook="$hook, reworded here" ;;
      theirs)
        ((i % 20 == 3)) && continue
        ((i % 5 == 1 || i % 10 == 0)) && hook="$hook, reworded there"
        ;;
    esac
    printf -- '- [Memory %d](memory-%d.md) — %s\n' "$i" "$i" "$hook"
  done
  if [[ $side != base ]]; then
    for ((i = 0; i < n * 3 / 10; i++)); do
      printf -- '- [%s %d](%s-%d.md) — added on the %s side\n' "$side" "$i" "$side" "$i" "$side"
    done
  fi
  printf '\nKeep each entry to one line.\n'
}

for n in ${@:-1000}; do
  d=$work/files-$n
  mkdir -p "$d"
  for side in base ours theirs; do index "$n" "$side" >"$d/$side.md"; done

  # The same two histories as branches of a repository with the driver registered.
  r=$work/repo-$n
  git init -q -b main "$r"
  git -C "$r" config merge.memdir-index.driver "'$memdir' merge-index %O %A %B"
  echo 'MEMORY.md merge=memdir-index' >"$r/.gitattributes"
  cp "$d/base.md" "$r/MEMORY.md"
  git -C "$r" add -A && git -C "$r" commit -q -m base
  git -C "$r" checkout -q -b theirs
  cp "$d/theirs.md" "$r/MEMORY.md" && git -C "$r" commit -q -am theirs
  git -C "$r" checkout -q main
  cp "$d/ours.md" "$r/MEMORY.md" && git -C "$r" commit -q -am ours
  tip=$(git -C "$r" rev-parse HEAD)

  hyperfine --warmup 3 --runs "${RUNS:-50}" --export-json "$out/merge-$n.json" --export-markdown "$out/merge-$n.md" \
    -n "memdir merge-index ($n entries)" \
    --prepare "cp $d/ours.md $d/cur.md" "$memdir merge-index $d/base.md $d/cur.md $d/theirs.md" \
    -n "git merge-file --union ($n entries, for scale)" \
    --prepare "cp $d/ours.md $d/cur.md" "git merge-file --union $d/cur.md $d/base.md $d/theirs.md" \
    -n "git merge with the memdir driver ($n entries)" \
    --prepare "git -C $r reset -q --hard $tip" "git -C $r merge -q --no-edit theirs"

  # The merge the driver made: every entry of either side but the N/20 theirs deleted.
  want=$((n - n / 20 + 2 * (n * 3 / 10)))
  got=$(grep -c '^- \[' "$r/MEMORY.md")
  test "$got" -eq "$want" || { echo "merged index has $got entries, want $want" >&2; exit 1; }
  # Each side's rewording is in, and where both reworded an entry, ours is.
  test "$(grep -c 'reworded here' "$r/MEMORY.md")" -eq $((n / 5))
  test "$(grep -c 'reworded there' "$r/MEMORY.md")" -eq $((n / 5))
  test "$(git -C "$r" rev-list --parents -n 1 HEAD | wc -w)" -eq 3
  git -C "$r" fsck --strict --no-progress
  test -z "$(git -C "$r" status --porcelain)"
  printf '%s entries: merged index has %s entries, %s bytes\n' "$n" "$got" "$(wc -c <"$r/MEMORY.md")"
done
