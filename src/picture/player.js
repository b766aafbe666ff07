// The replay's player: reads the game from #sow-data and shows any step of it on the board.
// Step 0 is the start; step k is the board after the k-th event. Every step's changes are
// applied forward from the start, with a copy of the board kept every EVERY steps, so that
// any step is a copy and at most EVERY changes away.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('sow-data').textContent);
  var root = document.getElementById('replay');
  var svg = document.getElementById('board');
  var NS = 'http://www.w3.org/2000/svg';
  var groups = Array.prototype.slice.call(svg.querySelectorAll('[data-site]'));
  var seats = Array.prototype.slice.call(svg.querySelectorAll('.seat'));
  var steps = data.steps;
  var total = steps.length;
  var EVERY = 64;
  var $ = function (id) { return document.getElementById(id); };

  function copy(s) {
    return { seeds: s.seeds.slice(), marks: s.marks.slice(), owners: s.owners.slice(), hand: s.hand, to_move: s.to_move };
  }
  function apply(s, st) {
    var i;
    if (st.s) for (i = 0; i < st.s.length; i++) s.seeds[st.s[i][0]] = st.s[i][1];
    if (st.m) for (i = 0; i < st.m.length; i++) s.marks[st.m[i][0]] = st.m[i][1];
    if (st.o) for (i = 0; i < st.o.length; i++) s.owners[st.o[i][0]] = st.o[i][1];
    s.hand = st.h;
    if ('t' in st) s.to_move = st.t;
  }
  var kept = [copy(data.start)];
  (function () {
    var s = copy(data.start);
    for (var i = 0; i < total; i++) {
      apply(s, steps[i]);
      if ((i + 1) % EVERY === 0) kept.push(copy(s));
    }
  })();
  function boardAt(f) {
    var k = Math.floor(f / EVERY);
    var s = copy(kept[k]);
    for (var i = k * EVERY; i < f; i++) apply(s, steps[i]);
    return s;
  }

  // Where stepping by lap or ply stops: the end of each lap and of each ply.
  var lapStops = [0], plyStops = [0];
  steps.forEach(function (st, i) {
    if (st.e) { plyStops.push(i + 1); lapStops.push(i + 1); }
    else if (st.k === 'lap_end') lapStops.push(i + 1);
  });
  function after(stops, f) {
    for (var i = 0; i < stops.length; i++) if (stops[i] > f) return stops[i];
    return total;
  }
  function before(stops, f) {
    for (var i = stops.length - 1; i >= 0; i--) if (stops[i] < f) return stops[i];
    return 0;
  }

  function seatName(p) {
    for (var i = 0; i < data.seats.length; i++) if (data.seats[i].player === p) return data.seats[i].name;
    return 'player ' + (p + 1);
  }
  function words(i, s) {
    var n = s.seeds[i];
    var w = data.sites[i].label + ': ' + n + (n === 1 ? ' seed' : ' seeds');
    s.marks[i].forEach(function (m) {
      if (m === 'closed') w += ', closed';
      else if (m.indexOf('claimed-by-') === 0) w += ', claimed by ' + seatName(+m.slice(11));
    });
    return w;
  }
  function describe(s) {
    var order = [], lists = {};
    data.sites.forEach(function (site, i) {
      if (!lists[site.group]) { lists[site.group] = []; order.push(site.group); }
      lists[site.group].push(words(i, s));
    });
    var text = order.map(function (g) {
      return g.charAt(0).toUpperCase() + g.slice(1) + ': ' + lists[g].join('; ') + '.';
    });
    if (s.to_move !== null && s.to_move !== undefined) text.push(seatName(s.to_move) + ' to move.');
    if (s.hand > 0) text.push(s.hand + (s.hand === 1 ? ' seed' : ' seeds') + ' in hand.');
    return text.join(' ');
  }

  function drawSeeds(g, n) {
    var holder = g.querySelector('.seeds');
    if (!holder || holder.getAttribute('data-n') === String(n)) return;
    holder.setAttribute('data-n', String(n));
    while (holder.firstChild) holder.removeChild(holder.firstChild);
    var cx = +holder.getAttribute('data-cx'), cy = +holder.getAttribute('data-cy'), r = +holder.getAttribute('data-r');
    var c;
    if (n >= data.dots.length) {
      c = document.createElementNS(NS, 'circle');
      c.setAttribute('class', 'heap');
      c.setAttribute('cx', cx); c.setAttribute('cy', cy); c.setAttribute('r', (r * 0.62).toFixed(2));
      holder.appendChild(c);
      return;
    }
    var dots = data.dots[n];
    dots[1].forEach(function (p) {
      c = document.createElementNS(NS, 'circle');
      c.setAttribute('class', 'dot');
      c.setAttribute('cx', (cx + p[0] * r).toFixed(2));
      c.setAttribute('cy', (cy + p[1] * r).toFixed(2));
      c.setAttribute('r', (dots[0] * r).toFixed(2));
      holder.appendChild(c);
    });
  }

  // The event list, built once.
  var list = $('events');
  var entries = data.items.map(function (item, k) {
    var li = document.createElement('li');
    li.className = 'k-' + item.kind;
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = item.text;
    b.addEventListener('click', function () { stop(); show(item.step); });
    li.appendChild(b);
    list.appendChild(li);
    return li;
  });

  function why(step) {
    var box = $('why');
    box.textContent = '';
    var item = step ? data.items[step.i] : null;
    if (!item || item.clause === null || item.clause === undefined) return;
    var c = data.clauses[item.clause];
    var p = document.createElement('p');
    p.textContent = 'Rule: “' + c.name + '”' + (c.cites ? ' cites ' + c.cites : ' cites no documented rule');
    box.appendChild(p);
    c.texts.forEach(function (t) {
      var q = document.createElement('blockquote');
      q.setAttribute('data-rule', t[0]);
      q.textContent = t[0] + ': ' + (t[1] === null ? '(the text of this rule is not in this page)' : t[1]);
      box.appendChild(q);
    });
  }

  var current = -1;
  function show(f) {
    f = Math.max(0, Math.min(total, f | 0));
    current = f;
    var s = boardAt(f);
    var step = f > 0 ? steps[f - 1] : null;
    var marks = {};
    if (step && step.hl) step.hl.forEach(function (h) { marks[h[0]] = (marks[h[0]] || '') + ' hl hl-' + h[1]; });
    var ply = step ? data.plies[step.p - 1] : null;
    var origin = ply && !step.e ? ply.origin : -1;
    groups.forEach(function (g, i) {
      var m = s.marks[i], closed = m.indexOf('closed') >= 0;
      var cls = 'site ' + data.sites[i].kind + ' owner-' + s.owners[i];
      m.forEach(function (k) { cls += ' ' + k + (k.indexOf('claimed-by-') === 0 ? ' claimed' : ''); });
      if (marks[i]) cls += marks[i];
      if (i === origin) cls += ' origin';
      g.setAttribute('class', cls);
      g.setAttribute('data-seeds', s.seeds[i]);
      g.setAttribute('data-owner', s.owners[i]);
      g.setAttribute('data-marks', m.join(' '));
      g.querySelector('.count').textContent = closed ? 'x' : String(s.seeds[i]);
      g.querySelector('title').textContent = words(i, s);
      drawSeeds(g, closed ? 0 : s.seeds[i]);
    });
    var mover = step && !step.e ? ply.mover : s.to_move;
    seats.forEach(function (t) {
      t.classList.toggle('to-move', mover !== null && mover !== undefined && +t.getAttribute('data-player') === mover);
    });
    var desc = document.getElementById('board-desc');
    if (desc) desc.textContent = describe(s);
    root.setAttribute('data-step', f);
    root.setAttribute('data-ply', step ? step.p : 0);
    root.setAttribute('data-lap', step ? step.l : 0);
    root.setAttribute('data-hand', s.hand);
    root.setAttribute('data-to-move', s.to_move === null || s.to_move === undefined ? '' : s.to_move);
    root.setAttribute('data-kind', step ? step.k : 'start');
    var status;
    if (!step) status = 'The start of the game' + (s.to_move !== null && s.to_move !== undefined ? ', ' + seatName(s.to_move) + ' to move.' : '.');
    else {
      status = 'Ply ' + step.p + ' of ' + data.plies.length + ': ' + step.x;
      if (s.hand > 0) status += ' · ' + s.hand + (s.hand === 1 ? ' seed' : ' seeds') + ' in hand';
      if (step.e) status += s.to_move === null || s.to_move === undefined ? ' · the game is over' : ' · ' + seatName(s.to_move) + ' to move';
    }
    $('status').textContent = status;
    entries.forEach(function (li) { li.classList.remove('current'); li.removeAttribute('aria-current'); });
    var li = step ? entries[step.i] : null;
    if (li) {
      li.classList.add('current');
      li.setAttribute('aria-current', 'step');
      var box = list.getBoundingClientRect(), at = li.getBoundingClientRect();
      if (at.top < box.top || at.bottom > box.bottom) list.scrollTop += at.top - box.top - box.height / 3;
    }
    why(step);
    $('slider').value = f;
    $('where').textContent = f + ' of ' + total;
    $('first').disabled = $('prev').disabled = $('prev-lap').disabled = $('prev-ply').disabled = f === 0;
    $('last').disabled = $('next').disabled = $('next-lap').disabled = $('next-ply').disabled = f === total;
    try { history.replaceState(null, '', '#step=' + f); } catch (e) { /* a page without history */ }
  }

  var timer = null;
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $('play').setAttribute('aria-pressed', 'false');
    $('play').setAttribute('aria-label', 'Play');
    $('play').textContent = '▶ play';
  }
  function play() {
    if (timer !== null) { stop(); return; }
    if (current >= total) show(0);
    $('play').setAttribute('aria-pressed', 'true');
    $('play').setAttribute('aria-label', 'Pause');
    $('play').textContent = '|| pause';
    timer = setInterval(function () {
      if (current >= total) { stop(); return; }
      show(current + 1);
    }, +$('speed').value);
  }
  var moves = {
    first: function () { return 0; },
    last: function () { return total; },
    prev: function () { return current - 1; },
    next: function () { return current + 1; },
    'prev-lap': function () { return before(lapStops, current); },
    'next-lap': function () { return after(lapStops, current); },
    'prev-ply': function () { return before(plyStops, current); },
    'next-ply': function () { return after(plyStops, current); }
  };
  Object.keys(moves).forEach(function (id) {
    $(id).addEventListener('click', function () { stop(); show(moves[id]()); });
  });
  $('play').addEventListener('click', play);
  $('speed').addEventListener('change', function () { if (timer !== null) { stop(); play(); } });
  $('slider').addEventListener('input', function () { stop(); show(+this.value); });
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    // The slider and the list of speeds take their own keys.
    if (t && (t.id === 'slider' || t.tagName === 'SELECT')) return;
    var to = null;
    switch (e.key) {
      case 'ArrowRight': to = e.shiftKey ? moves['next-lap']() : moves.next(); break;
      case 'ArrowLeft': to = e.shiftKey ? moves['prev-lap']() : moves.prev(); break;
      case 'PageDown': to = moves['next-ply'](); break;
      case 'PageUp': to = moves['prev-ply'](); break;
      case 'Home': to = 0; break;
      case 'End': to = total; break;
      case ' ':
        if (t && t.tagName === 'BUTTON') return;
        e.preventDefault(); play(); return;
      default: return;
    }
    e.preventDefault();
    stop();
    show(to);
  });
  var asked = /^#step=(\d+)$/.exec(location.hash);
  show(asked ? +asked[1] : 0);
})();
