/**
 * The console's two static files, written by hand (no build chain): the style sheet and the small script that keeps
 * a page current over server-sent events. Served from this table only, by exact name: no path reaches the disk.
 */
export type ConsoleAsset = { readonly contentType: string; readonly body: string };

const style = `
:root { color-scheme: light dark; --fg: #1d1f23; --muted: #5d6470; --bg: #f6f7f9; --card: #fff; --line: #d9dde3; --accent: #2b6cb0; --ok: #2f855a; --bad: #c53030; --warn: #b7791f; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --muted: #a0a7b4; --bg: #15171a; --card: #1f2227; --line: #343a42; --accent: #63b3ed; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .6rem 1rem; background: var(--card); border-bottom: 1px solid var(--line); }
header h1 { font-size: 1rem; margin: 0; }
nav { display: flex; flex-wrap: wrap; gap: .25rem; }
nav a { padding: .3rem .6rem; border-radius: .4rem; color: var(--fg); text-decoration: none; }
nav a[aria-current="page"] { background: var(--accent); color: #fff; }
.who { margin-left: auto; color: var(--muted); font-size: .9rem; display: flex; gap: .5rem; align-items: center; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .6rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .8rem 1rem; margin: 0 0 .8rem; }
.card h3 { margin: 0 0 .4rem; font-size: 1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: .4rem 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: .4rem; padding: .5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-size: .85rem; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .6rem; }
form.inline { display: inline-flex; flex-wrap: wrap; gap: .5rem; }
button { font: inherit; padding: .45rem 1rem; border-radius: .4rem; border: 1px solid var(--line); background: var(--card); color: var(--fg); cursor: pointer; min-height: 2.5rem; }
button.approve { background: var(--ok); border-color: var(--ok); color: #fff; }
button.deny { background: var(--bad); border-color: var(--bad); color: #fff; }
.risk-dangerous { color: var(--bad); font-weight: 600; } .risk-write, .risk-exec { color: var(--warn); font-weight: 600; }
.flash { padding: .6rem 1rem; border-radius: .4rem; background: var(--card); border-left: 4px solid var(--accent); margin-bottom: 1rem; }
.flash.bad { border-left-color: var(--bad); }
table { width: 100%; border-collapse: collapse; background: var(--card); font-size: .9rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
.muted { color: var(--muted); }
.filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: .8rem; }
.filters label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); }
.filters input, .filters select { font: inherit; padding: .3rem; border: 1px solid var(--line); border-radius: .3rem; background: var(--card); color: var(--fg); }
details > summary { cursor: pointer; }
.bar { display: grid; grid-template-columns: 6.5rem 1fr 6rem; gap: .5rem; align-items: center; font-size: .85rem; margin: .15rem 0; }
.bar svg { width: 100%; height: 1.1rem; display: block; }
.bar .track { fill: var(--bg); stroke: var(--line); stroke-width: .3; }
.bar .fill { fill: var(--accent); } .bar .over { fill: var(--bad); }
.bar .limit { fill: var(--bad); } .bar .soft { fill: var(--warn); }
.legend { font-size: .8rem; color: var(--muted); }
.ok { color: var(--ok); } .bad { color: var(--bad); }
#live { position: fixed; bottom: .8rem; right: .8rem; background: var(--accent); color: #fff; padding: .4rem .8rem; border-radius: .4rem; display: none; }
#live.shown { display: block; }
@media (max-width: 40rem) { .bar { grid-template-columns: 5rem 1fr 4.5rem; } th.wide, td.wide { display: none; } .who { margin-left: 0; width: 100%; } }
`;

// Plain browser JavaScript, no framework: on each server-sent event the page's <main> is fetched again and swapped in,
// unless the person is typing in a form there. No inline script anywhere (the CSP allows scripts from 'self' only).
const script = `(() => {
  'use strict';
  const main = document.querySelector('main');
  const note = document.getElementById('live');
  if (!main || typeof EventSource === 'undefined') return;
  let timer;
  const refresh = async () => {
    const active = document.activeElement;
    if (active && main.contains(active) && (active.tagName === 'INPUT' || active.tagName === 'SELECT' || active.tagName === 'TEXTAREA')) return;
    const response = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const next = page.querySelector('main');
    if (!next) return;
    main.replaceChildren(...Array.from(next.childNodes).map((node) => document.importNode(node, true)));
    if (note) {
      note.classList.add('shown');
      setTimeout(() => note.classList.remove('shown'), 3000);
    }
  };
  const source = new EventSource('/console/events');
  source.addEventListener('update', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { refresh().catch(() => undefined); }, 300);
  });
})();
`;

const assets: ReadonlyMap<string, ConsoleAsset> = new Map([
  ['console.css', { contentType: 'text/css; charset=utf-8', body: style }],
  ['console.js', { contentType: 'text/javascript; charset=utf-8', body: script }],
]);

/** The asset of that exact name, or undefined: anything else (`../`, encoded slashes, other files) is not served. */
export function consoleAsset(name: string): ConsoleAsset | undefined {
  return assets.get(name);
}
