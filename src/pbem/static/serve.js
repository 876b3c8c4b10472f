// pbem serve: the page's own script (no library, no build step, nothing from the network).
// Every change is a POST with the page's CSRF token in a header; the server does the rest with
// the same code as the pbem commands. The page redraws its live part when the campaign changes.
(function () {
  "use strict";

  var csrf = document.querySelector('meta[name="pbem-csrf"]').content;
  var pollMs = Number(document.querySelector('meta[name="pbem-poll"]').content) || 1500;
  var busy = false;
  var selected = null; // {kind: "loc"|"piece", at, label, name}
  var dragging = null;
  var viaKeys = false; // the click being handled came from Enter or Space

  function $(id) { return document.getElementById(id); }
  function live() { return $("live"); }

  function say(lines, refusal) {
    var box = $("messages");
    box.textContent = "";
    box.className = refusal ? "refusal" : "done";
    if (refusal) {
      var head = document.createElement("strong");
      head.textContent = refusal.code + ": " + refusal.reason;
      box.appendChild(head);
      if (refusal.detail) {
        box.appendChild(document.createElement("br"));
        box.appendChild(document.createTextNode(refusal.detail));
      }
    }
    (lines || []).forEach(function (line) {
      var p = document.createElement("div");
      p.textContent = line;
      box.appendChild(p);
    });
  }

  function post(url, body, form) {
    var options = {method: "POST", credentials: "same-origin", headers: {"X-PBEM-CSRF": csrf}};
    if (form) {
      options.body = body;
    } else {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body || {});
    }
    return fetch(url, options).then(function (r) {
      return r.json().catch(function () {
        return {ok: false, refusal: {code: "http-" + r.status, reason: "the server refused the request", detail: ""}};
      });
    });
  }

  function refresh() {
    return fetch("/", {credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("live");
      if (!fresh) { return; }
      var typed = $("order") ? $("order").value : "";
      document.title = doc.title;
      live().replaceWith(document.importNode(fresh, true));
      if ($("order") && typed) { $("order").value = typed; }
      if (window.pbemMap) { window.pbemMap.init(live()); }
      selected = null;
      mark();
    });
  }

  function settle(result) {
    busy = false;
    if (result && result.confirm) {
      return result;
    }
    say(result && result.lines, result && result.refusal);
    return refresh().then(function () { return result; });
  }

  function act(url, body, form) {
    if (busy) { return Promise.resolve(null); }
    busy = true;
    document.body.classList.add("busy");
    return post(url, body, form).then(settle, function (e) {
      busy = false;
      say([], {code: "no-connection", reason: "the page cannot reach pbem serve", detail: String(e)});
    }).finally(function () { document.body.classList.remove("busy"); });
  }

  function choose(order, confirm) {
    return act("/api/choose", {order: order, confirm: !!confirm}).then(function (result) {
      if (result && result.confirm) {
        ask(result.confirm, function () { choose(order, true); });
      } else if (result && result.ok && $("order")) {
        $("order").value = "";
      }
    });
  }

  function ask(text, yes) {
    var dialog = $("confirm");
    $("confirm-text").textContent = text;
    dialog.hidden = false;
    $("confirm-yes").onclick = function () { dialog.hidden = true; yes(); };
    $("confirm-no").onclick = function () { dialog.hidden = true; say(["Nothing was signed."]); };
    $("confirm-yes").focus();
  }

  // -- the map: which legal choices concern a space or a piece ------------------------------------
  // A choice's data-words are the words of its action: location ids and the ids of the pieces it
  // names (data-piece on a counter's face). A piece and a place clicked in turn pick the legal choice naming
  // both; several: just those are shown to pick from. A decision taken in words fills the order
  // its prompt quotes ('move UNIT to HEX'). Nothing else is ever sent.
  function locName(g) {
    var t = g.querySelector("text");
    return t ? t.textContent : g.dataset.id;
  }
  function pieceLabel(g) {
    var t = g.querySelector("title");
    return t ? t.textContent : "";
  }
  function locations() {
    return Array.prototype.slice.call(document.querySelectorAll("#map g.loc"));
  }
  function pieces() {
    return Array.prototype.slice.call(document.querySelectorAll("#map g.piece"));
  }
  function choices() {
    return Array.prototype.slice.call(document.querySelectorAll("#choices button.choice"));
  }
  function has(text, words) {
    return text.toLowerCase().indexOf(words.toLowerCase()) >= 0;
  }
  function named(text, name) { // name as whole words of text
    if (!name || name.length < 3) { return false; }
    var esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp("(^|[^\\w])" + esc + "($|[^\\w])", "i").test(text);
  }
  function pid(g) { var f = g.querySelector("rect.face"); return f && f.dataset.piece || ""; } // what its orders call it
  function words(button) { return (button.dataset.words || "").split("|"); }
  function concernsLoc(button, id, name) {
    return words(button).indexOf(id) >= 0 || named(button.dataset.label, name);
  }
  function concernsPiece(button, g) {
    if (pid(g)) { return words(button).indexOf(pid(g)) >= 0; }
    var name = pieceLabel(g).replace(/ \(face down\)$/, "").split(/ \(|, /)[0];
    return named(button.dataset.label, name);
  }
  function locById(id) {
    return document.querySelector('#map g.loc[data-id="' + CSS.escape(id) + '"]');
  }

  function mark() { // what the decision's legal choices name: lit, and every piece and place a tab stop
    var buttons = choices();
    locations().forEach(function (g) {
      var id = g.dataset.id, name = locName(g);
      g.classList.toggle("active", buttons.some(function (b) { return concernsLoc(b, id, name); }));
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", name + (g.classList.contains("active") ? " (has orders)" : ""));
    });
    pieces().forEach(function (g) {
      g.classList.toggle("legal", buttons.some(function (b) { return concernsPiece(b, g); }));
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", pieceLabel(g) + (g.classList.contains("legal") ? " (has orders)" : ""));
    });
  }

  function filter(test, what) {
    var buttons = choices();
    if (!buttons.length) { return []; }
    var shown = buttons.filter(test);
    buttons.forEach(function (b) { b.parentNode.hidden = shown.length > 0 && shown.indexOf(b) < 0; });
    $("where").hidden = false;
    $("where-text").textContent = shown.length ? shown.length + " choice(s) for " + what + ":" :
      "nothing to choose for " + what + "; every choice:";
    return shown;
  }

  function unlight() {
    document.querySelectorAll("#map polygon.hexpick").forEach(function (p) { p.remove(); });
    document.querySelectorAll("#map .selected, #map .target").forEach(function (g) {
      g.classList.remove("selected");
      g.classList.remove("target");
    });
  }

  function showAll() {
    choices().forEach(function (b) { b.parentNode.hidden = false; });
    if ($("where")) { $("where").hidden = true; }
    unlight();
  }

  function fill(kinds, text) { // put a name in place of the first capital word it can stand for
    var input = $("order");
    if (!input) { return false; }
    var re = new RegExp("\\b(" + kinds.join("|") + ")\\b");
    if (re.test(input.value)) {
      input.value = input.value.replace(re, text);
      input.focus();
      return true;
    }
    return false;
  }

  var PIECE = ["UNIT", "PIECE", "BLOCK", "BOAT", "CARD", "X"], PLACE = ["HEX", "LOCATION", "SPACE", "AREA", "X"];
  var PIECE_RE = /\b(UNIT|PIECE|BLOCK|BOAT)\b/, PLACE_RE = /\b(HEX|LOCATION|SPACE|AREA)\b/;

  function placeWord(g) { return g.hasAttribute("data-cr") ? g.dataset.id : locName(g); }
  function pieceWord(g) { return pid(g) || pieceLabel(g).replace(/ \(face down\)$/, "").split(/ \(|, /)[0]; }

  function placeOf(g) { return {id: g.dataset.id, name: locName(g), word: placeWord(g), el: g}; }

  // a hex of a hex map that no location names (a plain hex is drawn as part of its column): the
  // hex whose centre is nearest the click (the hexes are exactly those nearest regions), by its number
  function hexAt(ev) {
    var svg = document.querySelector("#map svg.pbem-map"), grid = svg && svg.querySelector("g.hexgrid");
    if (!grid || !svg.contains(ev.target)) { return null; }
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    var h = Number(grid.dataset.h), dr = Number(grid.dataset.dr), best = null;
    grid.querySelectorAll("use.hexcol").forEach(function (col) {
      var x = Number(col.getAttribute("x")), y0 = Number(col.getAttribute("y")), n = Number(col.dataset.n);
      if (Math.abs(x - p.x) > 2 * h) { return; }
      var i = Math.round((p.y - y0) / h);
      if (i < 0 || i >= n) { return; }
      var d = Math.hypot(x - p.x, y0 + i * h - p.y);
      if (!best || d < best.d) { best = {d: d, x: x, y: y0 + i * h, c: Number(col.dataset.c), r: Number(col.dataset.r) + i * dr}; }
    });
    if (!best || best.d > h * 0.6) { return null; }
    var named = svg.querySelector('g.loc[data-cr="' + best.c + "," + best.r + '"]');
    if (named) { return placeOf(named); }
    function pad(v) { return (v < 10 ? "0" : "") + v; }
    var number = grid.dataset.fmt === "ccrr" ? pad(best.c) + pad(best.r) : best.c + "." + best.r;
    return {id: number, name: number, word: number, el: null, x: best.x, y: best.y};
  }

  function pick(place) { // the place clicked, outlined: a location's own shape, or a plain hex drawn for it
    if (place.el) { place.el.classList.add("selected"); return; }
    var svg = document.querySelector("#map svg.pbem-map"), r = 30;
    var hex = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
    hex.setAttribute("class", "hexpick");
    hex.setAttribute("points", [[-r / 2, -26], [r / 2, -26], [r, 0], [r / 2, 26], [-r / 2, 26], [-r, 0]].map(function (d) {
      return (place.x + d[0]).toFixed(1) + "," + (place.y + d[1]).toFixed(1); }).join(" "));
    svg.insertBefore(hex, svg.querySelector("g.legend"));
  }

  function clickLoc(place) {
    var id = place.id, name = place.name;
    var piece = selected && selected.kind === "piece" ? selected : null;
    showAll();
    pick(place);
    if (fill(PLACE, place.word)) { selected = {kind: "loc", at: id, name: name}; return; }
    if (piece && piece.at !== id) { return moveTo(piece, place); }
    selected = {kind: "loc", at: id, name: name};
    filter(function (b) { return concernsLoc(b, id, name); }, name);
  }

  function clickPiece(g) {
    var label = pieceLabel(g), at = g.dataset.at;
    showAll();
    g.classList.add("selected");
    selected = {kind: "piece", at: at, label: label, g: g};
    var svg = g.ownerSVGElement;
    if (svg && !g.classList.contains("opened")) { // the piece taken on top of its stack (an open stack shows it whole)
      var focused = document.activeElement === g;
      svg.insertBefore(g, svg.querySelector("g.legend"));
      if (focused) { g.focus(); }
    }
    if (fill(PIECE, pieceWord(g))) { return; }
    var loc = locById(at);
    var name = loc ? locName(loc) : at;
    var mine = choices().filter(function (b) { return concernsPiece(b, g); });
    if (mine.length) {
      filter(function (b) { return mine.indexOf(b) >= 0; }, label);
      locations().forEach(function (l) { // where its orders can take it
        if (l.dataset.id !== at && mine.some(function (b) { return concernsLoc(b, l.dataset.id, locName(l)); })) {
          l.classList.add("target");
        }
      });
      var first = document.querySelector("#map g.loc.target");
      if (viaKeys && first) { first.focus(); } // from the keyboard: on to the first place it can go (Tab for the others)
    } else { filter(function (b) { return concernsLoc(b, at, name); }, label + " (at " + name + ")"); }
  }

  function template() { // the order a decision in words quotes for a piece and a place, if one
    var found = Array.prototype.map.call(document.querySelectorAll("#decision button.template"),
      function (b) { return b.dataset.template; }).filter(function (t) { return PIECE_RE.test(t) && PLACE_RE.test(t); });
    return found.filter(function (t) { return /^move\b/.test(t); })[0] || found[0] || null;
  }

  function moveTo(piece, place) { // a piece, then a place: the legal choice that names both
    var id = place.id, name = place.name, from = locById(piece.at);
    var found = choices().filter(function (b) { return concernsPiece(b, piece.g) && concernsLoc(b, id, name); });
    if (!found.length) { // the piece goes with its group: the one order taking the group there
      found = choices().filter(function (b) {
        return /^(go|move|advance|retreat|march|sail) to /i.test(b.dataset.label) && concernsLoc(b, id, name);
      });
    }
    if (!found.length && from) { // a choice that names the two places (the piece is where it starts)
      found = choices().filter(function (b) {
        return concernsLoc(b, piece.at, locName(from)) && concernsLoc(b, id, name) && !concernsPiece(b, piece.g) &&
          words(b).indexOf(id) >= 0;
      });
    }
    selected = null;
    if (found.length === 1) { return choose(found[0].dataset.label); }
    if (found.length > 1) {
      return filter(function (b) { return found.indexOf(b) >= 0; }, piece.label.split(" (")[0] + " to " + name);
    }
    var order = template();
    if (order) {
      order = order.replace(PIECE_RE, pieceWord(piece.g)).replace(PLACE_RE, place.word);
      if (/\b[A-Z]{2,}\b/.test(order)) { $("order").value = order; $("order").focus(); return; }
      return choose(order); // the prompt's own order, filled in: the rules refuse an illegal one
    }
    if (!choices().length && $("decision") && $("decision").dataset.free === "yes") {
      return choose("move " + pieceWord(piece.g) + " to " + name);
    }
    say(["No legal order takes " + piece.label.split(" (")[0] + " to " + name + "."]);
    filter(function (b) { return concernsLoc(b, id, name); }, name);
  }

  // -- clicks, drags and drops ---------------------------------------------------------------
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    var button = t.closest && t.closest("button");
    if (button && button.classList.contains("choice")) { return choose(button.dataset.label); }
    if (button && button.classList.contains("template")) {
      var template = button.dataset.template;
      if (!/\b([A-Z]{2,}|N|X)\b/.test(template)) { return choose(template); }
      $("order").value = template;
      $("order").focus();
      return;
    }
    if (button && button.id === "send") { return act("/api/send", {}); }
    if (button && button.id === "undo") { return act("/api/undo", {}); }
    if (button && button.id === "show-all") { selected = null; return showAll(); }
    var piece = t.closest && t.closest("#map g.piece");
    if (piece) { return clickPiece(piece); }
    var loc = t.closest && t.closest("#map g.loc");
    if (loc) { return clickLoc(placeOf(loc)); }
    var hex = hexAt(ev);
    if (hex) { return clickLoc(hex); }
  });

  document.addEventListener("keydown", function (ev) { // a piece or a place with the focus: Enter or Space clicks it
    if (ev.key !== "Enter" && ev.key !== " ") { return; }
    var g = ev.target.closest && ev.target.closest("#map g.piece, #map g.loc");
    if (!g || g !== ev.target) { return; }
    ev.preventDefault();
    viaKeys = true;
    try { g.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true})); } finally { viaKeys = false; }
  });

  document.addEventListener("submit", function (ev) {
    if (ev.target.id === "talk-form") { // table talk: kept for the next turn file, never an order
      ev.preventDefault();
      var text = $("talk-text").value.trim();
      if (text) { act("/api/say", {to: $("talk-to").value, text: text}); }
      return;
    }
    if (ev.target.id !== "orders") { return; }
    ev.preventDefault();
    var order = $("order").value.trim();
    if (order) { choose(order); }
  });

  document.addEventListener("pointerdown", function (ev) {
    var piece = ev.target.closest && ev.target.closest("#map g.piece");
    dragging = piece ? {label: pieceLabel(piece), at: piece.dataset.at, g: piece, x: ev.clientX, y: ev.clientY} : null;
  });
  document.addEventListener("pointerup", function (ev) {
    var from = dragging;
    dragging = null;
    if (!from || Math.abs(ev.clientX - from.x) + Math.abs(ev.clientY - from.y) < 8) { return; }
    var under = document.elementFromPoint(ev.clientX, ev.clientY);
    var loc = under && under.closest && under.closest("#map g.loc");
    var place = loc ? placeOf(loc) : (under ? hexAt({target: under, clientX: ev.clientX, clientY: ev.clientY}) : null);
    if (place && place.id !== from.at) {
      ev.preventDefault();
      moveTo({kind: "piece", label: from.label, at: from.at, g: from.g}, place);
    }
  });

  function ingest(file) {
    var form = new FormData();
    form.append("file", file, file.name);
    return act("/api/ingest", form, true);
  }
  document.addEventListener("dragover", function (ev) {
    if (ev.dataTransfer && Array.prototype.indexOf.call(ev.dataTransfer.types, "Files") >= 0) {
      ev.preventDefault();
      document.body.classList.add("dropping");
    }
  });
  document.addEventListener("dragleave", function () { document.body.classList.remove("dropping"); });
  document.addEventListener("drop", function (ev) {
    document.body.classList.remove("dropping");
    if (ev.dataTransfer && ev.dataTransfer.files.length) {
      ev.preventDefault();
      ingest(ev.dataTransfer.files[0]);
    }
  });
  document.addEventListener("change", function (ev) {
    if (ev.target.id === "file" && ev.target.files.length) { ingest(ev.target.files[0]); }
  });

  // -- the campaign changed on disk (pbem ingest, pbem mail fetch, another tab): redraw --------
  setInterval(function () {
    if (busy || document.hidden) { return; }
    var shown = live().dataset.version; // an answer about a page since redrawn is stale
    fetch("/api/version", {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (v) {
      if (v.version && v.version !== shown && shown === live().dataset.version && !busy) { refresh(); }
    }).catch(function () {});
  }, pollMs);

  mark();
}());
