"""Drive `tidemark mcp` with the official Python MCP SDK, as any MCP client would.

Usage: client.py TIDEMARK_BINARY STORE CONVERSATION [--read-only]

Starts the server over stdio, initializes, lists the tools and resources,
calls every tool (and a few bad calls), and prints one JSON object with what
it saw, for the Rust test to check.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def text_of(result):
    return "".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def call(session, name, arguments):
    result = await session.call_tool(name, arguments)
    return {"is_error": bool(result.is_error), "text": text_of(result)}


async def main():
    binary, store, conversation = sys.argv[1], sys.argv[2], sys.argv[3]
    read_only = "--read-only" in sys.argv[4:]
    args = ["mcp", "--store", store, "--conversation", conversation]
    if read_only:
        args.append("--read-only")
    params = StdioServerParameters(command=binary, args=args, env={})
    seen = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            seen["server"] = init.server_info.name
            seen["protocol"] = init.protocol_version
            seen["instructions"] = init.instructions
            tools = await session.list_tools()
            seen["tools"] = [tool.name for tool in tools.tools]
            seen["schemas"] = {tool.name: tool.input_schema for tool in tools.tools}
            calls = {}
            calls["search_history"] = await call(
                session, "search_history", {"query": "staging database port", "limit": 3}
            )
            calls["read_history"] = await call(session, "read_history", {"from": 0, "to": 1})
            calls["search_facts_before"] = await call(
                session, "search_facts", {"query": "parcels Lyon", "limit": None}
            )
            calls["remember"] = await call(session, "remember", {"text": "The user ships every parcel to Lyon."})
            calls["search_facts"] = await call(session, "search_facts", {"query": "parcels Lyon", "limit": None})
            try:
                fact = json.loads(calls["remember"]["text"])["id"]
            except (ValueError, KeyError):
                fact = 0
            calls["forget"] = await call(session, "forget", {"id": fact})
            calls["search_facts_after"] = await call(
                session, "search_facts", {"query": "parcels Lyon", "limit": None}
            )
            nulls = {key: None for key in ["path", "file_text", "old_str", "new_str", "insert_line",
                                           "insert_text", "view_range", "old_path", "new_path"]}
            calls["memory_create"] = await call(session, "memory", {
                **nulls, "command": "create", "path": "/memories/plan.md", "file_text": "Step 1: migrate.\n"})
            calls["memory_view"] = await call(session, "memory", {**nulls, "command": "view", "path": "/memories/plan.md"})
            calls["memory_escape"] = await call(session, "memory", {
                **nulls, "command": "create", "path": "/memories/../../etc/passwd", "file_text": "x"})
            calls["bad_type"] = await call(session, "search_history", {"query": 7, "limit": 3})
            calls["bad_scope"] = await call(
                session, "search_history", {"query": "port", "limit": 3, "conversation": "someone/else"}
            )
            calls["huge"] = await call(session, "remember", {"text": "x" * 200000})
            calls["unknown"] = await call(session, "drop_everything", {})
            seen["calls"] = calls
            resources = await session.list_resources()
            seen["resources"] = {}
            for resource in resources.resources:
                contents = await session.read_resource(resource.uri)
                seen["resources"][str(resource.uri)] = json.loads(contents.contents[0].text)
    print(json.dumps(seen))


asyncio.run(main())
