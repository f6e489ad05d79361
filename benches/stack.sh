# Sourced by the benchmark scripts: the 40-file instruction stack of `context.sh`.
#   build DIR SCALE  builds it under DIR (HOME, a project 8 folders deep with CLAUDE.md,
#                    .claude/CLAUDE.md and CLAUDE.local.md at each level, 2 rules folders, 10
#                    imports, a 200-line memory index) and prints the deepest folder (the cwd).
paragraph() { # paragraph N: a block comment (so every file is lexed) and N lines of text
  printf '<!-- maintainers: keep this file short -->\n\n'
  for ((l = 0; l < $1; l++)); do printf 'Instruction line %d: keep functions small and name things for what they are.\n' "$l"; done
}

build() { # build DIR SCALE
  local top=$1 scale=$2 dir
  export HOME=$top/home
  mkdir -p "$HOME/.claude"
  dir=$top/proj
  for level in 1 2 3 4 5 6 7 8; do
    mkdir -p "$dir/.claude"
    paragraph $((4 * scale)) >"$dir/CLAUDE.md"
    paragraph $((4 * scale)) >"$dir/.claude/CLAUDE.md"
    paragraph $((4 * scale)) >"$dir/CLAUDE.local.md"
    [[ $level == 1 ]] && git -C "$dir" init -q
    dir=$dir/level$level
  done
  for rules in "$top/proj/.claude/rules" "$top/proj/level1/level2/level3/.claude/rules"; do
    mkdir -p "$rules"
    for r in a b c; do paragraph $((4 * scale)) >"$rules/$r.md"; done
  done
  # Imports must stay inside the cwd (the deepest folder), as Claude Code requires.
  local cwd=$top/proj/level1/level2/level3/level4/level5/level6/level7
  mkdir -p "$cwd/docs"
  for i in 0 1 2 3 4 5 6 7 8 9; do
    paragraph $((4 * scale)) >"$cwd/docs/import$i.md"
    printf '@docs/import%d.md\n' "$i" >>"$cwd/CLAUDE.md"
  done
  local key mem
  key=$(printf %s "$top/proj" | sed 's/[^A-Za-z0-9]/-/g')
  mem=$HOME/.claude/projects/$key/memory
  mkdir -p "$mem"
  for i in $(seq 1 200); do printf -- '- [Memory %d](memory-%d.md) — a one-line hook for memory number %d\n' "$i" "$i" "$i"; done >"$mem/MEMORY.md"
  echo "$cwd"
}

