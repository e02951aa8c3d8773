// The door through which Python reads GPU names (docs/hooks/guide/gpu_names.py): match.js itself, in Node.
// stdin: {"table": the chooser's table, "names": [...]}; stdout: one answer per name, as match.js's
// answerFor gives it, rows by name: {status, guide, device, family, vendor, choices}.
"use strict";
const path = require("node:path");
const gpu = require(path.join(__dirname, "match.js"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const { table, names } = JSON.parse(input);
  const out = names.map((name) => {
    const a = gpu.answerFor(name, table);
    return {
      status: a.status,
      guide: a.guide ? a.guide.name : null,
      device: a.device ? a.device.name : null,
      family: a.status === "one" ? gpu.familyOf(a.device || a.guide) : null,
      vendor: gpu.read(name).vendor,
      choices: a.status === "choices" ? a.rows.map((r) => r.name) : [],
    };
  });
  process.stdout.write(JSON.stringify(out));
});
