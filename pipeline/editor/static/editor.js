// gunbai edit: the page. Everything it shows comes from the server (/api/state); every change is
// an edit sent to /api/edit, checked there by the rules of `gunbai verify`.
"use strict";
(function () {
  const TOKEN = new URLSearchParams(location.search).get("token") || "";
  const SVG = "http://www.w3.org/2000/svg";
  const DIRS = ["NE", "E", "SE", "SW", "W", "NW"];
  const ANGLE = { E: 0, SE: 60, SW: 120, W: 180, NW: 240, NE: 300 };
  const $ = (id) => document.getElementById(id);
  let pictureVersion = 0;
  let cat = null, st = null, tray = "terrain", pick = null, tool = null, side = null, align = null;

  function api(path, body, raw) {
    const opts = { headers: { "X-Gunbai-Token": TOKEN } };
    if (body !== undefined) {
      opts.method = "POST";
      if (raw) { opts.body = body; opts.headers["Content-Type"] = "application/octet-stream"; }
      else { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
    }
    return fetch(path, opts).then(async (r) => {
      const text = await r.text();
      if (!r.ok) { const e = new Error(text); e.status = r.status; throw e; }
      return JSON.parse(text);
    });
  }
  const art = (name) => "/art/" + name + "?token=" + encodeURIComponent(TOKEN);
  function status(msg, bad) { const s = $("status"); s.textContent = msg; s.className = bad ? "bad" : ""; }
  function fail(e) { status(e.message, true); }

  // ---- geometry (pipeline/systems/genpei/layout.py) ----
  function shortRow(r) { return cat.board.short_rows === "even" ? r % 2 === 0 : r % 2 === 1; }
  function onBoard(c, r) { return r >= 1 && r <= cat.board.rows && c >= 1 && c <= cat.board.columns - (shortRow(r) ? 1 : 0); }
  function centre(c, r) {
    const b = cat.board;
    return [b.origin[0] + (c - 1) * b.hex_width + (shortRow(r) ? b.hex_width / 2 : 0), b.origin[1] + (r - 1) * b.row_height];
  }
  function corners(c, r) {
    const [x, y] = centre(c, r), w2 = cat.board.hex_width / 2, h2 = cat.board.hex_height / 2, h4 = cat.board.hex_height / 4;
    return [[x, y - h2], [x + w2, y - h4], [x + w2, y + h4], [x, y + h2], [x - w2, y + h4], [x - w2, y - h4]];
  }
  const points = (c, r) => corners(c, r).map((p) => p.join(",")).join(" ");
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function hexesOf(tp) {
    const out = (tp.hexes || []).map((h) => [h[0], h[1]]);
    for (const s of tp.rows || []) for (let c = s.first; c <= s.last; c++) out.push([c, s.row]);
    return out;
  }
  function svgPoint(ev) {
    const svg = $("board"), p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    const q = p.matrixTransform(svg.getScreenCTM().inverse());
    return [q.x, q.y];
  }
  // Board pixel -> client pixel, for tests and tools.
  function boardToClient(x, y) {
    const svg = $("board"), p = svg.createSVGPoint();
    p.x = x; p.y = y;
    const q = p.matrixTransform(svg.getScreenCTM());
    return [q.x, q.y];
  }

  // ---- drawing ----
  function armyOf(sideId) {
    const s = (st.scenario.sides || []).find((x) => x.id === sideId);
    return s ? s.army : cat.armies[0];
  }
  function drawBoard() {
    const b = cat.board, svg = $("board");
    svg.setAttribute("viewBox", `0 0 ${b.width} ${b.height}`);
    svg.setAttribute("width", b.width); svg.setAttribute("height", b.height);
    const img = $("boardimg");
    img.setAttribute("href", art("board.png")); img.setAttribute("width", b.width); img.setAttribute("height", b.height);
    const grid = $("grid"), hits = $("hits");
    for (let r = 1; r <= b.rows; r++) for (let c = 1; c <= b.columns; c++) {
      if (!onBoard(c, r)) continue;
      el("polygon", { points: points(c, r), class: "gridhex" }, grid);
      el("polygon", { points: points(c, r), class: "hit", "data-hex": `${c},${r}` }, hits);
    }
  }
  function drawUnderlay() {
    const g = $("underlay"), u = st.underlay;
    $("grid").classList.toggle("shown", !!u);
    if (!u) { g.replaceChildren(); return; }
    const href = "/api/underlay.png?token=" + encodeURIComponent(TOKEN) + "&v=" + pictureVersion;
    let img = $("underlayimg");
    if (!img || img.getAttribute("href") !== href) { g.replaceChildren(); img = el("image", { href: href, id: "underlayimg" }, g); }
    const attrs = { width: u.width, height: u.height, opacity: u.opacity, transform: `translate(${u.x} ${u.y}) rotate(${u.rotation}) scale(${u.scale})` };
    for (const k in attrs) img.setAttribute(k, attrs[k]);
    if (citationShown) return;  // the fields are the user's from now on
    citationShown = true;
    $("opacity").value = u.opacity;
    const s = u.source || {};
    if (s.doc) $("srcdoc").value = s.doc;
    $("srcsection").value = s.section || ""; $("srcconf").value = s.confidence || "H"; $("srcnote").value = s.note || "";
  }
  let citationShown = false;
  function drawPieces() {
    const tg = $("terrain"), pg = $("pieces"), b = cat.board, sc = st.scenario;
    tg.replaceChildren(); pg.replaceChildren();
    const tw = b.hex_width, th = Math.ceil(b.hex_height), terr = {};
    for (const t of cat.terrain) terr[t.id] = t;
    const order = (sc.terrain || []).slice().sort((a, b2) => ((terr[a.terrain] || {}).overlay ? 1 : 0) - ((terr[b2.terrain] || {}).overlay ? 1 : 0));
    for (const tp of order) {
      const sides = DIRS.filter((d) => (tp.hexsides || []).includes(d)).map((d) => d.toLowerCase());
      const name = ["terrain", tp.terrain].concat(sides).join("_") + ".png";
      for (const [c, r] of hexesOf(tp)) {
        if (!onBoard(c, r)) continue;
        const [x, y] = centre(c, r);
        el("image", { href: art(name), x: x - tw / 2, y: y - th / 2, width: tw, height: th, class: "tile", "data-terrain": tp.terrain, "data-hex": `${c},${r}` }, tg);
      }
    }
    const mk = {}; for (const m of cat.markers) mk[m.id] = m;
    const sz = cat.sizes;
    for (const m of sc.markers || []) {
      const [c, r] = m.hex; if (!onBoard(c, r)) continue;
      const [x, y] = centre(c, r), t = mk[m.marker];
      if (t && t.kind === "tile") el("image", { href: art(t.image), x: x - tw / 2, y: y - th / 2, width: tw, height: th, class: "marker", "data-marker": m.marker, "data-hex": `${c},${r}` }, tg);
      else el("image", { href: art(t ? t.image : "marker_" + m.marker + ".png"), x: x - 0.24 * tw - sz.marker / 2, y: y - 0.26 * tw - sz.marker / 2, width: sz.marker, height: sz.marker, class: "marker", "data-marker": m.marker, "data-hex": `${c},${r}` }, pg);
    }
    for (const u of sc.units || []) {
      const [c, r] = u.hex; if (!onBoard(c, r)) continue;
      const [x, y] = centre(c, r), army = armyOf(u.side);
      el("image", { href: art(`unit_${u.unit}_${army}.png`), x: x - sz.unit / 2, y: y - sz.unit / 2, width: sz.unit, height: sz.unit, class: "unit", "data-unit": u.unit, "data-side": u.side, "data-hex": `${c},${r}` }, pg);
      if (u.leader) el("image", { href: art(`leader_${u.leader}_${army}.png`), x: x + 0.33 * tw - sz.leader / 2, y: y - 0.33 * tw - sz.leader / 2, width: sz.leader, height: sz.leader, class: "leader", "data-leader": u.leader, "data-hex": `${c},${r}` }, pg);
    }
    for (const l of sc.leaders || []) {
      const [c, r] = l.hex; if (!onBoard(c, r)) continue;
      const [x, y] = centre(c, r);
      el("image", { href: art(`leader_${l.leader}_${armyOf(l.side)}.png`), x: x - sz.leader / 2, y: y - sz.leader / 2, width: sz.leader, height: sz.leader, class: "leader", "data-leader": l.leader, "data-hex": `${c},${r}` }, pg);
    }
  }
  function drawFindings() {
    const g = $("marks"), list = $("findings");
    g.replaceChildren(); list.replaceChildren();
    const at = {};
    for (const f of st.findings) {
      const li = document.createElement("li");
      li.dataset.rule = f.rule;
      if (f.hex) li.dataset.hex = f.hex.join(",");
      li.textContent = `${f.hex ? "[" + f.hex.join(",") + "] " : ""}${f.rule}: ${f.message} [${f.source}]${f.line ? " (line " + f.line + ")" : ""}`;
      li.className = f.rule === "incomplete" ? "note" : "";
      list.appendChild(li);
      if (f.hex && onBoard(f.hex[0], f.hex[1])) (at[f.hex.join(",")] = at[f.hex.join(",")] || []).push(f);
    }
    for (const key in at) {
      const [c, r] = key.split(",").map(Number), fs = at[key];
      const poly = el("polygon", { points: points(c, r), class: "finding", "data-hex": key, "data-rules": fs.map((f) => f.rule).join(" ") }, g);
      el("title", {}, poly).textContent = fs.map((f) => `${f.rule}: ${f.message} [${f.source}]`).join("\n");
      const [x, y] = centre(c, r);
      const t = el("text", { x: x, y: y + cat.board.hex_height / 2 - 6, class: "findinglabel", "data-hex": key }, g);
      t.textContent = fs.map((f) => f.rule).join(", ");
    }
    $("count").textContent = st.findings.filter((f) => f.rule !== "incomplete").length ? `(${st.findings.filter((f) => f.rule !== "incomplete").length})` : "(none)";
  }

  // ---- trays ----
  function trayItems() {
    if (tray === "terrain") return cat.terrain.map((t) => ({ kind: "terrain", id: t.id, name: t.name, image: t.hexsides ? `terrain_${t.id}_se_sw.png` : t.image, hexsides: t.hexsides }));
    const army = armyOf(side);
    if (tray === "units") return cat.units.map((u) => ({ kind: "unit", id: u.id, name: u.name, image: u.images[army] }));
    if (tray === "leaders") return cat.leaders.map((l) => ({ kind: "leader", id: l.id, name: l.name, image: l.images[army] }));
    return cat.markers.map((m) => ({ kind: "marker", id: m.id, name: m.name, image: m.image }));
  }
  function drawTray() {
    const box = $("tray");
    box.replaceChildren();
    document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.tray === tray));
    document.querySelectorAll("#tools button").forEach((b) => b.classList.toggle("on", tool === b.dataset.tool));
    trayItems().forEach((it, i) => {
      const b = document.createElement("button");
      b.className = "item" + (pick && !tool && pick.kind === it.kind && pick.id === it.id ? " on" : "");
      b.dataset.kind = it.kind; b.dataset.id = it.id;
      b.title = (i < 9 ? `${i + 1}: ` : "") + it.name;
      const img = document.createElement("img"); img.src = art(it.image); img.alt = it.name;
      const span = document.createElement("span"); span.textContent = (i < 9 ? `${i + 1} ` : "") + it.name;
      b.append(img, span);
      b.addEventListener("click", () => { pick = it; tool = null; drawTray(); });
      box.appendChild(b);
    });
  }
  function drawSides() {
    const sel = $("side"), sides = st.scenario.sides || [];
    sel.replaceChildren();
    for (const s of sides) { const o = document.createElement("option"); o.value = s.id; o.textContent = s.name; sel.appendChild(o); }
    if (!sides.find((s) => s.id === side)) side = sides.length ? sides[0].id : null;
    sel.value = side;
  }

  // ---- form ----
  function drawForm() {
    const f = $("form"), sc = st.scenario;
    f.replaceChildren();
    function field(label, path, value, kind, options) {
      const l = document.createElement("label");
      l.textContent = label + " ";
      let input;
      if (options) {
        input = document.createElement("select");
        for (const o of options) { const e = document.createElement("option"); e.value = o; e.textContent = o; input.appendChild(e); }
        input.value = String(value);
      } else if (kind === "bool") {
        input = document.createElement("input"); input.type = "checkbox"; input.checked = !!value;
      } else if (kind === "text") {
        input = document.createElement("textarea"); input.value = value || ""; input.rows = 3;
      } else {
        input = document.createElement("input"); input.value = value === undefined || value === null ? "" : String(value); input.size = 6;
      }
      input.dataset.path = path;
      input.addEventListener("change", () => {
        let v = kind === "bool" ? input.checked : input.value;
        if (kind === "count") v = v === "unknown" ? v : v === "" ? null : Number(v);
        if (kind === "bool-str") v = v === "true";
        send({ op: "set", path: path, value: v }, false);
      });
      l.appendChild(input);
      f.appendChild(l);
    }
    (sc.sides || []).forEach((s, i) => {
      const h = document.createElement("h4"); h.textContent = s.id; f.appendChild(h);
      field("Name", `sides.${i}.name`, s.name, "text");
      field("Army", `sides.${i}.army`, s.army, "str", cat.armies);
      field("Edge", `sides.${i}.edge`, s.edge, "str", ["north", "south", "unknown"]);
      field("Command cards", `sides.${i}.command_cards`, s.command_cards, "count");
      field("Dragon cards", `sides.${i}.dragon_cards`, s.dragon_cards, "count");
      field("H&F", `sides.${i}.honour_fortune`, s.honour_fortune, "count");
      field("Own banners", `sides.${i}.banners`, s.banners, "count");
    });
    const h = document.createElement("h4"); h.textContent = "Game"; f.appendChild(h);
    field("Victory banners", "victory.banners", (sc.victory || {}).banners, "count");
    field("First player", "first_player", sc.first_player, "str", (sc.sides || []).map((s) => s.id).concat(["unknown"]));
    field("Naval", "naval", sc.naval, "bool");
    const wt = document.createElement("fieldset"); wt.innerHTML = "<legend>Wind / tide</legend>";
    const cur = (sc.wind_tide || {}).directions || [];
    for (const d of DIRS) {
      const l = document.createElement("label"), c = document.createElement("input");
      c.type = "checkbox"; c.checked = cur.includes(d); c.dataset.dir = d;
      c.addEventListener("change", () => send({ op: "set", path: "wind_tide", value: [...wt.querySelectorAll("input:checked")].map((x) => x.dataset.dir) }, false));
      l.append(c, document.createTextNode(d)); wt.appendChild(l);
    }
    f.appendChild(wt);
    (sc.special_rules || []).forEach((r, i) => field(`Rule ${r.id}`, `special_rules.${i}.summary`, r.summary, "text"));
  }

  // ---- state ----
  function show(s, formToo) {
    st = s;
    $("path").textContent = s.path;
    $("undo").disabled = !s.undo; $("redo").disabled = !s.redo;
    drawSides(); drawUnderlay(); drawPieces(); drawFindings(); drawTray();
    if (formToo !== false) drawForm();
    document.body.dataset.ready = String((Number(document.body.dataset.ready) || 0) + 1);
  }
  function send(edit, formToo) {
    return api("/api/edit", { edit: edit }).then((s) => { show(s, formToo); status(""); }).catch(fail);
  }

  // ---- clicks ----
  function hexAt(ev) {
    const t = document.elementFromPoint(ev.clientX, ev.clientY);
    const key = t && t.dataset ? t.dataset.hex : null;
    return key ? key.split(",").map(Number) : null;
  }
  function nearestSide(c, r, x, y) {
    const [cx, cy] = centre(c, r);
    const a = (Math.atan2(y - cy, x - cx) * 180 / Math.PI + 360) % 360;
    let best = "E", d = 999;
    for (const k in ANGLE) { const dd = Math.min(Math.abs(a - ANGLE[k]), 360 - Math.abs(a - ANGLE[k])); if (dd < d) { d = dd; best = k; } }
    return best;
  }
  function boardClick(ev) {
    const [x, y] = svgPoint(ev);
    if (align) return alignClick(x, y, hexAt(ev));
    const h = hexAt(ev);
    if (!h) return;
    if (tool === "remove") return send({ op: "remove", hex: h });
    if (tool === "rotate") return send({ op: "rotate", hex: h });
    if (!pick) return status("pick a tile, unit, leader or marker from a tray first", true);
    if (pick.kind === "terrain" && pick.hexsides) return send({ op: "toggle_hexside", hex: h, side: nearestSide(h[0], h[1], x, y) });
    if (pick.kind === "terrain") return send({ op: "place_terrain", terrain: pick.id, hex: h });
    if (pick.kind === "unit") return send({ op: "place_unit", side: side, unit: pick.id, hex: h });
    if (pick.kind === "leader") return send({ op: "place_leader", side: side, leader: pick.id, hex: h });
    return send({ op: "place_marker", marker: pick.id, hex: h, side: side });
  }

  // ---- underlay ----
  function pictureAt(x, y) {  // board pixel -> picture pixel (inverse of the underlay's transform)
    const u = st.underlay, a = -u.rotation * Math.PI / 180, dx = x - u.x, dy = y - u.y;
    return [(dx * Math.cos(a) - dy * Math.sin(a)) / u.scale, (dx * Math.sin(a) + dy * Math.cos(a)) / u.scale];
  }
  const ALIGN_STEPS = ["1/4: click the centre of a hex on the picture", "2/4: click the board hex that is", "3/4: click the centre of a second hex on the picture, far from the first", "4/4: click the board hex that is"];
  function alignClick(x, y, h) {
    if (align.step % 2 === 0) align.pics.push(pictureAt(x, y));
    else { if (!h) return; align.hexes.push(centre(h[0], h[1])); }
    align.step++;
    if (align.step < 4) { $("alignstatus").textContent = ALIGN_STEPS[align.step]; return; }
    const [p1, p2] = align.pics, [q1, q2] = align.hexes;
    const vp = [p2[0] - p1[0], p2[1] - p1[1]], vq = [q2[0] - q1[0], q2[1] - q1[1]];
    const lp = Math.hypot(vp[0], vp[1]), lq = Math.hypot(vq[0], vq[1]);
    align = null;
    if (lp < 1e-6 || lq < 1e-6) { $("alignstatus").textContent = "the two reference hexes must differ"; return; }
    const scale = lq / lp, rot = Math.atan2(vq[1], vq[0]) - Math.atan2(vp[1], vp[0]);
    const cx = scale * (p1[0] * Math.cos(rot) - p1[1] * Math.sin(rot)), cy = scale * (p1[0] * Math.sin(rot) + p1[1] * Math.cos(rot));
    let deg = rot * 180 / Math.PI; if (deg > 180) deg -= 360; if (deg < -180) deg += 360;
    underlaySettings({ scale: scale, rotation: deg, x: q1[0] - cx, y: q1[1] - cy }).then(() => { $("alignstatus").textContent = `aligned: scale ${scale.toFixed(4)}, rotation ${deg.toFixed(2)}°`; });
  }
  function citation() { return { doc: $("srcdoc").value, section: $("srcsection").value, confidence: $("srcconf").value, note: $("srcnote").value }; }
  function underlaySettings(extra) {
    return api("/api/underlay/settings", Object.assign({ opacity: Number($("opacity").value), source: citation() }, extra || {})).then((s) => show(s, false)).catch(fail);
  }
  function loadPicture(file) {
    pictureVersion++;
    file.arrayBuffer().then((buf) => api("/api/underlay", buf, true))
      .then((s) => { st = s; return underlaySettings({ scale: cat.board.width / s.underlay.width, rotation: 0, x: 0, y: 0 }); })
      .then(() => status("picture loaded: align it to two hexes"))
      .catch(fail);
  }

  // ---- saving, playing ----
  function save() {
    return underlaySettingsIf().then(() => api("/api/save", {})).then((s) => { show(s); status("saved " + s.saved); $("copybox").hidden = true; })
      .catch((e) => { fail(e); if (e.status === 409) $("copybox").hidden = false; });
  }
  function underlaySettingsIf() { return st.underlay ? underlaySettings() : Promise.resolve(); }
  function saveCopy() {
    api("/api/save_copy", { name: $("copyname").value }).then((r) => status("saved a copy: " + r.saved)).catch(fail);
  }
  let polling = null;
  function showPlay(p) {
    const v = $("verdict"), g = p.games || 1;
    $("progress").max = g; $("progress").value = p.done || 0;
    const sides = p.sides || ["first side", "second side"];
    let text = p.policy ? `${p.policy}${p.proven ? " (proven by the ladder)" : " (strength not proven)"}: ` : "";
    text += `${p.done || 0}/${g} games; ${sides[0]} ${p.wins ? p.wins[0] : 0}, ${sides[1]} ${p.wins ? p.wins[1] : 0}, unfinished ${p.unfinished || 0}`;
    if (p.intervals) text += ` — ${sides[0]} wins ${(100 * p.intervals[0][0]).toFixed(0)}-${(100 * p.intervals[0][1]).toFixed(0)} % (95 %)`;
    if (p.error) text += " — " + p.error;
    if (p.cancelled) text += " — cancelled";
    v.textContent = text; v.dataset.state = p.running ? "running" : p.finished ? "finished" : "stopped";
    if (!p.running && polling) { clearInterval(polling); polling = null; }
  }
  function play() {
    api("/api/play", { games: Number($("games").value) }).then((p) => {
      showPlay(p);
      if (!polling) polling = setInterval(() => api("/api/play").then(showPlay).catch(fail), 400);
    }).catch(fail);
  }

  // ---- keys ----
  function keys(ev) {
    const tag = (ev.target.tagName || "").toLowerCase();
    const k = ev.key.toLowerCase(), ctrl = ev.ctrlKey || ev.metaKey;
    if (ctrl && k === "s") { ev.preventDefault(); return save(); }
    if (["input", "textarea", "select"].includes(tag)) return;
    if (ctrl && k === "z" && !ev.shiftKey) { ev.preventDefault(); return undoRedo("undo"); }
    if (ctrl && (k === "y" || (k === "z" && ev.shiftKey))) { ev.preventDefault(); return undoRedo("redo"); }
    if (ctrl && k === "s") { ev.preventDefault(); return save(); }
    if (ctrl || ev.altKey) return;
    if (k === "escape") { align = null; $("alignstatus").textContent = ""; return; }
    const trays = { t: "terrain", u: "units", l: "leaders", m: "markers" };
    if (trays[k]) { tray = trays[k]; pick = null; tool = null; return drawTray(); }
    if (k === "x" || k === "delete") { tool = "remove"; return drawTray(); }
    if (k === "r") { tool = "rotate"; return drawTray(); }
    if (k === "s") { const ids = (st.scenario.sides || []).map((s) => s.id); side = ids[(ids.indexOf(side) + 1) % ids.length]; $("side").value = side; return drawTray(); }
    if (/^[1-9]$/.test(k)) { const it = trayItems()[Number(k) - 1]; if (it) { pick = it; tool = null; drawTray(); } }
  }
  function undoRedo(which) { api("/api/" + which, {}).then((s) => show(s)).catch(fail); }

  // ---- start ----
  function start() {
    api("/api/state").then((s) => {
      cat = s.catalogue;
      drawBoard();
      const sel = $("srcdoc");
      for (const d of cat.sources) { const o = document.createElement("option"); o.value = d; o.textContent = d; sel.appendChild(o); }
      show(s);
    }).catch(fail);
    $("board").addEventListener("click", boardClick);
    $("hits").addEventListener("contextmenu", (ev) => { ev.preventDefault(); const h = hexAt(ev); if (h) send({ op: "remove", hex: h }); });
    $("undo").addEventListener("click", () => undoRedo("undo"));
    $("redo").addEventListener("click", () => undoRedo("redo"));
    $("save").addEventListener("click", save);
    $("savecopy").addEventListener("click", saveCopy);
    $("side").addEventListener("change", () => { side = $("side").value; drawTray(); });
    document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => { tray = b.dataset.tray; pick = null; tool = null; drawTray(); }));
    document.querySelectorAll("#tools button").forEach((b) => b.addEventListener("click", () => { tool = b.dataset.tool; drawTray(); }));
    $("picture").addEventListener("change", (ev) => { if (ev.target.files[0]) loadPicture(ev.target.files[0]); });
    $("opacity").addEventListener("input", () => { const i = $("underlayimg"); if (i) i.setAttribute("opacity", $("opacity").value); });
    $("opacity").addEventListener("change", () => underlaySettings());
    for (const id of ["srcdoc", "srcsection", "srcconf", "srcnote"]) $(id).addEventListener("change", () => { if (st.underlay) underlaySettings(); });
    $("align").addEventListener("click", () => {
      if (!st.underlay) return status("load a picture first", true);
      align = { step: 0, pics: [], hexes: [] }; $("alignstatus").textContent = ALIGN_STEPS[0];
    });
    $("play").addEventListener("click", play);
    $("cancel").addEventListener("click", () => api("/api/play/cancel", {}).then(showPlay).catch(fail));
    document.addEventListener("keydown", keys);
    window.gunbaiEditor = { boardToClient: boardToClient, centre: centre, state: () => st };
  }
  start();
})();
