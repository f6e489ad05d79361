#!/usr/bin/env bash
# End-to-end check of memdir's Claude Code hooks against the REAL Claude Code 2.1.332.
#
#   scripts/cc-e2e.sh            (from the repo root; about 7 s once Claude Code is fetched and
#                                 memdir built)
#
# Needs: npm registry access, only to fetch `@anthropic-ai/claude-code-linux-x64@2.1.332` (about
# 190 MB) once into $CC_E2E_BIN_DIR (default /tmp/cc-oracle-bin, shared with the cc-oracle
# recorder and kept between runs); python3, git, and cargo (`cargo build --release` runs first,
# a no-op when target/ is up to date; MEMDIR=PATH tests that binary instead, without building). Nothing else leaves the machine: Claude Code talks
# to a scripted fake Messages API on 127.0.0.1 (the mechanism of cc-oracle's session.sh, embedded
# below so that the script needs nothing outside this repository).
#
# In a scratch HOME and a scratch git project (removed on exit; CC_E2E_KEEP=1 keeps them):
#   1. `memdir hooks install --claude --command <abs target/release/memdir>` into the scratch
#      user config dir (<HOME>/.claude/settings.json);
#   2. session A: the person says something worth remembering, the scripted assistant only
#      answers with text; Claude Code fires Stop and SessionEnd → `memdir extract --hook`;
#   3. `memdir extract --drain`, then: a feedback memory about `make lint`, a reference memory
#      with the Grafana URL, both in MEMORY.md, `save(...)` commits whose Memdir-Session trailer is
#      A's session id, `git fsck --strict` and `git status --porcelain` clean, and A's cursor at
#      the end of the transcript Claude Code wrote;
#   4. session B: the scripted assistant saves a memory itself (Write of the topic file, Read and
#      Edit of MEMORY.md); PostToolUse → `memdir snapshot --hook` must adopt it as an `adopt(...)`
#      commit, and B's extraction must be skipped ("the agent wrote memory itself"): no duplicate;
#   4b. sessions R, R2: recall in tiers. A prompt about committing a hotfix gets A's `make lint`
#      memory with its body and a hotfix memory as one line from the UserPromptSubmit hook
#      (`memdir recall --hook`) in the model request; resumed with a prompt that needs the hotfix
#      memory, the request carries its body too, and each body and line once, not twice;
#   4c. sessions T, T2: with a team/ folder in the memory dir, SessionStart (`recall --hook`)
#      adds its index, and names a memory `verify` found stale: the request carries each once,
#      and once after --resume;
#   5. session C: A resumed with `/compact`; PreCompact → `memdir extract --hook` must succeed, and
#      the compaction summary (worded like an instruction) must not become a memory;
#   6. sessions D–G: the hooks never get in the way (DESIGN §11). Each session writes a file and
#      answers (two model requests), with memdir's hooks and `context --hook` on SessionStart,
#      in turn fed broken payloads (D: empty, not JSON, an array, no session_id, a deleted cwd),
#      with a malformed settings file only memdir reads (E: the managed-policy file), with auto
#      memory off by CLAUDE_CODE_DISABLE_AUTO_MEMORY=1 (F) and by autoMemoryEnabled: false (G).
#      Each must complete with no hook error in its transcript or on stderr, one Stop (a Stop
#      hook's exit 2 would make Claude Code keep going: more model requests), and the problems
#      of D in memdir's logs; F and G commit nothing.
#   7. sessions P, P2, S, P3, M: the plugin (plugin/) and the MCP server. P loads it with
#      --plugin-dir; the scripted model calls its MCP tools save, search and show (deferred
#      behind ToolSearch, called by name): the results come back in the next request, the save is
#      one commit with P's session id, the plugin's hooks run as installed ones do, and the turn
#      that saved through MCP is not extracted again. P2: no memdir on PATH: SessionStart says so,
#      no hook error. S: the review skill loads and runs `memdir review` (its allowed-tools).
#      P3: `claude plugin marketplace add` this repository, `claude plugin install
#      memdir@memdir`, then a search through it. M: no plugin, `--mcp-config` starting memdir mcp.
#   8. session K: a duplicate and an expired memory consolidated and applied (`consolidate
#      --apply`): the next session's request carries the consolidated index; `undo` gives back
#      the files. K2: the same store consolidated by the model (`--consolidator agent`): memdir
#      runs `claude -p` itself, which asks the scripted API; one call, memdir's checks refuse
#      what breaks a rule, the rest is on the branch.
#   9. sessions X, Y: `--extractor auto`, the default, with `claude` (this Claude Code 2.1.332) on
#      PATH. X: memdir runs `claude -p` itself, which asks the same scripted API (it answers
#      memdir's request with a structured answer): the memory is saved with one extraction
#      call, made with no tools but the structured answer and a small model. Y: that `claude` is
#      not logged in: the builtin extractor saves the memory instead, the hooks exit 0, and the
#      range is marked for a later `extract --all --extractor agent`.
#   9. session Z: personal sync. memdir.sync.auto on and a personal remote set: the session is
#      unaffected, and the SessionEnd hook's background sync pushes the project's branch.
# Sessions 2-7 extract with the builtin extractor, installed by name (`--extractor builtin`);
# `claude` is kept off their PATH.
# Prints PASS/FAIL per check (INFO lines are observations) and exits 1 when any check failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cc_version=2.1.332
bin_dir=${CC_E2E_BIN_DIR:-/tmp/cc-oracle-bin}
claude=$bin_dir/package/claude
memdir=${MEMDIR:-$root/target/release/memdir}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
since() { local ms=$(($(now_ms) - $1)); printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)); }
started=$(now_ms)

if [[ -z ${MEMDIR:-} ]]; then
  (cd "$root" && cargo build --release -q) || { echo "FAIL cargo build --release"; exit 1; }
fi
memdir=$(cd "$(dirname "$memdir")" && pwd)/$(basename "$memdir")
if [[ ! -x $claude ]]; then
  echo "fetching Claude Code $cc_version from the npm registry into $bin_dir…"
  # CI runs this on a fresh machine: a registry hiccup is retried before it fails the run.
  fetched=
  for attempt in 1 2 3; do
    if mkdir -p "$bin_dir" &&
      (cd "$bin_dir" && npm pack -q "@anthropic-ai/claude-code-linux-x64@$cc_version" >/dev/null &&
        tar xzf "anthropic-ai-claude-code-linux-x64-$cc_version.tgz"); then
      fetched=1
      break
    fi
    echo "fetch attempt $attempt failed; retrying in $((attempt * 5)) s"
    sleep $((attempt * 5))
  done
  [[ -n $fetched && -x $claude ]] || { echo "FAIL fetching Claude Code (needs npm registry access)"; exit 1; }
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/memdir-cc-e2e.XXXXXX")
home=$scratch/home proj=$scratch/project
mkdir -p "$home" "$proj" "$scratch/managed"
api_pid=
cleanup() {
  [[ -n $api_pid ]] && kill "$api_pid" 2>/dev/null
  if [[ ${CC_E2E_KEEP:-} == 1 ]]; then echo "kept $scratch"; else rm -rf "$scratch"; fi
}
trap cleanup EXIT

failures=0
pass() { printf 'PASS %s\n' "$1"; }
fail() {
  printf 'FAIL %s\n' "$1"
  failures=$((failures + 1))
  [[ -n ${2:-} ]] && printf '%s\n' "$2" | sed 's/^/     | /' | head -40
  return 0
}
check() { # check NAME COMMAND... : PASS when the command succeeds; its output shows on FAIL
  local name=$1 out
  shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}
info() { printf 'INFO %s\n' "$1"; }

