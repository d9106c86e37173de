// A Node bot: "line" plays the default ruleset's line protocol (join, discard what it
// draws, pass every claim); "json" plays Botzone/NOI 2014 turns (the drawn tile back,
// PASS otherwise) and keeps running: later requests come one a line, as JSON strings.
const readline = require("readline");
const mode = process.argv[2] || "line";
const rl = readline.createInterface({ input: process.stdin });
function respond(request) {
  const w = request.trim().split(" ");
  if (w.length === 1 && w[0] === "4") return "B1 B2 B3 B4 B5 B6 B7 B8 B9 W1 W2 W3 W5 W5"; // NOI 2014's target
  return w.length === 2 && w[0] === "2" ? "PLAY " + w[1] : "PASS";
}
let me = -1;
if (mode === "line") console.log("join");
rl.on("line", (line) => {
  if (mode === "json") {
    const input = JSON.parse(line);
    const request = typeof input === "string" ? input : input.requests[input.requests.length - 1];
    console.log(JSON.stringify({ response: respond(request) }));
    console.log(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
    return;
  }
  const w = line.trim().split(" ");
  if (w[0] === "id") me = Number(w[1]);
  if (w[0] === "pick") console.log("out " + w[1]);
  else if ((w[0] === "mout" || w[0] === "mjgang") && Number(w[1]) !== me) console.log("pass");
});
