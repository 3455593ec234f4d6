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
  // a complete set keeps its cards: a rank after it asks for its own suit (issue 45: the set's last suit is not
  // taken into a run), a suit the set lacks joins it while it has fewer than four cards
  ["10 ♠ ♥ ♦ 2", "10♠ 10♥ 10♦\n", "2", []],
  ["10 ♠ ♥ ♦ 2 3 4", "10♠ 10♥ 10♦\n", "2", ["pick-suit-first", "pick-suit-first"]],
  ["A ♠ ♥ ♦ 2 3 4", "Т♠ Т♥ Т♦\n", "2", ["pick-suit-first", "pick-suit-first"], { russian: true }],
  ["10 ♠ ♥ ♦ 2 ♦ 3 ♦ 4 ♦", "10♠ 10♥ 10♦\n2♦ 3♦ 4♦ ", "4", []],
  ["10 ♠ ♥ ♦ 2 ♦ … 4", "10♠ 10♥ 10♦\n2♦…4♦ ", "", []],
  ["10 ♠ ♥ ♦ ♣ 2 3 4", "10♠ 10♥ 10♦ 10♣\n", "2", ["pick-suit-first", "pick-suit-first"]],
  ["10 ♠ ♥ ♦ ♣ 2 … 9", "10♠ 10♥ 10♦ 10♣\n", "2", ["pick-suit-first", "pick-suit-first"]],
  ["10 ♠ ♥ ♦ ♣ 2 … 9 J", "10♠ 10♥ 10♦ 10♣\n", "2", ["pick-suit-first", "pick-suit-first", "pick-suit-first"]],
  ["10 ♠ ♥ ♦ ♣ 2 ♣ … 9 J", "10♠ 10♥ 10♦ 10♣\n2♣…9♣\n", "J", []],
  ["10 ♠ ♥ ♦ ♣ 2", "10♠ 10♥ 10♦ 10♣\n", "2", []],
  // "…" right after a complete set: its last card stays in it
  ["10 ♠ ♥ ♦ …", "10♠ 10♥ 10♦ ", "10 ♦", ["run-needs-card"]],
  ["10 ♠ ♥ ♦ ♣ … K", "10♠ 10♥ 10♦ 10♣\n", "K", ["run-needs-card"]],
  ["…", "A♠ A♥ A♦ ", "", ["run-needs-card"], { before: "A♠ A♥ A♦ " }],
  ["♥ 5 6 7 … 10", "5♥ 6♥ 7♥…10♥ ", "♥", []],
  // a suit a complete set cannot take (one it has, or a fifth card) is for a run: a new line, that suit picked
  ["10 ♠ ♥ ♦ ♦ 2 3 4", "10♠ 10♥ 10♦\n2♦ 3♦ 4♦ ", "♦", []],
  ["10 ♠ ♥ ♦ ♣ ♥ 5 6 7", "10♠ 10♥ 10♦ 10♣\n5♥ 6♥ 7♥ ", "♥", []],
  ["10 ♠ ♥ ♦ ♣ ♣", "10♠ 10♥ 10♦ 10♣\n", "♣", []],
  ["A ♠ ♥ JK ♦ ♣", "A♠ A♥ JK A♦\n", "♣", []],
  ["A ♠ ♠", "A♠ A♠ ", "A", []],
  ["Q ♠ ♠ ♥ ♠", "Q♠ Q♠ Q♥ Q♠ ", "Q ♠", []],  // a set with a suit twice is not complete: it is not protected
  ["K ♠ ♥ ♦ ♠ 5 6", "K♠ K♥ K♦ 5♠ 6♠ ", "♠", [], { field: "line" }],
  // ⌫ right after it: the line break goes, the set's rank and suit are lit again
  ["10 ♠ ♥ ♦ ♦ ⌫", "10♠ 10♥ 10♦", "10 ♦", []],
  ["10 ♠ ♥ ♦ ♦ ⌫ ♣", "10♠ 10♥ 10♦ 10♣ ", "10 ♣", []],
  ["10 ♠ ♥ ♦ ♣ ♠ ⌫ ⌫", "10♠ 10♥ 10♦ ", "10", []],
  ["A ♠ ♥ ♦ 6 ⌫", "A♠ A♥ A♦", "A ♦", []],
  ["A ♠ ♥ 6 ⌫", "A♠ A♥\n", "", []],
  // a new suit after a complete run starts a new line (issue 45); a suit after a run too short goes on the line
  ["♥ 5 6 7 ♠ 8 9 10", "5♥ 6♥ 7♥\n8♠ 9♠ 10♠ ", "♠", []],
  ["5 ♥ 6 ♥ 7 ♥ 8 ♠ 9 ♠ 10 ♠", "5♥ 6♥ 7♥\n8♠ 9♠ 10♠ ", "10", []],
  ["♥ 5 JK 7 ♠ 8", "5♥ JK 7♥\n8♠ ", "♠", []],
  ["♥ 5 6 7 8", "5♥ 6♥ 7♥ 8♥ ", "♥", []],
  ["5 ♥ 6 ♥ 7 ♥ 8 ♥", "5♥ 6♥ 7♥ 8♥ ", "8", []],
  ["♥ 5 6 ♠ 7", "5♥ 6♥ 7♠ ", "♠", []],
  ["♥ 5 6 7 ♠ ⌫", "5♥ 6♥ 7♥", "♥", []],
  ["♥ 5 6 7 ♠ ⌫ 8", "5♥ 6♥ 7♥ 8♥ ", "♥", []],
  ["6 ♥ … 10 ♠ J", "6♥…10♥\nJ♠ ", "♠", []],
  ["6 ♥ … 10 ♠ ⌫", "6♥…10♥", "", []],
  ["♥ 6 … 10 ♥", "6♥…10♥ ", "♥", ["suit-picked"]],
  ["♥ 5 6 7 ♠ 8", "5♥ 6♥ 7♥ 8♠ ", "♠", [], { field: "line" }],
  // set, then a suit, then a rank, then suits: two sets
  ["A ♠ ♥ ♦ ♣ K ♠ ♥ ♦", "A♠ A♥ A♦ A♣\nK♠ K♥ K♦ ", "K ♦", []],
  ["A ♠ ♥ ♦ ♣ K ♣", "A♠ A♥ A♦ A♣\nK♣ ", "K", []],
  ["A ♠ ♥ ♦ ♦", "A♠ A♥ A♦\n", "♦", []],
  // two ranks in a row with no suit known: the second is refused, the first stays picked
  ["2 3", "", "2", ["pick-suit-first"]],
  ["2 3 ♣", "2♣ ", "2", ["pick-suit-first"]],
  ["5 JK 7", "JK ", "5", ["pick-suit-first"]],
  ["2 2", "", "2", ["pick-suit-first"]],
  ["A ♠ ♥ A", "A♠ A♥ ", "A", ["rank-picked"]],
  ["10 ♠ ♥ ♦ ♣ 2 2", "10♠ 10♥ 10♦ 10♣\n", "2", ["pick-suit-first"]],
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
  ["A ♠ ♥ ♦ ♣ K ⌫ 2 3", "A♠ A♥ A♦ A♣\n", "2", ["pick-suit-first"]],
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
  ["10 ♠ ♥ ♦ ♣ 2 JK 4", "10♠ 10♥ 10♦ 10♣\nJK ", "2", ["pick-suit-first"]],
  ["10 ♠ ♥ ♦ ♣ 2 JK ⌫", "10♠ 10♥ 10♦ 10♣\n", "2", []],
  ["10 ♠ ♥ ♦ ♣ 2 JK ⌫ ⌫", "10♠ 10♥ 10♦ 10♣\n", "", []],
  ["10 ♠ ♥ ♦ ♣ 2 JK ⌫ 3", "10♠ 10♥ 10♦ 10♣\n", "2", ["pick-suit-first"]],
  // a range is typed upwards, from the run's lowest card (the ace low or high, the shorter way round, as the
  // card parser reads it): one typed downwards or across the ace is refused, never reversed (issue 45)
  ["Q ♠ … 2", "Д♠ ", "Q …", ["run-low-first"], { russian: true }],
  ["3 ♠ … A", "3♠ ", "3 …", ["run-low-first"]],
  ["K ♠ … 2", "K♠ ", "K …", ["run-low-first"]],
  ["10 ♥ … 6", "10♥ ", "10 …", ["run-low-first"]],
  ["A ♠ … 8", "A♠ ", "A …", ["run-low-first"]],
  ["♥ Q … 2", "Q♥ ", "♥ …", ["run-low-first"]],
  ["6 ♥ … JK 8 … 7", "6♥ JK 8♥ ", "♥ …", ["run-low-first"]],
  ["Q ♠ … 2 ⌫ ⌫ ⌫ 2 ♠ … Q", "2♠…Q♠ ", "", ["run-low-first"]],
  ["A ♠ … 5", "Т♠…5♠ ", "", [], { russian: true }],
  ["A ♠ … 7", "A♠…7♠ ", "", []],
  ["Q ♠ … A", "Д♠…Т♠ ", "", [], { russian: true }],
  ["8 ♠ … A", "8♠…A♠ ", "", []],
  // a field entered again or its text put back (nothing picked): after a complete meld, a new line
  ["J ♣ … K", "6♥…10♥\nВ♣…К♣ ", "", [], { before: "6♥…10♥ ", russian: true }],
  ["♣ J … K", "6♥…10♥\nJ♣…K♣ ", "♣", [], { before: "6♥…10♥ " }],
  ["♥ J", "6♥…10♥\nJ♥ ", "♥", [], { before: "6♥…10♥ " }],
  ["K ♠", "A♠ A♥ A♦\nK♠ ", "K", [], { before: "A♠ A♥ A♦ " }],
  ["♠ 5", "A♠ A♥ A♦\n5♠ ", "♠", [], { before: "A♠ A♥ A♦ " }],
  ["8 ♥", "5♥ 6♥ 7♥\n8♥ ", "8", [], { before: "5♥ 6♥ 7♥ " }],
  ["♠ 8", "5♥ 6♥ 7♥\n8♠ ", "♠", [], { before: "5♥ 6♥ 7♥ " }],
  ["A ♣", "A♠ A♥ A♦ A♣ ", "A ♣", [], { before: "A♠ A♥ A♦ " }],
  ["A ♣ ♠", "A♠ A♥ A♦ A♣\n", "♠", [], { before: "A♠ A♥ A♦ " }],
  ["6 ♦", "A♠ A♥\n6♦ ", "6", [], { before: "A♠ A♥ " }],
  ["8 ♠", "3♠ 8♠ ", "8", [], { before: "3♠ " }],
  ["J ♣", "6♥…10♥ J♣ ", "J", [], { before: "6♥…10♥ ", field: "line" }],
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
  ["K ♠ ♥ ♦ ♣ 2 3", "K♠ K♥ K♦ K♣ ", "2", ["pick-suit-first"], { field: "line" }],
  ["K ♠ ♥ ♦ 2 ♥", "K♠ K♥ K♦ 2♥ ", "2", [], { field: "line" }],
  ["K ♠ ↵", "K♠ ", "", [], { field: "line" }],
  // Russian notation
  ["A ♠ ♥ ♦ 6 ♥ … 10 J ♣ … K", "Т♠ Т♥ Т♦\n6♥…10♥\nВ♣…К♣ ", "", [], { russian: true }],
  ["♥ 6 Дж 8", "6♥ Дж 8♥ ", "♥", [], { russian: true }],
  ["Q ♠ ♥ ♦ ♣ K 2", "Д♠ Д♥ Д♦ Д♣\n", "K", ["pick-suit-first"], { russian: true }],
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
  const all = ["2", "10", "A", "♠", "♥", "♦", "♣", "…", "⌫", "↵", "JK"];
  const start = ["", "A ♠ ♥ ♦", "A ♠ ♥ ♦ ♣ 2", "6 ♥ …", "6 ♥ … 10", "♠ 7", "♠", "5", "5 JK", "A ♠ ♥ ♦ ♣",
    "A ♠ ♥ ♦ ♦", "A ♠ ♥ JK ♦", "♥ 5 6 7", "♥ 5 6 7 ♠", "5 ♥ 6 ♥ 7 ♥ 8", "Q ♠ …", "A ♠ ♥ ♦ 6"];
  // the field's text put back with nothing picked (a reload, the field entered again)
  const restored = ["A♠ A♥ A♦ ", "A♠ A♥ A♦ A♣ ", "5♥ 6♥ 7♥ ", "6♥…10♥ ", "6♥…10♥\n"];
  const states = start.map((sequence) => [sequence, tap(sequence).state])
    .concat(restored.map((text) => [JSON.stringify(text), G.initial({ before: text })]));
  for (const [name, was] of states) {
    for (const key of all) {
      const result = G.press(was, keys(key)[0]);
      const now = result.state;
      const same = now.before === was.before && now.after === was.after && lit(now) === lit(was);
      assert.ok(!same || result.hint, `${name} then ${key}: nothing happened and no hint`);
      if (result.hint) {
        assert.strictEqual(result.state, was, `${name} then ${key}: a refused tap changes nothing`);
      }
    }
  }
});

test("a tap never takes a card out of a complete meld", () => {
  // each card typed stays where it was typed: the text before the caret only grows, or ⌫ takes its end off
  const all = ["2", "10", "K", "A", "♠", "♥", "♦", "♣", "…", "JK"];
  const start = ["A ♠ ♥ ♦", "A ♠ ♥ ♦ ♣", "A ♠ ♥ JK ♦", "♥ 5 6 7", "5 ♥ 6 ♥ 7 ♥", "6 ♥ … 10", "A ♠ ♥ ♦ 6"];
  for (const sequence of start) {
    for (const first of all) {
      for (const second of all) {
        const was = tap(sequence).state;
        const now = G.run(was, keys(`${first} ${second}`)).state;
        const kept = was.before.replace(/\s+$/, "");
        assert.ok(now.before.startsWith(kept), `"${sequence}" then ${first} ${second}: ${JSON.stringify(now.before)}`);
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
  // a range refused names how to type it: from the run's lowest card
  result = tap("Q ♠ … 2", { russian: true });
  assert.strictEqual(result.hint, "run-low-first");
  assert.strictEqual(result.about, "2♠…Д♠");
  assert.strictEqual(tap("3 ♥ … A").about, "A♥…3♥");
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
