"""A second MCP client for `memdir mcp`: the official Python MCP SDK (from PyPI), which no one
here wrote. Run by tests/cli/mcp_python.rs as

    python client.py MEMDIR_BINARY PROJECT_DIR

with a hermetic environment (HOME and the rest) inherited. It lists the tools and resources,
calls every tool, then makes bad calls, and prints one JSON object of what it saw for the Rust
test to check against the real git.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "".join(getattr(block, "text", "") for block in result.content)


async def main(binary, project):
    server = StdioServerParameters(command=binary, args=["mcp"], env=dict(os.environ), cwd=project)
    seen = {"calls": {}, "bad": {}}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["server"] = init.server_info.name
            tools = await session.list_tools()
            seen["tools"] = sorted(tool.name for tool in tools.tools)

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                return {"error": bool(result.is_error), "text": text_of(result)}

            calls = [
                ("save", {"type": "user", "name": "go-developer",
                          "description": "The user writes Go services and is new to React",
                          "body": "Explain frontend code in terms of Go where it helps.\n"}),
                ("save", {"type": "project", "name": "merge-freeze",
                          "description": "Merge freeze for the mobile release from 2026-12-15",
                          "body": "Only P0 fixes merge during the freeze.\n"}),
                ("search", {"query": "mobile release merge freeze"}),
                ("list", {}),
                ("show", {"name": "go-developer"}),
                ("log", {"limit": 10}),
                ("diff", {"from": "HEAD~1", "to": "HEAD"}),
                ("review", {}),
                ("remove", {"name": "merge-freeze"}),
                ("restore", {"name": "merge-freeze"}),
            ]
            for name, arguments in calls:
                seen["calls"].setdefault(name, []).append(await call(name, arguments))

            resources = await session.list_resources()
            seen["resources"] = [str(r.uri) for r in resources.resources]
            index = await session.read_resource("memdir://memory/MEMORY.md")
            seen["index"] = index.contents[0].text

            bad = {
                "wrong type": ("save", {"type": "user", "name": ["x"], "description": "d", "body": "b"}),
                "missing field": ("save", {"type": "user", "name": "x-y", "body": "b"}),
                "unknown field": ("list", {"kind": "user"}),
                "unknown tool": ("forget-everything", {}),
                "invalid name": ("save", {"type": "user", "name": "Bad/Name", "description": "d", "body": "b"}),
                "10 MB body": ("save", {"type": "user", "name": "huge", "description": "d", "body": "x" * (10 << 20)}),
            }
            for label, (name, arguments) in bad.items():
                try:
                    seen["bad"][label] = await call(name, arguments)
                except Exception as e:  # a protocol error instead of a tool error
                    seen["bad"][label] = {"error": True, "protocol": True, "text": str(e)[:500]}
            seen["after"] = await call("list", {})
    print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
