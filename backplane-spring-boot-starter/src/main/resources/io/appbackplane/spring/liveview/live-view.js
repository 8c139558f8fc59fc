// The backplane live view: polls backplaneview/data once a second and feeds the frames to Chart.js
// charts (one set per backplane). The component graph is SVG drawn from the components' dependencies.
// After a failed poll it keeps retrying once a second; when the application restarted (a new
// instance id) it drops what it had and starts afresh.
(function () {
  'use strict';

  const POLL_MS = 1000;
  const PRIORITY_COLORS = ['#d62728', '#ff7f0e', '#1f77b4', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
    '#bcbd22', '#17becf'];
  const SERIES_COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#bcbd22', '#7f7f7f'];
  const STATE_COLORS = { START: '#d9dee8', INITIALIZING: '#f6d58e', PRIMARY: '#9fd8a8', SECONDARY: '#9cc5ef', DOWN: '#f2a09a' };

  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.size = 11;
  Chart.defaults.plugins.legend.labels.boxWidth = 12;
  Chart.defaults.elements.point.radius = 0;
  Chart.defaults.elements.line.borderWidth = 1.5;

  const view = { instance: null, since: null, historySeconds: 300, backplanes: new Map() };
  window.backplaneLiveView = view; // for people poking at it in the console, and for the browser test

  function label(t) {
    return new Date(t).toLocaleTimeString([], { hour12: false });
  }

  function xAxis() {
    return { ticks: { maxTicksLimit: 6, maxRotation: 0 } };
  }

  function lineChart(canvas, yTitle, extraScales) {
    const scales = Object.assign({ x: xAxis(), y: { beginAtZero: true, title: { display: true, text: yTitle } } }, extraScales || {});
    return new Chart(canvas, { type: 'line', data: { labels: [], datasets: [] }, options: { scales: scales, spanGaps: true } });
  }

  function card(grid, title, kind, wide) {
    const div = document.createElement('div');
    div.className = 'card' + (wide ? ' wide' : '');
    div.innerHTML = '<h3></h3>';
    div.querySelector('h3').textContent = title;
    grid.appendChild(div);
    if (kind === 'chart') {
      const holder = document.createElement('div');
      holder.className = 'chart';
      const canvas = document.createElement('canvas');
      holder.appendChild(canvas);
      div.appendChild(holder);
      return canvas;
    }
    return div;
  }

  function createBackplane(name) {
    const section = document.createElement('section');
    section.className = 'backplane';
    section.dataset.backplane = name;
    section.innerHTML = '<h2><span class="name"></span><span class="state"></span></h2><div class="grid"></div>';
    section.querySelector('.name').textContent = 'Backplane ' + name;
    document.getElementById('backplanes').appendChild(section);
    const grid = section.querySelector('.grid');
    const charts = {};
    const canvas = (key, title, wide) => {
      const c = card(grid, title, 'chart', wide);
      c.dataset.chart = key;
      return c;
    };
    charts.cpu = lineChart(canvas('cpu', 'CPU used vs limit (cores, per period) and throttled time'), 'cores',
      { throttled: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'throttled ms/s' } } });
    charts.queueWait = lineChart(canvas('queueWait', 'Queue wait by priority (p50 solid, p99 dashed)'), 'ms',
      { y: { type: 'logarithmic', title: { display: true, text: 'ms (log scale)' } } }); // urgent µs next to bulk seconds
    charts.readyDepth = lineChart(canvas('readyDepth', 'Ready depth by priority (objects)'), 'objects');
    charts.actions = lineChart(canvas('actions', 'Actions per second by component'), 'actions/s');
    charts.rejections = lineChart(canvas('rejections', 'Rejections per second by reason'), 'rejections/s');
    charts.threads = new Chart(canvas('threads', 'Worker threads'), {
      type: 'line',
      data: { labels: [], datasets: [] },
      options: { scales: { x: xAxis(), y: { stacked: true, beginAtZero: true, title: { display: true, text: 'threads' } } } }
    });
    const graphCard = card(grid, 'Components: dependencies and state', 'div', false);
    graphCard.dataset.panel = 'graph';
    const slowCard = card(grid, 'Slowest recent actions (over the slow-action threshold)', 'div', true);
    slowCard.dataset.panel = 'slow';
    const ui = { name: name, section: section, charts: charts, graph: graphCard, slow: slowCard, frames: [], priorities: new Set() };
    view.backplanes.set(name, ui);
    return ui;
  }

  /** Sets a chart's series by label, keeping each dataset object (and so its legend state). */
  function setSeries(chart, labels, series) {
    chart.data.labels = labels;
    const keep = new Set(series.map(s => s.label));
    chart.data.datasets = chart.data.datasets.filter(d => keep.has(d.label));
    for (const s of series) {
      const existing = chart.data.datasets.find(d => d.label === s.label);
      if (existing) {
        existing.data = s.data;
      } else {
        chart.data.datasets.push(s);
      }
    }
    chart.update('none');
  }

  function color(list, i) {
    return list[i % list.length];
  }

  function renderCharts(ui) {
    const frames = ui.frames;
    const labels = frames.map(f => label(f.t));
    frames.forEach(f => f.readyDepth.forEach((d, p) => {
      if (d > 0 || f.queueWaitP50Ms[p] !== null) {
        ui.priorities.add(p);
      }
    }));
    const priorities = Array.from(ui.priorities).sort((a, b) => a - b);

    setSeries(ui.charts.cpu, labels, [
      { label: 'used', data: frames.map(f => f.cpuUsedCores), borderColor: '#1f77b4', backgroundColor: 'rgba(31,119,180,0.15)', fill: true },
      { label: 'limit', data: frames.map(f => f.cpuLimitCores), borderColor: '#d62728', borderDash: [6, 4] },
      { label: 'throttled', data: frames.map(f => f.throttledMsPerSecond), borderColor: '#ff7f0e', yAxisID: 'throttled' }
    ]);
    const wait = [];
    for (const p of priorities) {
      const c = color(PRIORITY_COLORS, p);
      wait.push({ label: 'p' + p + ' p50', data: frames.map(f => f.queueWaitP50Ms[p]), borderColor: c });
      wait.push({ label: 'p' + p + ' p99', data: frames.map(f => f.queueWaitP99Ms[p]), borderColor: c, borderDash: [5, 3] });
    }
    setSeries(ui.charts.queueWait, labels, wait);
    setSeries(ui.charts.readyDepth, labels, priorities.map(p => (
      { label: 'priority ' + p, data: frames.map(f => f.readyDepth[p]), borderColor: color(PRIORITY_COLORS, p) })));
    const components = frames.length ? Object.keys(frames[frames.length - 1].actionsPerSecond) : [];
    setSeries(ui.charts.actions, labels, components.map((c, i) => (
      { label: c, data: frames.map(f => f.actionsPerSecond[c] ?? null), borderColor: color(SERIES_COLORS, i) })));
    const reasons = frames.length ? Object.keys(frames[frames.length - 1].rejectionsPerSecond) : [];
    setSeries(ui.charts.rejections, labels, reasons.map((r, i) => (
      { label: r, data: frames.map(f => f.rejectionsPerSecond[r] ?? null), borderColor: color(SERIES_COLORS, i + 3) })));
    setSeries(ui.charts.threads, labels, [
      { label: 'busy', data: frames.map(f => f.busyThreads), borderColor: '#d62728', backgroundColor: 'rgba(214,39,40,0.35)', fill: 'origin' },
      { label: 'idle', data: frames.map(f => f.idleThreads), borderColor: '#2ca02c', backgroundColor: 'rgba(44,160,44,0.25)', fill: '-1' }
    ]);
  }

  /** Lays the components out in columns by dependency depth (what they depend on to the left). */
  function renderGraph(ui, components) {
    const key = JSON.stringify(components);
    if (key === ui.graphKey) {
      return; // unchanged: keep the drawing (and whatever the user is hovering)
    }
    ui.graphKey = key;
    const byName = new Map(components.map(c => [c.name, c]));
    const depth = new Map();
    const depthOf = (name, seen) => {
      if (depth.has(name)) {
        return depth.get(name);
      }
      if (seen.has(name)) {
        return 0; // a cycle cannot start, but draw it anyway
      }
      seen.add(name);
      const c = byName.get(name);
      const d = c ? Math.max(-1, ...c.dependencies.filter(n => byName.has(n)).map(n => depthOf(n, seen))) + 1 : 0;
      depth.set(name, d);
      return d;
    };
    components.forEach(c => depthOf(c.name, new Set()));
    const columns = [];
    components.forEach(c => (columns[depth.get(c.name)] = columns[depth.get(c.name)] || []).push(c));
    const W = 150, H = 34, GAP_X = 40, GAP_Y = 12;
    const pos = new Map();
    columns.forEach((col, x) => col.forEach((c, y) => pos.set(c.name, { x: 8 + x * (W + GAP_X), y: 8 + y * (H + GAP_Y) })));
    const width = 16 + columns.length * (W + GAP_X);
    const height = 16 + Math.max(1, ...columns.map(col => col.length)) * (H + GAP_Y);
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'graph');
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    for (const c of components) {
      for (const d of c.dependencies) {
        if (!pos.has(d)) {
          continue;
        }
        const line = document.createElementNS(ns, 'line');
        line.setAttribute('x1', pos.get(c.name).x);
        line.setAttribute('y1', pos.get(c.name).y + H / 2);
        line.setAttribute('x2', pos.get(d).x + W);
        line.setAttribute('y2', pos.get(d).y + H / 2);
        line.setAttribute('marker-end', 'url(#arrow)');
        svg.appendChild(line);
      }
    }
    svg.insertAdjacentHTML('afterbegin', '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
      + 'markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#8893a7"/></marker></defs>');
    for (const c of components) {
      const g = document.createElementNS(ns, 'g');
      g.setAttribute('class', 'component');
      g.dataset.component = c.name;
      g.dataset.state = c.state;
      const p = pos.get(c.name);
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('x', p.x);
      rect.setAttribute('y', p.y);
      rect.setAttribute('width', W);
      rect.setAttribute('height', H);
      rect.setAttribute('fill', STATE_COLORS[c.state] || '#ffffff');
      const name = document.createElementNS(ns, 'text');
      name.setAttribute('x', p.x + W / 2);
      name.setAttribute('y', p.y + 11);
      name.textContent = c.name;
      const state = document.createElementNS(ns, 'text');
      state.setAttribute('class', 'state');
      state.setAttribute('x', p.x + W / 2);
      state.setAttribute('y', p.y + 25);
      state.textContent = c.state + ' · ' + c.outstanding + '/' + c.operationLimit;
      const title = document.createElementNS(ns, 'title');
      title.textContent = c.name + ': ' + c.state + ', outstanding ' + c.outstanding + ' of ' + c.operationLimit
        + (c.dependencies.length ? ', depends on ' + c.dependencies.join(', ') : '');
      g.append(rect, name, state, title);
      svg.appendChild(g);
    }
    const old = ui.graph.querySelector('svg');
    if (old) {
      old.replaceWith(svg);
    } else {
      ui.graph.appendChild(svg);
    }
  }

  function renderSlow(ui, slow) {
    const table = document.createElement('table');
    table.className = 'slow';
    table.innerHTML = '<thead><tr><th>time</th><th>component</th><th>object</th><th class="num">priority</th>'
      + '<th class="num">ran ms</th><th class="num">threshold ms</th></tr></thead><tbody></tbody>';
    const body = table.querySelector('tbody');
    for (const a of slow) {
      const tr = document.createElement('tr');
      [label(a.at), a.component, a.object, a.priority, a.runMs.toFixed(1), a.thresholdMs.toFixed(0)].forEach((v, i) => {
        const td = document.createElement('td');
        td.textContent = v;
        td.className = i === 2 ? 'key' : (i >= 3 ? 'num' : '');
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    ui.slow.querySelectorAll('table, p').forEach(e => e.remove());
    if (slow.length) {
      ui.slow.appendChild(table);
    } else {
      const p = document.createElement('p');
      p.className = 'empty';
      p.textContent = 'No action ran over its slow-action threshold in the last ' + view.historySeconds + ' s.';
      ui.slow.appendChild(p);
    }
  }

  function reset(data) {
    view.instance = data.instance;
    view.since = null;
    view.historySeconds = data.historySeconds;
    view.backplanes.forEach(ui => {
      Object.values(ui.charts).forEach(c => c.destroy());
      ui.section.remove();
    });
    view.backplanes.clear();
    document.getElementById('history').textContent = Math.round(data.historySeconds / 60 * 10) / 10 + ' minutes';
  }

  function apply(data) {
    for (const b of data.backplanes) {
      const ui = view.backplanes.get(b.name) || createBackplane(b.name);
      ui.frames.push(...b.frames);
      if (ui.frames.length > view.historySeconds) {
        ui.frames.splice(0, ui.frames.length - view.historySeconds);
      }
      if (ui.frames.length) {
        view.since = Math.max(view.since ?? 0, ui.frames[ui.frames.length - 1].t);
      }
      ui.section.querySelector('h2 .state').textContent = b.state || '';
      renderCharts(ui);
      renderGraph(ui, b.components);
      renderSlow(ui, b.slowActions);
    }
  }

  function setStatus(status, text) {
    const el = document.getElementById('status');
    el.className = 'status ' + status;
    el.dataset.status = status;
    el.textContent = text;
  }

  async function poll() {
    try {
      const url = 'backplaneview/data' + (view.since === null ? '' : '?since=' + view.since);
      const response = await fetch(url, { cache: 'no-store', headers: { Accept: 'application/json' } });
      if (!response.ok) {
        throw new Error('HTTP ' + response.status);
      }
      const data = await response.json();
      if (data.instance !== view.instance) {
        reset(data); // first load, or the application restarted: its frames start afresh
        const again = await fetch('backplaneview/data', { cache: 'no-store', headers: { Accept: 'application/json' } });
        apply(await again.json());
      } else {
        apply(data);
      }
      setStatus('live', 'live');
    } catch (e) {
      setStatus('reconnecting', 'disconnected, retrying…');
    } finally {
      setTimeout(poll, POLL_MS);
    }
  }

  poll();
})();
