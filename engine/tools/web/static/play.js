// railspec play: the page. It draws what the server sends (one seat's view of a game, or a
// replay's step) and sends back the game's own action names. It knows no mechanic: the
// decisions come grouped by the server (about a route, about a city, or by the kind's
// owner), and every field is listed with the label the server gives it.
"use strict";

const state = {
  config: null,      // /api/config: the variant's facts and the command line's choices
  view: null,        // the last view the server sent
  mapVersion: null,  // the map drawn now
  picked: null,      // {group: "route" | "city", name}: what the person clicked on the map
  card: null,        // the card of the hand the person picked: the map marks what it can claim
  hovered: null,     // the route or city under the pointer, when the person may choose it
  timer: null,       // the pending agent decision
  busy: false,
  stalled: false,    // a request failed: no agent decision is asked for until a view arrives
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error(data && data.error ? data.error : `${response.status} ${response.statusText}`);
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

function seatName(view, seat) {
  return view.who[seat] || `player ${seat}`;
}

function swatch(colour, extra) {
  return el("span", {class: `swatch ${extra || ""}`, style: `background:${colour}`});
}

function seatColour(seat) {
  const colours = state.config.variant.player_colours;
  return colours[seat % colours.length];
}

function cardColour(name) {
  const facts = state.config.variant;
  const i = facts.cards.indexOf(name);
  return i >= 0 ? facts.card_colours[i] : "#999";
}

// --- the map ---------------------------------------------------------------------------

const SVG_NS = "http://www.w3.org/2000/svg";

async function drawMap(view) {
  if (view.map_version !== state.mapVersion) {
    const path = view.mode === "replay" ? `/api/replays/${view.id}/map?step=${view.step}` : `/api/games/${view.id}/map`;
    const svg = await api("GET", path);
    // the server's renderer escapes every name from the spec: the SVG is markup we made
    $("map").innerHTML = svg;
    detachLegend();
    state.mapVersion = view.map_version;
  }
  markMap(view);
}

function detachLegend() {
  // The renderer draws its legend beside the map, a fifth of the picture's width: on the
  // page each entry goes to a list under the map, and the map is cropped to the rest.
  const svg = $("map").querySelector("svg");
  const legend = $("legend");
  legend.replaceChildren();
  if (!svg) return;
  for (const entry of svg.querySelectorAll("g.legend-entry")) {
    const box = entry.getBBox();
    const sample = document.createElementNS(SVG_NS, "svg");
    sample.setAttribute("viewBox", `${box.x - 1} ${box.y - 1} ${box.width + 2} ${box.height + 2}`);
    sample.setAttribute("width", String(Math.ceil(box.width + 2)));
    sample.setAttribute("height", String(Math.ceil(box.height + 2)));
    sample.setAttribute("font-family", "sans-serif");
    sample.append(entry);
    legend.append(el("li", {"data-look": entry.getAttribute("data-look")}, sample));
  }
  const background = svg.querySelector("rect.background");
  if (background) background.style.display = "none";
  const box = svg.getBBox();
  const pad = 8;
  const frame = [box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad];
  svg.setAttribute("viewBox", frame.map((n) => n.toFixed(1)).join(" "));
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  if (background) {
    ["x", "y", "width", "height"].forEach((key, i) => background.setAttribute(key, frame[i].toFixed(1)));
    background.style.display = "";
  }
}

function claimable(view) {
  // what the person may choose on the map now: routes and cities, and the routes a claim
  // with the picked card reaches (the cards each choice spends come from the catalogue)
  const routes = new Set(), cities = new Set(), forCard = new Set();
  for (const choice of view.choices || []) {
    if (choice.route !== null) {
      routes.add(choice.route);
      if (state.card !== null && choice.cards.includes(state.card)) forCard.add(choice.route);
    }
    if (choice.city !== null) cities.add(choice.city);
  }
  return {routes, cities, forCard};
}

function markMap(view) {
  const {routes, cities, forCard} = claimable(view);
  const isPicked = (group, name) => !!state.picked && state.picked.name === name && state.picked.group === group;
  for (const node of $("map").querySelectorAll("[data-route]")) {
    const name = node.getAttribute("data-route");
    node.classList.toggle("choosable", routes.has(name));
    node.classList.toggle("for-card", forCard.has(name));
    node.classList.toggle("picked", isPicked("route", name));
  }
  for (const node of $("map").querySelectorAll("[data-city]")) {
    const name = node.getAttribute("data-city");
    node.classList.toggle("choosable", cities.has(name));
    node.classList.toggle("picked", isPicked("city", name));
  }
  // with a card picked, what it cannot claim fades: the routes it can stand out
  $("map").classList.toggle("filtering", state.card !== null && routes.size > 0);
  drawHint(view, {routes, cities, forCard});
}

function drawHint(view, marks) {
  const hint = $("map-hint");
  let text = "";
  if (view.mode === "play" && view.yours) {
    if (state.hovered) {
      const {group, name} = state.hovered;
      const ways = view.choices.filter((c) => c[group] === name).map((c) => c.name);
      const shown = ways.slice(0, 4).join(" · ") + (ways.length > 4 ? ` · and ${ways.length - 4} more` : "");
      text = `${name}: ${ways.length} ${ways.length === 1 ? "choice" : "choices"} (${shown}). Click to choose.`;
    } else if (state.card !== null && marks.routes.size) {
      text = `${state.card} can claim ${marks.forCard.size} of the ${marks.routes.size} routes you can claim now ` +
             "(outlined). Pick another card, or the same again to see them all; hover a route for its choices.";
    } else if (marks.routes.size) {
      text = `You can claim ${marks.routes.size} ${marks.routes.size === 1 ? "route" : "routes"} now: pick one of ` +
             "your cards to see those it can claim, or hover a route for its choices.";
    } else if (marks.cities.size) {
      text = `${marks.cities.size} ${marks.cities.size === 1 ? "city" : "cities"} to choose from: hover one for ` +
             "its choices.";
    }
  }
  hint.textContent = text;
}

function onMapHover(event) {
  const view = state.view;
  if (!view || !view.yours) return;
  const target = event.target.closest("[data-route].choosable, [data-city].choosable");
  const hovered = target ? (target.hasAttribute("data-route")
    ? {group: "route", name: target.getAttribute("data-route")}
    : {group: "city", name: target.getAttribute("data-city")}) : null;
  if ((hovered && hovered.name) === (state.hovered && state.hovered.name)) return;
  state.hovered = hovered;
  drawHint(view, claimable(view));
}

function pickCard(name) {
  state.card = state.card === name ? null : name;
  drawMine(state.view);
  markMap(state.view);
}

function onMapClick(event) {
  const view = state.view;
  if (!view || !view.yours) return;
  const target = event.target.closest("[data-route], [data-city]");
  if (!target) return;
  const group = target.hasAttribute("data-route") ? "route" : "city";
  const name = target.getAttribute(group === "route" ? "data-route" : "data-city");
  if (!(view.choices || []).some((c) => c[group] === name)) return;
  state.picked = {group, name};
  drawDecide(view);
  markMap(view);
}

// --- the panels ------------------------------------------------------------------------

function choiceButton(choice) {
  return el("button", {type: "button", class: "choice", "data-action": choice.name, "data-kind": choice.kind,
                       text: choice.name, onclick: () => decide(choice.name)});
}

function drawDecide(view) {
  const box = $("decide");
  box.replaceChildren();
  if (view.mode === "replay") {
    box.append(el("h2", {text: "Next decision"}));
    box.append(el("p", {class: "next", text: view.next ? `${seatName(view, view.next.seat)}: ${view.next.action}`
                                                        : "none: the game is over"}));
    return;
  }
  if (!view.yours) return;
  box.append(el("h2", {text: "Your decision"}));
  if (view.decision) box.append(aboutDecision(view.decision));
  for (const group of view.groups) {
    const choices = view.choices.filter((c) => c.group === group.key);
    const section = el("div", {class: "group", "data-group": group.key}, el("h3", {text: group.label}));
    if (group.key === "route" || group.key === "city") {
      // one entry per route or city; its choices once it is picked (on the map or here)
      const field = group.key;
      const names = [...new Set(choices.map((c) => c[field]))].sort();
      const select = el("select", {"aria-label": group.label, class: "pick"},
                        el("option", {value: "", text: `${names.length} to choose from…`}));
      for (const name of names) select.append(el("option", {value: name, text: name}));
      if (state.picked && state.picked.group === field && names.includes(state.picked.name)) {
        select.value = state.picked.name;
      }
      select.addEventListener("change", () => {
        state.picked = select.value ? {group: field, name: select.value} : null;
        drawDecide(view);
        markMap(view);
      });
      section.append(select);
      if (state.picked && state.picked.group === field) {
        const row = el("div", {class: "choices picked-choices"});
        for (const choice of choices.filter((c) => c[field] === state.picked.name)) row.append(choiceButton(choice));
        section.append(row);
      }
    } else {
      const row = el("div", {class: "choices"});
      for (const choice of choices) row.append(choiceButton(choice));
      section.append(row);
    }
    box.append(section);
  }
}

function aboutDecision(decision) {
  // a mechanic's decision (a tunnel's payment…): what it is about, and what more cards
  // would allow, so that a decision offering only "decline" says why
  const box = el("div", {class: "about"}, el("h3", {text: `About this decision (${decision.title})`}));
  const list = el("dl");
  for (const fact of decision.facts) {
    list.append(el("dt", {title: fact.doc, text: fact.label}), el("dd", {text: fact.text}));
  }
  box.append(list);
  if (decision.wanting.length) {
    const names = decision.wanting;
    const text = names.length <= 6 ? names.join(", ") : `${names.slice(0, 6).join(", ")} and ${names.length - 6} more`;
    box.append(el("p", {class: "wanting", title: names.join(", "),
                        text: `Not offered, for want of the cards in your hand: ${text}.`}));
  }
  return box;
}

function drawMine(view) {
  const box = $("mine");
  box.replaceChildren();
  const who = view.mode === "replay" ? `${seatName(view, view.observer)}'s cards` : "Your cards";
  box.append(el("h2", {text: who}));
  const hand = el("ul", {class: "cards hand"});
  const picking = view.mode === "play" && view.yours;
  for (const card of view.hand) {
    const face = [swatch(cardColour(card.card)), el("span", {text: `${card.count} ${card.card}`})];
    // on the person's turn a card is a button: the map marks the routes it can claim
    hand.append(el("li", {class: "card", "data-card": card.card}, picking
      ? el("button", {type: "button", class: "card-pick", "aria-pressed": String(state.card === card.card),
                      title: `mark the routes ${card.card} can claim`, onclick: () => pickCard(card.card)}, ...face)
      : el("span", {}, ...face)));
  }
  if (!view.hand.length) hand.append(el("li", {class: "empty", text: "no cards"}));
  box.append(hand);
  box.append(el("h3", {text: "Market"}));
  const market = el("ul", {class: "cards market"});
  view.market.forEach((card) => {
    market.append(card === null ? el("li", {class: "empty", text: "empty"})
                                : el("li", {class: "card", "data-card": card}, swatch(cardColour(card)),
                                            el("span", {text: card})));
  });
  box.append(market);
  for (const list of view.tickets) {
    const offer = list.key !== "tickets";
    const heading = offer ? `${list.label} (keep at least ${Math.max(view.offer_keep, 1)})` : list.label;
    box.append(el("h3", {text: heading}));
    const ul = el("ul", {class: `tickets ${offer ? "offer" : "kept"}`, "data-list": list.key});
    for (const t of list.tickets) {
      ul.append(el("li", {class: t.done ? "done" : null},
                   el("span", {class: "slot", text: offer ? `${t.slot}.` : (t.done ? "✓" : "·")}),
                   el("span", {text: ` ${t.name} (${t.points})`})));
    }
    if (!list.tickets.length) ul.append(el("li", {class: "empty", text: "none"}));
    box.append(ul);
  }
}

function drawTable(view) {
  const box = $("table");
  box.replaceChildren(el("h2", {text: "Players"}));
  const columns = view.fields.columns;
  const head = el("tr", {}, el("th", {text: "player"}));
  for (const column of columns) head.append(el("th", {title: `${column.doc} (${column.owner})`, text: column.label}));
  const table = el("table", {class: "players"}, el("thead", {}, head));
  const body = el("tbody");
  for (let seat = 0; seat < view.players; seat++) {
    const row = el("tr", {class: seat === view.to_move ? "to-move" : null},
                   el("td", {}, swatch(seatColour(seat)), el("span", {text: ` ${seatName(view, seat)}`})));
    for (const column of columns) row.append(el("td", {text: column.values[seat]}));
    body.append(row);
  }
  table.append(body);
  box.append(el("div", {class: "scroll"}, table));
}

function drawDetails(view) {
  const box = $("details");
  box.replaceChildren(el("h2", {text: "Details"}));
  const list = el("dl");
  for (const item of [...view.fields.own, ...view.fields.board]) {
    list.append(el("dt", {title: `${item.doc} (${item.owner})`, text: item.label}), el("dd", {text: item.text}));
  }
  list.append(el("dt", {text: "phase"}), el("dd", {text: view.phase}));
  list.append(el("dt", {text: "turn"}), el("dd", {text: String(view.turn)}));
  box.append(list);
}

function drawResult(view) {
  const box = $("result");
  box.replaceChildren();
  if (!view.breakdown) return;
  const final = view.over;
  box.append(el("h2", {text: final ? "Final score" : "Score if the game ended now"}));
  const columns = view.breakdown.columns;
  // what each part of the rules added: the columns under the title of who adds them
  const owners = el("tr", {}, el("th", {}));
  let last = null, span = null;
  for (const column of columns) {
    if (column.owner !== last) {
      span = el("th", {colspan: "1", class: "owner", text: column.owner});
      owners.append(span);
      last = column.owner;
    } else {
      span.setAttribute("colspan", String(Number(span.getAttribute("colspan")) + 1));
    }
  }
  const head = el("tr", {}, el("th", {text: "player"}));
  for (const column of columns) head.append(el("th", {title: column.doc, text: column.label}));
  const body = el("tbody");
  for (const row of view.breakdown.rows) {
    const winner = final && (view.winners || []).includes(row.seat);
    const tr = el("tr", {class: winner ? "winner" : null},
                  el("td", {}, swatch(seatColour(row.seat)), el("span", {text: ` ${row.who}${winner ? " ★" : ""}`})));
    for (const cell of row.cells) tr.append(el("td", {text: String(cell)}));
    body.append(tr);
  }
  box.append(el("div", {class: "scroll"}, el("table", {class: "breakdown"}, el("thead", {}, owners, head), body)));
}

function drawLog(view) {
  const box = $("log");
  box.replaceChildren(el("h2", {text: `Moves (${view.log.length})`}));
  const list = el("ol", {reversed: true, class: "moves"});
  for (const entry of view.log.slice(-60).reverse()) {
    list.append(el("li", {value: String(entry.step + 1)}, swatch(seatColour(entry.seat), "small"),
                   el("span", {text: ` ${seatName(view, entry.seat)}: ${entry.action}`})));
  }
  box.append(list);
}

function drawStatus(view) {
  const status = $("status");
  let text, mode;
  if (view.mode === "replay") {
    mode = "replay";
    text = view.over && view.step === view.steps ? "the recorded game is over"
      : `step ${view.step} of ${view.steps}: ${seatName(view, view.to_move)} to decide`;
  } else if (view.over) {
    mode = "over";
    const names = (view.winners || []).map((s) => seatName(view, s)).join(" and ");
    text = `Game over: ${names} ${view.winners.length > 1 ? "win" : "wins"}`;
  } else if (view.yours) {
    mode = "yours";
    text = `Your move (${view.phase})`;
  } else {
    mode = "agent";
    text = `${seatName(view, view.to_move)} is deciding…`;
  }
  status.textContent = text;
  status.setAttribute("data-state", mode);
}

async function show(view) {
  // empty while drawing: what the page shows is whole again once it is set
  document.body.setAttribute("data-ready", "");
  state.stalled = false;
  const changedGame = !state.view || state.view.id !== view.id;
  state.view = view;
  if (changedGame) {
    state.mapVersion = null;
    $("saved").textContent = "";
  }
  if (state.picked && !(view.choices || []).some((c) => c[state.picked.group] === state.picked.name)) {
    state.picked = null;
  }
  if (state.card !== null && !view.hand.some((h) => h.card === state.card)) state.card = null;
  state.hovered = null;
  $("title").textContent = `${state.config.variant.name}${view.mode === "replay" ? " — replay" : ""}`;
  $("tools").hidden = view.mode === "replay";
  $("replay-tools").hidden = view.mode !== "replay";
  if (view.mode === "play") {
    $("undo").disabled = !view.can_undo;
    history.replaceState(null, "", `#game=${view.id}`);
  } else {
    $("step").max = String(view.steps);
    $("step").value = String(view.step);
    $("step-text").textContent = `${view.step} / ${view.steps}`;
    history.replaceState(null, "", `#replay=${view.id}&step=${view.step}`);
  }
  drawStatus(view);
  drawDecide(view);
  drawMine(view);
  drawTable(view);
  drawResult(view);
  drawDetails(view);
  drawLog(view);
  await drawMap(view);
  document.body.setAttribute("data-ready", view.mode === "replay" ? `replay-${view.step}` : `${view.log.length}`);
  scheduleAgent();
}

// --- talking to the server -------------------------------------------------------------

async function run(work) {
  if (state.busy) return;
  state.busy = true;
  try {
    showError("");
    await work();
  } catch (err) {
    state.stalled = true;
    showError(err.message);
  } finally {
    state.busy = false;
  }
  scheduleAgent();
}

function decide(name) {
  run(async () => {
    state.picked = null;
    await show(await api("POST", `/api/games/${state.view.id}/act`, {action: name}));
  });
}

function scheduleAgent() {
  const view = state.view;
  if (state.timer || state.busy || state.stalled || !view || view.mode !== "play" || view.over || view.yours) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    run(async () => show(await api("POST", `/api/games/${state.view.id}/agent`, {})));
  }, state.config.delay_ms);
}

