/* The room screen (templates/night_room.html): a TV for the whole club night, never scrolled.

   - Layout: the standings (a table a column, its heads on top) then the current round's seating (the tables'
     blocks) are cut into columns; the type is the largest that puts everything on one screen, never under 3% of the
     screen's height (MIN). Past one screen, at the type that still needs no more pages, the columns go into pages
     that turn by themselves every data-turn seconds ("?turn=2" for a test), "page 2 of 3" beside them, and a Pause
     button (WCAG 2.2.2). Sizes go in as CSS custom properties (CSSOM: the strict CSP allows it).
   - Live: static/live.js swaps the stage the server drew anew in when a table changes; the screen lays it out
     again, on the same page (or the last one, if the night has fewer pages now).
   - ?timer=30 (minutes, 1 to 240): a countdown from the current round's start (#room-title's data-round-start), "0:00" and
     "Time is up" once over.

   The rows and the seating blocks are the server's own elements, moved between the columns, never copied: each
   player is on the screen once. */
(function () {
  "use strict";
  var box = document.getElementById("night-live");
  if (!box || !document.querySelector) { return; }
  var TV = "(min-width: 700px) and (orientation: landscape)";
  var MIN = 0.03, MAX = 0.075;  /* the names' size: 3% to 7.5% of the screen's height */
  var NAME_ROOM = 7;  /* em a column keeps for a name at least: a longer one is cut ("Александра Конс…") */
  var params = new URLSearchParams(window.location.search);
  var turnEvery = wholeIn(params.get("turn"), 1, 60) || wholeIn(box.getAttribute("data-turn"), 1, 60) || 9;
  var timerMinutes = wholeIn(params.get("timer"), 1, 240);
  var page = 0, pages = [], paused = false, turner = null;
  var rows = [], seats = [], head = null, standingsTitle = null, seatingTitle = null;

  function wholeIn(text, low, high) {
    if (!text || !/^\d{1,3}$/.test(text)) { return null; }
    var n = parseInt(text, 10);
    return n >= low && n <= high ? n : null;
  }

  function el(tag, className) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    return made;
  }

  /* The server's parts, read again after every swap: the standings' rows in the ranking's order, its heads, the
     tables' seating blocks and the seating's heading. */
  function collect() {
    var stage = document.getElementById("room-stage");
    rows = Array.prototype.slice.call(stage.querySelectorAll("#room-standings tbody tr"));
    head = stage.querySelector("#room-standings thead");
    standingsTitle = document.getElementById("room-standings-title");
    seats = Array.prototype.slice.call(stage.querySelectorAll(".room-seat"));
    seatingTitle = document.getElementById("room-seating-title");
    var more = document.getElementById("room-more");
    if (more) { more.hidden = true; }  /* every player is shown, page by page */
    box.classList.add("room-paged");
  }

  /* The standings part of a column: a table with the heads and ``part`` of the rows; the first on a page keeps the
     id and the (unseen) heading that names every standings table on the page. */
  function standingsPart(part, first) {
    var section = el("section", "room-standings");
    var table = el("table", "room-table");
    if (first) {
      table.id = "room-standings";
      section.appendChild(standingsTitle);
      section.setAttribute("aria-labelledby", "room-standings-title");
    }
    table.setAttribute("aria-labelledby", "room-standings-title");
    table.appendChild(head.cloneNode(true));
    var body = el("tbody");
    part.forEach(function (row) { body.appendChild(row); });
    table.appendChild(body);
    section.appendChild(table);
    return section;
  }

  /* The seating part of a column: the heading (in the first part only) and ``part`` of the tables' blocks. */
  function seatingPart(part, titled) {
    var section = el("section", "room-seating");
    if (titled) {
      section.appendChild(seatingTitle);
      section.setAttribute("aria-labelledby", "room-seating-title");
    }
    var list = el("ul", "room-seats");
    part.forEach(function (block) { list.appendChild(block); });
    section.appendChild(list);
    return section;
  }

  function stageOf() { return document.getElementById("room-stage"); }

  function setSizes(f, cols, colWidth, nameRoom) {
    box.style.setProperty("--room-f", f.toFixed(2) + "px");
    box.style.setProperty("--room-cols", String(cols));
    box.style.setProperty("--room-col-w", colWidth ? colWidth.toFixed(1) + "px" : "minmax(0, 1fr)");
    box.style.setProperty("--room-name-w", nameRoom ? nameRoom.toFixed(2) + "em" : "none");
  }

  function height(node) { return node.getBoundingClientRect().height; }

  /* What a column holds, in em of the stage's type (so it holds at any size), measured at ``f`` px out of sight:
     the standings' width without the names (``fixed``) and with the widest name (``widest``), the heads' and a
     row's height, the seating's heading and each table's block, laid out at the narrowest column (``least``: the
     names given NAME_ROOM em, or the widest name's room if less) so that any column holds them. */
  function measure(f) {
    var stage = stageOf();
    setSizes(f, 1, 0, 0);
    stage.textContent = "";
    var probe = el("div", "room-probe");
    probe.setAttribute("aria-hidden", "true");
    stage.appendChild(probe);
    var part = standingsPart(rows, true);
    probe.appendChild(part);
    var table = part.querySelector("table");
    var widest = 0, row = 0;
    rows.forEach(function (r) {
      widest = Math.max(widest, r.querySelector(".name-text").getBoundingClientRect().width);
      row = Math.max(row, height(r));
    });
    var m = {
      fixed: (table.getBoundingClientRect().width - widest) / f, widest: widest / f, head: height(table.tHead) / f,
      row: row / f, title: 0, gap: 0, blocks: []
    };
    m.least = m.fixed + Math.min(m.widest, NAME_ROOM);
    probe.style.setProperty("width", (m.least * f) + "px");
    var seating = seatingPart(seats, true);
    probe.appendChild(seating);
    if (seats.length) {
      m.gap = parseFloat(getComputedStyle(seating).marginTop) / f;
      m.title = (height(seatingTitle) + parseFloat(getComputedStyle(seatingTitle).marginBottom)) / f;
      m.blocks = seats.map(function (block) { return height(block) / f; });
    }
    stage.textContent = "";
    return m;
  }

  /* The columns at type ``f`` on a stage ``h`` px high, the standings then the seating poured in like a newspaper's
     columns: each {rows: [i, j)} and/or {seats: [i, j), titled}; a column's standings repeat the heads. */
  function columnsAt(m, f, h) {
    var room = h / f, columns = [], column = null, used = 0;
    function next() { column = {}; columns.push(column); used = 0; }
    for (var i = 0; i < rows.length;) {
      next();
      var j = Math.min(rows.length, i + Math.max(1, Math.floor((room - m.head) / m.row)));
      column.rows = [i, j];
      used = m.head + (j - i) * m.row;
      i = j;
    }
    if (!seats.length) { return columns; }
    if (!column || used + m.gap + m.title + m.blocks[0] > room) { next(); } else { used += m.gap; }
    column.seats = [0, seats.length];
    column.titled = true;
    used += m.title;
    for (var k = 0; k < seats.length; k += 1) {
      if (k > column.seats[0] && used + m.blocks[k] > room) {
        column.seats[1] = k;
        next();
        column.seats = [k, seats.length];
      }
      used += m.blocks[k];
    }
    return columns;
  }

  /* The gap between two columns, as the style sheet has it (2.5vw). */
  function gapOf() { return 0.025 * window.innerWidth; }

  /* The largest type whose columns fit one screen; else the largest with no more pages than the smallest type
     needs. {f, perPage, columns, pages}; at a type too large for even one column, no pages at all. */
  function choose(m, w, h, low, high) {
    function at(f) {
      var columns = columnsAt(m, f, h);
      var perPage = Math.floor((w + gapOf()) / (m.least * f + gapOf()));
      if (f === low) { perPage = Math.max(1, perPage); }
      return { f: f, perPage: perPage, columns: columns, pages: perPage ? Math.ceil(columns.length / perPage) : Infinity };
    }
    var least = at(low);
    for (var f = high; f > low; f -= 0.5) {
      var tried = at(f);
      if (tried.pages <= least.pages) { return tried; }
    }
    return least;
  }

  function render() {
    var stage = stageOf();
    stage.textContent = "";
    var first = true;
    (pages[page] || []).forEach(function (c) {
      var column = el("div", "room-col");
      if (c.rows) {
        column.appendChild(standingsPart(rows.slice(c.rows[0], c.rows[1]), first));
        first = false;
      }
      if (c.seats) { column.appendChild(seatingPart(seats.slice(c.seats[0], c.seats[1]), c.titled)); }
      stage.appendChild(column);
    });
    var pager = document.getElementById("room-pager");
    pager.hidden = pages.length < 2;
    document.getElementById("room-page").textContent = box.getAttribute("data-page-text")
      .replace("{page}", String(page + 1)).replace("{pages}", String(pages.length));
    box.setAttribute("data-page", String(page + 1));
    box.setAttribute("data-pages", String(pages.length));
  }

  /* Whatever a column shows past its stage (a rounding the measure missed): true when something does. */
  function overflowing() {
    var stage = stageOf();
    if (stage.scrollWidth > stage.clientWidth + 1) { return true; }
    var bottom = stage.getBoundingClientRect().bottom + 1;
    return Array.prototype.some.call(stage.children, function (c) { return c.getBoundingClientRect().bottom > bottom; });
  }

  function layout() {
    var stage = stageOf();
    if (!window.matchMedia(TV).matches) {  /* a phone: one long page, every row, no turning */
      ["--room-f", "--room-cols", "--room-col-w", "--room-name-w"].forEach(function (name) {
        box.style.removeProperty(name);
      });
      pages = [[{ rows: [0, rows.length] }].concat(seats.length ? [{ seats: [0, seats.length], titled: true }] : [])];
      page = 0;
      render();
      return;
    }
    var screen = window.innerHeight;
    var low = Math.ceil(MIN * screen * 10) / 10 + 0.1, high = Math.max(low, MAX * screen);
    setSizes(low, 1, 0, 0);
    stage.textContent = "";
    var w = stage.clientWidth, h = stage.clientHeight;
    var m = measure(low);
    var plan = choose(m, w, h, low, high);
    for (var tries = 0; tries < 12; tries += 1) {
      var perPage = Math.min(plan.perPage, plan.columns.length), gap = gapOf();
      var width = Math.min((w - gap * (perPage - 1)) / perPage, (m.fixed + m.widest) * plan.f * 1.2);
      setSizes(plan.f, perPage, width, Math.max(1, width / plan.f - m.fixed));
      pages = [];
      for (var i = 0; i < plan.columns.length; i += plan.perPage) { pages.push(plan.columns.slice(i, i + plan.perPage)); }
      page = Math.min(page, pages.length - 1);
      render();
      if (!overflowing()) { return; }
      if (plan.f > low) {
        plan = choose(m, w, h, low, Math.max(low, plan.f - 0.5));
      } else {  /* at the smallest type: a little more room for each line */
        m.row *= 1.03;
        m.head *= 1.03;
        m.blocks = m.blocks.map(function (b) { return b * 1.03; });
        plan = choose(m, w, h, low, low);
      }
    }
  }

  function schedule() {
    if (turner) { clearTimeout(turner); }
    turner = setTimeout(function () {
      if (!paused && pages.length > 1) {
        page = (page + 1) % pages.length;
        render();
      }
      schedule();
    }, turnEvery * 1000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#room-pause") : null;
    if (!button) { return; }
    paused = !paused;
    button.setAttribute("aria-pressed", paused ? "true" : "false");
  });

  /* -- the round's timer -- */
  function startOf(text) {
    var m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,3})\d*)?(Z|[+-]\d\d:\d\d)?$/.exec(text || "");
    if (!m) { return null; }
    var when = Date.parse(m[1] + "." + (m[2] || "0").padEnd(3, "0") + (m[3] || "Z"));
    return isNaN(when) ? null : when;
  }

  function clock(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var hours = Math.floor(s / 3600), minutes = Math.floor((s % 3600) / 60), seconds = s % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(seconds).padStart(2, "0");
  }

  function tick() {
    var timer = document.getElementById("room-timer");
    var start = startOf(document.getElementById("room-title").getAttribute("data-round-start"));
    if (!timer || start === null) { return; }
    var left = start + timerMinutes * 60000 - Date.now();
    var label = document.getElementById("room-timer-label");
    if (!timer.hasAttribute("data-left")) { timer.setAttribute("data-label", label.textContent); }
    timer.hidden = false;
    timer.classList.toggle("over", left <= 0);
    label.textContent = left <= 0 ? timer.getAttribute("data-over") : timer.getAttribute("data-label");
    document.getElementById("room-clock").textContent = clock(left);
    timer.setAttribute("data-left", String(Math.max(0, Math.ceil(left / 1000))));
  }

  /* -- live: static/live.js swaps the parts that changed in; the screen lays them out again -- */
  document.addEventListener("kunken:live", function () {
    var keep = page;
    var button = document.getElementById("room-pause");
    if (button) { button.setAttribute("aria-pressed", paused ? "true" : "false"); }
    collect();
    page = keep;
    layout();
    if (timerMinutes) { tick(); }
  });

  collect();
  layout();
  schedule();
  var resized = null;
  window.addEventListener("resize", function () {
    if (resized) { clearTimeout(resized); }
    resized = setTimeout(layout, 150);
  });
  if (timerMinutes) {
    tick();
    setInterval(tick, 1000);
  }
}());
