/* The card keypad's grammar (static/keypad.js is its DOM glue): a pure state machine over plain data, no DOM.
   In the browser it is window.KunkenKeypadGrammar; under Node, module.exports (tests/js/keypad_grammar.test.js).

   A state is { before, after, selected: the field's text around the caret (and a selection); field: "lines" (a
   textarea: a meld a line), "line" (a one-line hand), "points" (a hand in points: digits) or "ranks" (a hand by
   rank: ranks and jokers, no suits); russian: tokens in
   Russian notation (В Д К Т Дж); and the picks: rank, suit, ranging, lineDone, pending, typed, bare }.
   press(state, key) -> { state, hint, about, next }: key is {rank: "10"}, {suit: "♣"}, {joker: "JK"},
   {action: "range" | "backspace" | "newline" | "space"}, {digit: "4"}, {handJoker: true} or {insert: "Борис: "}.
   hint is null when the tap typed something or visibly changed a lit key; otherwise it is a code saying why
   nothing happened (the state is then the one given), and about names the rank or suit it is about:
     "pick-suit-first" (about: a rank)  two ranks in a row with no suit known: the first one is still picked;
     "rank-picked" (a rank)             the lit rank tapped again after cards of it: a suit adds the next one;
     "suit-picked" (a suit)             the lit suit tapped again (suit first): it stays lit, a rank adds a card;
     "run-needs-card"                   "…" with no natural card before it on the line (or after a run's end);
     "run-needs-rank"                   a suit while "…" is lit: the run's end is a rank, its suit is the run's;
     "nothing-to-delete"                ⌫ on an empty field with nothing picked.
   next is true when ↵ in a one-line field asks for the next field (the glue moves there).

   The grammar (docs/decisions.md, "The keypad as a grammar"):
   - Every tap types something visible, or visibly changes a key's lit state, or gives a hint. Never nothing.
   - A set by rank then suits: A ♠ ♥ ♦ (the rank stays picked). A suit tapped when the line already ends with two
     or more cards of the picked rank joins the set and stays lit (pending): another suit goes on with the set;
     a different rank R2 starts a new line with R2 picked (the suit still lit); then a suit S2 lays a set of R2
     (A ♠ ♥ ♦ ♣ K ♠ ♥ ♦: four aces, three kings), while a rank R3 or "…" means the lit suit was for a run: its
     card leaves the set and the run is typed in that suit (10 ♠ ♥ ♦ ♣ 2 3 4 gives "10♠ 10♥ 10♦" and "2♣ 3♣ 4♣";
     10 ♠ ♥ ♦ ♣ 2 … 9 gives "10♠ 10♥ 10♦" and "2♣…9♣"). "…" right after that suit moves its card to a line of
     its own and starts the run there (10 ♠ ♥ ♦ ♣ … K: "10♠ 10♥ 10♦" and "10♣…K♣"); a joker ends the doubt
     (the set goes on: the suit goes off, the rank stays).
   - A run by its ends: a card, "…", the last rank (6 ♥ … 10 gives 6♥…10♥); "…" needs a natural card before it
     on the line. A suit first keeps the suit picked for the ranks that follow (♥ 5 6 7).
   - A new meld starts on its own line when a rank is picked after a set (the line ends with two or more
     cards of another rank) or after a run's end; one-line fields have no lines.
   - Two ranks in a row with no suit known from context: the second is refused ("pick-suit-first"); ⌫ un-picks.
   - The lit suit tapped again stays lit ("suit-picked"); another suit replaces it. ↵, a name key and moving to
     another field clear the picks.
   - ⌫: with "…" lit, cancels it; right after a pick, un-picks it (after a rank that started a new line from
     a pending suit: back to the set with its suit lit, the empty line gone); else it deletes the selection,
     the line break, a digit or the last token, and the picks stay: a suit picked first stays lit (♠ 7 ⌫ ♠ 7 8
     types 7♠ 8♠), a suit lit by a set goes off (its card is gone). A run's end is taken back off the run
     (6♥…10♥ becomes 6♥ with "…" lit again: the next rank ends the run there).
   - A joker goes into the meld being laid: a picked rank or suit stays picked (A ♠ ♥ JK ♦; ♥ 6 Дж 8 gives
     6♥ JK 8♥). With "…" lit the joker is the run's next card: "…" goes off and the run's suit is lit, so the
     ranks that follow go on with the run (6 ♥ … Дж 8 … 10 gives 6♥ JK 8♥…10♥).
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
      suit: null,       // a lit suit: picked first (no rank), or the last suit of a set (pending)
      ranging: false,   // "…" tapped: the next rank ends a run from the last card
      lineDone: false,  // a run's end was tapped: the next rank starts a new meld
      pending: null,    // {card, rank, newline}: the lit suit's card joined a set of rank; maybe it was for a run
      typed: false,     // something was typed since the last pick (⌫ deletes it rather than un-picking)
      bare: false       // the picked rank has no natural card typed yet: a second rank is refused
    };
  }

  function copy(state) {
    var out = {};
    for (var k in state) { if (Object.prototype.hasOwnProperty.call(state, k)) { out[k] = state[k]; } }
    if (state.pending) { out.pending = { card: state.pending.card, rank: state.pending.rank, newline: state.pending.newline }; }
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

  /* How many natural cards of rank the line ends with (jokers among them not counted). */
  function ending(state, rank) {
    var t = tokens(state);
    var count = 0;
    for (var i = t.length - 1; i >= 0; i--) {
      var card = read(t[i]);
      if (card && card.joker) { continue; }
      if (!card || card.rank !== rank) { break; }
      count++;
    }
    return count;
  }

  /* The rank of the set the line ends with (two or more cards of one rank), or null. */
  function setRank(state) {
    var t = tokens(state);
    for (var i = t.length - 1; i >= 0; i--) {
      var card = read(t[i]);
      if (card && card.joker) { continue; }
      return card && card.rank && ending(state, card.rank) >= 2 ? card.rank : null;
    }
    return null;
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

  /* Take the last token equal to ``card`` out of the text before the caret (with one space beside it). */
  function takeOut(state, card) {
    var parts = state.before.split(/([ \t\n]+)/);
    for (var i = parts.length - 1; i >= 0; i--) {
      if (parts[i] !== card) { continue; }
      if (i > 0 && /^[ \t]+$/.test(parts[i - 1])) { parts.splice(i - 1, 2); } else if (i + 1 < parts.length && /^[ \t]+$/.test(parts[i + 1])) {
        parts.splice(i, 2);
      } else { parts.splice(i, 1); }
      state.before = parts.join("");
      return;
    }
  }

  function clearPicks(state) {
    state.rank = null; state.suit = null; state.ranging = false; state.lineDone = false;
    state.pending = null; state.typed = false; state.bare = false;
  }

  function pendingRun(state) { return !!(state.pending && state.rank && state.rank !== state.pending.rank); }
  function pendingSet(state) { return !!(state.pending && state.rank === state.pending.rank); }

  /* The lit suit was for a run from the picked rank: its card leaves the set, the run's first card is typed. */
  function toRun(state) {
    var suit = state.suit;
    takeOut(state, state.pending.card);
    type(state, shown(state, state.rank) + suit);
    state.rank = null; state.pending = null; state.suit = suit; state.typed = true; state.bare = false;
  }

  function done(state, extra) {
    var out = { state: state, hint: null, about: null, next: false };
    if (extra) { for (var k in extra) { out[k] = extra[k]; } }
    return out;
  }
  function refuse(state, hint, about) { return { state: state, hint: hint, about: about || null, next: false }; }

  function tapRank(given, r) {
    var s = copy(given);
    if (s.field === "ranks") { type(s, shown(s, r)); return done(s); }  // a hand by rank: 9 9 К Дж
    if (s.ranging) {
      var first = read(lastToken(s));
      if (!first || !first.rank) { return refuse(given, "run-needs-card"); }
      // End the run: "6♥ " becomes "6♥…10♥ "; a suit picked first stays picked.
      s.before = s.before.replace(/\s+$/, "") + "…" + shown(s, r) + first.suit + " ";
      s.selected = "";
      if (s.rank) { s.suit = null; }
      s.rank = null; s.ranging = false; s.pending = null; s.lineDone = true; s.typed = true; s.bare = false;
      return done(s);
    }
    if (pendingRun(s)) {
      if (r === s.rank) { return refuse(given, "pick-suit-first", shown(s, r)); }
      toRun(s);  // 10 ♠ ♥ ♦ ♣ 2 3: the ♣ was for a run from 2
      type(s, shown(s, r) + s.suit);
      return done(s);
    }
    if (s.suit && !s.rank) {  // a suit picked first: each rank adds a card of it
      if (s.lineDone) { startLine(s); }
      s.lineDone = false;
      type(s, shown(s, r) + s.suit);
      s.typed = true;
      return done(s);
    }
    if (s.rank === r) { return refuse(given, s.bare ? "pick-suit-first" : "rank-picked", shown(s, r)); }
    if (s.rank && s.bare) { return refuse(given, "pick-suit-first", shown(s, s.rank)); }
    var set = setRank(s);
    var newline = (s.lineDone || (set && set !== r)) ? startLine(s) : false;
    if (s.pending) { s.pending.newline = newline; } else { s.suit = null; }
    s.rank = r; s.lineDone = false; s.typed = false; s.bare = true;
    return done(s);
  }

  function tapSuit(given, suit) {
    var s = copy(given);
    if (s.ranging) { return refuse(given, "run-needs-rank"); }
    if (pendingRun(s)) {  // A ♠ ♥ ♦ ♣ K ♠: a set of kings, the ♣ stays with the aces
      s.pending = null; s.suit = null;
      type(s, shown(s, s.rank) + suit);
      s.typed = true; s.bare = false;
      return done(s);
    }
    if (s.rank) {
      var inSet = ending(s, s.rank) >= 2;
      var card = shown(s, s.rank) + suit;
      type(s, card);
      s.typed = true; s.bare = false; s.lineDone = false;
      if (inSet) { s.suit = suit; s.pending = { card: card, rank: s.rank, newline: false }; } else { s.suit = null; s.pending = null; }
      return done(s);
    }
    if (s.suit === suit) { return refuse(given, "suit-picked", suit); }
    s.suit = suit; s.typed = false; s.bare = false; s.pending = null;
    return done(s);
  }

  function tapRange(given) {
    var s = copy(given);
    if (s.ranging) { s.ranging = false; return done(s); }
    if (pendingRun(s)) { toRun(s); s.ranging = true; return done(s); }  // 10 ♠ ♥ ♦ ♣ 2 …
    if (s.rank && s.bare) { return refuse(given, "pick-suit-first", shown(s, s.rank)); }
    var last = read(lastToken(s));
    if (!last || !last.rank) { return refuse(given, "run-needs-card"); }
    if (pendingSet(s) && s.field === "lines" && lastToken(s) === s.pending.card) {
      // 10 ♠ ♥ ♦ ♣ …: the ♣ starts a run, on its own line
      var card = s.pending.card;
      takeOut(s, card);
      s.before = s.before.replace(/[ \t]+$/, "");
      startLine(s);
      type(s, card);
    }
    if (s.pending) { s.suit = null; s.pending = null; }
    s.ranging = true; s.lineDone = false;
    return done(s);
  }

  function tapJoker(given, joker) {
    var s = copy(given);
    var token = shown(s, joker || "JK");
    if (s.ranging) {  // 6 ♥ … Дж: the joker is the run's next card, the run goes on in its suit
      var first = lastNatural(s);
      type(s, token);
      s.ranging = false; s.rank = null; s.pending = null; s.suit = first ? first.suit : s.suit;
      s.typed = true; s.bare = false; s.lineDone = false;
      return done(s);
    }
    if (pendingSet(s)) { s.pending = null; s.suit = null; }  // the set goes on
    type(s, token);
    s.typed = true; s.lineDone = false;
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
    if (pendingRun(s) && !s.typed) {  // A ♠ ♥ ♦ ♣ K ⌫: back to the set, its suit lit
      if (s.pending.newline && /\n[ \t]*$/.test(s.before)) { s.before = s.before.replace(/\n[ \t]*$/, ""); }
      s.rank = s.pending.rank; s.pending.newline = false; s.typed = true; s.bare = false;
      return done(s);
    }
    if ((s.rank || s.suit) && !s.typed) {  // a pick with nothing typed since: un-pick it
      s.rank = null; s.suit = null; s.pending = null; s.bare = false;
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
      s.ranging = true; s.lineDone = false;
      return done(s);
    } else {
      s.before = before.replace(/\S+[ \t]*$|[ \t]+$/, "");
    }
    s.lineDone = false;
    if (pendingSet(s)) { s.pending = null; s.suit = null; }  // its card is gone
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
