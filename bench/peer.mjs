// bench/peer.mjs - the peer of `make bench`'s hub-scale scan
// (bench/hubscan.c): every URL of a list read by @huggingface/gguf's
// gguf(url), CONCURRENCY at a time (a promise pool), as a scanner built
// on it would. Prints one line: "ok N failed M first-error: ...".
//
//	node peer.mjs NODE_MODULES_DIR LIST CONCURRENCY
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const [dir, list, conc] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(dir), "peer.js"));
const { gguf } = require("@huggingface/gguf");
const urls = readFileSync(list, "utf8").split("\n").filter((l) => l !== "");
let next = 0, ok = 0, failed = 0, first = "";

async function worker() {
	while (next < urls.length) {
		const url = urls[next++];
		try {
			await gguf(url);
			ok++;
		} catch (e) {
			failed++;
			if (first === "")
				first = `${url}: ${e.message}`;
		}
	}
}

const n = Math.max(1, Number(conc) || 1);
await Promise.all(Array.from({ length: n }, worker));
console.log(`ok ${ok} failed ${failed} first-error: ${first || "none"}`);
