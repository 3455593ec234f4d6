/* Tap-to-pick card keypad (templates/_keypad.html). Types canonical card tokens (K♠, 10♥, JK)
   into the last focused <input>/<textarea> with a data-keypad attribute. Pages work without it. */
(function () {
  "use strict";
  var pad = document.getElementById("keypad");
  if (!pad) { return; }
  var FIELDS = "input[data-keypad], textarea[data-keypad]";
  var STORE = "kunken-keypad-mode";
  var target = null;
  var rank = null;   // a rank waiting for its suit
  var suit = null;   // a picked suit: stays until tapped again (quick runs: ♠ then 5 6 7)
  var label = document.getElementById("keypad-target");

  function fields() { return Array.prototype.slice.call(document.querySelectorAll(FIELDS)); }

  function mode() {
    try { return window.localStorage.getItem(STORE) || "keypad"; } catch (e) { return "keypad"; }
  }

  function applyMode() {
    // In keypad mode the phone's own keyboard stays down on card fields.
    var keypad = mode() === "keypad";
    fields().forEach(function (el) {
      if (keypad) { el.setAttribute("inputmode", "none"); } else { el.removeAttribute("inputmode"); }
    });
    pad.setAttribute("data-mode", mode());
  }

  function press(button, on) { if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); } }

  function clearPending(keepSuit) {
    rank = null;
    Array.prototype.forEach.call(pad.querySelectorAll("[data-rank]"), function (b) { press(b, false); });
    if (!keepSuit) {
      suit = null;
      Array.prototype.forEach.call(pad.querySelectorAll("[data-suit]"), function (b) { press(b, false); });
    }
  }

  function setTarget(el) {
    if (target !== el) { clearPending(false); }
    target = el;
    if (label) { label.textContent = el.getAttribute("data-keypad") || ""; }
    pad.classList.remove("hidden");
    fields().forEach(function (f) { f.classList.toggle("keypad-target-field", f === el); });
    reveal(el);
  }

  function reveal(el) {
    // Keep the field above the keypad, which sits over the bottom of the screen.
    var limit = window.innerHeight - pad.getBoundingClientRect().height - 8;
    var rect = el.getBoundingClientRect();
    if (rect.bottom > limit) { window.scrollBy(0, Math.min(rect.bottom - limit, Math.max(rect.top - 8, 0))); }
  }

  function changed(el) {
    var event;
    try { event = new Event("input", { bubbles: true }); } catch (e) {
      event = document.createEvent("Event"); event.initEvent("input", true, true);
    }
    el.dispatchEvent(event);
  }

  function ensureTarget() {
    if (target && document.body.contains(target)) { return target; }
    var first = fields()[0];
    if (first) { setTarget(first); }
    return first || null;
  }

  function caret(el) {
    var v = el.value;
    var s = typeof el.selectionStart === "number" ? el.selectionStart : v.length;
    var e = typeof el.selectionEnd === "number" ? el.selectionEnd : v.length;
    return { before: v.slice(0, s), after: v.slice(e) };
  }

  function put(el, before, after) {
    el.value = before + after;
    try { el.setSelectionRange(before.length, before.length); } catch (e) { /* not a text field */ }
    changed(el);
    if (document.activeElement !== el) { el.focus(); }
  }

  function insert(text, opts) {
    var el = ensureTarget();
    if (!el) { return; }
    var c = caret(el);
    var before = c.before;
    if (opts && opts.line && el.tagName === "TEXTAREA" && before && !/\n\s*$/.test(before)) {
      before = before.replace(/[ \t]+$/, "") + "\n";
    } else if (before && !/[\s]$/.test(before) && !(opts && opts.raw)) {
      before += " ";
    }
    put(el, before + text, c.after);
  }

  function card(token) { insert(token + " "); }

  function backspace() {
    var el = ensureTarget();
    if (!el) { return; }
    if (rank) { clearPending(true); return; }
    var c = caret(el);
    if (el.selectionStart !== el.selectionEnd && typeof el.selectionStart === "number") {
      put(el, c.before, c.after);
      return;
    }
    var before = /\n[ \t]*$/.test(c.before) ? c.before.replace(/\n[ \t]*$/, "")
      : c.before.replace(/\S+[ \t]*$|[ \t]+$/, "");
    put(el, before, c.after);
  }

  function newline() {
    var el = ensureTarget();
    if (!el) { return; }
    clearPending(false);
    if (el.tagName === "TEXTAREA") {
      var c = caret(el);
      put(el, c.before.replace(/[ \t]+$/, "") + "\n", c.after);
      return;
    }
    var all = fields();
    var next = all[all.indexOf(el) + 1];
    if (next) { setTarget(next); next.focus(); }
  }

  function tap(button) {
    var r = button.getAttribute("data-rank");
    var s = button.getAttribute("data-suit");
    var action = button.getAttribute("data-action");
    if (r) {
      if (suit) { card(r + suit); return; }
      var same = rank === r;
      clearPending(true);
      if (!same) { rank = r; press(button, true); }
      return;
    }
    if (s) {
      if (rank) { var token = rank + s; clearPending(true); card(token); return; }
      var again = suit === s;
      clearPending(false);
      if (!again) { suit = s; press(button, true); }
      return;
    }
    if (button.hasAttribute("data-joker")) { clearPending(true); card(button.getAttribute("data-joker") || "JK"); return; }
    if (button.hasAttribute("data-insert")) {
      clearPending(false);
      insert(button.getAttribute("data-insert"), { line: true, raw: true });
      return;
    }
    if (action === "space") { insert(" ", { raw: true }); return; }
    if (action === "newline") { newline(); return; }
    if (action === "backspace") { backspace(); return; }
    if (action === "keyboard") {
      try { window.localStorage.setItem(STORE, mode() === "keypad" ? "keyboard" : "keypad"); } catch (e) { /* private mode */ }
      applyMode();
      if (target) { target.blur(); target.focus(); }
      return;
    }
    if (action === "close") { clearPending(false); pad.classList.add("hidden"); }
  }

  function onField(event) {
    var el = event.target;
    if (el && el.matches && el.matches(FIELDS)) { setTarget(el); }
  }
  document.addEventListener("focusin", onField);
  document.addEventListener("click", onField);  // a tap on the focused field brings a hidden keypad back
  // Keep the focus (and the caret) in the card field while keys are tapped.
  ["mousedown", "pointerdown"].forEach(function (type) {
    pad.addEventListener(type, function (event) {
      if (event.target.closest && event.target.closest("button")) { event.preventDefault(); }
    });
  });
  pad.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    if (button && pad.contains(button)) { event.preventDefault(); tap(button); }
  });
  applyMode();
  pad.setAttribute("data-ready", "true");
})();
