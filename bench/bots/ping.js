// The sandbox bench's Node bot: answers each line with "ok" and the line.
const readline = require("readline");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write("ok " + line + "\n");
});
