/**
 * A client without the package, for the agent's side of the conformance table: a plain Node
 * process (no --import, no NODE_OPTIONS, nothing of this package loaded) that sends the requests
 * it reads as JSON on stdin (`[{ url, init }]`, in order, each awaited) with the global fetch and
 * prints what came back (`[{ status, headers, body }]`, or `{ error }`) as JSON on stdout.
 */
let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const { url, init } of JSON.parse(input)) {
  try {
    const res = await fetch(url, init);
    out.push({
      status: res.status,
      headers: Object.fromEntries(res.headers.entries()),
      body: await res.text(),
    });
  } catch (e) {
    out.push({ error: String(e?.cause?.message ?? e?.message ?? e) });
  }
}
process.stdout.write(JSON.stringify(out));
