/* pbem's map: zoom and pan (wheel, + / - / reset buttons, pinch, keyboard), the hex numbers of
   a hex grid. No library, nothing from the network. The map is an <svg class="pbem-map"> inside
   a <div class="map">; the SVG says its size at zoom 1 (data-width, data-height: one map unit a
   CSS px) and the least zoom of its default view (data-minzoom: counters >= 24 px, labels >= 11 px).
   pbemMap.init(root) sets up every map under root (the serve page calls it after each redraw). */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";

  function numbers(svg) { // the printed hex numbers, in small print, where a hex has no label of its own
    var grid = svg.querySelector("g.hexgrid");
    if (!grid || grid.dataset.numbered) { return; }
    grid.dataset.numbered = "yes";
    var labelled = {};
    svg.querySelectorAll("g.loc[data-cr]").forEach(function (g) { labelled[g.dataset.cr] = true; });
    var fmt = grid.dataset.fmt, dr = Number(grid.dataset.dr), h = Number(grid.dataset.h);
    var group = document.createElementNS(NS, "g");
    group.setAttribute("class", "hexnums");
    group.setAttribute("text-anchor", "middle");
    group.setAttribute("pointer-events", "none");
    function pad(n) { return (n < 10 ? "0" : "") + n; }
    grid.querySelectorAll("use.hexcol").forEach(function (col) {
      var c = Number(col.dataset.c), r = Number(col.dataset.r), n = Number(col.dataset.n);
      var x = col.getAttribute("x"), y = Number(col.getAttribute("y"));
      for (var i = 0; i < n; i++) {
        var row = r + i * dr;
        if (labelled[c + "," + row]) { continue; }
        var t = document.createElementNS(NS, "text");
        t.setAttribute("class", "hn");
        t.setAttribute("x", x);
        t.setAttribute("y", (y + i * h - h / 2 + 9).toFixed(1));
        t.textContent = fmt === "ccrr" ? pad(c) + pad(row) : c + "." + row;
        group.appendChild(t);
      }
    });
    grid.parentNode.insertBefore(group, grid.nextSibling);
  }

  // a stack opened by a click (or by the keyboard's focus): its counters side by side, whole, so
  // each can be read and clicked; a click elsewhere or Escape closes it
  var SIZE = 30, GAP = 4, ROW = 5;
  function stackOf(g) {
    var svg = g.ownerSVGElement, at = g.dataset.at;
    return Array.prototype.filter.call(svg.querySelectorAll("g.piece"), function (p) { return p.dataset.at === at; });
  }
  function face(g) { var r = g.querySelector("rect.face"); return {x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y"))}; }
  function placed(g) { // where the face is on the map: a replay draws each piece at the origin and moves it by a translate
    var f = face(g), t = g.transform.baseVal.consolidate();
    return t ? {x: f.x + t.matrix.e, y: f.y + t.matrix.f} : f;
  }
  function closeStacks(svg) {
    svg.querySelectorAll("g.piece.opened").forEach(function (p) {
      p.classList.remove("opened");
      if (p.dataset.home) { p.setAttribute("transform", p.dataset.home); } else { p.removeAttribute("transform"); }
      delete p.dataset.home;
    });
    svg.querySelectorAll("rect.stackbox").forEach(function (r) { r.remove(); });
  }
  function openStack(g, raise) { // raise: drawn above its neighbours (a click; never on focus, which would
    // move the element the focus is on and so the Tab order)
    var svg = g.ownerSVGElement, pieces = stackOf(g);
    if (pieces.length < 2 || g.classList.contains("opened")) { return false; }
    closeStacks(svg);
    var focused = document.activeElement;
    var spots = pieces.map(placed), n = pieces.length, cols = Math.min(n, ROW), rows = Math.ceil(n / cols);
    var cx = spots[0].x + SIZE / 2, bottom = spots[0].y + SIZE;  // the bottom counter's place
    var width = cols * SIZE + (cols - 1) * GAP, left = cx - width / 2, top = bottom - rows * (SIZE + 12) + 12;
    var W = Number(svg.dataset.width);
    left = Math.max(4, Math.min(W - width - 4, left));
    top = Math.max(4, top);
    var back = document.createElementNS(NS, "rect");
    back.setAttribute("class", "stackbox");
    back.setAttribute("x", left - 6); back.setAttribute("y", top - 10);
    back.setAttribute("width", width + 12); back.setAttribute("height", rows * (SIZE + 12) + 8);
    back.setAttribute("rx", 4); back.setAttribute("fill", "#fff"); back.setAttribute("fill-opacity", ".92");
    back.setAttribute("stroke", "#333");
    var legend = svg.querySelector("g.legend");
    svg.insertBefore(back, raise ? legend : pieces[0]);
    pieces.forEach(function (p, i) {
      var col = i % cols, row = Math.floor(i / cols);
      var x = left + col * (SIZE + GAP), y = top + row * (SIZE + 12);
      var own = face(p);
      p.dataset.home = p.getAttribute("transform") || "";
      p.setAttribute("transform", "translate(" + (x - own.x).toFixed(1) + " " + (y - own.y).toFixed(1) + ")");
      p.classList.add("opened");
      if (raise) { svg.insertBefore(p, legend); }
    });
    if (focused && pieces.indexOf(focused) >= 0) { focused.focus(); }
    return true;
  }
  function stacks(svg) {
    svg.dataset.stacks = "yes";
    // capture: in a report, a click that opens a stack is only that; on a page to play on (data-play)
    // it also takes the counter clicked, as the page's own handler then sees it
    var play = svg.closest("[data-play]");
    svg.addEventListener("click", function (ev) {
      var g = ev.target.closest("g.piece");
      if (svg.querySelector("g.piece.opened") && !(g && g.classList.contains("opened"))) {
        closeStacks(svg); // a click beside the open stack closes it, and is for what it was on (a place, a hex)
      }
      if (g && openStack(g, true) && !play) { ev.stopPropagation(); ev.preventDefault(); return; }
    }, true);
    var pressed = false; // a focus that a press gives is the click's to handle
    svg.addEventListener("pointerdown", function () { pressed = true; }, true);
    window.addEventListener("pointerup", function () { setTimeout(function () { pressed = false; }, 0); }, true);
    svg.addEventListener("focusin", function (ev) {
      var g = ev.target.closest && ev.target.closest("g.piece");
      if (g && !pressed) { openStack(g, false); }
    });
    svg.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { closeStacks(svg); }
    });
  }

  function setup(box) {
    var svg = box.querySelector("svg.pbem-map");
    if (!svg || box.dataset.zoomable) { return; }
    box.dataset.zoomable = "yes";
    numbers(svg);
    stacks(svg);
    var W = Number(svg.dataset.width), H = Number(svg.dataset.height), least = Number(svg.dataset.minzoom) || 0.8;
    var view = document.createElement("div");
    view.className = "mapview";
    view.tabIndex = 0;
    view.setAttribute("aria-label", "map: + and - zoom, 0 resets, the arrows pan");
    svg.parentNode.insertBefore(view, svg);
    view.appendChild(svg);
    var bar = document.createElement("div");
    bar.className = "mapzoom";
    [["+", "zoom in", "in"], ["\u2212", "zoom out", "out"], ["\u2922", "reset the view", "reset"]].forEach(function (b) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = b[0];
      button.title = b[1];
      button.setAttribute("aria-label", b[1]);
      button.dataset.zoom = b[2];
      bar.appendChild(button);
    });
    box.insertBefore(bar, view);
    var zoom = 1;

    function fit() { // the default: the whole width if counters stay >= 24 px, else pannable at the least zoom
      var room = view.clientWidth || box.clientWidth || W;
      return Math.min(1.5, Math.max(least, room / W));
    }
    function apply(z, cx, cy) { // zoom to z keeping the map's point under (cx, cy) of the view where it was
      z = Math.max(least * 0.4, Math.min(4, z));
      if (cx === undefined) { cx = view.clientWidth / 2; cy = view.clientHeight / 2; }
      var mx = (view.scrollLeft + cx) / zoom, my = (view.scrollTop + cy) / zoom;
      zoom = z;
      svg.style.width = (W * z).toFixed(1) + "px";
      svg.style.height = (H * z).toFixed(1) + "px";
      svg.style.maxWidth = "none";
      svg.style.maxHeight = "none";
      view.scrollLeft = mx * z - cx;
      view.scrollTop = my * z - cy;
      box.dataset.zoom = z.toFixed(3);
    }
    function reset() {
      zoom = fit();
      apply(zoom, 0, 0);
      var pieces = svg.querySelectorAll("g.piece"); // the view starts on the pieces
      if (pieces.length && W * zoom > view.clientWidth + 1) {
        var r = svg.getBoundingClientRect(), sx = 0, sy = 0;
        pieces.forEach(function (p) { var b = p.getBoundingClientRect(); sx += b.left + b.width / 2 - r.left; sy += b.top + b.height / 2 - r.top; });
        view.scrollLeft = sx / pieces.length - view.clientWidth / 2;
        view.scrollTop = sy / pieces.length - view.clientHeight / 2;
      }
    }
    box.pbemZoom = function (z) { apply(z); };
    reset();

    bar.addEventListener("click", function (ev) {
      var b = ev.target.closest("button");
      if (!b) { return; }
      if (b.dataset.zoom === "in") { apply(zoom * 1.25); }
      else if (b.dataset.zoom === "out") { apply(zoom / 1.25); }
      else { reset(); }
    });
    view.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var r = view.getBoundingClientRect();
      apply(zoom * Math.pow(1.0015, -ev.deltaY), ev.clientX - r.left, ev.clientY - r.top);
    }, {passive: false});
    view.addEventListener("keydown", function (ev) {
      var step = 60, k = ev.key;
      if (k === "+" || k === "=") { apply(zoom * 1.25); }
      else if (k === "-" || k === "_") { apply(zoom / 1.25); }
      else if (k === "0") { reset(); }
      else if (k === "ArrowLeft") { view.scrollLeft -= step; }
      else if (k === "ArrowRight") { view.scrollLeft += step; }
      else if (k === "ArrowUp") { view.scrollTop -= step; }
      else if (k === "ArrowDown") { view.scrollTop += step; }
      else { return; }
      ev.preventDefault();
    });
    // touch and pen: one finger pans, two pinch (the mouse pans by the scroll bars and the wheel)
    var touches = {}, pinch = null;
    function count() { return Object.keys(touches).length; }
    view.addEventListener("pointerdown", function (ev) {
      if (ev.pointerType === "mouse") { return; }
      touches[ev.pointerId] = {x: ev.clientX, y: ev.clientY};
      if (count() === 2) {
        var p = Object.keys(touches).map(function (k) { return touches[k]; });
        var r = view.getBoundingClientRect();
        pinch = {d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1, z: zoom,
                 cx: (p[0].x + p[1].x) / 2 - r.left, cy: (p[0].y + p[1].y) / 2 - r.top};
      }
    });
    view.addEventListener("pointermove", function (ev) {
      var t = touches[ev.pointerId];
      if (!t) { return; }
      if (pinch && count() >= 2) {
        t.x = ev.clientX; t.y = ev.clientY;
        var p = Object.keys(touches).map(function (k) { return touches[k]; });
        apply(pinch.z * Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) / pinch.d, pinch.cx, pinch.cy);
      } else if (!ev.target.closest("g.piece")) {
        view.scrollLeft -= ev.clientX - t.x;
        view.scrollTop -= ev.clientY - t.y;
        t.x = ev.clientX; t.y = ev.clientY;
      }
    });
    function up(ev) { delete touches[ev.pointerId]; if (count() < 2) { pinch = null; } }
    view.addEventListener("pointerup", up);
    view.addEventListener("pointercancel", up);
  }

  function init(root) {
    (root || document).querySelectorAll(".map").forEach(setup);
  }
  window.pbemMap = {init: init, close: closeStacks};
  init(document); // the script comes after the map (the report) or is deferred (the serve page)
}());
