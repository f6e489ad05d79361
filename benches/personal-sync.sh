#!/usr/bin/env bash
# Benchmark (issue 32): personal sync across machines when nothing changed, what a session pays.
#
#   hook off   `memdir sync --hook` at SessionStart/SessionEnd with memdir.sync.auto off (the
#              default): read the payload and the settings, return;
#   hook on    the same with it on: check the remote and the identity, start `memdir sync` in
#              the background, return (hyperfine --prepare waits for the last background sync
#              to let go of the memory dir's sync lock, so every run starts alike);
#   sync       `memdir sync` with nothing to do (lock, look at the work tree, fetch the project's
#              branch, nothing to merge or push), against `git fetch` of that branch into the
#              same repository (the network part of it, memdir's floor), over three transports:
#              a path (git's local transport), git:// (`git daemon` on 127.0.0.1: a real TCP
#              remote, git's own protocol) and smart HTTP (`git http-backend` behind Python's
#              CGI server on 127.0.0.1, the protocol GitHub and GitLab speak over https).
#
# The memory dir holds MEMORIES memories (default 1,000), built with git fast-import; the
# project's origin is git@github.com:bench/app.git (its identity), never contacted.
#
# Usage: RUNS=20 MEMORIES=1000 benches/personal-sync.sh
source "$(dirname "$0")/common.sh"
export HOME=$work/home GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@localhost GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@localhost
unset CLAUDE_CONFIG_DIR
mkdir -p "$HOME" "$work/app" "$work/served"
git -C "$work/app" init -q
git -C "$work/app" remote add origin git@github.com:bench/app.git
cd "$work/app"
dir=$("$memdir" path)
mkdir -p "$(dirname "$dir")"
make_store "$dir" "${MEMORIES:-1000}"

remote=$work/served/memory.git
git init -q --bare "$remote"
git -C "$remote" config http.receivepack true
"$memdir" sync --remote "$remote" -q
"$memdir" sync -q
branch=$("$memdir" sync --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["branch"])')
echo "memory dir: $(ls "$dir" | wc -l) files; branch $branch"

# git:// on a free port.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
git daemon --reuseaddr --listen=127.0.0.1 --port="$port" --base-path="$work/served" \
  --export-all --enable=receive-pack --detach --pid-file="$work/daemon.pid" "$work/served"
# Smart HTTP: git http-backend as a CGI script.
mkdir -p "$work/http/cgi-bin"
cat >"$work/http/cgi-bin/git" <<SH
#!/bin/sh
GIT_PROJECT_ROOT=$work/served GIT_HTTP_EXPORT_ALL=1 exec git http-backend
SH
chmod +x "$work/http/cgi-bin/git"
http_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Python's CGI server runs scripts as nobody when started as root: not here (the repository is ours).
(cd "$work/http" && exec python3 -c '
import http.server as h, os, sys
h.nobody_uid = lambda: os.getuid()
h.test(HandlerClass=h.CGIHTTPRequestHandler, port=int(sys.argv[1]), bind="127.0.0.1")' "$http_port" >/dev/null 2>&1) &
http_pid=$!
trap 'kill "$(cat "$work/daemon.pid")" "$http_pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  git ls-remote "git://127.0.0.1:$port/memory.git" >/dev/null 2>&1 &&
    git ls-remote "http://127.0.0.1:$http_port/cgi-bin/git/memory.git" >/dev/null 2>&1 && break
  sleep 0.1
done

payload=$work/payload.json
printf '{"session_id":"bench","hook_event_name":"SessionStart","cwd":"%s"}' "$work/app" >"$payload"
lock=$dir/.git/memdir/sync.lock
runs=${RUNS:-20}

hyperfine --warmup 3 --runs "$runs" \
  --export-json "$out/personal-sync-hook-off.json" --export-markdown "$out/personal-sync-hook-off.md" \
  -n "memdir sync --hook (memdir.sync.auto off)" "$memdir sync --hook < $payload"
mkdir -p "$HOME/.claude"
echo '{"memdir": {"sync": {"auto": true}}}' >"$HOME/.claude/settings.json"
hyperfine --warmup 3 --runs "$runs" --prepare "flock $lock true" \
  --export-json "$out/personal-sync-hook-on.json" --export-markdown "$out/personal-sync-hook-on.md" \
  -n "memdir sync --hook (memdir.sync.auto on, a sync started in the background)" "$memdir sync --hook < $payload"
flock "$lock" true
rm "$HOME/.claude/settings.json"

for transport in path git http; do
  case $transport in
    path) url=$remote ;;
    git) url=git://127.0.0.1:$port/memory.git ;;
    http) url=http://127.0.0.1:$http_port/cgi-bin/git/memory.git ;;
  esac
  "$memdir" sync --remote "$url" -q 2>/dev/null
  "$memdir" sync -q
  hyperfine -N --warmup 3 --runs "$runs" \
    --export-json "$out/personal-sync-noop-$transport.json" --export-markdown "$out/personal-sync-noop-$transport.md" \
    -n "memdir sync, nothing to do ($transport)" "$memdir sync -q" \
    -n "git fetch of the branch ($transport)" "git -C $dir fetch -q $url refs/heads/$branch"
done
git -C "$dir" fsck --strict --no-dangling
test -z "$(git -C "$dir" status --porcelain)"
