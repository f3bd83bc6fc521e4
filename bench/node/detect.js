#!/usr/bin/env node
// Link detection by a JavaScript peer, for bench/precision.py.
//
//   node detect.js autolinker|linkify-it < lines.jsonl > links.jsonl
//   node detect.js autolinker|linkify-it --time [--rounds R] < texts.jsonl > timing.json
//
// Reads JSON lines {"id": ..., "text": "..."}; writes one JSON line
// {"id": ..., "links": [[start, end, kind], ...]} per input line, kind "url"
// or "email", offsets in CODE POINTS (JS indices are UTF-16 units), then a
// last line {"done": true, "seconds": S, "lines": N} where S is the time
// spent in the detector alone (no JSON, no I/O).
//
// With --time (for bench/speed.py): reads every text first, runs the detector
// over all of them once to warm up (JIT), then R times (default 3), and writes
// one JSON line {"seconds": [CPU s of each round], "wall": [wall s of each
// round], "links": links found in a round, "chars": UTF-16 units of all texts,
// "texts": N}.  Only the detector's call is in the loop (no JSON, no I/O, no
// conversion of its matches); CPU time is process.cpuUsage() (user + system).
// Modules are resolved from NODE_PATH (the cache dir where npm installed them).
"use strict";

const readline = require("readline");

function loadAutolinker() {
  const mod = require("autolinker");
  const Autolinker = mod.default || mod.Autolinker || mod;
  const options = { urls: true, email: true, phone: false, mention: false, hashtag: false };
  const detect = (text) =>
    Autolinker.parse(text, options).map((m) => {
      const start = m.getOffset();
      const type = m.getType();
      return [start, start + m.getMatchedText().length, type === "email" ? "email" : "url"];
    });
  detect.count = (text) => Autolinker.parse(text, options).length;
  return detect;
}

function loadLinkifyIt() {
  const mod = require("linkify-it");
  const LinkifyIt = mod.LinkifyIt || mod.default || mod;
  // Default options and TLD list, except fuzzyLink: linkify-it 6 turned it
  // off by default (bare domains and www. are then never linked); on, it
  // behaves as linkify-it 5 and markdown-it 14, what the issue measured.
  const linkify = new LinkifyIt({ fuzzyLink: true });
  const detect = (text) =>
    (linkify.match(text) || []).map((m) => [m.index, m.lastIndex, m.schema === "mailto:" ? "email" : "url"]);
  detect.count = (text) => {
    const found = linkify.match(text);
    return found ? found.length : 0;
  };
  return detect;
}

// UTF-16 index -> code point index, for text with astral characters.
function toCodePoints(text, spans) {
  if (!/[\uD800-\uDBFF]/.test(text) || spans.length === 0) return spans;
  const map = new Int32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        map[i + 1] = cp; // inside a pair: same code point
        i++;
      }
    }
    cp++;
  }
  map[text.length] = cp;
  return spans.map(([s, e, k]) => [map[s], map[e], k]);
}

// --time: every text read first, then a warm-up round and `rounds` timed rounds.
function timeRounds(count, rounds) {
  const texts = [];
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line) texts.push(JSON.parse(line).text);
  });
  rl.on("close", () => {
    let chars = 0;
    for (const text of texts) chars += text.length;
    const round = () => {
      let links = 0;
      for (let i = 0; i < texts.length; i++) links += count(texts[i]);
      return links;
    };
    let links = round(); // warm-up
    const seconds = [];
    const wall = [];
    for (let r = 0; r < rounds; r++) {
      const c = process.cpuUsage();
      const w = process.hrtime.bigint();
      links = round();
      const dw = Number(process.hrtime.bigint() - w) / 1e9;
      const dc = process.cpuUsage(c);
      seconds.push((dc.user + dc.system) / 1e6);
      wall.push(dw);
    }
    process.stdout.write(JSON.stringify({ seconds, wall, links, chars, texts: texts.length }) + "\n");
  });
}

function main() {
  const which = process.argv[2];
  const detectors = { autolinker: loadAutolinker, "linkify-it": loadLinkifyIt };
  const args = process.argv.slice(3);
  const timing = args.includes("--time");
  const at = args.indexOf("--rounds");
  const rounds = at >= 0 ? Number(args[at + 1]) : 3;
  if (!(which in detectors) || !(rounds >= 1)) {
    process.stderr.write("usage: node detect.js autolinker|linkify-it [--time [--rounds R]]\n");
    process.exit(2);
  }
  const detect = detectors[which]();
  if (timing) {
    timeRounds(detect.count, rounds);
    return;
  }
  let seconds = 0;
  let count = 0;
  const out = [];
  const flush = () => {
    if (out.length) process.stdout.write(out.join(""));
    out.length = 0;
  };
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (!line) return;
    const { id, text } = JSON.parse(line);
    const t = process.hrtime.bigint();
    const spans = detect(text);
    seconds += Number(process.hrtime.bigint() - t) / 1e9;
    out.push(JSON.stringify({ id, links: toCodePoints(text, spans) }) + "\n");
    count++;
    if (out.length >= 4096) flush();
  });
  rl.on("close", () => {
    flush();
    process.stdout.write(JSON.stringify({ done: true, seconds, lines: count }) + "\n");
  });
}

main();
