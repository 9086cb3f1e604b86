// The report's game viewer. It knows no rules: the page data holds, per game, the occupant
// codes of every cell after every ply ("" empty, else owner w/b/n + letters + optional
// "/small text"), computed by variantlab from the engine. This script only draws them.
(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) {
    errors.push(String(e.message || e));
  });
  var D = JSON.parse(document.getElementById("viewer-data").textContent);
  function $(id) {
    return document.getElementById(id);
  }
  var cur = { run: -1, game: -1, ply: 0, states: null, g: null };

  function decode(g) {
    if (!g.states) return null;
    var s = g.states.start.slice();
    var out = [s];
    if (!g.moves) return out;
    g.states.diffs.split(";").forEach(function (ply) {
      s = s.slice();
      ply.split(",").forEach(function (change) {
        if (!change) return;
        var k = change.indexOf(":");
        s[+change.slice(0, k)] = change.slice(k + 1);
      });
      out.push(s);
    });
    return out;
  }

  function draw(codes) {
    var groups = $("vboard").querySelectorAll("g.occ");
    groups.forEach(function (el) {
      var c = codes[+el.getAttribute("data-i")] || "";
      var owner = c ? c.charAt(0) : "e";
      var body = c.slice(1);
      var slash = body.indexOf("/");
      var text = slash < 0 ? body : body.slice(0, slash);
      var sub = slash < 0 ? "" : body.slice(slash + 1);
      el.setAttribute("class", "occ " + owner);
      el.querySelector("text.t").textContent = text;
      el.querySelector("text.s").textContent = sub;
    });
  }

  function boardSignature() {
    var s = [];
    $("vboard").querySelectorAll("g.occ").forEach(function (el) {
      s.push(el.getAttribute("class") + ":" + el.textContent);
    });
    return s.join("|");
  }

  function evalCurve(g) {
    var w = 640, h = 170, left = 44, top = 10, ph = 130;
    var n = Math.max(g.evals.length, 1);
    var cap = 1000;
    function x(i) {
      return left + ((w - left - 10) * i) / n;
    }
    function y(v) {
      v = Math.max(-cap, Math.min(cap, v));
      return top + ph / 2 - (ph / 2) * (v / cap);
    }
    var svg = '<svg xmlns="http://www.w3.org/2000/svg" width="' + w + '" height="' + h +
      '" font-family="sans-serif" font-size="11">';
    [cap, cap / 2, 0, -cap / 2, -cap].forEach(function (v) {
      svg += '<line x1="' + left + '" x2="' + (w - 10) + '" y1="' + y(v) + '" y2="' + y(v) +
        '" stroke="' + (v === 0 ? "#888" : "#e3e3e3") + '"/><text x="' + (left - 4) + '" y="' +
        (y(v) + 4) + '" text-anchor="end" fill="#555">' + (v > 0 ? "+" : "") + v / 100 + "</text>";
    });
    svg += '<text x="' + left + '" y="' + (h - 4) + '" fill="#555">ply 0</text><text x="' +
      (w - 10) + '" y="' + (h - 4) + '" text-anchor="end" fill="#555">ply ' + g.evals.length +
      '</text><text x="12" y="' + (top + ph / 2) + '" transform="rotate(-90 12 ' + (top + ph / 2) +
      ')" text-anchor="middle" fill="#555">White (pawns)</text>';
    var pts = g.evals.map(function (v, i) {
      return x(i + 1).toFixed(1) + "," + y(v).toFixed(1);
    });
    if (pts.length) svg += '<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="' + pts.join(" ") + '"/>';
    svg += '<line id="vmark" x1="' + x(cur.ply) + '" x2="' + x(cur.ply) + '" y1="' + top + '" y2="' +
      (top + ph) + '" stroke="#d62728"/>';
    svg += '<rect id="vcurvehit" x="' + left + '" y="' + top + '" width="' + (w - left - 10) + '" height="' +
      ph + '" fill="transparent"/></svg>';
    $("veval").innerHTML = svg;
    $("vcurvehit").addEventListener("click", function (ev) {
      var r = ev.target.getBoundingClientRect();
      go(Math.round(((ev.clientX - r.left) / r.width) * n));
    });
  }

  function fillGames(r) {
    var sel = $("vgame");
    sel.innerHTML = "";
    D.runs[r].games.forEach(function (g, i) {
      var o = document.createElement("option");
      o.value = i;
      o.textContent = "game " + g.id + ": " + g.result + " " + g.term + ", " + g.plies + " plies" +
        (g.states ? "" : " (no board)");
      sel.appendChild(o);
    });
    var ex = $("vexamples");
    ex.innerHTML = "";
    D.runs[r].examples.forEach(function (e) {
      var b = document.createElement("button");
      b.textContent = e.label + " (#" + e.id + ")";
      b.addEventListener("click", function () {
        openGame(r, e.id, 0);
      });
      ex.appendChild(b);
    });
  }

  function load(r, i) {
    if (r !== cur.run) {
      cur.run = r;
      $("vrun").value = r;
      $("vboard").innerHTML = D.runs[r].template;
      fillGames(r);
    }
    cur.game = i;
    $("vgame").value = i;
    var g = D.runs[r].games[i];
    cur.g = g;
    cur.states = decode(g);
    var ml = $("vmoves");
    ml.innerHTML = "";
    var moves = g.moves ? g.moves.split(" ") : [];
    moves.forEach(function (m, k) {
      var s = document.createElement("span");
      s.className = "mv";
      s.setAttribute("data-ply", k + 1);
      s.textContent = (k + 1) + ". " + m;
      s.addEventListener("click", function () {
        go(k + 1);
      });
      ml.appendChild(s);
    });
    $("vnote").textContent = cur.states ? "" : (moves.length ?
      "Board states of this game are not embedded (the page keeps them for the example games and the first games, to stay small); its moves and evaluations are listed." :
      "This run recorded no moves (play with --record-moves to see its games).");
    evalCurve(g);
    go(0);
  }

  function go(ply) {
    var g = cur.g;
    if (!g) return;
    var n = g.moves ? g.moves.split(" ").length : 0;
    cur.ply = Math.max(0, Math.min(n, ply));
    if (cur.states) draw(cur.states[cur.ply]);
    var moves = g.moves ? g.moves.split(" ") : [];
    $("vstatus").textContent = D.runs[cur.run].label + ", game " + g.id + ": " + g.result + " by " +
      g.term + ", " + g.plies + " plies. Ply " + cur.ply + " of " + n +
      (cur.ply > 0 ? ": " + moves[cur.ply - 1] + " (eval " + (g.evals[cur.ply - 1] / 100).toFixed(2) + " for White)" : " (after the opening: " + (g.opening || "start") + ")");
    $("vmoves").querySelectorAll("span.mv").forEach(function (s) {
      s.classList.toggle("cur", +s.getAttribute("data-ply") === cur.ply);
    });
    var mark = $("vmark");
    if (mark) {
      var x0 = 44 + ((640 - 54) * cur.ply) / Math.max(g.evals.length, 1);
      mark.setAttribute("x1", x0);
      mark.setAttribute("x2", x0);
    }
  }

  function openGame(r, id, ply) {
    var i = D.runs[r].games.findIndex(function (g) {
      return g.id === id;
    });
    if (i < 0) return false;
    load(r, i);
    go(ply);
    $("viewer").scrollIntoView();
    return true;
  }
  window.variantlabOpenGame = openGame;

  if (!D.runs.length) return;
  var runSel = $("vrun");
  D.runs.forEach(function (run, r) {
    var o = document.createElement("option");
    o.value = r;
    o.textContent = run.label;
    runSel.appendChild(o);
  });
  runSel.addEventListener("change", function () {
    load(+runSel.value, 0);
  });
  $("vgame").addEventListener("change", function () {
    load(cur.run, +$("vgame").value);
  });
  $("vfirst").addEventListener("click", function () { go(0); });
  $("vprev").addEventListener("click", function () { go(cur.ply - 1); });
  $("vnext").addEventListener("click", function () { go(cur.ply + 1); });
  $("vlast").addEventListener("click", function () { go(1e9); });
  document.addEventListener("keydown", function (e) {
    var t = e.target && e.target.tagName;
    if (t === "SELECT" || t === "INPUT") return;
    var k = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (k) go(cur.ply + k);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(1e9);
    else return;
    e.preventDefault();
  });
  document.querySelectorAll("[data-open-game]").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      var p = a.getAttribute("data-open-game").split(":");
      openGame(+p[0], +p[1], 0);
    });
  });
  load(0, 0);

  // #game=RUN:ID:PLY opens a game; #selfcheck steps every run's first game with
  // boards and writes what it saw into #selfcheck (the browser test reads it from the DOM).
  // #shot=RUN:ID:PLY: the same, showing only the viewer, unscrolled (a
  // headless screenshot of the page top).
  var m = /^#(game|shot)=(\d+):(\d+):(\d+)$/.exec(location.hash);
  if (m && m[1] === "shot") {
    document.body.classList.add("shot");
    var i = D.runs[+m[2]].games.findIndex(function (g) {
      return g.id === +m[3];
    });
    if (i >= 0) {
      load(+m[2], i);
      go(+m[4]);
    }
  } else if (m) openGame(+m[2], +m[3], +m[4]);
  if (location.hash === "#selfcheck") {
    var report = { runs: [], errors: errors };
    D.runs.forEach(function (run, r) {
      var res = { variant: run.variant, cells: run.cells };
      var fig = document.querySelector('.diagram[data-variant="' + run.variant + '"] svg.board');
      res.diagram_cells = fig ? fig.querySelectorAll("rect.cell").length : 0;
      var i = run.games.findIndex(function (g) {
        return g.states && g.moves.split(" ").length > 1;
      });
      res.game = i < 0 ? null : run.games[i].id;
      if (i >= 0) {
        load(r, i);
        res.viewer_cells = $("vboard").querySelectorAll("rect.cell").length;
        var s0 = boardSignature();
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
        var s1 = boardSignature();
        $("vnext").click();
        var s2 = boardSignature();
        res.key_step_changed = s0 !== s1;
        res.button_step_changed = s1 !== s2;
        res.ply = cur.ply;
        go(1e9);
        var last = cur.states[cur.states.length - 1];
        var shown = [];
        $("vboard").querySelectorAll("g.occ").forEach(function (el) {
          var c = last[+el.getAttribute("data-i")] || "";
          shown.push(el.getAttribute("class") === "occ " + (c ? c.charAt(0) : "e"));
        });
        res.final_drawn = shown.every(Boolean);
        go(0);
        res.back_to_start = boardSignature() === s0;
      }
      report.runs.push(res);
    });
    // Charts: no text drawn over another or outside its chart (boxes as laid out, with
    // rotations).
    report.charts = 0;
    report.chart_overlaps = [];
    document.querySelectorAll("svg.chart").forEach(function (svg) {
      report.charts++;
      var frame = svg.getBoundingClientRect();
      var boxes = [];
      svg.querySelectorAll("text").forEach(function (t) {
        var b = t.getBoundingClientRect();
        if (b.left < frame.left - 0.5 || b.right > frame.right + 0.5 ||
            b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5) {
          report.chart_overlaps.push("outside its chart: " + t.textContent);
        }
        boxes.forEach(function (o) {
          var w = Math.min(b.right, o.b.right) - Math.max(b.left, o.b.left);
          var h = Math.min(b.bottom, o.b.bottom) - Math.max(b.top, o.b.top);
          if (w > 0.5 && h > 0.5) {
            report.chart_overlaps.push(o.text + " / " + t.textContent);
          }
        });
        boxes.push({ b: b, text: t.textContent });
      });
    });
    report.move_list = $("vmoves").querySelectorAll("span.mv").length;
    report.eval_curve = !!$("veval").querySelector("polyline");
    $("selfcheck").textContent = JSON.stringify(report);
  }
})();