function newGame(body) {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  run(async () => show(await api("POST", "/api/games", body || {})));
}

// --- saves: kept by the server, known to the page by name only -------------------------

function save() {
  run(async () => {
    const saved = await api("POST", `/api/games/${state.view.id}/save`, {});
    $("saved").textContent = `saved as ${saved.name}`;
    $("saved").setAttribute("data-name", saved.name);
  });
}

function showSaves(open) {
  $("saves").hidden = !open;
  $("load").setAttribute("aria-expanded", String(open));
}

function drawSaves(answer) {
  $("saves-folder").textContent = `in ${answer.folder}`;
  const list = $("saves-list");
  list.replaceChildren();
  for (const entry of answer.saves) {
    const played = entry.decisions === null ? "" : ` · ${entry.decisions} decisions`;
    const button = el("button", {type: "button", class: "save-entry", "data-name": entry.name,
                                 disabled: !!entry.problem, title: entry.name,
                                 text: `${entry.time.replace("T", " ").replace("Z", " UTC")} · player ${entry.seat}${played} · ${entry.name}`,
                                 onclick: () => { showSaves(false); newGame({save: entry.name}); }});
    list.append(el("li", {}, button, entry.problem ? el("span", {class: "problem", text: ` ${entry.problem}`}) : null));
  }
  if (!answer.saves.length) list.append(el("li", {class: "empty", text: "no saved game of this variant yet"}));
}

