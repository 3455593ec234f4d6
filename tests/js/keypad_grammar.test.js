/* The card keypad's grammar (static/keypad_grammar.js), key by key: node --test tests/js/
   Each row: the keys tapped, and the exact text they leave, the keys lit after them and the hints on the way. */
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const path = require("node:path");
const G = require(path.join(__dirname, "..", "..", "static", "keypad_grammar.js"));

/* "10 ♠ ♥ … ⌫ ↵ JK d4 hJK" -> keys; a name key is written {Борис: } (its text in braces). */
function keys(sequence) {
  const found = sequence.match(/\{[^}]*\}|\S+/g) || [];
  return found.map((k) => {
    if (k.startsWith("{")) return { insert: k.slice(1, -1), kind: "vists" };
    if ("♠♥♦♣".includes(k)) return { suit: k };
    if (k === "…") return { action: "range" };
    if (k === "⌫") return { action: "backspace" };
    if (k === "↵") return { action: "newline" };
    if (k === "␣") return { action: "space" };
    if (k === "JK" || k === "Дж") return { joker: "JK" };
    if (k === "hJK") return { handJoker: true };
    if (/^d\d$/.test(k)) return { digit: k.slice(1) };
    if (/^(10|[2-9JQKA])$/.test(k)) return { rank: k };
    throw new Error(`no such key: ${k}`);
  });
}

function tap(sequence, options) {
  return G.run(G.initial(options || {}), keys(sequence));
}

/* What the keypad shows lit: "A ♦ …" (rank, suit, range), "" when nothing is. */
function lit(state) {
  return [state.rank, state.suit, state.ranging ? "…" : null].filter(Boolean).join(" ");
}

