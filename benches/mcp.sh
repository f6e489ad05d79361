#!/usr/bin/env bash
# Benchmark: `memdir mcp`, one call at a time over one connection (JSON-RPC on the server's
# stdin and stdout, as an MCP client speaks to it), against the same operation as a whole
# `memdir` process, on a store of N memories (make_store: N commits, packed). A tool call runs
# the command's own code in process, so the difference is the process start-up each CLI call
# pays and the server does not.
#
# Usage: benches/mcp.sh [N...]   (default: 1000); RUNS (default 50) calls of each; results in
# benches/results/mcp-N.txt.
source "$(dirname "$0")/common.sh"
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$work

for n in "${@:-1000}"; do
  store=$work/store-$n
  make_store "$store" "$n"
  python3 - "$memdir" "$store" "$n" "${RUNS:-50}" <<'PY' | tee "$out/mcp-$n.txt"
import json, statistics, subprocess, sys, time
memdir, store, n, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
server = subprocess.Popen([memdir, "--memory-dir", store, "mcp"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True, bufsize=1)
next_id = 0
def request(method, params):
    global next_id
    next_id += 1
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}) + "\n")
    server.stdin.flush()
    while True:
        reply = json.loads(server.stdout.readline())
        if reply.get("id") == next_id:
            return reply
request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

def save_args(i):
    return {"type": "feedback", "name": f"bench-{i % 5}", "description": f"Benchmark memory {i}", "body": f"Body {i}.\n"}
cases = [
    ("search", lambda i: {"query": f"memory number {i * 7 % n}"},
     lambda a: ["search", "--json", a["query"]]),
    ("show", lambda i: {"name": f"memory-{i * 7 % n}"}, lambda a: ["show", "--json", a["name"]]),
    ("list", lambda i: {"limit": 200}, lambda a: ["list", "--json"]),
    ("log", lambda i: {"limit": 50}, lambda a: ["log", "--json"]),
    ("save", save_args, lambda a: ["save", "--type", a["type"], "--name", a["name"],
                                   "--description", a["description"], "--body", a["body"]]),
]
def ms(samples):
    return f"{statistics.median(samples) * 1000:7.2f} ms (p90 {sorted(samples)[int(len(samples) * 0.9)] * 1000:7.2f})"
print(f"memdir mcp vs one memdir process per call, {n} memories, {runs} calls each (median, p90)")
for tool, arguments, argv in cases:
    mcp, cli = [], []
    for i in range(runs):
        a = arguments(i)
        t = time.perf_counter()
        reply = request("tools/call", {"name": tool, "arguments": a})
        mcp.append(time.perf_counter() - t)
        assert not reply["result"].get("isError"), reply
        a = arguments(i + runs)
        t = time.perf_counter()
        subprocess.run([memdir, "--memory-dir", store] + argv(a), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cli.append(time.perf_counter() - t)
    print(f"{tool:7} mcp {ms(mcp)}   cli {ms(cli)}")
server.stdin.close()
server.wait()
PY
  wait_for_pack "$store"
  test -z "$(git -C "$store" status --porcelain)"
  git -C "$store" fsck --strict --no-progress
done