function load() {
  if (!$("saves").hidden) {
    showSaves(false);
    return;
  }
  run(async () => {
    drawSaves(await api("GET", "/api/saves"));
    showSaves(true);
  });
}

function stepTo(step) {
  const view = state.view;
  if (!view || view.mode !== "replay") return;
  const target = Math.max(0, Math.min(view.steps, step));
  run(async () => show(await api("GET", `/api/replays/${view.id}?step=${target}`)));
}

function hashParams() {
  const params = new URLSearchParams(location.hash.slice(1));
  return {game: params.get("game"), replay: params.get("replay"), step: Number(params.get("step") || 0)};
}

async function start() {
  $("map").addEventListener("click", onMapClick);
  $("map").addEventListener("mouseover", onMapHover);
  $("map").addEventListener("mouseleave", () => {
    state.hovered = null;
    if (state.view) drawHint(state.view, claimable(state.view));
  });
  $("new-game").addEventListener("click", () => newGame({}));
  $("undo").addEventListener("click", () => run(async () => show(await api("POST", `/api/games/${state.view.id}/undo`, {}))));
  $("save").addEventListener("click", save);
  $("load").addEventListener("click", load);
  $("saves-close").addEventListener("click", () => showSaves(false));
  $("first").addEventListener("click", () => stepTo(0));
  $("back").addEventListener("click", () => stepTo(state.view.step - 1));
  $("forward").addEventListener("click", () => stepTo(state.view.step + 1));
  $("last").addEventListener("click", () => stepTo(state.view.steps));
  $("step").addEventListener("change", () => stepTo(Number($("step").value)));
  document.addEventListener("keydown", (event) => {
    if (!state.view || state.view.mode !== "replay") return;
    if (event.key === "ArrowRight") stepTo(state.view.step + 1);
    if (event.key === "ArrowLeft") stepTo(state.view.step - 1);
  });
  try {
    state.config = await api("GET", "/api/config");
  } catch (err) {
    showError(err.message);
    return;
  }
  const wanted = hashParams();
  await run(async () => {
    if (wanted.replay || state.config.replay) {
      const id = wanted.replay || state.config.replay;
      await show(await api("GET", `/api/replays/${id}?step=${wanted.replay ? wanted.step : 0}`));
      return;
    }
    if (wanted.game) {
      try {
        await show(await api("GET", `/api/games/${wanted.game}`));
        return;
      } catch (err) {
        // dropped (idle for an hour) or from an earlier server: a new game instead
      }
    }
    await show(await api("POST", "/api/games", {}));
  });
}

document.addEventListener("DOMContentLoaded", start);