// [keys, text, lit after, hints] on a melds textarea in English, unless the row's options say otherwise
const TABLE = [
  // keypad.js's header: a set by rank and suits, the rank stays picked
  ["A ♠ ♥ ♦", "A♠ A♥ A♦ ", "A ♦", []],
  ["A ♠ ♥ ♦ ♣", "A♠ A♥ A♦ A♣ ", "A ♣", []],
  // a run by its ends
  ["6 ♥ … 10", "6♥…10♥ ", "", []],
  // a suit first, then ranks
  ["♥ 5 6 7", "5♥ 6♥ 7♥ ", "♥", []],
  // a new meld on its own line when the rank changes after a set, or after a run's end
  ["A ♠ ♥ ♦ 6 ♥ … 10 J ♣ … K", "A♠ A♥ A♦\n6♥…10♥\nJ♣…K♣ ", "", []],
  ["A ♠ ♥ 6 ♦", "A♠ A♥\n6♦ ", "6", []],
  ["♥ 6 … 10 J", "6♥…10♥\nJ♥ ", "♥", []],
  ["3 ♠ 8 ♥", "3♠ 8♥ ", "8", []],
  // set, then a suit, then ranks: the suit was for a run
  ["10 ♠ ♥ ♦ ♣ 2 3 4", "10♠ 10♥ 10♦\n2♣ 3♣ 4♣ ", "♣", []],
  ["10 ♠ ♥ ♦ ♣ 2 … 9", "10♠ 10♥ 10♦\n2♣…9♣ ", "♣", []],
  ["10 ♠ ♥ ♦ ♣ 2 … 9 J", "10♠ 10♥ 10♦\n2♣…9♣\nJ♣ ", "♣", []],
  ["10 ♠ ♥ ♦ ♣ 2", "10♠ 10♥ 10♦ 10♣\n", "2 ♣", []],
  ["10 ♠ ♥ ♦ ♣ … K", "10♠ 10♥ 10♦\n10♣…K♣ ", "", []],
  // set, then a suit, then a rank, then suits: two sets
  ["A ♠ ♥ ♦ ♣ K ♠ ♥ ♦", "A♠ A♥ A♦ A♣\nK♠ K♥ K♦ ", "K ♦", []],
  ["A ♠ ♥ ♦ ♣ K ♣", "A♠ A♥ A♦ A♣\nK♣ ", "K", []],
  ["A ♠ ♥ ♦ ♦", "A♠ A♥ A♦ A♦ ", "A ♦", []],
  // two ranks in a row with no suit known: the second is refused, the first stays picked
  ["2 3", "", "2", ["pick-suit-first"]],
  ["2 3 ♣", "2♣ ", "2", ["pick-suit-first"]],
  ["5 JK 7", "JK ", "5", ["pick-suit-first"]],
  ["2 2", "", "2", ["pick-suit-first"]],
  ["A ♠ ♥ A", "A♠ A♥ ", "A", ["rank-picked"]],
  ["10 ♠ ♥ ♦ ♣ 2 2", "10♠ 10♥ 10♦ 10♣\n", "2 ♣", ["pick-suit-first"]],
  ["7 …", "", "7", ["pick-suit-first"]],
  // the lit suit tapped again stays lit; ⌫ keeps a suit picked first
  ["♠ ♠", "", "♠", ["suit-picked"]],
  ["♠ 7 ⌫", "", "♠", []],
  ["♠ 7 ⌫ ♠ 7 8", "7♠ 8♠ ", "♠", ["suit-picked"]],
  ["♠ 7 ⌫ 7 8", "7♠ 8♠ ", "♠", []],
  ["♠ 7 ⌫ ⌫", "", "", []],
  ["♠ ♥ 5", "5♥ ", "♥", []],
  ["♠ ⌫", "", "", []],
  // ⌫ after a set's suit: the suit goes off with its card, the rank stays
  ["A ♠ ♥ ♦ ⌫", "A♠ A♥ ", "A", []],
  ["A ♠ ♥ ♦ ⌫ K", "A♠ A♥\n", "K", []],
  ["A ♠ ⌫ ⌫", "", "", []],
  ["A ♠ ⌫ 2", "", "A", ["pick-suit-first"]],
  ["A ♠ ♥ ♦ ♣ K ⌫", "A♠ A♥ A♦ A♣", "A ♣", []],
  ["A ♠ ♥ ♦ ♣ K ⌫ 2 3", "A♠ A♥ A♦\n2♣ 3♣ ", "♣", []],
  ["A ♠ ♥ ♦ ♣ K ⌫ ⌫", "A♠ A♥ A♦ ", "A", []],
  ["5 ⌫", "", "", []],
  ["⌫", "", "", ["nothing-to-delete"]],
  // a range, then ⌫
  ["6 ♥ … ⌫", "6♥ ", "6", []],
  ["6 ♥ … ⌫ ♠", "6♥ 6♠ ", "6", []],
  ["6 ♥ … 10 ⌫", "6♥ ", "…", []],
  ["6 ♥ … 10 ⌫ 8", "6♥…8♥ ", "", []],
  ["6 ♥ … 10 ⌫ ⌫", "6♥ ", "", []],
  ["♥ 6 … 10 ⌫", "6♥ ", "♥ …", []],
  ["6 ♥ … …", "6♥ ", "6", []],
  ["6 ♥ … ♠", "6♥ ", "6 …", ["run-needs-rank"]],
  ["6 ♥ … 10 J ⌫ ⌫ ⌫ 9", "6♥…9♥ ", "", []],
  // "…" needs a natural card before it on the line
  ["…", "", "", ["run-needs-card"]],
  ["JK …", "JK ", "", ["run-needs-card"]],
  ["6 ♥ … 10 …", "6♥…10♥ ", "", ["run-needs-card"]],
  ["6 ♥ ↵ …", "6♥\n", "", ["run-needs-card"]],
  // a joker keeps the picked rank or suit; in a run it is the run's next card
  ["A ♠ ♥ JK ♦", "A♠ A♥ JK A♦ ", "A ♦", []],
  ["A ♠ ♥ JK ♦ 5 ♣ … 7", "A♠ A♥ JK A♦\n5♣…7♣ ", "", []],
  ["A ♠ ♥ ♦ JK", "A♠ A♥ A♦ JK ", "A", []],
  ["5 ♥ JK 7 ♥", "5♥ JK 7♥ ", "7", []],
  ["♥ 6 JK 8", "6♥ JK 8♥ ", "♥", []],
  ["6 ♥ … JK 8", "6♥ JK 8♥ ", "♥", []],
  ["6 ♥ … JK 8 … 10", "6♥ JK 8♥…10♥ ", "♥", []],
  ["10 ♠ ♥ ♦ ♣ 2 JK 4", "10♠ 10♥ 10♦\nJK 2♣ 4♣ ", "♣", []],
  ["10 ♠ ♥ ♦ ♣ 2 JK ⌫", "10♠ 10♥ 10♦ 10♣\n", "2 ♣", []],
  ["10 ♠ ♥ ♦ ♣ 2 JK ⌫ ⌫", "10♠ 10♥ 10♦ 10♣", "10 ♣", []],
  ["10 ♠ ♥ ♦ ♣ 2 JK ⌫ 3", "10♠ 10♥ 10♦\n2♣ 3♣ ", "♣", []],
  // ↵ clears the picks
  ["♥ 5 ↵ 6", "5♥\n", "6", []],
  ["A ♠ ↵ ♥", "A♠\n", "♥", []],
  ["6 ♥ … ↵", "6♥\n", "", []],
  // a name key between cards: its own line, the picks cleared, the cards after it
  ["A ♠ ♥ ♦ {Борис: } 5 ♦", "A♠ A♥ A♦\nБорис: 5♦ ", "5", []],
  ["{Борис: } 5 ♦", "Борис: 5♦ ", "5", []],
  ["♥ 5 {Bob 2: } 6", "5♥\nBob 2: ", "6", []],
  ["{Борис: } 5 ♦ {Вера 1: } 7 ♠", "Борис: 5♦\nВера 1: 7♠ ", "7", []],
  // a one-line hand: the same grammar, with no lines
  ["3 ♠ 8 ♥", "3♠ 8♥ ", "8", [], { field: "line" }],
  ["K ♠ ♥ ♦ ♣ 2 3", "K♠ K♥ K♦ 2♣ 3♣ ", "♣", [], { field: "line" }],
  ["K ♠ ♥ ♦ 2 ♥", "K♠ K♥ K♦ 2♥ ", "2", [], { field: "line" }],
  ["K ♠ ↵", "K♠ ", "", [], { field: "line" }],
  // Russian notation
  ["A ♠ ♥ ♦ 6 ♥ … 10 J ♣ … K", "Т♠ Т♥ Т♦\n6♥…10♥\nВ♣…К♣ ", "", [], { russian: true }],
  ["♥ 6 Дж 8", "6♥ Дж 8♥ ", "♥", [], { russian: true }],
  ["Q ♠ ♥ ♦ ♣ K 2", "Д♠ Д♥ Д♦\nК♣ 2♣ ", "♣", [], { russian: true }],
  ["2 J", "", "2", ["pick-suit-first"], { russian: true }],
  // hands in points: digits
  ["d4 d0 hJK", "40 Дж", "", [], { field: "points", russian: true }],
  ["d4 d0 hJK", "40 JK", "", [], { field: "points" }],
  ["d4 d0 hJK d5", "40 JK 5", "", [], { field: "points" }],
  ["d4 d5 ⌫", "4", "", [], { field: "points" }],
  ["d4 d0 hJK ⌫ ⌫", "4", "", [], { field: "points" }],
  ["d7 ␣ d0", "7 0", "", [], { field: "points" }],
  // hands by rank: one tap a card, no suits, ⌫ takes the last card off (a 10 whole)
  ["9 9 K Q 3 8 JK", "9 9 К Д 3 8 Дж ", "", [], { field: "ranks", russian: true }],
  ["A 10 10 JK", "A 10 10 JK ", "", [], { field: "ranks" }],
  ["9 10 ⌫", "9 ", "", [], { field: "ranks" }],
  ["K K ⌫ ⌫ ⌫", "", "", ["nothing-to-delete"], { field: "ranks" }],
];

