"use strict";
// The web companion's only script: zoom and pan the board (touch, mouse, keys),
// live updates (Server-Sent Events) and the replay slider.  No framework, no CDN.
(function () {
  // The smallest text of a board reads at this many CSS pixels when a page opens: on a phone
  // the board starts zoomed in (pannable; "Fit" shows it whole), on a wide screen it fits.
  var READ_PX = 12;
  function zoomable(stage) {
    var img = stage.querySelector("img");
    if (!img) return null;
    var s = 1, x = 0, y = 0, pts = {}, last = null, base = 0;
    function apply() {
      var w = stage.clientWidth, iw = img.offsetWidth, ih = img.offsetHeight;
      s = Math.min(6, Math.max(1, s));
      // zoomed in, the stage grows with the image up to most of the screen's height
      var h = s > 1 ? Math.min(ih * s, Math.max(ih, window.innerHeight * 0.6)) : ih;
      stage.style.height = s > 1 ? h + "px" : "";
      x = Math.min(0, Math.max(w - iw * s, x));
      y = Math.min(0, Math.max(h - ih * s, y));
      img.style.transform = "translate(" + x + "px," + y + "px) scale(" + s + ")";
    }
    function readable() {
      // the scale at which the image's smallest text (data-text-px, image pixels) reads
      var px = parseFloat(img.getAttribute("data-text-px")) || 15;
      if (!img.naturalWidth || !img.offsetWidth) return 1;
      var need = READ_PX / (px * img.offsetWidth / img.naturalWidth);
      return need > 1.05 ? Math.min(6, need) : 1;
    }
    function start() {
      if (base) return;  // once: a new board (a move, another frame) keeps the reader's zoom
      base = readable();
      s = base; x = 0; y = 0; apply();
    }
    if (img.complete && img.naturalWidth) start(); else img.addEventListener("load", start);
    window.addEventListener("resize", function () {
      if (!base) return;  // not drawn yet: its load starts it
      var was = base; base = readable();
      if (s === was) { s = base; x = 0; y = 0; }  // untouched by the reader: readable again
      apply();
    });
    function zoomAt(f, cx, cy) { var n = Math.min(6, Math.max(1, s * f)); x = cx - (cx - x) * n / s; y = cy - (cy - y) * n / s; s = n; apply(); }
    function centre() { return [stage.clientWidth / 2, stage.clientHeight / 2]; }
    function rel(e) { var r = stage.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; }
    stage.addEventListener("wheel", function (e) { e.preventDefault(); var p = rel(e); zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, p[0], p[1]); }, { passive: false });
    stage.addEventListener("pointerdown", function (e) { stage.setPointerCapture(e.pointerId); pts[e.pointerId] = rel(e); last = null; });
    stage.addEventListener("pointermove", function (e) {
      if (!pts[e.pointerId]) return;
      var p = rel(e), ids = Object.keys(pts);
      if (ids.length === 1) { x += p[0] - pts[e.pointerId][0]; y += p[1] - pts[e.pointerId][1]; pts[e.pointerId] = p; apply(); return; }
      pts[e.pointerId] = p;
      var a = pts[ids[0]], b = pts[ids[1]], d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (last) zoomAt(d / last, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      last = d;
    });
    function up(e) { delete pts[e.pointerId]; last = null; }
    stage.addEventListener("pointerup", up);
    stage.addEventListener("pointercancel", up);
    stage.addEventListener("dblclick", function (e) { if (s > 1) { s = 1; x = 0; y = 0; apply(); } else { var p = rel(e); zoomAt(2.5, p[0], p[1]); } });
    stage.tabIndex = 0;
    stage.addEventListener("keydown", function (e) {
      var c = centre();
      if (e.key === "+" || e.key === "=") zoomAt(1.25, c[0], c[1]);
      else if (e.key === "-") zoomAt(0.8, c[0], c[1]);
      else if (e.key === "0") { s = 1; x = 0; y = 0; apply(); }
      else if (e.key === "ArrowLeft" && s > 1) { x += 40; apply(); }
      else if (e.key === "ArrowRight" && s > 1) { x -= 40; apply(); }
      else if (e.key === "ArrowUp" && s > 1) { y += 40; apply(); }
      else if (e.key === "ArrowDown" && s > 1) { y -= 40; apply(); }
      else return;
      e.preventDefault();
    });
    var bar = stage.parentNode.querySelector(".zoom");
    if (bar) bar.addEventListener("click", function (e) {
      var op = e.target.getAttribute("data-zoom"), c = centre();
      if (op === "in") zoomAt(1.4, c[0], c[1]); else if (op === "out") zoomAt(1 / 1.4, c[0], c[1]); else if (op === "reset") { s = 1; x = 0; y = 0; apply(); }
    });
    return img;
  }

  var stages = document.querySelectorAll(".stage");
  for (var i = 0; i < stages.length; i++) zoomable(stages[i]);

  // ------------------------------------------------------------ live board
  var body = document.body, liveUrl = body.getAttribute("data-live");
  if (liveUrl && window.EventSource) {
    var status = document.getElementById("live");
    var src = new EventSource(liveUrl);
    src.addEventListener("open", function () { if (status) status.className = "live on"; });
    src.addEventListener("error", function () { if (status) status.className = "live"; });
    src.addEventListener("board", function (e) {
      var d = JSON.parse(e.data);
      var dyn = document.getElementById("dynamic");
      if (dyn && typeof d.html === "string") dyn.innerHTML = d.html;
      var img = document.getElementById("board");
      if (img && d.image) img.src = d.image;
      if (img && typeof d.alt === "string") img.alt = d.alt;  // the new board in words
      body.setAttribute("data-version", String(d.version));
    });
  }

  // ------------------------------------------------------------ replay
  var slider = document.getElementById("slider");
  if (slider) {
    var frame = document.getElementById("frame"), caption = document.getElementById("caption");
    var pos = document.getElementById("pos"), base = slider.getAttribute("data-frames");
    var want = 0, timer = null;
    function show() {
      var n = want;
      fetch(base + n, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (d) {
        if (!d || d.position !== want) return;
        frame.src = d.image;
        if (typeof d.alt === "string") frame.alt = d.alt;
        caption.textContent = d.caption;
        history.replaceState(null, "", "?at=" + d.position);
      });
    }
    slider.addEventListener("input", function () {
      want = parseInt(slider.value, 10) || 0;
      if (pos) pos.textContent = String(want);
      if (timer) clearTimeout(timer);
      timer = setTimeout(show, 60);
    });
    var step = function (d) { slider.value = String(Math.min(+slider.max, Math.max(0, (+slider.value) + d))); slider.dispatchEvent(new Event("input", { bubbles: true })); };
    var prev = document.getElementById("prev"), next = document.getElementById("next");
    if (prev) prev.addEventListener("click", function () { step(-1); });
    if (next) next.addEventListener("click", function () { step(1); });
  }
})();
