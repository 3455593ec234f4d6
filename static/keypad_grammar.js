/* The card keypad's grammar (static/keypad.js is its DOM glue): a pure state machine over plain data, no DOM.
   In the browser it is window.KunkenKeypadGrammar; under Node, module.exports (tests/js/keypad_grammar.test.js).

   A state is { before, after, selected: the field's text around the caret (and a selection); field: "lines" (a
   textarea: a meld a line), "line" (a one-line hand), "points" (a hand in points: digits) or "ranks" (a hand by
   rank: ranks and jokers, no suits); russian: tokens in
   Russian notation (В Д К Т Дж); and the picks: rank, suit, ranging, back, typed, bare }.
   press(state, key) -> { state, hint, about, next }: key is {rank: "10"}, {suit: "♣"}, {joker: "JK"},
   {action: "range" | "backspace" | "newline" | "space"}, {digit: "4"}, {handJoker: true} or {insert: "Борис: "}.
   hint is null when the tap typed something or visibly changed a lit key; otherwise it is a code saying why
   nothing happened (the state is then the one given), and about names the rank, suit or run it is about:
     "pick-suit-first" (about: a rank)  two ranks in a row with no suit known: the first one is still picked;
     "rank-picked" (a rank)             the lit rank tapped again after cards of it: a suit adds the next one;
     "suit-picked" (a suit)             the lit suit tapped again (suit first): it stays lit, a rank adds a card;
     "run-needs-card"                   "…" with no natural card before it on the line, after a run's end, or
                                        after a complete set (its last card stays in it);
     "run-needs-rank"                   a suit while "…" is lit: the run's end is a rank, its suit is the run's;
     "run-low-first" (a run: "2♠…Д♠")   "…" then a rank below the first card (Q ♠ … 2, 3 ♠ … A): a run is typed
                                        from its lowest card; about is the run so typed;
     "nothing-to-delete"                ⌫ on an empty field with nothing picked.
   next is true when ↵ in a one-line field asks for the next field (the glue moves there).

   The grammar (docs/decisions.md, "The keypad as a grammar"):
   - Every tap types something visible, or visibly changes a key's lit state, or gives a hint. Never nothing.
   - A complete meld is never broken by a later tap: no card typed is ever moved. Complete: a set of two natural
     cards of one rank or more and three cards or more (jokers counted, four at most), a run of three cards or
     more of one suit (two natural at least, jokers filling its gaps) or a range (6♥…10♥).
   - A set by rank then suits: A ♠ ♥ ♦ (the rank stays picked). The suit that makes the set complete, or joins
     it, stays lit while it is the set's last card. A suit the complete set lacks joins it while it has fewer
     than four cards (A ♠ ♥ ♦ ♣); a suit it cannot take (one it has: A ♠ ♥ ♦ ♦, or a fifth card: A ♠ ♥ ♦ ♣ ♠)
     is for a run: a new line with that suit picked, the rank off (10 ♠ ♥ ♦ ♦ 2 3 4 gives "10♠ 10♥ 10♦" and
     "2♦ 3♦ 4♦"). A rank after the set starts a new line with it picked and the set's suit off, so a second rank
     asks for its suit (10 ♠ ♥ ♦ 2 3: "pick-suit-first"); "…" right after a complete set is refused.
   - A run by its ends: a card, "…", the last rank (6 ♥ … 10 gives 6♥…10♥); "…" needs a natural card before it
     on the line. The end must be above the first card as the card parser reads a range (the shorter way
     round: A…5 and Q…A go up, Q…2, K…2, 3…A and A…8 go down): one below is refused ("run-low-first"), never
     reversed. A suit first keeps the suit picked for the ranks that follow (♥ 5 6 7).
   - A new meld starts on its own line (one-line fields have no lines): a rank after a set (the line ends with
     two or more cards of another rank), a card after a run's end (the line ends with a range), a suit other
     than a complete run's after it (♥ 5 6 7 ♠ 8 9 10 gives "5♥ 6♥ 7♥" and "8♠ 9♠ 10♠"; so does 5 ♥ 6 ♥ 7 ♥ 8 ♠,
     the line break typed with the 8♠), a suit with no rank after a complete set; and with nothing picked (the
     field entered again, its text put back after a reload or typed on the phone's keyboard) a rank after any
     complete meld but a set of that rank (which it goes on with: A then ♣ after "A♠ A♥ A♦" gives A♣ there).
   - Two ranks in a row with no suit known from context: the second is refused ("pick-suit-first"); ⌫ un-picks.
   - The lit suit tapped again stays lit ("suit-picked"); another suit replaces it. ↵, a name key and moving to
     another field clear the picks.
   - ⌫: with "…" lit, cancels it; right after a pick, un-picks it (a suit that opened a new line, or a rank that
     did so and put out a set's lit suit, takes the line break back with it and lights what was lit: A ♠ ♥ ♦ ♣
     K ⌫ is "A♠ A♥ A♦ A♣" with A and ♣ lit); else it deletes the selection, the line break, a digit or the last
     token, and the picks stay: a suit picked first stays lit (♠ 7 ⌫ ♠ 7 8 types 7♠ 8♠), a set's lit suit goes
     off (its card is gone). A run's end is taken back off the run (6♥…10♥ becomes 6♥ with "…" lit again: the
     next rank ends the run there).
   - A joker goes into the meld being laid: a picked rank or suit stays picked (A ♠ ♥ JK ♦; ♥ 6 Дж 8 gives
     6♥ JK 8♥), a set's lit suit goes off. With "…" lit the joker is the run's next card: "…" goes off and the
     run's suit is lit, so the ranks that follow go on with the run (6 ♥ … Дж 8 … 10 gives 6♥ JK 8♥…10♥).
   - A name key (vist or swap target) starts its own line (in a textarea) and clears the picks; cards follow it.
   - Hands in points get digits: 4 0 Дж gives "40 Дж".
   - Hands by rank ("ranks"): each rank or joker tapped is one card, no suits: 9 9 К Дж; ⌫ takes the last off. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) { module.exports = factory(); } else { root.KunkenKeypadGrammar = factory(); }
})(this, function () {
  "use strict";
  var RU = { J: "В", Q: "Д", K: "К", A: "Т", JK: "Дж" };
  var RANKS = { "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "10": "10",
    J: "J", Q: "Q", K: "K", A: "A", "В": "J", "Д": "Q", "К": "K", "Т": "A" };
  var VALUES = { "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, J: 11, Q: 12, K: 13, A: 14 };
  var SUITS = "♠♥♦♣";
  var JOKER = /^(JK|ДЖ|\*)/i;
  var RUN = /…|\.\./;

  /* A fresh state for a field: "lines", "line", "points" or "ranks"; the text before and after the caret. */
  function initial(options) {
    var o = options || {};
    return {
      before: o.before || "", after: o.after || "", selected: o.selected || "",
      field: o.field || "lines", russian: !!o.russian,
      rank: null,       // a picked rank: each suit tapped adds a card of it
      suit: null,       // a lit suit: picked first (no rank), or the last card's of a complete set (with the rank)
      ranging: false,   // "…" tapped: the next rank ends a run from the last card
      back: null,       // {rank, suit, typed, bare}: the picks before a pick that opened a new line and
                        // put out a lit suit; ⌫ right after it takes the line break back and lights them again
      typed: false,     // something was typed since the last pick (⌫ deletes it rather than un-picking)
      bare: false       // the picked rank has no natural card typed yet: a second rank is refused
    };
  }

  /* The state to change: a copy (``back`` is never changed in place, and lasts one tap: ⌫ reads the given one). */
  function copy(state) {
    var out = {};
    for (var k in state) { if (Object.prototype.hasOwnProperty.call(state, k)) { out[k] = state[k]; } }
    out.back = null;
    return out;
  }

  /* A token in the page's notation: K in Russian is К, the joker Дж. */
  function shown(state, token) { return state.russian && RU[token] ? RU[token] : token; }

  /* A typed token read back: {rank, suit} for a natural card, {joker} or {run} or null. */
  function read(token) {
    if (!token) { return null; }
    if (JOKER.test(token)) { return { joker: true }; }
    if (RUN.test(token)) { return { run: true }; }
    var suit = token.slice(-1);
    var rank = RANKS[token.slice(0, -1).toUpperCase()];
    return SUITS.indexOf(suit) >= 0 && rank ? { rank: rank, suit: suit } : null;
  }

  function line(state) { return state.before.slice(state.before.lastIndexOf("\n") + 1); }
  function tokens(state) { return line(state).split(/\s+/).filter(Boolean); }
  function lastToken(state) { var t = tokens(state); return t[t.length - 1] || ""; }
  /* The line ends with a run's end (6♥…10♥): the next card starts a new meld. */
  function rangeAtEnd(state) { var last = read(lastToken(state)); return !!(last && last.run); }

  /* The cards of rank the line ends with: {naturals, size (jokers among them counted), suits, complete}.
     A set is complete with two natural cards or more, of distinct suits, and three cards or more; it takes four
     at most. */
  function setOf(state, rank) {
    var t = tokens(state);
    var naturals = 0;
    var jokers = 0;
    var suits = "";
    var twice = false;
    for (var i = t.length - 1; i >= 0; i--) {
      var card = read(t[i]);
      if (card && card.joker) { jokers++; continue; }
      if (!card || card.rank !== rank) { break; }
      twice = twice || suits.indexOf(card.suit) >= 0;
      naturals++; suits += card.suit;
    }
    var size = naturals + jokers;
    return { naturals: naturals, size: size, suits: suits, complete: naturals >= 2 && size >= 3 && !twice };
  }

  /* How many natural cards of rank the line ends with (jokers among them not counted). */
  function ending(state, rank) { return setOf(state, rank).naturals; }

  /* The rank of the set the line ends with (two or more cards of one rank), or null. */
  function setRank(state) {
    var natural = lastNatural(state);
    return natural && ending(state, natural.rank) >= 2 ? natural.rank : null;
  }

  /* The last natural card on the line (jokers after it skipped). */
  function lastNatural(state) {
    var t = tokens(state);
    for (var i = t.length - 1; i >= 0; i--) {
      var card = read(t[i]);
      if (card && card.joker) { continue; }
      return card && card.rank ? card : null;
    }
    return null;
  }

  /* Distinct ranks of one suit that jokers can make a run of, the ace high or low. */
  function fitsRun(values, jokers) {
    return [14, 1].some(function (ace) {
      var seen = {};
      var low = 99;
      var high = 0;
      for (var i = 0; i < values.length; i++) {
        var v = values[i] === 14 ? ace : values[i];
        if (seen[v]) { return false; }
        seen[v] = true; low = Math.min(low, v); high = Math.max(high, v);
      }
      return high - low + 1 <= values.length + jokers;
    });
  }

  /* The complete meld the line ends with: {set: rank} or {run: suit}, or null. A run is a range (6♥…10♥) or
     three cards or more of one suit that make one (jokers filling its gaps), two of them natural at least. */
  function meldAtEnd(state) {
    var t = tokens(state);
    var last = t[t.length - 1] || "";
    if (read(last) && read(last).run) { return { run: last.slice(-1) }; }
    var natural = lastNatural(state);
    if (!natural) { return null; }
    var set = setOf(state, natural.rank);
    if (set.naturals >= 2) { return set.complete ? { set: natural.rank } : null; }
    var values = [];
    var jokers = 0;
    for (var i = t.length - 1; i >= 0; i--) {
      var card = read(t[i]);
      if (card && card.joker) { jokers++; continue; }
      if (card && card.run && t[i].slice(-1) === natural.suit) { return { run: natural.suit }; }
      if (!card || !card.rank || card.suit !== natural.suit) { break; }
      values.push(VALUES[card.rank]);
      if (!fitsRun(values, jokers)) { values.pop(); break; }
    }
    return values.length >= 2 && values.length + jokers >= 3 ? { run: natural.suit } : null;
  }

  /* A range from rank a to rank b, read as the card parser reads it (the shorter way round, the ace high or
     low: kunken_scorer/core/cards.py, _parse_range): 1 upwards, -1 downwards, 0 one card. */
  function direction(a, b) {
    var ways = [14, 1].map(function (ace) {
      var x = a === "A" ? ace : VALUES[a];
      var y = b === "A" ? ace : VALUES[b];
      return [Math.abs(y - x), x, y];
    });
    ways.sort(function (p, q) { return p[0] - q[0] || p[1] - q[1] || p[2] - q[2]; });  // Python's min() of tuples
    return Math.sign(ways[0][2] - ways[0][1]);
  }

  /* Typing: a card token (a space before it when needed, one after), a line break, raw text. */
  function type(state, token) {
    var before = state.before;
    if (before && !/\s$/.test(before)) { before += " "; }
    state.before = before + token + " ";
    state.selected = "";
  }

  function startLine(state) {
    if (state.field !== "lines" || !state.before || /\n[ \t]*$/.test(state.before)) { return false; }
    state.before = state.before.replace(/[ \t]+$/, "") + "\n";
    state.selected = "";
    return true;
  }

  /* A pick opened a new line: ⌫ right after it takes the line break back and gives back the picks before it,
     when the pick was a suit or put out a lit suit (a rank after a run's end or after two cards of a rank is
     un-picked by ⌫, the line break left: 6 ♥ … 10 J ⌫ ⌫ ⌫ 9 ends the run at 9). */
  function opened(state, given, always) {
    if (always || given.suit) {
      state.back = { rank: given.rank, suit: given.suit, typed: given.typed, bare: given.bare };
    }
  }

  function clearPicks(state) {
    state.rank = null; state.suit = null; state.ranging = false;
    state.back = null; state.typed = false; state.bare = false;
  }

  function done(state, extra) {
    var out = { state: state, hint: null, about: null, next: false };
    if (extra) { for (var k in extra) { out[k] = extra[k]; } }
    return out;
  }
  function refuse(state, hint, about) { return { state: state, hint: hint, about: about || null, next: false }; }

  /* "…" then a rank: the run's end, when the run goes up from its first card (a run is typed from its lowest). */
  function endRun(given, s, r) {
    var first = read(lastToken(s));
    if (!first || !first.rank) { return refuse(given, "run-needs-card"); }
    if (direction(first.rank, r) < 0) {  // Q ♠ … 2, 3 ♠ … A: never reversed
      return refuse(given, "run-low-first", shown(s, r) + first.suit + "…" + shown(s, first.rank) + first.suit);
    }
    // End the run: "6♥ " becomes "6♥…10♥ "; a suit picked first stays picked.
    s.before = s.before.replace(/\s+$/, "") + "…" + shown(s, r) + first.suit + " ";
    s.selected = "";
    if (s.rank) { s.suit = null; }
    s.rank = null; s.ranging = false; s.typed = true; s.bare = false;
    return done(s);
  }

  function tapRank(given, r) {
    var s = copy(given);
    if (s.field === "ranks") { type(s, shown(s, r)); return done(s); }  // a hand by rank: 9 9 К Дж
    if (s.ranging) { return endRun(given, s, r); }
    if (s.suit && !s.rank) {  // a suit picked first: each rank adds a card of it
      if (rangeAtEnd(s)) { startLine(s); }  // ♥ 6 … 10 J: after a run's end, a new line
      type(s, shown(s, r) + s.suit);
      s.typed = true;
      return done(s);
    }
    if (s.rank === r) { return refuse(given, s.bare ? "pick-suit-first" : "rank-picked", shown(s, r)); }
    if (s.rank && s.bare) { return refuse(given, "pick-suit-first", shown(s, s.rank)); }
    // A new meld on a new line: after a run's end, after a set of another rank, and with nothing picked (the
    // field entered again, or its text put back) after any complete meld but a set of this rank.
    var set = setRank(s);
    var meld = s.rank ? null : meldAtEnd(s);
    if ((rangeAtEnd(s) || (set && set !== r) || (meld && meld.set !== r)) && startLine(s)) { opened(s, given); }
    s.suit = null;  // a complete set's suit: it stays in the set (10 ♠ ♥ ♦ 2 3 asks for the 2's suit)
    s.rank = r; s.typed = false; s.bare = true;
    return done(s);
  }

  /* A suit for a run of its own, on a new line: the picked rank goes off. */
  function suitForRun(given, s, suit) {
    if (startLine(s)) { opened(s, given, true); }
    s.rank = null; s.suit = suit; s.typed = false; s.bare = false;
    return done(s);
  }

  function tapSuit(given, suit) {
    var s = copy(given);
    if (s.ranging) { return refuse(given, "run-needs-rank"); }
    if (s.rank) {
      var set = setOf(s, s.rank);
      // A complete set takes a suit it lacks while it has fewer than four cards; a suit it cannot take (A ♠ ♥ ♦ ♦,
      // A ♠ ♥ ♦ ♣ ♠) is for a run: a new line with that suit picked.
      if (set.complete && (set.suits.indexOf(suit) >= 0 || set.size >= 4)) { return suitForRun(given, s, suit); }
      var meld = set.naturals ? null : meldAtEnd(s);
      if (meld && (meld.set || meld.run !== suit)) { startLine(s); }  // 5 ♥ 6 ♥ 7 ♥ 8 ♠: a new line for 8♠
      type(s, shown(s, s.rank) + suit);
      s.typed = true; s.bare = false;
      s.suit = set.naturals >= 2 ? suit : null;  // the set is complete: its last suit is lit
      return done(s);
    }
    if (s.suit === suit) { return refuse(given, "suit-picked", suit); }
    var after = meldAtEnd(s);
    if (after && (after.set || after.run !== suit)) { return suitForRun(given, s, suit); }  // ♥ 5 6 7 ♠: a new line
    s.suit = suit; s.typed = false; s.bare = false;
    return done(s);
  }

  function tapRange(given) {
    var s = copy(given);
    if (s.ranging) { s.ranging = false; return done(s); }
    if (s.rank && s.bare) { return refuse(given, "pick-suit-first", shown(s, s.rank)); }
    var last = read(lastToken(s));
    if (!last || !last.rank) { return refuse(given, "run-needs-card"); }
    var meld = meldAtEnd(s);
    if (meld && meld.set) { return refuse(given, "run-needs-card"); }  // 10 ♠ ♥ ♦ …: the 10♦ stays in its set
    s.ranging = true;
    return done(s);
  }

  function tapJoker(given, joker) {
    var s = copy(given);
    var token = shown(s, joker || "JK");
    if (s.ranging) {  // 6 ♥ … Дж: the joker is the run's next card, the run goes on in its suit
      var first = lastNatural(s);
      type(s, token);
      s.ranging = false; s.rank = null; s.suit = first ? first.suit : s.suit;
      s.typed = true; s.bare = false;
      return done(s);
    }
    if (s.rank) { s.suit = null; }  // the set goes on: its last suit goes off
    type(s, token);
    s.typed = true;
    return done(s);
  }

  function tapDigit(given, d) {
    var s = copy(given);
    var before = /\d$/.test(s.before) || !s.before ? s.before : s.before.replace(/\s*$/, " ");
    s.before = before + d; s.selected = "";
    return done(s);
  }

  function tapHandJoker(given) {
    var s = copy(given);
    if (s.before && !/\s$/.test(s.before)) { s.before += " "; }
    s.before += shown(s, "JK"); s.selected = "";
    return done(s);
  }

  function tapSpace(given) {
    var s = copy(given);
    s.before += " "; s.selected = "";
    return done(s);
  }

  function tapNewline(given) {
    var s = copy(given);
    clearPicks(s);
    if (s.field !== "lines") { return done(s, { next: true }); }
    s.before = s.before.replace(/[ \t]+$/, "") + "\n"; s.selected = "";
    return done(s);
  }

  function tapInsert(given, text) {
    var s = copy(given);
    clearPicks(s);
    startLine(s);
    s.before += text; s.selected = "";
    return done(s);
  }

  /* After ⌫ took something away: is anything of the pick still at the end of the line? */
  function recount(s) {
    var last = read(lastToken(s));
    var natural = lastNatural(s);
    if (s.rank) {
      s.bare = !(natural && natural.rank === s.rank && ending(s, s.rank) > 0);
      s.typed = !!(last && (last.joker || last.rank === s.rank));
    } else if (s.suit) {
      s.typed = !!(last && (last.joker || last.suit === s.suit));
    }
  }

  function tapBackspace(given) {
    var s = copy(given);
    if (s.ranging) { s.ranging = false; return done(s); }  // 6 ♥ … ⌫: the "…" is cancelled
    if (given.back) {  // A ♠ ♥ ♦ ♣ K ⌫, ♥ 5 6 7 ♠ ⌫: the line break goes, the picks before come back
      s.before = s.before.replace(/\n[ \t]*$/, "");
      for (var k in given.back) { if (Object.prototype.hasOwnProperty.call(given.back, k)) { s[k] = given.back[k]; } }
      return done(s);
    }
    if ((s.rank || s.suit) && !s.typed) {  // a pick with nothing typed since: un-pick it
      s.rank = null; s.suit = null; s.bare = false;
      return done(s);
    }
    if (s.selected) { s.selected = ""; return done(s); }
    if (!s.before) { return refuse(given, "nothing-to-delete"); }
    var before = s.before;
    if (s.field === "ranks") { s.before = before.replace(/\S+[ \t]*$|[ \t]+$/, ""); return done(s); }
    if (/\n[ \t]*$/.test(before)) {
      s.before = before.replace(/\n[ \t]*$/, "");
    } else if (/\d[ \t]*$/.test(before)) {
      s.before = before.replace(/[ \t]+$/, "").slice(0, -1);
    } else if (read(lastToken(s)) && read(lastToken(s)).run) {
      // 6♥…10♥ ⌫: the run's end comes back off, "…" lit again
      s.before = before.replace(/[ \t]+$/, "").replace(/(…|\.\.)\S*$/, "");
      s.before = s.before.length && !/\s$/.test(s.before) ? s.before + " " : s.before;
      s.ranging = true;
      return done(s);
    } else {
      s.before = before.replace(/\S+[ \t]*$|[ \t]+$/, "");
    }
    if (s.rank) { s.suit = null; }  // a set's last suit goes with its card
    recount(s);
    return done(s);
  }

  /* One tap: the new state, and a hint when nothing could be done. */
  function press(state, key) {
    if (key.rank) { return tapRank(state, key.rank); }
    if (key.suit) { return tapSuit(state, key.suit); }
    if (key.joker) { return tapJoker(state, key.joker); }
    if (key.digit !== undefined && key.digit !== null) { return tapDigit(state, String(key.digit)); }
    if (key.handJoker) { return tapHandJoker(state); }
    if (key.insert !== undefined && key.insert !== null) { return tapInsert(state, key.insert); }
    if (key.action === "range") { return tapRange(state); }
    if (key.action === "backspace" || key.action === "erase") { return tapBackspace(state); }
    if (key.action === "newline") { return tapNewline(state); }
    if (key.action === "space") { return tapSpace(state); }
    return refuse(state, "unknown-key");
  }

  /* A sequence of keys from a state: the last result, and the hints along the way (for tests). */
  function run(state, keys) {
    var result = done(state);
    var hints = [];
    for (var i = 0; i < keys.length; i++) {
      result = press(result.state, keys[i]);
      if (result.hint) { hints.push(result.hint); }
    }
    result.hints = hints;
    return result;
  }

  return { initial: initial, press: press, run: run, read: read, shown: shown };
});