for (const [sequence, text, shown, hints, options] of TABLE) {
  const name = `${sequence}${options ? " " + JSON.stringify(options) : ""}`;
  test(name, () => {
    const result = tap(sequence, options);
    assert.strictEqual(result.state.before + result.state.after, text);
    assert.strictEqual(lit(result.state), shown, "lit keys");
    assert.deepStrictEqual(result.hints, hints, "hints");
  });
}

test("every tap types, lights a key or hints: never nothing", () => {
  const all = ["2", "10", "A", "♠", "♣", "…", "⌫", "↵", "JK"];
  const start = ["", "A ♠ ♥ ♦", "A ♠ ♥ ♦ ♣ 2", "6 ♥ …", "6 ♥ … 10", "♠ 7", "♠", "5", "5 JK"];
  for (const before of start) {
    for (const key of all) {
      const was = tap(before).state;
      const result = G.press(was, keys(key)[0]);
      const now = result.state;
      const same = now.before === was.before && now.after === was.after && lit(now) === lit(was);
      assert.ok(!same || result.hint, `"${before}" then ${key}: nothing happened and no hint`);
      if (result.hint) {
        assert.strictEqual(result.state, was, `"${before}" then ${key}: a refused tap changes nothing`);
      }
    }
  }
});

test("a hint names what it is about, in the page's notation", () => {
  let result = tap("J 2", { russian: true });
  assert.strictEqual(result.hint, "pick-suit-first");
  assert.strictEqual(result.about, "В");
  result = tap("♦ ♦");
  assert.strictEqual(result.about, "♦");
  assert.strictEqual(tap("…").about, null);
});

