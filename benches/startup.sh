#!/bin/bash
# The start-up of a command a person types, and of a Tab (each Tab runs memdir): a store of
# 1,000 memories made by 1,000 commits (make_store of benches/common.sh).
source "$(dirname "$0")/common.sh"
make_store "$work/s" 1000 >/dev/null
"$memdir" --memory-dir "$work/s" list >/dev/null
hyperfine -N --warmup 5 -r "${RUNS:-40}" \
  -n "memdir --help" "$memdir --help" \
  -n "list, 1,000 memories" "$memdir --memory-dir $work/s list" \
  -n "Tab after show, 1,000 memories" "env _CLAP_IFS=, _CLAP_COMPLETE_INDEX=2 _CLAP_COMPLETE_COMP_TYPE=9 _CLAP_COMPLETE_SPACE=true MEMDIR_COMPLETE=bash $memdir -- memdir show '' --memory-dir $work/s" \
  -n "Tab after diff (revisions), 1,000 commits" "env _CLAP_IFS=, _CLAP_COMPLETE_INDEX=2 _CLAP_COMPLETE_COMP_TYPE=9 _CLAP_COMPLETE_SPACE=true MEMDIR_COMPLETE=bash $memdir -- memdir diff '' --memory-dir $work/s"
