// An independent MCP client for geodisaster serve, written against the
// official TypeScript SDK (@modelcontextprotocol/sdk), used by
// runtime/mcp's TestTypeScriptClient.
//
//   node client.mjs BASE_URL PLAN.json [TOKEN]
//
// PLAN.json is [{"id", "form": "single"|"orc", "steps": [{"tool", "args",
// "role"}]}]: for each entry the client opens a session at
// BASE_URL/records/<id> (single agent) or BASE_URL/records/<id>/orc
// (orchestrator, whose geodisaster://session/specialists resource names
// its specialists' endpoints, which it joins), makes the calls (a specialist's step on that
// specialist's session), finishes with FinalAnswer or Terminate, and
// prints one JSON line {"id", "form", "answer", "tools", "traversal",
// "session"} per entry. It exits non-zero on the first failure.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [base, planPath, token] = process.argv.slice(2);
if (!base || !planPath) {
  console.error("usage: node client.mjs BASE_URL PLAN.json [TOKEN]");
  process.exit(2);
}
const plan = JSON.parse(readFileSync(planPath, "utf8"));
const headers = token ? { Authorization: `Bearer ${token}` } : {};

async function open(path) {
  const transport = new StreamableHTTPClientTransport(new URL(path, base), { requestInit: { headers } });
  const client = new Client({ name: "geodisaster-ts-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

function text(result) {
  const c = result.content?.[0];
  if (!c || c.type !== "text") throw new Error(`no text content: ${JSON.stringify(result)}`);
  return c.text;
}

async function call(session, name, args) {
  const result = await session.client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${text(result)}`);
  return JSON.parse(text(result));
}

async function runEntry(entry) {
  const endpoint = `/records/${encodeURIComponent(entry.id)}` + (entry.form === "orc" ? "/orc" : "");
  const owner = await open(endpoint);
  const sessions = [owner];
  try {
    const tools = (await owner.client.listTools()).tools.map((t) => t.name).sort();
    const q = await call(owner, "GetQuestion", {});
    if (q.id !== entry.id) throw new Error(`GetQuestion: record ${q.id}, want ${entry.id}`);
    if ("answer" in q || "gt_chain" in q) throw new Error("GetQuestion exposes gold");
    const byRole = {};
    let session = "";
    if (entry.form === "orc") {
      const res = await owner.client.readResource({ uri: "geodisaster://session/specialists" });
      const specialists = JSON.parse(res.contents[0].text);
      for (const role of ["GA", "PA", "VRA"]) {
        const path = specialists[role];
        if (!path) throw new Error(`the specialists resource names no ${role} endpoint`);
        byRole[role] = await open(path);
        sessions.push(byRole[role]);
        session = path.split("/").at(-2);
      }
    }
    // A traversal attempt is a tool error, not a read.
    const reader = entry.form === "orc" ? byRole.GA : owner;
    const bad = await reader.client.callTool({ name: "ReadData", arguments: { question: "question_1", handle: "../records.jsonl", role: "sar" } });
    const traversal = bad.isError ? JSON.parse(JSON.stringify(bad.structuredContent ?? {})).category ?? text(bad) : "accepted";
    for (const step of entry.steps) {
      const target = entry.form === "orc" ? byRole[step.role] : owner;
      if (!target) throw new Error(`no session for role ${step.role}`);
      await call(target, step.tool, step.args);
    }
    const finish = entry.form === "orc" ? "Terminate" : "FinalAnswer";
    const done = await call(owner, finish, { answer_ref: "ANSWER_JSON:answer_1" });
    return { id: entry.id, form: entry.form, answer: done.answer, tools: tools.length, traversal, session };
  } finally {
    // Specialists first, then the owner: DELETE ends the MCP sessions.
    for (const s of sessions.reverse()) {
      try {
        await s.transport.terminateSession();
      } catch (e) {
        // already gone
      }
      await s.client.close();
    }
  }
}

// Four entries at a time.
let failed = false;
for (let i = 0; i < plan.length; i += 4) {
  const batch = plan.slice(i, i + 4);
  const results = await Promise.allSettled(batch.map(runEntry));
  for (const [k, r] of results.entries()) {
    if (r.status === "fulfilled") {
      process.stdout.write(JSON.stringify(r.value) + "\n");
    } else {
      failed = true;
      console.error(`${batch[k].id} (${batch[k].form}): ${r.reason?.stack ?? r.reason}`);
    }
  }
}
process.exit(failed ? 1 : 0);