test("the text after the caret stays, and a selection is replaced or deleted", () => {
  let result = tap("5 ♦", { before: "A♠ A♥ A♦\n", after: "\n7♠…9♠" });
  assert.strictEqual(result.state.before, "A♠ A♥ A♦\n5♦ ");
  assert.strictEqual(result.state.after, "\n7♠…9♠");
  result = tap("⌫", { before: "A♠ ", selected: "A♥", after: " A♦" });
  assert.strictEqual(result.state.before + result.state.after, "A♠  A♦");
  result = tap("K ♠", { before: "A♠ ", selected: "A♥", after: "" });
  assert.strictEqual(result.state.before, "A♠ K♠ ");
});

test("text typed before the keypad is read back, in either notation", () => {
  assert.strictEqual(tap("K", { before: "Т♠ Т♥ Т♦ ", russian: true }).state.before, "Т♠ Т♥ Т♦\n");
  assert.strictEqual(tap("2", { before: "A♠ a♥ JK " }).state.before, "A♠ a♥ JK\n");
  assert.strictEqual(tap("… 9", { before: "5♣" }).state.before, "5♣…9♣ ");
  assert.deepStrictEqual(G.read("10♥"), { rank: "10", suit: "♥" });
  assert.deepStrictEqual(G.read("Дж"), { joker: true });
  assert.deepStrictEqual(G.read("6♥…10♥"), { run: true });
  assert.strictEqual(G.read("Борис:"), null);
});

test("↵ in a one-line field asks for the next field", () => {
  assert.strictEqual(tap("↵", { field: "line" }).next, true);
  assert.strictEqual(tap("↵").next, false);
});

test("the module sets window.KunkenKeypadGrammar in a browser", () => {
  const fs = require("node:fs");
  const vm = require("node:vm");
  const source = fs.readFileSync(path.join(__dirname, "..", "..", "static", "keypad_grammar.js"), "utf8");
  const window = {};
  vm.runInNewContext(source, window);
  assert.strictEqual(typeof window.KunkenKeypadGrammar.press, "function");
  assert.strictEqual(window.document, undefined);
  assert.ok(!/document\.|window\./.test(source.replace(/\/\*[\s\S]*?\*\//g, "")), "no DOM in the grammar");
});