# Everything runs with a clean environment: the scratch HOME (so the config dir is
# $home/.claude), no CLAUDE_*/ANTHROPIC_*/MEMDIR_* from the caller, and a scratch managed-policy
# dir for memdir (MEMDIR_MANAGED_DIR), which the hooks inherit from Claude Code.
# The caller's PATH without any folder that holds a `claude`: only sessions X and Y have one.
e2e_path=$(python3 -c '
import os, sys
print(":".join(d for d in sys.argv[1].split(":") if d and not os.access(os.path.join(d, "claude"), os.X_OK)))' "$PATH")
clean_env=(env -i "PATH=$e2e_path" "HOME=$home" "LANG=C.UTF-8" "TMPDIR=${TMPDIR:-/tmp}"
  "MEMDIR_MANAGED_DIR=$scratch/managed" "GIT_CONFIG_NOSYSTEM=1")
md() { "${clean_env[@]}" "$memdir" --project "$proj" "$@"; }
g() { "${clean_env[@]}" git "$@"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# The fake Messages API: the n-th tool round of the main conversation gets the n-th step of the
# script (a tool call or a final text); requests without tools (titles, compaction) get "ok".
cat >"$scratch/scripted_api.py" <<'PY'
import json, re, sys, http.server
script = json.load(open(sys.argv[1]))
log = open(sys.argv[2], "a")
def sse(h, msg, blocks):
    h.send_response(200); h.send_header("content-type", "text/event-stream"); h.end_headers()
    def ev(t, d): h.wfile.write(f"event: {t}\ndata: {json.dumps(d)}\n\n".encode())
    ev("message_start", {"type": "message_start", "message": msg})
    stop = "end_turn"
    for i, b in enumerate(blocks):
        if b["type"] == "text":
            ev("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}})
            ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": b["text"]}})
        else:
            stop = "tool_use"
            ev("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}})
            ev("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}})
        ev("content_block_stop", {"type": "content_block_stop", "index": i})
    ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}})
    ev("message_stop", {"type": "message_stop"})
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers(); self.wfile.write(b"{}")
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        log.write(json.dumps({"path": self.path, "body": body.decode("utf-8", "replace")}) + "\n"); log.flush()
        try: req = json.loads(body)
        except Exception: req = {}
        if "count_tokens" in self.path or not self.path.startswith("/v1/messages"):
            self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers()
            self.wfile.write(b'{"input_tokens": 10}'); return
        msg = {"id": "msg_scripted", "type": "message", "role": "assistant", "model": req.get("model", "x"), "content": [],
               "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
        # memdir's own `claude -p` (extraction, consolidation): its answer, as the structured output.
        if re.search(r"memdir's memory (?:extractor|consolidator)", json.dumps(req.get("system", ""))):
            answer = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else {"actions": []}
            return sse(self, msg, [{"type": "tool_use", "id": "toolu_memdir", "name": "StructuredOutput", "input": answer}])
        if not req.get("tools"):
            return sse(self, msg, [{"type": "text", "text": "ok"}])
        rounds = sum(1 for m in req.get("messages", []) if isinstance(m.get("content"), list)
                     for b in m["content"] if b.get("type") == "tool_result")
        step = script[rounds] if rounds < len(script) else {"text": "Done."}
        if "tool_match" in step:  # the first offered tool whose name matches (MCP tool names vary)
            # offered tools, and deferred ones named only in the prompt (MCP tools behind ToolSearch)
            names = [t.get("name", "") for t in req.get("tools", [])] + re.findall(r"mcp__[A-Za-z0-9_-]+", body.decode("utf-8", "replace"))
            hit = next((n for n in names if re.search(step["tool_match"], n)), None)
            if not hit: log.write(json.dumps({"path": "NO_TOOL_MATCH", "body": " ".join(names)}) + "\n"); log.flush()
            step = {"tool": hit, "input": step["input"]} if hit else {"text": "NO_TOOL_MATCH " + " ".join(names)}
        if "tool" in step:
            blocks = [{"type": "tool_use", "id": f"toolu_scripted_{rounds}", "name": step["tool"], "input": step["input"]}]
        else:
            blocks = [{"type": "text", "text": step["text"]}]
        sse(self, msg, blocks)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
server.daemon_threads = True
with open(sys.argv[3], "w") as f: f.write(str(server.server_address[1]))
server.serve_forever()
PY

# session NAME SCRIPT.json PROMPT [claude args…]: one headless session; sets $sid and $transcript.
# session_env holds extra NAME=value assignments for Claude Code (and so for its hooks).
session_env=()
session() {
  local name=$1 script=$2 prompt=$3 port t0 took
  shift 3
  sid= transcript=
  rm -f "$scratch/port"
  python3 "$scratch/scripted_api.py" "$script" "$scratch/requests-$name.jsonl" "$scratch/port" ${memdir_answer:+"$memdir_answer"} &
  api_pid=$!
  for _ in $(seq 100); do [[ -s $scratch/port ]] && break; sleep 0.05; done
  port=$(cat "$scratch/port" 2>/dev/null)
  if [[ -z $port ]]; then
    fail "session $name: the scripted API did not start"
    kill "$api_pid" 2>/dev/null; api_pid=
    return 1
  fi
  [[ -f $home/.claude.json ]] || echo '{"hasCompletedOnboarding":true}' >"$home/.claude.json"
  t0=$(now_ms)
  (cd "$proj" && "${clean_env[@]}" "${session_env[@]}" ANTHROPIC_API_KEY=sk-fake "ANTHROPIC_BASE_URL=http://127.0.0.1:$port" \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 \
    timeout 180 "$claude" -p "$prompt" --permission-mode acceptEdits --output-format json "$@" \
    >"$scratch/out-$name.json" 2>"$scratch/err-$name.txt")
  local rc=$?
  took=$(since "$t0")
  # keep_api=1 leaves the API up for the extraction the hooks start (memdir's own `claude -p`).
  [[ -n ${keep_api:-} ]] || { kill "$api_pid" 2>/dev/null; wait "$api_pid" 2>/dev/null; api_pid=; }
  sid=$(json "$scratch/out-$name.json" 'd.get("session_id","")' 2>/dev/null)
  if [[ $rc == 0 && -n $sid ]] && [[ $(json "$scratch/out-$name.json" 'd.get("is_error")') == False ]]; then
    pass "session $name: Claude Code ran (session $sid, $took s)"
  else
    fail "session $name: Claude Code exited $rc" "$(cat "$scratch/out-$name.json" "$scratch/err-$name.txt")"
  fi
  transcript=$(find "$home/.claude/projects" -name "$sid.jsonl" 2>/dev/null | head -1)
}

# What the transcript says about the hooks Claude Code ran: every hook_* attachment (PostToolUse
# results), each stop_hook_summary, and local command output (PreCompact's result).
hook_records() {
  [[ -f $1 ]] || return 0
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try: r = json.loads(line)
    except Exception: continue
    a = r.get("attachment") or {}
    if str(a.get("type", "")).startswith("hook"):
        print(json.dumps({k: a.get(k) for k in ("type", "hookEvent", "toolUseID", "exitCode", "stdout", "stderr", "command", "durationMs")}))
    elif r.get("type") == "system" and r.get("subtype") == "stop_hook_summary":
        print(json.dumps({"type": "stop_hook_summary", "hookInfos": r.get("hookInfos"), "hookErrors": r.get("hookErrors")}))
    elif r.get("type") == "user" and isinstance(r.get("message", {}).get("content"), str) and "<local-command-stdout>" in r["message"]["content"]:
        print(json.dumps({"type": "local-command-stdout", "text": r["message"]["content"]}))
PY
}

hook_times() { # hook_times TRANSCRIPT: how long each hook took, as Claude Code measured it
  python3 -c '
import json, sys
out = []
for l in sys.stdin:
    r = json.loads(l)
    if r["type"] == "stop_hook_summary":
        out += ["Stop %s ms" % i.get("durationMs") for i in r["hookInfos"] or []]
    elif r.get("hookEvent"):
        out.append("%s(%s) %s ms" % (r["hookEvent"], r["toolUseID"], r["durationMs"]))
print(", ".join(out) or "none recorded")' < <(hook_records "$1")
}

# Checks shared by every session: the repository is sound and the cursor is at the end.
repo_sound() { # repo_sound LABEL
  local out rc
  out=$(g -C "$mem" fsck --strict 2>&1); rc=$?
  if [[ $rc == 0 && -z $out ]]; then pass "$1: git fsck --strict is clean"; else fail "$1: git fsck --strict (exit $rc)" "$out"; fi
  out=$(g -C "$mem" status --porcelain 2>&1); rc=$?
  if [[ $rc == 0 && -z $out ]]; then pass "$1: git status --porcelain is empty"; else fail "$1: git status --porcelain (exit $rc)" "$out"; fi
  check "$1: memdir doctor finds nothing wrong" md doctor
}
cursor_at_end() { # cursor_at_end LABEL SESSION TRANSCRIPT
  local cur=$mem/.git/memdir/cursors/$2.json size offset path
  size=$(stat -c %s "$3" 2>/dev/null)
  offset=$(json "$cur" 'd.get("offset")' 2>/dev/null)
  path=$(json "$cur" 'd.get("transcript")' 2>/dev/null)
  if [[ -n $size && $offset == "$size" && $path == "$3" ]]; then
    pass "$1: cursor offset $offset == transcript size ($3)"
  else
    fail "$1: cursor at the end of the transcript" "cursor $cur: offset=${offset:-?} transcript=${path:-?}
transcript $3: size=${size:-missing}"
  fi
}
# worker_state LABEL: what the hooks left running right after Claude Code exited (observations),
# then up to 10 s for the detached worker to finish, so that `drain` below can tell whether the
# workers did the work themselves. (Looks at processes, never at the worker's lock: taking the
# lock, even for a moment, could make a starting worker think another one serves the requests.)
worker_running() { pgrep -f -- "extract --worker --memory-dir $mem( |\$)" >/dev/null 2>&1; }
requests_stashed() { find "$mem/.git/memdir/requests" -type f 2>/dev/null | wc -l; }
worker_state() {
  local running=no pending t0
  worker_running && running=yes
  pending=$(requests_stashed)
  t0=$(now_ms)
  for _ in $(seq 200); do
    { worker_running || [[ $(requests_stashed) != 0 ]]; } || break
    sleep 0.05
  done
  info "$1: right after Claude Code exited: worker running=$running, requests stashed=$pending; idle after $(since "$t0") s"
}
drain() { # drain LABEL: must succeed; says whether the detached workers had already done it all
  local out rc t0 took
  t0=$(now_ms)
  out=$(md extract --drain --timeout 60 --json 2>&1); rc=$?
  took=$(since "$t0")
  if [[ $rc == 0 ]]; then
    pass "$1: memdir extract --drain --timeout 60 ($took s)"
  else
    fail "$1: memdir extract --drain --timeout 60 (exit $rc)" "$out"
  fi
  if [[ -z $out ]]; then
    pass "$1: the hooks' detached workers did all the work (drain had nothing left to serve)"
  else
    fail "$1: drain had to serve requests the detached workers left" "$out"
  fi
}
log_lines() { grep -F " $1: " "$mem/.git/memdir/worker.log" 2>/dev/null; }

g -C "$proj" init -q . || { echo "FAIL git init"; exit 1; }
version=$("${clean_env[@]}" "$claude" --version 2>&1 | head -1)
check "Claude Code is $cc_version ($version; memdir: $("$memdir" --version))" test "${version%% *}" == "$cc_version"
info "scratch: $scratch"

# 1. Install the hooks into the scratch user config dir.
check "hooks install --claude --extractor builtin --command $memdir" md hooks install --claude --extractor builtin --command "$memdir"
settings=$home/.claude/settings.json
check "settings.json: Stop, SessionEnd, PreCompact → extract --hook --extractor builtin; PostToolUse(Write|Edit|MultiEdit|NotebookEdit) → snapshot --hook; UserPromptSubmit, SessionStart → recall --hook; SessionStart, SessionEnd → sync --hook" \
  python3 - "$settings" "$memdir" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["hooks"]; exe = sys.argv[2]
def cmds(ev, matcher=None):
    return [h["command"] for e in s.get(ev, []) if e.get("matcher") == matcher for h in e["hooks"]]
for ev in ("Stop", "PreCompact"):
    assert cmds(ev) == [f"{exe} extract --hook --extractor builtin"], (ev, s.get(ev))
assert cmds("SessionEnd") == [f"{exe} extract --hook --extractor builtin", f"{exe} sync --hook"], s.get("SessionEnd")
assert cmds("PostToolUse", "Write|Edit|MultiEdit|NotebookEdit") == [f"{exe} snapshot --hook"], s.get("PostToolUse")
assert cmds("UserPromptSubmit") == [f"{exe} recall --hook"], s.get("UserPromptSubmit")
assert cmds("SessionStart") == [f"{exe} recall --hook", f"{exe} sync --hook"], s.get("SessionStart")
PY
# memdir's own setting (the throttle) lives in the same file: Claude Code must still run with it.
check "settings.json: memdir.extractEveryTurns = 1 added (Claude Code must accept the key)" \
  python3 - "$settings" <<'PY'
import json, sys
path = sys.argv[1]; s = json.load(open(path))
s["memdir"] = {"extractEveryTurns": 1}
json.dump(s, open(path, "w"), indent=2)
PY
mem=$(md path)
info "memory dir: $mem"

# 2. Session A: the person says something memorable; the assistant only answers.
prompt_a='From now on, always run make lint before committing, because CI broke for a day without it. Also: our on-call dashboard is https://grafana.example.com/d/oncall'
echo '[{"text": "Got it: `make lint` before every commit, and the on-call dashboard is noted."}]' >"$scratch/script-a.json"
session A "$scratch/script-a.json" "$prompt_a"
sid_a=$sid transcript_a=$transcript
if [[ -n $transcript_a ]]; then pass "session A: transcript at $transcript_a"; else fail "session A: no transcript named $sid_a.jsonl under $home/.claude/projects"; transcript_a=/nonexistent; fi
worker_state "session A"
info "session A: hook durations (Claude Code's): $(hook_times "$transcript_a")"
check "session A: the Stop hook ran memdir and succeeded (transcript's stop_hook_summary)" python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.stdin]
stops = [r for r in recs if r["type"] == "stop_hook_summary"]
assert stops, "no stop_hook_summary in the transcript"
for s in stops:
    assert any(i["command"] == sys.argv[1] + " extract --hook --extractor builtin" for i in s["hookInfos"]), s
    assert not s["hookErrors"], s
' "$memdir" < <(hook_records "$transcript_a")

# 3. Drain, then check what session A left.
drain "session A"
check "session A: worker.log shows the hook-triggered runs for $sid_a" log_lines "$sid_a"
list=$scratch/list-a.json
md list --json >"$list" 2>&1
find_memory() { # find_memory TYPE NEEDLE: the names of memories of TYPE whose topic file holds NEEDLE
  python3 - "$list" "$mem" "$1" "$2" <<'PY'
import json, sys, os
memories, mem, typ, needle = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
hits = [m["name"] for m in memories if m["type"] == typ and needle in open(os.path.join(mem, m["file"])).read()]
print("\n".join(hits))
sys.exit(0 if hits else 1)
PY
}
lint=$(find_memory feedback 'make lint') && pass "session A: feedback memory mentioning \`make lint\`: $lint" ||
  fail "session A: a feedback memory mentioning \`make lint\`" "$(cat "$list")"
grafana=$(find_memory reference 'https://grafana.example.com/d/oncall') &&
  pass "session A: reference memory with https://grafana.example.com/d/oncall: $grafana" ||
  fail "session A: a reference memory with https://grafana.example.com/d/oncall" "$(cat "$list")"
for name in $lint $grafana; do
  check "session A: MEMORY.md indexes $name.md" grep -qF "]($name.md)" "$mem/MEMORY.md"
done
commits=$(g -C "$mem" log --format='%s%x09%(trailers:key=Memdir-Session,valueonly,separator=%x2C)' 2>&1)
check "session A: git log has save(...) commits for both, each with Memdir-Session: $sid_a" python3 -c '
import sys
sid, names, log = sys.argv[1], sys.argv[2].split(), [l.split("\t") for l in sys.argv[3].splitlines()]
saves = [(s, t) for s, t in log if s.startswith("save(")]
assert saves, log
for s, t in saves: assert t == sid, (s, t)
for n in names: assert any(s.endswith(": " + n) for s, _ in saves), (n, log)
assert names, "no memories to look for"
' "$sid_a" "$lint $grafana" "$commits"
info "session A: memory commits: $(echo "$commits" | cut -f1 | paste -sd ';' | sed 's/;/; /g')"
repo_sound "session A"
cursor_at_end "session A" "$sid_a" "$transcript_a"

# 4. Session B: the assistant saves a memory itself (topic file, then the index line).
count_before=$(json "$list" 'len(d)' 2>/dev/null)
python3 - "$mem" >"$scratch/script-b.json" <<'PY'
import json, sys
mem = sys.argv[1]
try: index = open(f"{mem}/MEMORY.md").read()
except FileNotFoundError: index = None  # session A saved nothing: write the index instead
entry = "- [Use bun](use-bun.md) — bun, never npm, for installs and scripts"
topic = ("---\nname: use-bun\ndescription: Use bun, never npm, for installs and scripts\ntype: feedback\n---\n"
         "Use bun, never npm, for installs and scripts.\n\n**Why:** the lockfile is bun.lockb.\n"
         "**How to apply:** bun install, bun run.\n")
print(json.dumps([
    {"tool": "Write", "input": {"file_path": f"{mem}/use-bun.md", "content": topic}},
    # Edit needs a Read first; the index line is always step 2 (toolu_scripted_2).
    {"tool": "Read", "input": {"file_path": f"{mem}/MEMORY.md" if index is not None else f"{mem}/use-bun.md"}},
    {"tool": "Edit", "input": {"file_path": f"{mem}/MEMORY.md", "old_string": index.rstrip("\n").split("\n")[-1],
                               "new_string": index.rstrip("\n").split("\n")[-1] + "\n" + entry, "replace_all": False}}
    if index is not None else {"tool": "Write", "input": {"file_path": f"{mem}/MEMORY.md", "content": entry + "\n"}},
    {"text": "Saved: use bun, never npm."},
]))
PY
session B "$scratch/script-b.json" 'From now on use bun, never npm, for installs and scripts. Remember that.'
sid_b=$sid transcript_b=$transcript
if [[ -n $transcript_b ]]; then pass "session B: transcript at $transcript_b"; else fail "session B: no transcript named $sid_b.jsonl"; transcript_b=/nonexistent; fi
worker_state "session B"
info "session B: hook durations (Claude Code's): $(hook_times "$transcript_b")"
hooks_b=$(hook_records "$transcript_b")
check "session B: PostToolUse ran snapshot --hook after Write(use-bun.md) and Edit(MEMORY.md), exit 0; the Edit's adopted use-bun" python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[2].splitlines()]
post = {r["toolUseID"]: r for r in recs if r.get("hookEvent") == "PostToolUse"}
cmd = sys.argv[1] + " snapshot --hook"
for tid in ("toolu_scripted_0", "toolu_scripted_2"):
    r = post.get(tid)
    # Claude Code records a hook_success attachment only for a hook that printed something.
    assert r, f"no PostToolUse hook result recorded for {tid} (memdir snapshot --hook prints what it did)"
    assert r["command"] == cmd and r["exitCode"] == 0 and r["type"] == "hook_success", (tid, r)
assert "toolu_scripted_1" not in post, "PostToolUse ran for Read"
assert "adopt(" not in (post["toolu_scripted_0"]["stdout"] or ""), ("adopted a topic file without its index line", post["toolu_scripted_0"])
assert "adopt(feedback): use-bun" in (post["toolu_scripted_2"]["stdout"] or ""), post["toolu_scripted_2"]
' "$memdir" "$hooks_b"
info "session B: snapshot --hook after the topic Write said: $(python3 -c '
import json, sys
for l in sys.argv[1].splitlines():
    r = json.loads(l)
    if r.get("toolUseID") == "toolu_scripted_0": print(repr((r["stdout"] or "").strip()), "/ stderr", repr((r["stderr"] or "").strip()))
' "$hooks_b")"
check "session B: the Stop hook ran memdir and succeeded" python3 -c '
import json, sys
stops = [json.loads(l) for l in sys.argv[2].splitlines() if "stop_hook_summary" in l]
assert stops and all(not s["hookErrors"] for s in stops), stops
assert any(i["command"] == sys.argv[1] + " extract --hook --extractor builtin" for s in stops for i in s["hookInfos"]), stops
' "$memdir" "$hooks_b"
adopt=$(g -C "$mem" log --format='%H%x09%s%x09%(trailers:key=Memdir-Session,valueonly,separator=%x2C)' | awk -F'\t' '$2 ~ /^adopt\(/')
if [[ $(echo "$adopt" | grep -c .) == 1 && $(echo "$adopt" | cut -f2) == "adopt(feedback): use-bun" && $(echo "$adopt" | cut -f3) == "$sid_b" ]]; then
  pass "session B: one adopt commit, 'adopt(feedback): use-bun', Memdir-Session: $sid_b"
else
  fail "session B: one adopt(feedback): use-bun commit with Memdir-Session: $sid_b" "$adopt"
fi
files=$(g -C "$mem" show --name-only --format= "$(echo "$adopt" | head -1 | cut -f1)" 2>&1 | sort | paste -sd ' ')
check "session B: the adopt commit holds use-bun.md and MEMORY.md ($files)" test "$files" == "MEMORY.md use-bun.md"
drain "session B"
check "session B: worker.log says B's extraction was skipped: the agent wrote memory itself" \
  grep -qF "$sid_b: bytes 0.." <(log_lines "$sid_b" | grep -F 'skipped: the agent wrote memory itself')
info "session B: worker.log: $(log_lines "$sid_b" | cut -d' ' -f2- | paste -sd '|' | sed 's/|/ | /g')"
md list --json >"$scratch/list-b.json" 2>&1
list=$scratch/list-b.json
count_after=$(json "$list" 'len(d)' 2>/dev/null)
bun=$(find_memory feedback 'bun')
if [[ $count_after == $((count_before + 1)) && $bun == use-bun ]]; then
  pass "session B: no duplicate: $count_before → $count_after memories, the only one about bun is the agent's use-bun"
else
  fail "session B: no duplicate memory" "before: $count_before, after: $count_after, about bun: $bun
$(cat "$list")"
fi
saves_b=$(g -C "$mem" log --format='%s%x09%(trailers:key=Memdir-Session,valueonly,separator=%x2C)' | awk -F'\t' -v s="$sid_b" '$2 == s && $1 !~ /^adopt\(/')
if [[ -z $saves_b ]]; then pass "session B: no commit of session B other than the adopt"; else fail "session B: no extraction commits for B" "$saves_b"; fi
# The control: without the skip, the builtin extractor would have saved B's prompt (so the check
# above is not vacuous). Another memory dir: B's writes are not inside it, so nothing is skipped.
control=$(md --memory-dir "$scratch/control-memory" extract --transcript "$transcript_b" --session "$sid_b" --extractor builtin --json 2>&1)
check "session B (control): run against an empty memory dir, the extractor saves a memory from B's prompt" \
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert any(o.get("outcome")=="saved" for o in r.get("outcomes",[])), r' "$control"
repo_sound "session B"
cursor_at_end "session B" "$sid_b" "$transcript_b"

# 4b. Sessions R and R2: recall in tiers. A prompt about committing a hotfix gets session A's
# `make lint` memory with its body and a memory about hotfix branches as one line from the
# UserPromptSubmit hook; resumed with a prompt that clearly needs the hotfix memory, the request
# carries its body too, and every body and line once, not twice.
# last_request NAME: the last model request (with tools) of session NAME, as JSON (null if none).
last_request() {
  python3 - "$scratch/requests-$1.jsonl" <<'PY'
import json, sys
last = None
for line in open(sys.argv[1]):
    try: body = json.loads(json.loads(line)["body"])
    except Exception: continue
    if body.get("tools"): last = body
print(json.dumps(last, ensure_ascii=False))
PY
}
# body_count NAME NEEDLE: how often NEEDLE is in the last model request (with tools) of NAME.
body_count() {
  last_request "$1" | python3 -c '
import json, sys
last = json.load(sys.stdin)
print(json.dumps(last.get("messages", []), ensure_ascii=False).count(sys.argv[1]) if last else -1)
' "$2"
}
if [[ -z ${lint:-} ]]; then
  fail "sessions R, R2: not run (session A saved no make lint memory)"
else
  # The memory's first body line, as the hook adds it (and as the model would see it).
  needle=$(python3 - "$mem/$lint.md" <<'PY'
import sys
text = open(sys.argv[1]).read().split("---\n", 2)[2]
print(next(l for l in text.splitlines() if l.strip()).strip())
PY
)
  info "sessions R, R2: the body line looked for: $needle"
  hotfix_body='A hotfix branch starts at the last release tag. CI runs the whole suite, slow tests included, before a hotfix merges.'
  check "md save ci-hotfixes (a memory for the line tier)" \
    md save -q --type project --name ci-hotfixes --description 'Hotfix branches are cut from the release tag; CI runs the full suite on them' --body "$hotfix_body"
  hotfix_line='- ci-hotfixes (project, personal, saved '
  prompt_r='And what should I always run before committing a hotfix, so CI stays green?'
  info "sessions R, R2: memdir recall $prompt_r → $(md recall -v "$prompt_r" | grep -E '^  (body|line) ' | tr -s ' ' | paste -sd '|')"
  echo '[{"text": "Run make lint first."}]' >"$scratch/script-r.json"
  session R "$scratch/script-r.json" "$prompt_r"
  sid_r=$sid
  check "session R: the request carries the make lint memory's body once (added by recall --hook)" \
    test "$(body_count R "$needle")" == 1
  check "session R: the request carries ci-hotfixes as one line, once, and not its body" \
    test "$(body_count R "$hotfix_line")/$(body_count R "$hotfix_body")" == 1/0
  check "session R: .git/memdir/recall/$sid_r records $lint (a body) and line:ci-hotfixes" \
    test "$(grep -cxF -e "$lint" -e 'line:ci-hotfixes' "$mem/.git/memdir/recall/$sid_r")" == 2
  prompt_r2='Which tag is a hotfix branch cut from, and what must I always run before committing on it?'
  # Without the session's record the hook would add both memories for this prompt again.
  alone=$(md recall "$prompt_r2")
  check "session R2: its prompt alone adds ci-hotfixes's body and $lint (memdir recall PROMPT)" \
    python3 -c 'import sys; t = sys.argv[1]; assert "## ci-hotfixes (" in t and ("## " + sys.argv[2] + " (" in t or "- " + sys.argv[2] + " (" in t), t' "$alone" "$lint"
  session R2 "$scratch/script-r.json" "$prompt_r2" --resume "$sid_r"
  check "session R2: resumed, the request carries the make lint body once (not added twice, nor as a line)" \
    test "$(body_count R2 "$needle")/$(body_count R2 "- $lint (")" == 1/0
  check "session R2: the request carries ci-hotfixes's line once (from R) and now its body once" \
    test "$(body_count R2 "$hotfix_line")/$(body_count R2 "$hotfix_body")" == 1/1
  check "session R2: .git/memdir/recall/$sid_r records ci-hotfixes's body after its line" \
    test "$(grep -xF -e 'line:ci-hotfixes' -e ci-hotfixes "$mem/.git/memdir/recall/$sid_r" | paste -sd ' ')" == 'line:ci-hotfixes ci-hotfixes'
  drain "session R2"
  repo_sound "sessions R, R2"
fi

# 4c. Sessions T and T2: the team memory index. With a team/ folder in the memory dir (Claude
# Code 2.1.332 does not load it), SessionStart → `memdir recall --hook` adds its index: the
# request carries it once, and once again after --resume (not twice).
team_line='- [Release train](release-train.md) — Team releases go out on Tuesdays after the staging soak'
mkdir -p "$mem/team"
printf '%s\n' "$team_line" >"$mem/team/MEMORY.md"
printf -- '---\nname: release-train\ndescription: Team releases go out on Tuesdays after the staging soak\ntype: project\n---\nCut on Monday, ship on Tuesday.\n' >"$mem/team/release-train.md"
# A memory that names a file the project does not have: verify's kept result (made here as the
# hook would start it in the background) makes SessionStart name it as stale.
check "md save db-layout (names src/db/schema.ts, which the project lacks); verify --cache" \
  md save -q --type project --name db-layout --description 'The schema lives in src/db/schema.ts' --body 'Tables are defined in src/db/schema.ts.'
check "verify --cache keeps its result in .git/memdir/verify.json" md verify --cache
echo '[{"text": "Noted."}]' >"$scratch/script-t.json"
session T "$scratch/script-t.json" 'Summarise the repository layout in one line.'
sid_t=$sid
check "session T: the request names db-layout as stale once (added at SessionStart)" \
  test "$(body_count T '`db-layout` names src/db/schema.ts, which does not exist')" == 1
check "session T: the request carries the team index line once (added at SessionStart)" \
  test "$(body_count T "$team_line")" == 1
check "session T: .git/memdir/recall/$sid_t records the team index" grep -qxF 'team:MEMORY.md' "$mem/.git/memdir/recall/$sid_t"
session T2 "$scratch/script-t.json" 'And in two lines?' --resume "$sid_t"
check "session T2: resumed, the request carries the team index once (not added twice)" \
  test "$(body_count T2 "$team_line")" == 1
repo_sound "sessions T, T2"

# 5. Session C: A resumed with /compact; PreCompact must run memdir's extraction and succeed.
if [[ -z $sid_a ]]; then
  fail "session C: not run (session A has no session id)"
else
  head_before=$(g -C "$mem" rev-parse HEAD)
  lines_before=$(log_lines "$sid_a" | wc -l)
  # The compaction request is the conversation's first model call here, so step 0 is the summary
  # Claude Code writes into the transcript: it sounds like a person's instruction, and must not
  # become a memory (the builtin extractor ignores compaction summaries).
  echo '[{"text": "Summary: the user said: from now on, always use pnpm, never yarn."}]' >"$scratch/script-c.json"
  session C "$scratch/script-c.json" /compact --resume "$sid_a"
  [[ $sid == "$sid_a" ]] && info "session C: --resume kept session id $sid_a and appended to $(basename "$transcript")" ||
    info "session C: --resume gave a new session id $sid (transcript $transcript)"
  transcript_c=${transcript:-/nonexistent}
  check "session C: PreCompact ran memdir extract --hook and succeeded" \
    grep -qF "PreCompact [$memdir extract --hook --extractor builtin] completed successfully" <(hook_records "$transcript_c")
  drain "session C"
  lines_after=$(log_lines "$sid" | wc -l)
  check "session C: worker.log shows new runs for $sid (PreCompact, SessionEnd)" test "$((lines_after - lines_before))" -ge 1
  check "session C: the compaction summary is in the transcript" grep -qF 'always use pnpm, never yarn' "$transcript_c"
  check "session C: no memory commit from a compaction (its summary was not extracted)" test "$(g -C "$mem" rev-parse HEAD)" == "$head_before"
  repo_sound "session C"
  cursor_at_end "session C" "$sid" "$transcript_c"
fi

# 6. Sessions D–G: whatever memdir meets, its hooks answer 0 and the session goes on unaffected.
settings_saved=$scratch/settings.saved.json
cp "$settings" "$settings_saved"
# with_hooks [EXTRA.json]: memdir's installed hooks, plus `context --hook` on SessionStart, plus
# EXTRA's entries ({"Event": [commands]}) appended to each event.
with_hooks() {
  python3 - "$settings_saved" "$settings" "$memdir" "${1:-}" <<'PY'
import json, sys
saved, out, exe, extra = sys.argv[1:5]
s = json.load(open(saved))
hooks = s.setdefault("hooks", {})
hooks.setdefault("SessionStart", []).append({"hooks": [{"type": "command", "command": f"{exe} context --hook"}]})
for event, commands in (json.loads(extra) if extra else {}).items():
    entry = {"hooks": [{"type": "command", "command": c} for c in commands]}
    if event == "PostToolUse":
        entry["matcher"] = "Write|Edit|MultiEdit|NotebookEdit"
    hooks.setdefault(event, []).append(entry)
json.dump(s, open(out, "w"), indent=2)
PY
}
# unaffected NAME LABEL: session NAME ran as if memdir's hooks were not there.
unaffected() {
  local name=$1 label=$2 records
  records=$(hook_records "$transcript")
  check "$label: no hook error in the transcript (every hook exited 0; Stop ran once, not turned into 'keep going')" python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
bad = [r for r in recs if "error" in str(r.get("type")) or r.get("exitCode") not in (None, 0)]
assert not bad, bad
stops = [r for r in recs if r["type"] == "stop_hook_summary"]
assert len(stops) == 1, stops
assert not stops[0]["hookErrors"], stops
' "$records"
  check "$label: two model requests, as scripted (no extra turn from a hook)" python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    try: body = json.loads(json.loads(l)["body"])
    except Exception: continue
    n += bool(body.get("tools"))
assert n == 2, n
' "$scratch/requests-$name.jsonl"
  check "$label: nothing from the hooks on Claude Code's stderr" test ! -s "$scratch/err-$name.txt"
}
script_write() { # script_write NAME: write a file, then answer
  printf '[{"tool": "Write", "input": {"file_path": "%s/notes-%s.txt", "content": "notes"}}, {"text": "Done."}]' \
    "$proj" "$1" >"$scratch/script-$1.json"
}
hooks_log=$home/.claude/memdir/hooks.log
worker_log=$mem/.git/memdir/worker.log

# D: broken payloads, fed to memdir by extra hook entries (Claude Code's own payload goes to sh).
broken=$(python3 - "$memdir" "$proj" <<'PY'
import json, shlex, sys
exe, proj = sys.argv[1:3]
feed = lambda text, cmd: "sh -c " + shlex.quote(f"cat >/dev/null; printf %s {shlex.quote(text)} | {exe} {cmd}")
print(json.dumps({
    "Stop": [feed("", "extract --hook"), feed("not json", "extract --hook"),
             feed(json.dumps({"cwd": proj, "transcript_path": "/x.jsonl"}), "extract --hook")],
    "PostToolUse": [feed("[1, 2]", "snapshot --hook"),
                    feed(json.dumps({"session_id": "s", "cwd": "/nonexistent/deleted"}), "snapshot --hook")],
    "SessionStart": [feed(json.dumps({"cwd": "/nonexistent/deleted"}), "context --hook"), feed("", "context --hook")],
    "UserPromptSubmit": [feed("", "recall --hook"), feed("not json", "recall --hook"),
                         feed(json.dumps({"session_id": "s", "cwd": proj}), "recall --hook")],
}))
PY
)
with_hooks "$broken"
script_write D
session D "$scratch/script-D.json" 'Write the notes file.'
unaffected D "session D (broken payloads)"
check "session D: hooks.log names the empty, non-JSON and array payloads and the deleted cwd" python3 -c '
import sys
log = open(sys.argv[1]).read()
for needle in ("extract --hook: the hook payload on stdin is empty",
               "extract --hook: the hook payload on stdin is not a JSON object",
               "snapshot --hook: the hook payload on stdin is not a JSON object",
               "context --hook: the hook payload on stdin is empty",
               "/nonexistent/deleted"):
    assert needle in log, (needle, log)
' "$hooks_log"
check "session D: worker.log names the payload without a session_id" grep -qF 'extract --hook: the hook payload has no session_id' "$worker_log"
drain "session D"
cursor_at_end "session D" "$sid" "$transcript"

# E: a settings file memdir reads and Claude Code does not (the managed-policy one), malformed.
with_hooks
printf '{"autoMemoryDirectory": ,}' >"$scratch/managed/managed-settings.json"
script_write E
session E "$scratch/script-E.json" 'Write the notes file.'
unaffected E "session E (malformed settings file)"
info "session E: log lines naming the malformed file: $(cat "$hooks_log" "$worker_log" 2>/dev/null | grep -c managed-settings.json)"
rm -f "$scratch/managed/managed-settings.json"
# Whatever E's hooks queued is done before F and G count the log lines.
out=$(md extract --drain --timeout 60 2>&1) || fail "session E: memdir extract --drain" "$out"

# F, G: auto memory off, by the variable and by the setting: the hooks do nothing, quietly.
head_before=$(g -C "$mem" rev-parse HEAD)
log_lines_before=$(cat "$hooks_log" "$worker_log" 2>/dev/null | wc -l)
session_env=(CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)
script_write F
session F "$scratch/script-F.json" 'From now on, always use pnpm. Write the notes file.'
session_env=()
unaffected F "session F (CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)"
python3 - "$settings" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s["autoMemoryEnabled"] = False
json.dump(s, open(sys.argv[1], "w"), indent=2)
PY
script_write G
session G "$scratch/script-G.json" 'From now on, never use yarn. Write the notes file.'
unaffected G "session G (autoMemoryEnabled: false)"
sleep 1
check "sessions F, G: no memory commit and nothing logged (auto memory off is not a problem)" \
  test "$(g -C "$mem" rev-parse HEAD) $(cat "$hooks_log" "$worker_log" 2>/dev/null | wc -l)" == "$head_before $log_lines_before"
cp "$settings_saved" "$settings"

# 7. Sessions P, P2: the plugin (plugin/, loaded with --plugin-dir) instead of installed hooks.
# P: memdir on PATH; the scripted model calls the plugin's MCP tools (deferred behind ToolSearch,
# called by name): save, then search and show what it saved. P2: no memdir on PATH.
python3 - "$settings_saved" "$settings" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); s.pop("hooks", None)
json.dump(s, open(sys.argv[2], "w"), indent=2)
PY
freeze_body='Only P0 fixes merge from 2026-12-15 until the 2027-01-05 release.'
python3 - "$scratch/script-P.json" "$freeze_body" <<'PY'
import json, sys
json.dump([
    {"tool_match": r"^mcp__plugin_memdir_memdir__save$", "input": {
        "type": "project", "name": "release-freeze",
        "description": "Release freeze from 2026-12-15: only P0 fixes merge", "body": sys.argv[2]}},
    {"tool_match": r"^mcp__plugin_memdir_memdir__search$", "input": {"query": "when is the release freeze"}},
    {"tool_match": r"^mcp__plugin_memdir_memdir__show$", "input": {"name": "release-freeze"}},
    {"text": "Saved, found and read back."}], open(sys.argv[1], "w"))
PY
commits_before=$(g -C "$mem" rev-list --count HEAD)
session_env=("PATH=$(dirname "$memdir"):$PATH" IS_SANDBOX=1)
session P "$scratch/script-P.json" 'Remember the release freeze, then look it up.' \
  --plugin-dir "$root/plugin" --permission-mode bypassPermissions
session_env=()
sid_p=$sid transcript_p=$transcript
check "session P: every scripted MCP call found its tool (no NO_TOOL_MATCH)" \
  bash -c '! grep -q NO_TOOL_MATCH "$1"' _ "$scratch/requests-P.jsonl"
# tool_results N: the text of each tool_result in the last model request of session N, one per line.
tool_results() {
  last_request "$1" | python3 -c '
import json, sys
last = json.load(sys.stdin)
for m in (last or {}).get("messages", []):
    for b in m.get("content", []) if isinstance(m.get("content"), list) else []:
        if b.get("type") == "tool_result":
            c = b.get("content")
            text = c if isinstance(c, str) else " ".join(x.get("text", "") for x in c or [])
            print(json.dumps({"error": bool(b.get("is_error")), "text": text}))
'
}
results_p=$(tool_results P)
check "session P: the model got save's, search's and show's results back (saved; found release-freeze; its body)" python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(rs) == 3 and not any(r["error"] for r in rs), rs
assert "saved release-freeze" in rs[0]["text"], rs[0]
assert json.loads(rs[1]["text"].splitlines()[0])[0]["name"] == "release-freeze", rs[1]
assert json.loads(rs[2]["text"].splitlines()[0])["body"].strip() == sys.argv[2], rs[2]
' "$results_p" "$freeze_body"
check "session P: one commit for the one save, save(project): release-freeze" \
  test "$(g -C "$mem" rev-list --count HEAD) $(g -C "$mem" log -1 --format=%s)" == "$((commits_before + 1)) save(project): release-freeze"
trailer=$(g -C "$mem" log -1 --format='%(trailers:key=Memdir-Session,valueonly)' | head -1)
if [[ $trailer == "$sid_p" ]]; then
  pass "session P: the save's Memdir-Session is P's session id (Claude Code passes CLAUDE_CODE_SESSION_ID)"
else
  check "session P: the save's Memdir-Session names the MCP connection ($trailer)" test -n "$trailer"
fi
repo_sound "session P"
check "session P: the request carries memdir's MCP instructions once, and not the memory index again (Claude Code loads it itself)" python3 -c '
import sys
text = sys.argv[1]
assert text.count("memdir is this project") == 1, text.count("memdir is this project")
assert "This project" + chr(39) + "s memory index (" not in text
' "$(last_request P)"
check "session P: the plugin's hooks ran memdir and exited 0 (SessionStart, UserPromptSubmit, Stop)" python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
bad = [r for r in recs if "error" in str(r.get("type")) or r.get("exitCode") not in (None, 0)]
assert not bad, bad
stops = [r for r in recs if r["type"] == "stop_hook_summary"]
assert len(stops) == 1 and not stops[0]["hookErrors"], stops
cmds = " ".join(str(h.get("command")) for s in stops for h in s.get("hookInfos") or [])
assert "memdir-plugin\" extract --hook" in cmds, cmds
' "$(hook_records "$transcript_p")"
check "session P: the plugin's Stop hook queued P's extraction (worker.log names $sid_p)" log_lines "$sid_p"
drain "session P"
cursor_at_end "session P" "$sid_p" "$transcript_p"

# P2: the plugin without memdir on PATH: the session is unaffected, and SessionStart says why.
script_write P2
no_memdir_path=$(dirname "$(command -v python3)"):/usr/bin:/bin
session_env=("PATH=$no_memdir_path" IS_SANDBOX=1)
session P2 "$scratch/script-P2.json" 'Write the notes file.' \
  --plugin-dir "$root/plugin" --permission-mode bypassPermissions
session_env=()
check "session P2: the plugin's SessionStart message says memdir is not on PATH" \
  grep -qF 'memdir is not on PATH, so the memdir plugin does nothing' "$scratch/out-P2.json" "$transcript"
check "session P2: no hook error in the transcript" python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
bad = [r for r in recs if "error" in str(r.get("type")) or r.get("exitCode") not in (None, 0)]
assert not bad, bad
' "$(hook_records "$transcript")"

# S: the plugin's review skill: the model loads it, then runs `memdir review --json`, which the
# skill's allowed-tools permit without asking (the session allows the skill, and no Bash).
echo '[{"tool": "Skill", "input": {"skill": "memdir:memory-review"}}, {"tool": "Bash", "input": {"command": "memdir review --json"}}, {"text": "Here is the review."}]' >"$scratch/script-S.json"
session_env=("PATH=$(dirname "$memdir"):$PATH")
session S "$scratch/script-S.json" 'Review my memory.' --plugin-dir "$root/plugin" \
  --allowedTools 'Skill(memdir:memory-review)'
session_env=()
check "session S: the skill memdir:memory-review is offered, loads, and its memdir review --json ran (release-freeze among the proposals)" python3 -c '
import json, sys
text = sys.argv[1]
assert "memdir:memory-review" in text, "skill not offered"
assert "promote only what the user approves" in text, "skill text not loaded"
rs = [json.loads(l) for l in sys.argv[2].splitlines()]
review = [r for r in rs if "proposals" in r["text"]]
assert review and not review[0]["error"], rs
assert "release-freeze" in review[0]["text"], review
 ' "$(last_request S)" "$(tool_results S)"

# P3: installed the way people install plugins: the repository as a marketplace, then the plugin.
cc() { (cd "$proj" && "${clean_env[@]}" timeout 120 "$claude" "$@"); }
check "claude plugin validate plugin (the manifest, hooks, MCP server and skill)" cc plugin validate "$root/plugin"
check "claude plugin marketplace add <this repository>" cc plugin marketplace add "$root"
check "claude plugin install memdir@memdir" cc plugin install memdir@memdir
echo '[{"tool_match": "^mcp__plugin_memdir_memdir__search$", "input": {"query": "release freeze"}}, {"text": "Found it."}]' >"$scratch/script-P3.json"
session_env=("PATH=$(dirname "$memdir"):$PATH" IS_SANDBOX=1)
session P3 "$scratch/script-P3.json" 'When is the release freeze?' --permission-mode bypassPermissions
session_env=()
check "session P3 (installed plugin): search through its MCP server found release-freeze" python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(rs) == 1 and not rs[0]["error"], rs
assert json.loads(rs[0]["text"].splitlines()[0])[0]["name"] == "release-freeze", rs
' "$(tool_results P3)"
check "session P3 (installed plugin): its Stop hook ran memdir" log_lines "$sid"

# M: no plugin, the server given with --mcp-config (as any MCP client would start it).
printf '{"mcpServers": {"memdir": {"command": "%s", "args": ["mcp"]}}}' "$memdir" >"$scratch/mcp.json"
echo '[{"tool_match": "^mcp__memdir__show$", "input": {"name": "release-freeze"}}, {"text": "Shown."}]' >"$scratch/script-M.json"
session_env=(IS_SANDBOX=1)
session M "$scratch/script-M.json" 'Show the release freeze memory.' --mcp-config "$scratch/mcp.json" --permission-mode bypassPermissions
session_env=()
check "session M (--mcp-config): show returned release-freeze's body" python3 -c '
import json, sys
rs = [json.loads(l) for l in sys.argv[1].splitlines()]
assert len(rs) == 1 and not rs[0]["error"], rs
assert json.loads(rs[0]["text"].splitlines()[0])["body"].strip() == sys.argv[2], rs
' "$(tool_results M)" "$freeze_body"
cp "$settings_saved" "$settings"

# 8. Session K: consolidation. Two more memories stating session A's make lint fact and a freeze
# whose date passed are consolidated and applied (`consolidate --apply`, today pinned): the lint
# memories merge into the first saved, A's; the next session's request carries the consolidated
# index: the merged memory's line, neither the duplicates' nor the freeze's. `undo` then gives
# back the files as they were.
kd() { "${clean_env[@]}" MEMDIR_TODAY=2026-12-04 "$memdir" --project "$proj" "$@"; }
check "md save lint-before-commit, merge-freeze, make-lint-and-fmt (a duplicate and an expired memory)" bash -c '
  "$@" save -q --type feedback --name lint-before-commit --description "Always run make lint before committing; CI golangci-lint is strict about errcheck" --body "Always run \`make lint\` before committing. golangci-lint in CI is strict (errcheck, govet shadow)." &&
  "$@" save -q --type project --name merge-freeze --description "Merge freeze until 2026-01-15; hotfixes only" --body "Merge freeze on main until 2026-01-15. Only hotfixes." &&
  "$@" save -q --type feedback --name make-lint-and-fmt --description "run make fmt + make lint before commits, CI fails on errcheck otherwise" --body "before any commit: \`make fmt\` (gofumpt) then \`make lint\`. CI fails on errcheck otherwise"' \
  _ "${clean_env[@]}" MEMDIR_TODAY=2026-12-04 "$memdir" --project "$proj"
files_before=$(cd "$mem" && sha1sum ./*.md | sort)
applied=$(kd consolidate --apply --json 2>&1)
check "consolidate --apply: one merge commit on top of the memory as it was" python3 -c '
import json, subprocess, sys
out = json.loads(sys.argv[1])
commit = out["applied"]["commit"]
parents = subprocess.run(["git", "-C", sys.argv[2], "log", "-1", "--format=%P", commit], capture_output=True, text=True).stdout.split()
assert len(parents) == 2, parents
' "$applied" "$mem"
# The lint memories are merged into the first saved of them: session A's make lint memory.
into=$(python3 -c '
import json, sys
out = json.loads(sys.argv[1])
print(next(c["name"] for k in out["commits"] if k["kind"] == "duplicates" for c in k["changes"]))
' "$applied" 2>/dev/null)
# (Without one from A, lint-before-commit is the first saved.)
first=${lint:-lint-before-commit}
merged_away=$(printf '%s\n' lint-before-commit make-lint-and-fmt | grep -vxF "$first" | paste -sd ' ')
check "consolidate --apply: the lint memories merged into the first saved (${into:-none}; expected $first), which holds the later ones' details; $merged_away and merge-freeze are gone" bash -c '
  test "$1" == "$2" && grep -qF "gofumpt" "$0/$1.md" && grep -qF "govet shadow" "$0/$1.md" &&
  for gone in $3 merge-freeze; do ! test -e "$0/$gone.md" || exit 1; done' "$mem" "${into:-none}" "$first" "$merged_away"
repo_sound "consolidate --apply"
echo '[{"text": "Noted."}]' >"$scratch/script-k.json"
session K "$scratch/script-k.json" 'What do I run before a commit?'
# request_count NAME NEEDLE: how often NEEDLE is anywhere in the last model request of NAME.
request_count() {
  last_request "$1" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin), ensure_ascii=False).count(sys.argv[1]))' "$2"
}
check "session K: the request carries the consolidated index (the merged memory's line)" \
  test "$(request_count K "(${into:-none}.md)")" -ge 1
k_gone=0
for gone in $merged_away merge-freeze; do k_gone=$((k_gone + $(request_count K "($gone.md)"))); done
check "session K: the request carries neither the merged duplicates' lines nor the expired memory's" \
  test "$k_gone" == 0
md undo >/dev/null
check "memdir undo gives back the files as they were before --apply" test "$(cd "$mem" && sha1sum ./*.md | sort)" == "$files_before"
repo_sound "consolidate undone"

# 8b. Consolidation by the model: the store as K left it (undone), consolidated with
# `--consolidator agent` and this Claude Code on PATH: memdir runs `claude -p` itself (the runner
# extraction uses), which asks the scripted API; the API answers memdir's consolidation request
# with a structured answer (the schema keeps its form): a drop as expired of a memory that names
# no date, which memdir refuses, a merge and an expired drop. One call; the branch holds what passed; HEAD and the work tree untouched.
cat >"$scratch/consolidation-answer.json" <<'JSON'
{"actions": [
 {"action": "drop", "name": "make-lint-and-fmt", "reason": "expired", "date": "2026-01-15", "why": "refused: it names no date"},
 {"action": "merge", "names": ["lint-before-commit", "make-lint-and-fmt"], "into": "lint-before-commit",
  "description": "Always run make lint before committing; CI golangci-lint is strict about errcheck",
  "body": "Always run `make lint` before committing. golangci-lint in CI is strict (errcheck, govet shadow).\nrun make fmt + make lint before commits, CI fails on errcheck otherwise\nbefore any commit: `make fmt` (gofumpt) then `make lint`. CI fails on errcheck otherwise\n",
  "why": "the same rule"},
 {"action": "drop", "name": "merge-freeze", "reason": "expired", "date": "2026-01-15", "why": "the freeze ended"}
]}
JSON
echo '[]' >"$scratch/script-K2.json"
mkdir -p "$scratch/claude-bin"
ln -sf "$claude" "$scratch/claude-bin/claude"
rm -f "$scratch/port"
python3 "$scratch/scripted_api.py" "$scratch/script-K2.json" "$scratch/requests-K2.jsonl" "$scratch/port" "$scratch/consolidation-answer.json" &
api_pid=$!
for _ in $(seq 100); do [[ -s $scratch/port ]] && break; sleep 0.05; done
head_k2=$(g -C "$mem" rev-parse HEAD)
k2=$("${clean_env[@]}" "PATH=$scratch/claude-bin:$e2e_path" ANTHROPIC_API_KEY=sk-fake "ANTHROPIC_BASE_URL=http://127.0.0.1:$(cat "$scratch/port")" \
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 MEMDIR_TODAY=2026-12-04 \
  "$memdir" --project "$proj" consolidate --consolidator agent --json 2>"$scratch/err-K2.txt")
kill "$api_pid" 2>/dev/null; wait "$api_pid" 2>/dev/null; api_pid=
check "session K2: consolidate --consolidator agent: proposed by claude (haiku) in one call; the merge and the expired drop on the branch, the drop of a memory naming no date refused" python3 -c '
import json, sys
out = json.loads(sys.argv[1])
assert out["consolidator"] == "agent" and out["model"] == "claude (haiku)" and out["model_calls"] == 1, out
assert [c["kind"] for c in out["commits"]] == ["duplicates", "expired"], out["commits"]
assert [(r["what"], r["why"]) for r in out["refused"]] == [("dropping make-lint-and-fmt", "make-lint-and-fmt is dropped as expired on 2026-01-15, a date it does not name")], out["refused"]
' "$k2"
check "session K2: memdir's claude -p asked once, with no tool but its structured answer, a small model, the memdir-consolidate/1 request" python3 - "$scratch/requests-K2.jsonl" <<'PY'
import json, sys
asked = []
for line in open(sys.argv[1]):
    try: body = json.loads(json.loads(line)["body"])
    except Exception: continue
    if "memdir's memory consolidator" not in json.dumps(body.get("system", "")): continue
    tools = [t["name"] for t in body.get("tools", []) if not t.get("defer_loading")]
    assert tools == ["StructuredOutput"], tools
    assert "haiku" in body["model"], body["model"]
    content = body["messages"][0]["content"]
    request = json.loads(content if isinstance(content, str) else content[0]["text"])
    assert request["protocol"] == "memdir-consolidate/1" and request["today"] == "2026-12-04", request
    asked.append(sorted(m["name"] for m in request["memories"]))
assert len(asked) == 1 and {"lint-before-commit", "make-lint-and-fmt", "merge-freeze"} <= set(asked[0]), asked
PY
check "session K2: HEAD did not move; the branch's merge keeps both memories' details" bash -c '
  test "$(git -C "$0" rev-parse HEAD)" == "$1" &&
  git -C "$0" show memdir/consolidate/2026-12-04:lint-before-commit.md | grep -qF gofumpt &&
  git -C "$0" log -1 --format=%B memdir/consolidate/2026-12-04 | grep -qF "Memdir-Proposed-By: claude (haiku)"' "$mem" "$head_k2"
repo_sound "session K2"

# 9. Sessions X, Y: the extractor `auto`, the default (`hooks install --claude` names none), with
# `claude` on the hooks' PATH: memdir runs it itself (`claude -p`), and it asks the same scripted
# API, which answers memdir's request with a structured answer. X: one call saves the memory.
# Y: that `claude` is not logged in: the builtin extractor does the range, nothing is lost.
check "hooks install --claude --extractor auto (back to the default: plain extract --hook)" \
  md hooks install --claude --extractor auto --command "$memdir"
check "settings.json: Stop, SessionEnd, PreCompact → extract --hook (auto)" python3 - "$settings" "$memdir" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["hooks"]; exe = sys.argv[2]
for ev in ("Stop", "SessionEnd", "PreCompact"):
    cmds = [h["command"] for e in s.get(ev, []) for h in e["hooks"]]
    assert cmds == [f"{exe} extract --hook"] + ([f"{exe} sync --hook"] if ev == "SessionEnd" else []), (ev, cmds)
PY
mkdir -p "$scratch/claude-bin" "$scratch/claude-logged-out"
ln -sf "$claude" "$scratch/claude-bin/claude"
# Y's `claude`: this Claude Code, with no API key: "Not logged in".
printf '#!/bin/sh\nexec env -u ANTHROPIC_API_KEY %s "$@"\n' "$claude" >"$scratch/claude-logged-out/claude"
chmod +x "$scratch/claude-logged-out/claude"
cat >"$scratch/memdir-answer.json" <<'JSON'
{"actions": [{"action": "save", "name": "payments-runbook", "type": "reference",
  "description": "The payments incident runbook is at https://wiki.example.com/runbooks/payments",
  "body": "Incidents in payments follow https://wiki.example.com/runbooks/payments."},
 {"action": "done"}]}
JSON
extraction_calls() { # extraction_calls NAME: memdir's requests (with the extractor's system prompt) in NAME's API log
  python3 - "$scratch/requests-$1.jsonl" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1]):
    try: body = json.loads(json.loads(line)["body"])
    except Exception: continue
    n += "memdir's memory extractor" in json.dumps(body.get("system", ""))
print(n)
PY
}
head_before=$(g -C "$mem" rev-parse HEAD)
echo '[{"text": "Noted: the payments runbook."}]' >"$scratch/script-X.json"
session_env=("PATH=$scratch/claude-bin:$e2e_path")
keep_api=1 memdir_answer=$scratch/memdir-answer.json
session X "$scratch/script-X.json" 'When payments has an incident, follow our runbook at https://wiki.example.com/runbooks/payments'
keep_api= memdir_answer= session_env=()
sid_x=$sid transcript_x=$transcript
drain "session X"
kill "$api_pid" 2>/dev/null; wait "$api_pid" 2>/dev/null; api_pid=
check "session X: one extraction call to the model for the session (Stop and SessionEnd batched)" \
  test "$(extraction_calls X)" == 1
check "session X: memdir's claude -p asked with no tool but its structured answer, a small model, no CLAUDE.md" python3 - "$scratch/requests-X.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try: body = json.loads(json.loads(line)["body"])
    except Exception: continue
    if "memdir's memory extractor" not in json.dumps(body.get("system", "")): continue
    tools = [t["name"] for t in body.get("tools", []) if not t.get("defer_loading")]
    assert tools == ["StructuredOutput"], tools
    assert "haiku" in body["model"], body["model"]
    request = json.loads(body["messages"][0]["content"] if isinstance(body["messages"][0]["content"], str) else body["messages"][0]["content"][0]["text"])
    assert request["protocol"] == "memdir-extract/2", request["protocol"]
    assert "wiki.example.com/runbooks/payments" in json.dumps(request["excerpt"]), request["excerpt"]
PY
check "session X: payments-runbook saved by the model: one save commit, with X's session id" python3 -c '
import sys
log = [l.split("\t") for l in sys.argv[1].splitlines()]
assert log == [["save(reference): payments-runbook", sys.argv[2]]], log
' "$(g -C "$mem" log --format='%s%x09%(trailers:key=Memdir-Session,valueonly)' "$head_before..HEAD")" "$sid_x"
check "session X: worker.log says the agent extractor ran through claude (haiku), 1 call" \
  grep -qF "extractor agent: claude (haiku), 1 call(s)" <(log_lines "$sid_x")
info "session X: worker.log: $(log_lines "$sid_x" | cut -d' ' -f2- | paste -sd '|' | sed 's/|/ | /g')"
check "session X: memdir's nested claude -p saved no session transcript of its own" \
  test "$(find "$home/.claude/projects" -name '*.jsonl' -newer "$transcript_x" | wc -l)" == 0
repo_sound "session X"
cursor_at_end "session X" "$sid_x" "$transcript_x"

head_before=$(g -C "$mem" rev-parse HEAD)
echo '[{"text": "OK: make test before every push."}]' >"$scratch/script-Y.json"
session_env=("PATH=$scratch/claude-logged-out:$e2e_path")
keep_api=1 memdir_answer=$scratch/memdir-answer.json
session Y "$scratch/script-Y.json" 'From now on, always run make test before pushing; the CI queue is slow.'
keep_api= memdir_answer= session_env=()
sid_y=$sid transcript_y=$transcript
unaffected_hooks=$(hook_records "$transcript_y")
check "session Y: every hook exited 0 (no hook error)" python3 -c '
import json, sys
recs = [json.loads(l) for l in sys.argv[1].splitlines()]
bad = [r for r in recs if "error" in str(r.get("type")) or r.get("exitCode") not in (None, 0)]
assert not bad, bad
' "$unaffected_hooks"
drain "session Y"
kill "$api_pid" 2>/dev/null; wait "$api_pid" 2>/dev/null; api_pid=
check "session Y: no extraction request reached the API (claude was not logged in)" test "$(extraction_calls Y)" == 0
md list --json >"$scratch/list-y.json" 2>&1
list=$scratch/list-y.json
make_test=$(find_memory feedback 'make test') && pass "session Y: the builtin extractor saved the feedback memory: $make_test" ||
  fail "session Y: a feedback memory mentioning make test (nothing lost)" "$(cat "$list")"
check "session Y: worker.log says the builtin ran because claude did not answer, and marked the range" python3 -c '
import sys
log = sys.argv[1]
assert "extractor builtin (no model: claude (haiku) did not answer: claude reported an error" in log, log
assert "Not logged in" in log and "marked for `memdir extract --all --extractor agent`" in log, log
' "$(log_lines "$sid_y")"
check "session Y: the range is marked in .git/memdir/redo/ for the model" test -s "$mem/.git/memdir/redo/$sid_y.json"
repo_sound "session Y"
cursor_at_end "session Y" "$sid_y" "$transcript_y"

# 9. Session Z: personal sync (issue 32). With memdir.sync.auto on in the user's settings and a
# remote set, the SessionStart and SessionEnd hooks start `memdir sync` in the background: the
# session is unaffected, and the project's branch appears in the remote with its MEMORY.md.
personal=$scratch/personal.git
g init -q --bare "$personal"
g -C "$proj" remote add origin https://git.example/acme/app.git 2>/dev/null ||
  g -C "$proj" remote set-url origin https://git.example/acme/app.git
check "sync --remote $personal (kept in memdir's user config)" md sync --remote "$personal"
python3 - "$settings_saved" "$settings" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s.setdefault("memdir", {})["sync"] = {"auto": True}
json.dump(s, open(sys.argv[2], "w"), indent=2)
PY
branch=$(md path --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["identity"]["branch"])')
info "session Z: the project's branch is $branch"
script_write Z
session Z "$scratch/script-Z.json" 'Write the notes file.'
unaffected Z "session Z (personal sync hooks on)"
synced=no
for _ in $(seq 1 300); do
  if g -C "$personal" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then synced=yes; break; fi
  sleep 0.2
done
check "session Z: the background sync pushed $branch to the personal remote" test "$synced" == yes
check "session Z: the pushed branch holds the memory dir's MEMORY.md" \
  sh -c "test \"\$(git -C '$personal' show '$branch:MEMORY.md')\" = \"\$(cat '$mem/MEMORY.md')\""
check "session Z: nothing about sync in worker.log's problems" sh -c "! grep -F 'sync --hook:' '$worker_log'"
repo_sound "session Z"
g -C "$proj" remote remove origin
cp "$settings_saved" "$settings"

elapsed=$(since "$started")
if [[ $failures == 0 ]]; then echo "ALL PASS ($elapsed s)"; else echo "$failures check(s) FAILED ($elapsed s)"; fi
[[ $failures == 0 ]]
